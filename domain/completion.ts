import { gradedByTool } from "./tool-grading";
import { ActivityContentType, ActivityKind, ActivityType } from "./vocabulary";

/**
 * How an activity becomes done (Moodle's and Canvas's completion requirements): on opening it (a text,
 * a PDF, images), on watching a video to its end (where the player can tell), on posting in a discussion,
 * on handing it in (an assessment or assignment: the learner's "Mark as done" is the hand-in), with a
 * passing grade, by its LTI tool's score, by its SCORM package, or by the learner's "Mark as done" where
 * the course asks for that (`manual`).
 */
export const CompletionRule = {
  manual: "manual",
  view: "view",
  watch: "watch",
  post: "post",
  submit: "submit",
  passingGrade: "passingGrade",
  tool: "tool",
  package: "package",
} as const;
export type CompletionRule = (typeof CompletionRule)[keyof typeof CompletionRule];

/** The rules a course may set on an activity (`activities.completion`); the others follow from what it is. */
const CHOSEN_RULES = [CompletionRule.manual, CompletionRule.view, CompletionRule.passingGrade] as const;

export interface CompletionInput {
  kind: ActivityKind;
  type: ActivityType;
  contentType: ActivityContentType;
  supportLtiGrading: boolean;
  content: unknown;
  /** Taken by a group (decision 026): the group hands it in. */
  collaborative?: boolean;
  /** Worth points (a maxScore) or graded by a person: opening it cannot be its completion. */
  graded?: boolean;
  /** The course's choice for this activity, or null: the rule of its kind. */
  completion?: string | null;
}

/** The activity's completion rule: the one the course chose where it may choose, else its kind's. */
export function completionRule(a: CompletionInput): CompletionRule {
  if (gradedByTool(a)) return CompletionRule.tool;
  if (a.type === ActivityType.Scorm) return CompletionRule.package;
  if (a.kind === ActivityKind.discussion) return CompletionRule.post;
  if (a.collaborative) return CompletionRule.submit;
  const chosen = CHOSEN_RULES.find((r) => r === a.completion && !(r === CompletionRule.view && a.graded));
  if (chosen) return chosen;
  if (a.type === ActivityType.Assessment || a.type === ActivityType.Assignment || a.graded)
    return CompletionRule.submit;
  if (a.kind === ActivityKind.video || a.contentType === ActivityContentType.Vimeo) return CompletionRule.watch;
  if (a.kind === ActivityKind.text) return CompletionRule.view;
  return CompletionRule.manual;
}

/** Whether the learner's own "Mark as done" finishes the activity (otherwise what the rule names does). */
export function marksDoneByHand(rule: CompletionRule, opts: { playerCanTell: boolean }): boolean {
  if (rule === CompletionRule.manual || rule === CompletionRule.submit) return true;
  // A video whose player cannot report its end (no JavaScript): the learner says she watched it.
  return rule === CompletionRule.watch && !opts.playerCanTell;
}
