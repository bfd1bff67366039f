import { describe, expect, it } from "vitest";
import { cmiValueError, isKeptCmiElement, rollup, scoOutcome } from "./scorm";

// Issue 15 item 2 / decision 025: the data-model checks (SCORM 1.2 RTE 3.4, 2004 RTE 4.2) both sides use.
describe("CMI values", () => {
  it.each([
    ["1.2", "cmi.core.lesson_status", "passed", null],
    ["1.2", "cmi.core.lesson_status", "done", "405"],
    // The SPM (255) is the least an LMS keeps; the server bounds what it keeps more generously.
    ["1.2", "cmi.core.lesson_location", "x".repeat(256), null],
    ["1.2", "cmi.core.lesson_location", "x".repeat(4097), "405"],
    ["1.2", "cmi.core.score.raw", "", null],
    ["1.2", "cmi.core.score.raw", "101", "405"],
    ["1.2", "cmi.core.session_time", "0001:02:03.5", null],
    ["1.2", "cmi.core.session_time", "PT1M", "405"],
    ["1.2", "cmi.core.student_id", "me", "401"],
    ["1.2", "cmi.suspend_data", "x".repeat(4097), null],
    ["1.2", "cmi.suspend_data", "x".repeat(64_001), "405"],
    ["1.2", "cmi.core.session_time", "00:61:00", "405"],
    ["2004", "cmi.location", "x".repeat(1000), null],
    ["2004", "cmi.completion_status", "completed", null],
    ["2004", "cmi.success_status", "completed", "406"],
    ["2004", "cmi.score.scaled", "0.3333333333333333", null],
    ["2004", "cmi.score.scaled", "1.5", "407"],
    ["2004", "cmi.score.scaled", "high", "406"],
    ["2004", "cmi.session_time", "PT1H2M", null],
    ["2004", "cmi.session_time", "01:00:00", "406"],
    // Issue 30 item 5: the server reads durations by its own strict rule, whatever the browser's library accepted.
    ["2004", "cmi.session_time", "P1Y6M14DT", "406"],
    ["2004", "cmi.session_time", "PT", "406"],
    ["2004", "cmi.session_time", "PT1.234S", "406"],
    ["2004", "cmi.session_time", "P1Y6M14DT1H", null],
    ["2004", "cmi.location", "", null],
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
  ])("1.2 %j (mastery %j) → %j", (cmi, mastery, outcome) =>
    expect(scoOutcome("1.2", cmi, { masteryScore: mastery })).toEqual(outcome),
  );

  it("2004: completion, success and scaled score; raw/max when no scaled score", () => {
    expect(
      scoOutcome(
        "2004",
        { "cmi.completion_status": "completed", "cmi.success_status": "passed", "cmi.score.scaled": "0.9" },
        { masteryScore: null },
      ),
    ).toEqual({ completed: true, passed: true, scaled: 0.9 });
    // With a scaled passing score the LMS judges success from cmi.score.scaled only (RTE 4.2.22.1): raw/max gives
    // the record's score but no verdict.
    expect(scoOutcome("2004", { "cmi.score.raw": "30", "cmi.score.max": "40" }, { masteryScore: 80 })).toEqual({
      completed: false,
      passed: null,
      scaled: 0.75,
    });
    expect(scoOutcome("2004", { "cmi.score.scaled": "0.75" }, { masteryScore: null, scaledPassingScore: 0.8 })).toEqual(
      {
        completed: false,
        passed: false,
        scaled: 0.75,
      },
    );
    // Completion by measure (RTE 4.2.4.1): a threshold makes the progress measure decide, whatever the status says.
    expect(
      scoOutcome(
        "2004",
        { "cmi.completion_status": "completed", "cmi.progress_measure": "0.5" },
        { masteryScore: null, completionThreshold: 0.8 },
      ).completed,
    ).toBe(false);
    expect(
      scoOutcome("2004", { "cmi.progress_measure": "0.9" }, { masteryScore: null, completionThreshold: 0.8 }).completed,
    ).toBe(true);
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
