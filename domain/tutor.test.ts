import { describe, expect, it } from "vitest";
import { citationHref, searchConfigFor, tutorAvailable, tutorInitiallyExpanded } from "./tutor";

describe("spec 3 learner.tutor and enableAiTutor: where the tutor shows", () => {
  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
  ])("tenant %s, course %s → %s", (enabled, enableAiTutor, expected) => {
    expect(tutorAvailable({ enabled }, { enableAiTutor })).toBe(expected);
  });

  it("widgetSettings: expanded per course, collapsed otherwise", () => {
    const settings = [{ objectiveId: "a", initialExpanded: true }];
    expect(tutorInitiallyExpanded(settings, "a")).toBe(true);
    expect(tutorInitiallyExpanded(settings, "b")).toBe(false);
  });
});

describe("issue 16 item 5: per-locale search configurations", () => {
  it.each([
    ["en-US", "english"],
    ["de", "german"],
    ["pt-BR", "portuguese"],
    ["ja", "simple"],
    [null, "simple"],
  ])("%s → %s", (locale, config) => {
    expect(searchConfigFor(locale)).toBe(config);
  });
});

describe("issue 16 item 5: a citation opens the content viewer at the activity, a PDF's at the page", () => {
  it.each([
    [{ activityPathId: "p1" }, "/learn/courses/c1/view/content?activityPathId=p1"],
    [{ activityPathId: "p2", page: 4 }, "/learn/courses/c1/view/content?activityPathId=p2&pdfPage=4"],
  ])("%o → %s", (citation, href) => {
    expect(citationHref("c1", citation)).toBe(href);
  });
});
