import { describe, expect, it } from "vitest";
import { cmiValueError, isKeptCmiElement, rollup, scoOutcome } from "./scorm";

// Issue 15 item 2 / decision 025: the data-model checks (SCORM 1.2 RTE 3.4, 2004 RTE 4.2) both sides use.
describe("CMI values", () => {
  it.each([
    ["1.2", "cmi.core.lesson_status", "passed", null],
    ["1.2", "cmi.core.lesson_status", "done", "405"],
    ["1.2", "cmi.core.lesson_location", "x".repeat(255), null],
    ["1.2", "cmi.core.lesson_location", "x".repeat(256), "405"],
    ["1.2", "cmi.core.score.raw", "", null],
    ["1.2", "cmi.core.score.raw", "101", "405"],
    ["1.2", "cmi.core.session_time", "0001:02:03.5", null],
    ["1.2", "cmi.core.session_time", "PT1M", "405"],
    ["1.2", "cmi.core.student_id", "me", "401"],
    ["1.2", "cmi.suspend_data", "x".repeat(4097), "405"],
    ["2004", "cmi.location", "x".repeat(1000), null],
    ["2004", "cmi.completion_status", "completed", null],
    ["2004", "cmi.success_status", "completed", "406"],
    ["2004", "cmi.score.scaled", "0.3333333333333333", null],
    ["2004", "cmi.score.scaled", "1.5", "407"],
    ["2004", "cmi.score.scaled", "high", "406"],
    ["2004", "cmi.session_time", "PT1H2M", null],
    ["2004", "cmi.session_time", "01:00:00", "406"],
    ["2004", "cmi.learner_id", "me", "401"],
  ] as const)("%s %s = %j → %j", (version, element, value, error) =>
    expect(cmiValueError(version, element, value)).toBe(error),
  );

  it("keeps only what a SCO writes", () => {
    expect(isKeptCmiElement("1.2", "cmi.core.lesson_location")).toBe(true);
    expect(isKeptCmiElement("1.2", "cmi.core.entry")).toBe(false);
    expect(isKeptCmiElement("2004", "cmi.interactions.0.id")).toBe(true);
    expect(isKeptCmiElement("2004", "cmi.interactions._count")).toBe(false);
  });
});

describe("outcomes and rollup", () => {
  it.each([
    [
      { "cmi.core.lesson_status": "passed", "cmi.core.score.raw": "80" },
      null,
      { completed: true, passed: true, scaled: 0.8 },
    ],
    // With a mastery score the LMS decides (1.2 RTE 3.4.2.1.4): 50 < 60 fails whatever the SCO said.
    [
      { "cmi.core.lesson_status": "passed", "cmi.core.score.raw": "50" },
      60,
      { completed: true, passed: false, scaled: 0.5 },
    ],
    [{ "cmi.core.lesson_status": "incomplete" }, null, { completed: false, passed: null, scaled: null }],
  ])("1.2 %j (mastery %j) → %j", (cmi, mastery, outcome) => expect(scoOutcome("1.2", cmi, mastery)).toEqual(outcome));

  it("2004: completion, success and scaled score; raw/max when no scaled score", () => {
    expect(
      scoOutcome(
        "2004",
        { "cmi.completion_status": "completed", "cmi.success_status": "passed", "cmi.score.scaled": "0.9" },
        null,
      ),
    ).toEqual({ completed: true, passed: true, scaled: 0.9 });
    expect(scoOutcome("2004", { "cmi.score.raw": "30", "cmi.score.max": "40" }, 80)).toEqual({
      completed: false,
      passed: false,
      scaled: 0.75,
    });
  });

  it("rolls up: complete when every SCO is, mean score, failed when one failed", () => {
    const a = { completed: true, passed: true, scaled: 1 };
    const b = { completed: true, passed: null, scaled: null };
    const c = { completed: false, passed: false, scaled: 0.5 };
    expect(rollup([a, b])).toEqual({ completed: true, passed: true, scaled: 1 });
    expect(rollup([a, c])).toEqual({ completed: false, passed: false, scaled: 0.75 });
    expect(rollup([])).toMatchObject({ completed: false });
  });
});
