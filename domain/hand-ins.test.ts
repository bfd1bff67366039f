import { describe, expect, it } from "vitest";
import {
  approvalRefusal,
  attemptStateAfterGrading,
  canEditHandIn,
  canGrade,
  canWithdraw,
  feedbackReleased,
  gradeSettled,
  handInSettings,
  HAND_IN_STATES,
  isLate,
  scoreRefusal,
  submitRefusal,
  type HandInSettings,
  type HandInState,
} from "./hand-ins";
import { DEFAULT_ATTACHMENT_RULES } from "./chat-attachments";
import { ActivityType } from "./vocabulary";

const defaults = DEFAULT_ATTACHMENT_RULES;
const assignment = { type: ActivityType.Assignment, manualGrading: true, content: {} };

describe("what an activity takes as a hand-in (spec 3 Assignment)", () => {
  it.each([
    ["a person-graded assignment: text and files, the deployment's rules", assignment, { text: true, files: true }],
    ["an assignment nobody grades takes none", { ...assignment, manualGrading: false }, null],
    [
      "a team-only assignment is the group's answer (decision 026)",
      { ...assignment, supportCollaborativeMode: true, supportPersonalMode: false },
      null,
    ],
    [
      "any activity whose content says handIn",
      { type: 0, manualGrading: false, content: { handIn: {} } },
      { text: true },
    ],
    ["files only", { ...assignment, content: { handIn: { text: false } } }, { text: false, files: true }],
    ["text only", { ...assignment, content: { handIn: { files: false } } }, { text: true, files: false }],
    [
      "neither is text (something must be handed in)",
      { ...assignment, content: { handIn: { text: false, files: false } } },
      { text: true, files: false },
    ],
    ["a text activity takes none", { type: ActivityType.RichText, manualGrading: false, content: {} }, null],
  ])("%s", (_, activity, expected) => {
    const got = handInSettings(activity, defaults);
    if (expected === null) expect(got).toBeNull();
    else expect(got).toMatchObject(expected);
  });

  it("narrows the deployment's rules, never widens them", () => {
    const got = handInSettings(
      { ...assignment, content: { handIn: { kinds: ["pdf", "exe", "png"], maxBytes: 1024, maxFiles: 2 } } },
      { ...defaults, kinds: ["pdf", "txt"] },
    )!;
    expect(got.rules).toEqual({ maxBytes: 1024, maxCount: 2, kinds: ["pdf"] });
    const wide = handInSettings({ ...assignment, content: { handIn: { maxBytes: 1e12, maxFiles: 99 } } }, defaults)!;
    expect(wide.rules.maxBytes).toBe(defaults.maxBytes);
    expect(wide.rules.maxCount).toBe(defaults.maxCount);
  });

  it.each([
    [{}, true, true],
    [{ late: "refuse" }, false, true],
    [{ withdraw: false }, true, false],
  ])("late %j", (handIn, allowLate, allowWithdraw) => {
    expect(handInSettings({ ...assignment, content: { handIn } }, defaults)).toMatchObject({
      allowLate,
      allowWithdraw,
    });
  });
});

const settings = handInSettings(assignment, defaults)!;
const refusing: HandInSettings = { ...settings, allowLate: false };
const now = new Date("2026-12-02T12:00:00Z");

