/**
 * Hand-ins (spec 3 activity type Assignment, spec 4.1, decision 048): what an assignment takes (text,
 * files, their limits, late hand-ins), the states of one hand-in and who may move it where. The same
 * rules decide on the page (what is offered) and in the API (what is refused). Pure.
 */
import { ActivityType } from "./vocabulary";
import { isAttachmentKind, type AttachmentKind, type AttachmentRules } from "./chat-attachments";

/** draft → submitted → inGrading (a grader saved a draft) → graded (released) → approved (a second grader). */
export const HAND_IN_STATES = ["draft", "submitted", "inGrading", "graded", "approved"] as const;
export type HandInState = (typeof HAND_IN_STATES)[number];

/** The longest text a hand-in takes, in characters. */
export const HAND_IN_TEXT_MAX = 20_000;
/** The longest comment a grader writes. */
export const GRADING_COMMENT_MAX = 10_000;

export interface HandInSettings {
  /** The learner writes an online text. */
  text: boolean;
  /** The learner uploads files, within `rules`. */
  files: boolean;
  rules: AttachmentRules;
  /** After the due date: handed in and marked late (true), or refused (false). */
  allowLate: boolean;
  /** "Withdraw and edit" is offered until grading starts. */
  allowWithdraw: boolean;
}

interface ActivityLike {
  type: number;
  manualGrading: boolean;
  supportCollaborativeMode?: boolean;
  supportPersonalMode?: boolean;
  content: unknown;
}

const whole = (value: unknown, min: number, max: number): number | null =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max ? value : null;

/**
 * What an activity takes as a hand-in, or null when it takes none: an activity whose content says
 * `handIn`, or a person-graded Assignment done alone (a team's assignment is the group's answer,
 * decision 026). The activity narrows the deployment's file rules (`defaults`), never widens them.
 */
export function handInSettings(activity: ActivityLike, defaults: AttachmentRules): HandInSettings | null {
  const content = (activity.content ?? {}) as { handIn?: unknown };
  const spec =
    content.handIn && typeof content.handIn === "object" ? (content.handIn as Record<string, unknown>) : null;
  const teamOnly = activity.supportCollaborativeMode === true && activity.supportPersonalMode === false;
  if (!spec && !(activity.type === ActivityType.Assignment && activity.manualGrading && !teamOnly)) return null;
  const kinds = Array.isArray(spec?.kinds)
    ? spec.kinds.filter((k): k is AttachmentKind => isAttachmentKind(k) && defaults.kinds.includes(k))
    : defaults.kinds;
  const text = spec?.text !== false;
  const files = spec?.files !== false && kinds.length > 0;
  return {
    text: text || !files,
    files,
    rules: {
      maxBytes: whole(spec?.maxBytes, 1, defaults.maxBytes) ?? defaults.maxBytes,
      maxCount: whole(spec?.maxFiles, 1, defaults.maxCount) ?? defaults.maxCount,
      kinds: kinds.length > 0 ? kinds : defaults.kinds,
    },
    allowLate: spec?.late !== "refuse",
    allowWithdraw: spec?.withdraw !== false,
  };
}

/** After the due date (a due date is the last moment it counts as on time). */
export function isLate(due: Date | string | null | undefined, at: Date): boolean {
  if (!due) return false;
  const t = typeof due === "string" ? Date.parse(due) : due.getTime();
  return Number.isFinite(t) && at.getTime() > t;
}

/** Why a hand-in cannot be handed in now, as a message code of `handIn.*`, or null. */
export type SubmitRefusal = "notDraft" | "attemptNotInProgress" | "empty" | "lateRefused";

export function submitRefusal(input: {
  state: HandInState;
  attemptInProgress: boolean;
  settings: HandInSettings;
  body: string;
  fileCount: number;
  due: Date | string | null | undefined;
  now: Date;
}): SubmitRefusal | null {
  if (input.state !== "draft") return "notDraft";
  if (!input.attemptInProgress) return "attemptNotInProgress";
  const hasText = input.settings.text && input.body.trim() !== "";
  const hasFiles = input.settings.files && input.fileCount > 0;
  if (!hasText && !hasFiles) return "empty";
  if (!input.settings.allowLate && isLate(input.due, input.now)) return "lateRefused";
  return null;
}

/** The learner edits (text, files) only a draft of an attempt in progress. */
export const canEditHandIn = (state: HandInState, attemptInProgress: boolean) => state === "draft" && attemptInProgress;

/** "Withdraw and edit": handed in, no grader has started, the attempt still in progress, and allowed. */
export const canWithdraw = (state: HandInState, attemptInProgress: boolean, settings: HandInSettings) =>
  state === "submitted" && attemptInProgress && settings.allowWithdraw;

/** A grader saves or releases a grade of a hand-in that was handed in and not yet released. */
export const canGrade = (state: HandInState) => state === "submitted" || state === "inGrading";

/** Why a score is refused (`gradingScore*` codes), or null: within 0 … the activity's maximum. */
export function scoreRefusal(score: number | null, maxScore: number | null, releasing: boolean) {
  if (score === null) return releasing ? ("gradingScoreRequired" as const) : null;
  if (!Number.isFinite(score) || score < 0) return "gradingScoreRange" as const;
  if (maxScore !== null && score > maxScore) return "gradingScoreRange" as const;
  return null;
}

/**
 * Approval by a second grader (spec 4.1 gradingApproved, where the course asks for it): a released
 * grade, approved by someone other than the one who released it.
 */
export function approvalRefusal(input: {
  state: HandInState;
  approvalRequired: boolean;
  releasedBy: string | null;
  approver: string;
}): "approvalNotRequired" | "notReleased" | "sameGrader" | null {
  if (!input.approvalRequired) return "approvalNotRequired";
  if (input.state !== "graded") return "notReleased";
  if (input.releasedBy === input.approver) return "sameGrader";
  return null;
}

/** The learner reads the score and the comment once the grade is released (a draft grade is the grader's). */
export const feedbackReleased = (state: HandInState) => state === "graded" || state === "approved";

/**
 * Spec 4.1: where a submitted attempt goes once a hand-in's grade is released or approved — still in
 * grading while something awaits a person, then graded, then grading approved where the course asks
 * for a second grader's approval and every hand-in of the attempt has it.
 */
export function attemptStateAfterGrading(input: {
  pending: number;
  approvalRequired: boolean;
  unapproved: number;
}): "inGrading" | "graded" | "gradingApproved" {
  if (input.pending > 0) return "inGrading";
  if (!input.approvalRequired) return "graded";
  return input.unapproved > 0 ? "graded" : "gradingApproved";
}

/** The attempt's grade is settled (the certificate may be issued): graded without approval, or approved. */
export const gradeSettled = (state: "inGrading" | "graded" | "gradingApproved", approvalRequired: boolean) =>
  approvalRequired ? state === "gradingApproved" : state === "graded";
