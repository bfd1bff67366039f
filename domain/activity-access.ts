/**
 * Spec 4.2, 4.12, 4.13: activity access, review policy, table-of-contents
 * icons, initial selection and refresh scheduling for the learner's course
 * tree.
 *
 * Pure module: no I/O, no imports from app/ or api/. Every time-dependent
 * rule takes `now` as a parameter.
 *
 * Conventions (documented product decisions):
 * - Constraint values live in `node.constraint` as strings (spec 3 'Activity
 *   constraint'). A date that is null, undefined, empty or cannot be parsed
 *   is treated as "not set".
 * - Date boundaries (same as domain/lifecycle.ts): "before X" means
 *   `now < X`; "after X" means `now > X`; "hidden until X" means revealed when
 *   `now >= X`. So exactly at startFrom the activity opens, exactly at
 *   startUntil / accessibleUntil / gracePeriodUntil it is still open, and
 *   exactly at resultsDisclosureFrom review is allowed.
 * - Activity states use the objective-state scale (spec 3 enumerations:
 *   1 draft, 2 ready, 3 expired, 4 archived), so `ObjectiveState` is reused.
 * - Activity workflow states are NOT the objective workflow states of
 *   `ObjectiveWorkflowState` (where 3 = inGrading): the contract's activity scale is
 *   1 inProgress, 2 inGrading, 3 finished (`ActivityWorkflowState` below mirrors
 *   `ActivityWorkflowState` of ./contract/lifecycle, which is only imported
 *   as a type here; the test asserts the two agree).
 * - Unknown or incomplete policies fail closed (review hidden).
 * - Results are translation keys under "activityLock.*" / "activityIcon.*".
 */

import type { TreeNode } from "./contract/lifecycle";
import { ObjectiveState, ActivityKind, ActivityWorkflowState } from "./vocabulary";

/** Spec 3 'Activity constraint': the fields that hold dates. */
export const CONSTRAINT_DATE_FIELDS = [
  "startFrom",
  "startUntil",
  "accessibleUntil",
  "gracePeriodUntil",
  "due",
  "resultsDisclosureFrom",
  "revealResultsFrom",
] as const;

/** Spec 4.12: translation keys for why an activity is disabled. */
export type ActivityLockKey =
  | "activityLock.comingSoon"
  | "activityLock.completePreviousToPass"
  | "activityLock.afterGracePeriodUntil"
  | "activityLock.afterAccessibleUntil"
  | "activityLock.beforeStartFrom"
  | "activityLock.afterStartUntil"
  | "activityLock.reviewPolicyNotAllowed"
  | "activityLock.afterRevealingDate"
  | "activityLock.afterScoreIsReached"
  | "activityLock.serverSide";

/** Spec 4.13: tooltip translation keys, in display order. */
export type ActivityIconTooltipKey =
  "activityIcon.comingSoon" | "activityIcon.belowPassingScore" | "activityIcon.optional" | "activityIcon.proctored";

export type TocIconName = "clock" | "check" | "warning" | "dashed" | "empty";

export interface DisableReason {
  key: ActivityLockKey;
  /** The constraint's ISO string, for every date-based reason. */
  date?: string;
}

