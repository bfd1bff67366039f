import { describe, expect, it } from "vitest";
import {
  citationHref,
  readTutorWidgetMemory,
  rememberTutorWidget,
  searchConfigFor,
  tutorAvailable,
  tutorInitiallyExpanded,
  tutorWidgetState,
} from "./tutor";

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

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";

describe("spec 2.11 / 3, issue 16 item 4: the tutor widget on a course's pages", () => {
  const expandA = [{ objectiveId: A, initialExpanded: true }];
  const collapseA = [{ objectiveId: A, initialExpanded: false }];
  it.each`
    enabled  | enableAiTutor | enrolled | widgetSettings | course | remembered   | state
    ${false} | ${true}       | ${true}  | ${expandA}     | ${A}   | ${undefined} | ${"hidden"}
    ${true}  | ${false}      | ${true}  | ${expandA}     | ${A}   | ${true}      | ${"hidden"}
    ${true}  | ${true}       | ${false} | ${expandA}     | ${A}   | ${undefined} | ${"hidden"}
    ${true}  | ${true}       | ${true}  | ${[]}          | ${A}   | ${undefined} | ${"collapsed"}
    ${true}  | ${true}       | ${true}  | ${expandA}     | ${A}   | ${undefined} | ${"expanded"}
    ${true}  | ${true}       | ${true}  | ${collapseA}   | ${A}   | ${undefined} | ${"collapsed"}
    ${true}  | ${true}       | ${true}  | ${expandA}     | ${B}   | ${undefined} | ${"collapsed"}
    ${true}  | ${true}       | ${true}  | ${expandA}     | ${A}   | ${false}     | ${"collapsed"}
    ${true}  | ${true}       | ${true}  | ${[]}          | ${A}   | ${true}      | ${"expanded"}
  `(
    "tenant $enabled, course $enableAiTutor, enrolled $enrolled, settings $widgetSettings on $course, learner's own $remembered → $state",
    ({ enabled, enableAiTutor, enrolled, widgetSettings, course, remembered, state }) => {
      expect(
        tutorWidgetState({
          tenant: { enabled, widgetSettings },
          course: { id: course, enableAiTutor },
          enrolled,
          remembered,
        }),
      ).toBe(state);
    },
  );
});

describe("decision 028: the learner's own expand / collapse, remembered per course in a cookie", () => {
  it("reads what it wrote, the last choice per course winning", () => {
    let value = rememberTutorWidget(null, A, true);
    value = rememberTutorWidget(value, B, false);
    value = rememberTutorWidget(value, A, false);
    expect(value).toBe(`${B}.0~${A}.0`);
    expect(readTutorWidgetMemory(value)).toEqual(
      new Map([
        [B, false],
        [A, false],
      ]),
    );
  });

  it.each([[undefined], [""], ["garbage"], [`${A}.2`], [`x${A}.1`], [`${A}.1;evil=1`]])(
    "ignores what it did not write: %s",
    (value) => {
      expect(readTutorWidgetMemory(value).size).toBe(0);
    },
  );

  it("keeps the 20 courses toggled last", () => {
    let value = "";
    const ids = Array.from({ length: 25 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    for (const id of ids) value = rememberTutorWidget(value, id, true);
    const memory = readTutorWidgetMemory(value);
    expect([...memory.keys()]).toEqual(ids.slice(5));
    expect(value.length).toBeLessThan(800);
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
