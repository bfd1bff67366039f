import { describe, expect, it } from "vitest";
import {
  isAnswerCorrect,
  isAnswered,
  readReinforcementLink,
  reinforcementSchedule,
  scoreAnswer,
} from "./reinforcement";

const FINISHED = new Date("2026-03-01T10:00:00.000Z");
const WF = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

describe("reinforcementSchedule (decision 021: the 1, 3, 7, 21-day ladder)", () => {
  it.each([
    [0, []],
    [1, ["2026-03-02T10:00:00.000Z"]],
    [2, ["2026-03-02T10:00:00.000Z", "2026-03-04T10:00:00.000Z"]],
    [
      4,
      ["2026-03-02T10:00:00.000Z", "2026-03-04T10:00:00.000Z", "2026-03-08T10:00:00.000Z", "2026-03-22T10:00:00.000Z"],
    ],
    // More questions than steps: one per step, the rest wait for the next finish.
    [9, 4],
  ] as const)("%i questions → %j", (count, expected) => {
    const due = reinforcementSchedule(FINISHED, count).map((d) => d.toISOString());
    if (typeof expected === "number") expect(due).toHaveLength(expected);
    else expect(due).toEqual(expected);
  });
});

describe("readReinforcementLink (spec 5: both answer and workflowId, else the invalid-URL message)", () => {
  it.each([
    [`answer=b&workflowId=${WF}`, { ok: true, answer: "b", workflowId: WF }],
    [`answer=b&workflowId=${WF.toUpperCase()}`, { ok: true, answer: "b", workflowId: WF }],
    [`workflowId=${WF}`, { ok: false }],
    ["answer=b", { ok: false }],
    [`answer=&workflowId=${WF}`, { ok: false }],
    ["answer=b&workflowId=not-a-uuid", { ok: false }],
    [`answer=${"x".repeat(65)}&workflowId=${WF}`, { ok: false }],
    ["", { ok: false }],
  ])("?%s → %j", (query, expected) => {
    expect(readReinforcementLink(new URLSearchParams(query))).toEqual(expected);
  });
});

describe("answers (spec 4.10)", () => {
  it.each([
    ["b", "b", 1],
    ["a", "b", 0],
    ["B", "b", 0],
  ])("answer %s, correct %s → score %i", (answer, correct, score) => {
    expect(scoreAnswer(answer, correct)).toBe(score);
  });

  it.each([
    [1, true],
    [0.5, true],
    [0, false],
    [null, false],
    [undefined, false],
  ])("normalizedScore %s is shown as correct: %s", (score, correct) => {
    expect(isAnswerCorrect(score)).toBe(correct);
  });

  it.each([
    [null, false],
    ["a", true],
  ])("answer %s → answered %s (then the review)", (answer, answered) => {
    expect(isAnswered({ answer })).toBe(answered);
  });
});