export interface ReviewDecision {
  allowed: boolean;
  /** Set when not allowed. */
  key?: ActivityLockKey;
  /** resultsDisclosureFrom, for "activityLock.afterRevealingDate". */
  date?: string;
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

function toTime(date: string | null | undefined): number | null {
  if (date === null || date === undefined || date === "") return null;
  const t = Date.parse(date);
  return Number.isNaN(t) ? null : t;
}

/** The constraint date as `{ iso, time }`, or null when absent / unparsable. */
function constraintDate(
  node: TreeNode,
  field: (typeof CONSTRAINT_DATE_FIELDS)[number],
): { iso: string; time: number } | null {
  const iso = node.constraint?.[field];
  const time = toTime(iso);
  return time === null ? null : { iso: iso as string, time };
}

function workflowState(node: TreeNode): number | null {
  return node.childActivity.activityWorkflowAggregate.lastActivityWorkflow?.state ?? null;
}

function isFinished(node: TreeNode): boolean {
  return workflowState(node) === ActivityWorkflowState.finished;
}

function isComposite(node: TreeNode): boolean {
  return node.childActivity.kind === ActivityKind.composite;
}

/** Tree order: `axis` compared by code unit ("0" < "01" < "01.01" < "02"). */
function byAxis(a: TreeNode, b: TreeNode): number {
  return a.axis < b.axis ? -1 : a.axis > b.axis ? 1 : 0;
}

const NOT_ALLOWED: ReviewDecision = {
  allowed: false,
  key: "activityLock.reviewPolicyNotAllowed",
};

// ---------------------------------------------------------------------------
// 4.12 Review policy
// ---------------------------------------------------------------------------

/**
 * Spec 4.12 review policy: whether the learner may review the activity.
 *
 * Checked in this order:
 * 1. In grading (activity workflow state 2): hidden,
 *    "activityLock.reviewPolicyNotAllowed" — checked first so no reveal date
 *    or score message is shown while grading would still hide review.
 * 2. `reviewPolicy` (undefined / null / "" = "afterSubmission"):
 *    - "never": hidden ("activityLock.reviewPolicyNotAllowed").
 *    - "afterSubmission": allowed.
 *    - "afterRevealingResults": `resultsDisclosurePolicy` decides:
 *      - "never": hidden ("activityLock.reviewPolicyNotAllowed").
 *      - "afterDate": allowed when `now >= resultsDisclosureFrom`; before it
 *        "activityLock.afterRevealingDate" with the date. A missing /
 *        unparsable date never reveals: "activityLock.reviewPolicyNotAllowed"
 *        (no date to announce).
 *      - "afterScore": LTI activities only. Allowed when the best record's
 *        normalized score `score / maxScore` (record maxScore, falling back
 *        to the activity's maxScore) is `>= resultsDisclosureAbove` (a
 *        number string, 0..1); otherwise "activityLock.afterScoreIsReached".
 *        Non-LTI activities, and a missing / unparsable threshold, give
 *        "activityLock.reviewPolicyNotAllowed" (reaching a score cannot help).
 *      - "afterFinish": allowed once the activity workflow is finished
 *        (state 3); otherwise "activityLock.reviewPolicyNotAllowed".
 *      - missing / unknown: hidden (fail closed).
 *    - unknown: hidden (fail closed).
 *
 * Review support (`supportReview`) and the course-level grade-reveal policy
 * are 4.7 concerns (domain/lifecycle.ts) and are not considered here.
 */
export function reviewAllowed(node: TreeNode, now: Date): ReviewDecision {
  if (workflowState(node) === ActivityWorkflowState.inGrading) return NOT_ALLOWED;

  const c = node.constraint ?? {};
  const policy = c.reviewPolicy || "afterSubmission";
  if (policy === "afterSubmission") return { allowed: true };
  if (policy !== "afterRevealingResults") return NOT_ALLOWED; // "never" / unknown

  switch (c.resultsDisclosurePolicy) {
    case "afterDate": {
      const from = constraintDate(node, "resultsDisclosureFrom");
      if (!from) return NOT_ALLOWED;
      if (now.getTime() >= from.time) return { allowed: true };
      return {
        allowed: false,
        key: "activityLock.afterRevealingDate",
        date: from.iso,
      };
    }
    case "afterScore": {
      if (node.childActivity.kind !== ActivityKind.lti) return NOT_ALLOWED;
      const raw = c.resultsDisclosureAbove;
      const above = raw === null || raw === undefined || raw.trim() === "" ? NaN : Number(raw);
      if (!Number.isFinite(above)) return NOT_ALLOWED;
      const record = node.childActivity.activityWorkflowAggregate.bestActivityRecord;
      const score = record?.score ?? null;
      const max = record?.maxScore ?? node.childActivity.maxScore ?? null;
      if (score !== null && max !== null && max > 0 && score / max >= above) return { allowed: true };
      return { allowed: false, key: "activityLock.afterScoreIsReached" };
    }
    case "afterFinish":
      return isFinished(node) ? { allowed: true } : NOT_ALLOWED;
    default: // "never", missing, unknown
      return NOT_ALLOWED;
  }
}

// ---------------------------------------------------------------------------
// 4.12 Disable reasons
// ---------------------------------------------------------------------------

/**
 * Spec 4.12 (and 4.2): the first reason the activity is disabled, or null.
 *
 * Order (first applicable wins):
 * 1. draft or archived → "activityLock.comingSoon" (4.2: start controls hidden).
 * 2. `available === false` or `contentAvailable === false` →
 *    "activityLock.completePreviousToPass".
 * 3. `now > gracePeriodUntil` and the activity workflow is not finished
 *    (state 3; in grading is not finished) → "activityLock.afterGracePeriodUntil".
 * 4. `now > accessibleUntil` → "activityLock.afterAccessibleUntil".
 * 5. `now < startFrom` → "activityLock.beforeStartFrom".
 * 6. `now > startUntil` and no activity workflow yet → "activityLock.afterStartUntil".
 * 7. `ctx.reviewing` (opening a finished activity to look at it) and
 *    `reviewAllowed` refuses → its key (and date).
 * 8. `ctx.serverSideBlocked` → "activityLock.serverSide".
 *
 * Date-based reasons carry `date`, the constraint's ISO string.
 *
 * Note: the API currently reports `contentAvailable: false` before startFrom,
 * so with the spec order reason 2 hides the dated reason 5 for such nodes.
 */
export function activityDisableReason(
  node: TreeNode,
  ctx: { now: Date; reviewing: boolean; serverSideBlocked?: boolean },
): DisableReason | null {
  const now = ctx.now.getTime();
  const state = node.childActivity.state;
  if (state === ObjectiveState.draft || state === ObjectiveState.archived) return { key: "activityLock.comingSoon" };

  if (node.available === false || node.contentAvailable === false)
    return { key: "activityLock.completePreviousToPass" };

  const grace = constraintDate(node, "gracePeriodUntil");
  if (grace && now > grace.time && !isFinished(node))
    return { key: "activityLock.afterGracePeriodUntil", date: grace.iso };

  const accessible = constraintDate(node, "accessibleUntil");
  if (accessible && now > accessible.time) return { key: "activityLock.afterAccessibleUntil", date: accessible.iso };

  const startFrom = constraintDate(node, "startFrom");
  if (startFrom && now < startFrom.time) return { key: "activityLock.beforeStartFrom", date: startFrom.iso };

  const startUntil = constraintDate(node, "startUntil");
  if (startUntil && now > startUntil.time && workflowState(node) === null)
    return { key: "activityLock.afterStartUntil", date: startUntil.iso };

  if (ctx.reviewing) {
    const review = reviewAllowed(node, ctx.now);
    if (!review.allowed) {
      const key = review.key ?? "activityLock.reviewPolicyNotAllowed";
      return review.date ? { key, date: review.date } : { key };
    }
  }

  if (ctx.serverSideBlocked) return { key: "activityLock.serverSide" };
  return null;
}

// ---------------------------------------------------------------------------
// 4.12 Lock
// ---------------------------------------------------------------------------

/**
 * Spec 4.12: an activity is locked when it is not available
 * (`available` / `contentAvailable` false), or disabled
 * (`activityDisableReason` without a server-side block), or when the course
 * is finished without new-content access after completion and the activity
 * has no workflow.
 *
 * Decisions:
 * - Archived nodes are hidden from the table of contents (4.2, see
 *   `visibleNodes`), not locked: this returns false for them.
 * - A composite node is judged on its own node only (its own state,
 *   availability and constraint); children are not aggregated. The
 *   "no workflow after course completion" rule applies to leaves only: a
 *   composite never has an activity workflow of its own, so that rule would
 *   otherwise lock every section of a completed course.
 * - Draft nodes are locked (they are disabled); `tocIcon` still shows their
 *   clock.
 */
export function isActivityLocked(
  node: TreeNode,
  ctx: {
    now: Date;
    courseFinished: boolean;
    accessNewContentAfterCompletion: boolean;
    reviewing: boolean;
  },
): boolean {
  if (node.childActivity.state === ObjectiveState.archived) return false;
  if (!node.available || !node.contentAvailable) return true;
  if (activityDisableReason(node, { now: ctx.now, reviewing: ctx.reviewing })) return true;
  return (
    ctx.courseFinished && !ctx.accessNewContentAfterCompletion && !isComposite(node) && workflowState(node) === null
  );
}

/** The context of a lock decision: the clock, the attempt, and whether the learner is looking back at it. */
export interface LockContext {
  now: Date;
  courseFinished: boolean;
  accessNewContentAfterCompletion: boolean;
  reviewing: boolean;
}

/**
 * Spec 4.12 as the server applies it (decision 018): for every node of a tree, why the learner may not
 * open, start or finish it now — or null when it is open. The same rules the page shows
 * (`isActivityLocked`, `activityDisableReason`), so the API refuses exactly what the page locks:
 * - a node the table of contents hides (archived, or inside an archived module; 4.2) is closed as
 *   "activityLock.comingSoon";
 * - a locked node gives its disable reason (with its date);
 * - a node locked only because the course is finished without new-content access after completion
 *   (4.12's last rule, which has no message of its own) gives "activityLock.serverSide".
 */
export function activityLocks(nodes: readonly TreeNode[], ctx: LockContext): Map<string, DisableReason | null> {
  const visible = new Set(visibleNodes(nodes).map((n) => n.activityPathId));
  const out = new Map<string, DisableReason | null>();
  for (const node of nodes) {
    if (!visible.has(node.activityPathId)) {
      out.set(node.activityPathId, { key: "activityLock.comingSoon" });
    } else if (!isActivityLocked(node, ctx)) {
      out.set(node.activityPathId, null);
    } else {
      const reason = activityDisableReason(node, { now: ctx.now, reviewing: ctx.reviewing });
      out.set(node.activityPathId, reason ?? { key: "activityLock.serverSide" });
    }
  }
  return out;
}

/** The API's error code for a lock reason: the key without its namespace ("beforeStartFrom"). */
export function lockCode(reason: DisableReason): string {
  return reason.key.slice("activityLock.".length);
}

/** Whether an error code of the API names a lock reason (the page words it as `activityLock.<code>`). */
export function isLockCode(code: string): boolean {
  return (LOCK_CODES as readonly string[]).includes(code);
}

const LOCK_CODES = [
  "comingSoon",
  "completePreviousToPass",
  "afterGracePeriodUntil",
  "afterAccessibleUntil",
  "beforeStartFrom",
  "afterStartUntil",
  "reviewPolicyNotAllowed",
  "afterRevealingDate",
  "afterScoreIsReached",
  "serverSide",
] as const satisfies readonly (ActivityLockKey extends `activityLock.${infer C}` ? C : never)[];

// ---------------------------------------------------------------------------
// 4.13 Table of contents
// ---------------------------------------------------------------------------

/**
 * Spec 4.13: the table-of-contents icon and tooltips of a node.
 *
 * Icon, first match wins:
 * - draft → "clock" (before the locked rule: draft nodes are always
 *   disabled, so "locked: nothing" would otherwise hide every clock);
 * - locked → null;
 * - completed (activity workflow finished, state 3) and failed
 *   (`bestActivityRecord.passed === false`) → "warning";
 * - completed and passed or unknown (passed true / null / no record) → "check";
 * - optional → "dashed";
 * - otherwise → "empty". In grading (state 2) is not completed: it shows
 *   "dashed" / "empty" until the workflow is finished.
 *
 * Tooltips (all that apply, in this order, independent of the icon):
 * "activityIcon.comingSoon" (draft), "activityIcon.belowPassingScore"
 * (completed and failed), "activityIcon.optional" (optional),
 * "activityIcon.proctored" (`childActivity.proctored`).
 */
export function tocIcon(
  node: TreeNode,
  ctx: { locked: boolean },
): { icon: TocIconName | null; tooltipKeys: ActivityIconTooltipKey[] } {
  const draft = node.childActivity.state === ObjectiveState.draft;
  const completed = isFinished(node);
  const failed = completed && node.childActivity.activityWorkflowAggregate.bestActivityRecord?.passed === false;

  const tooltipKeys: ActivityIconTooltipKey[] = [];
  if (draft) tooltipKeys.push("activityIcon.comingSoon");
  if (failed) tooltipKeys.push("activityIcon.belowPassingScore");
  if (node.optional) tooltipKeys.push("activityIcon.optional");
  if (node.childActivity.proctored) tooltipKeys.push("activityIcon.proctored");

  let icon: TocIconName | null;
  if (draft) icon = "clock";
  else if (ctx.locked) icon = null;
  else if (failed) icon = "warning";
  else if (completed) icon = "check";
  else if (node.optional) icon = "dashed";
  else icon = "empty";
  return { icon, tooltipKeys };
}

/**
 * Spec 4.2: the nodes shown in the table of contents — archived nodes and
 * every descendant of an archived node are dropped (via `parentPathId`,
 * whatever the input order). Input order is kept.
 */
export function visibleNodes(nodes: readonly TreeNode[]): TreeNode[] {
  const byId = new Map(nodes.map((n) => [n.activityPathId, n]));
  const hidden = new Map<string, boolean>();
  const isHidden = (start: TreeNode): boolean => {
    const chain: string[] = [];
    const seen = new Set<string>();
    let result = false;
    let cur: TreeNode | undefined = start;
    while (cur && !seen.has(cur.activityPathId)) {
      const known = hidden.get(cur.activityPathId);
      if (known !== undefined) {
        result = known;
        break;
      }
      seen.add(cur.activityPathId);
      chain.push(cur.activityPathId);
      if (cur.childActivity.state === ObjectiveState.archived) {
        result = true;
        break;
      }
      cur = cur.parentPathId === null ? undefined : byId.get(cur.parentPathId);
    }
    for (const id of chain) hidden.set(id, result);
    return result;
  };
  return nodes.filter((n) => !isHidden(n));
}

/**
 * Spec 4.13: the node selected when the tree loads.
 *
 * Among visible (`visibleNodes`) leaves (not composite) in tree order
 * (`axis`), the first available one — `available`, `contentAvailable` and
 * state ready or expired — that is in progress (activity workflow state 1)
 * or not started (no activity workflow). If there is none, the first child
 * of the root (the root is the first node in axis order with
 * `parentPathId === null`; its first child is the first visible node in axis
 * order whose `parentPathId` is the root's id). Otherwise null.
 */
export function initialSelection(nodes: readonly TreeNode[]): TreeNode | null {
  const ordered = visibleNodes(nodes).sort(byAxis);
  const pick = ordered.find((n) => {
    if (isComposite(n)) return false;
    const s = n.childActivity.state;
    if (!n.available || !n.contentAvailable) return false;
    if (s !== ObjectiveState.ready && s !== ObjectiveState.expired) return false;
    const w = workflowState(n);
    return w === null || w === ActivityWorkflowState.inProgress;
  });
  if (pick) return pick;
  const root = ordered.find((n) => n.parentPathId === null);
  if (!root) return null;
  return ordered.find((n) => n.parentPathId === root.activityPathId) ?? null;
}

/**
 * Spec 4.13: when to refresh the tree and the activity — the nearest
 * constraint instant strictly after `now` among startFrom, startUntil,
 * accessibleUntil, gracePeriodUntil, due, resultsDisclosureFrom and
 * revealResultsFrom of all nodes; null when there is none (unparsable dates
 * are ignored).
 */
export function nextRefreshAt(nodes: readonly TreeNode[], now: Date): Date | null {
  const t = now.getTime();
  let best: number | null = null;
  for (const node of nodes) {
    for (const field of CONSTRAINT_DATE_FIELDS) {
      const d = constraintDate(node, field);
      if (d && d.time > t && (best === null || d.time < best)) best = d.time;
    }
  }
  return best === null ? null : new Date(best);
}