describe("handing in (submit)", () => {
  const base = {
    state: "draft" as HandInState,
    attemptInProgress: true,
    settings,
    body: "My report",
    fileCount: 0,
    due: null,
    now,
  };
  it.each([
    ["a draft with text", {}, null],
    ["a draft with a file and no text", { body: "  ", fileCount: 1 }, null],
    ["nothing to hand in", { body: " \n ", fileCount: 0 }, "empty"],
    [
      "files where the activity takes text only",
      { body: "", fileCount: 1, settings: { ...settings, files: false } },
      "empty",
    ],
    ["already handed in", { state: "submitted" }, "notDraft"],
    ["released", { state: "graded" }, "notDraft"],
    ["the attempt was submitted", { attemptInProgress: false }, "attemptNotInProgress"],
    ["late and allowed: handed in (and marked late)", { due: "2026-12-01T00:00:00Z" }, null],
    ["late and refused", { due: "2026-12-01T00:00:00Z", settings: refusing }, "lateRefused"],
    ["on the due date's last moment is on time", { due: now, settings: refusing }, null],
  ])("%s", (_, patch, expected) => {
    expect(submitRefusal({ ...base, ...patch } as typeof base)).toBe(expected);
  });

  it.each([
    [null, false],
    ["2026-12-02T12:00:00Z", false],
    ["2026-12-02T11:59:59Z", true],
    ["not a date", false],
  ])("late after %s: %s", (due, late) => {
    expect(isLate(due, now)).toBe(late);
  });
});

describe("who may move a hand-in where", () => {
  it.each(HAND_IN_STATES.map((s) => [s]))("%s", (state) => {
    expect(canEditHandIn(state, true)).toBe(state === "draft");
    expect(canEditHandIn(state, false)).toBe(false);
    expect(canWithdraw(state, true, settings)).toBe(state === "submitted");
    expect(canWithdraw(state, false, settings)).toBe(false);
    expect(canWithdraw(state, true, { ...settings, allowWithdraw: false })).toBe(false);
    expect(canGrade(state)).toBe(state === "submitted" || state === "inGrading");
    expect(feedbackReleased(state)).toBe(state === "graded" || state === "approved");
  });
});

describe("a grader's score", () => {
  it.each([
    [null, 20, false, null],
    [null, 20, true, "gradingScoreRequired"],
    [0, 20, true, null],
    [20, 20, true, null],
    [20.5, 20, true, "gradingScoreRange"],
    [-1, 20, false, "gradingScoreRange"],
    [Number.NaN, 20, false, "gradingScoreRange"],
    [150, null, true, null],
  ])("%s of %s (releasing %s)", (score, max, releasing, expected) => {
    expect(scoreRefusal(score, max, releasing)).toBe(expected);
  });
});

describe("approval by a second grader (spec 4.1 gradingApproved)", () => {
  it.each([
    [
      "released, another grader",
      { state: "graded" as HandInState, approvalRequired: true, releasedBy: "g1", approver: "g2" },
      null,
    ],
    [
      "the course asks for none",
      { state: "graded" as HandInState, approvalRequired: false, releasedBy: "g1", approver: "g2" },
      "approvalNotRequired",
    ],
    [
      "not released yet",
      { state: "inGrading" as HandInState, approvalRequired: true, releasedBy: null, approver: "g2" },
      "notReleased",
    ],
    [
      "already approved",
      { state: "approved" as HandInState, approvalRequired: true, releasedBy: "g1", approver: "g2" },
      "notReleased",
    ],
    [
      "the grader who released it",
      { state: "graded" as HandInState, approvalRequired: true, releasedBy: "g1", approver: "g1" },
      "sameGrader",
    ],
  ])("%s", (_, input, expected) => {
    expect(approvalRefusal(input)).toBe(expected);
  });
});

describe("the attempt after a release (spec 4.1: submitted → inGrading → graded → gradingApproved)", () => {
  it.each([
    [{ pending: 1, approvalRequired: false, unapproved: 0 }, "inGrading", false],
    [{ pending: 0, approvalRequired: false, unapproved: 0 }, "graded", true],
    [{ pending: 0, approvalRequired: true, unapproved: 1 }, "graded", false],
    [{ pending: 0, approvalRequired: true, unapproved: 0 }, "gradingApproved", true],
    [{ pending: 2, approvalRequired: true, unapproved: 0 }, "inGrading", false],
  ])("%j → %s", (input, state, settled) => {
    const got = attemptStateAfterGrading(input);
    expect(got).toBe(state);
    expect(gradeSettled(got, input.approvalRequired)).toBe(settled);
  });
});
