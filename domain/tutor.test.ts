import { describe, expect, it } from "vitest";
import { searchConfigFor, tutorAvailable, tutorInitiallyExpanded } from "./tutor";

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
