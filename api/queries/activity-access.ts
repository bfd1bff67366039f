// Queries: what the learner may open, start and finish in an attempt — spec 4.12's locks with the same domain rules
// the content page shows (decision 018), so a command or a content read refuses exactly what the page locks.
import { and, eq, inArray } from "drizzle-orm";
import { activityLocks, lockCode, type DisableReason } from "../../domain/activity-access";
import type { TreeNode } from "../../domain/contract/lifecycle";
import { canReview } from "../../domain/lifecycle";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { Db, Tx } from "../db/client";
import { activityParts, objectives, objectiveWorkflowAggregates as owa, objectiveWorkflows } from "../db/schema";
import { ApiError, message } from "../errors";
import { iso } from "../mappers/common";
import { loadTree } from "./activity-tree";

/** The attempt a lock is decided for: one of the learner's objective workflows. */
export interface AttemptRow {
  id: string;
  objectiveId: string;
  aggregateId: string;
  state: ObjectiveWorkflowState;
}

export interface AttemptAccess {
  /** The attempt's tree as the page gets it (scores revealed as the page would see them). */
  nodes: TreeNode[];
  /** Per activityPathId: null when open, else why not (spec 4.12). */
  locks: Map<string, DisableReason | null>;
  /** Spec 4.7: whether an attempt that is no longer in progress may be looked at at all. */
  reviewAllowed: boolean;
}

/**
 * Spec 4.7 and 4.12 for one attempt: the course-level review rule and every node's lock, decided as the
 * content page decides them (`activityLocks` over the same tree). Three statements: the course's
 * settings, the tree, nothing per activity.
 */
export async function attemptAccess(db: Db | Tx, wf: AttemptRow, now: Date): Promise<AttemptAccess> {
  const [course] = await db
    .select({
      accessNewContentAfterCompletion: objectives.accessNewContentAfterCompletion,
      supportReview: objectives.supportReview,
      gradeRevealPolicy: owa.gradeRevealPolicy,
      gradeRevealDate: owa.gradeRevealDate,
    })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .where(eq(owa.id, wf.aggregateId))
    .limit(1);
  const inProgress = wf.state === ObjectiveWorkflowState.inProgress;
  const reviewAllowed =
    inProgress ||
    (!!course &&
      canReview(
        {
          workflow: { state: wf.state },
          supportReview: course.supportReview,
          gradeRevealPolicy: course.gradeRevealPolicy as "none",
          gradeRevealDate: iso(course.gradeRevealDate),
        },
        now,
      ));
  const { nodes } = await loadTree(db, wf.objectiveId, wf, reviewAllowed, now);
  const locks = activityLocks(nodes, {
    now,
    courseFinished: wf.state === ObjectiveWorkflowState.finished,
    accessNewContentAfterCompletion: course?.accessNewContentAfterCompletion ?? false,
    reviewing: !inProgress,
  });
  return { nodes, locks, reviewAllowed };
}

const LOCK_TEXTS: Record<string, string> = {
  comingSoon: "This activity is not available yet.",
  completePreviousToPass: "Complete the previous activities to open this one.",
  afterGracePeriodUntil: "The grace period of this activity has ended.",
  afterAccessibleUntil: "This activity is no longer open.",
  beforeStartFrom: "This activity is not open yet.",
  afterStartUntil: "This activity can no longer be started.",
  reviewPolicyNotAllowed: "Reviewing this activity is not allowed.",
  afterRevealingDate: "The results of this activity are not shown yet.",
  afterScoreIsReached: "Review opens when the required score is reached.",
  serverSide: "This activity is not available right now.",
};

/** A locked activity's refusal: 403 with the lock reason as its code (and its date), spec 4.12's words. */
export function lockedError(reason: DisableReason, field = ""): ApiError {
  const code = lockCode(reason);
  return new ApiError(403, {
    [field]: [
      message(code, LOCK_TEXTS[code] ?? LOCK_TEXTS.serverSide, reason.date ? { date: reason.date } : undefined),
    ],
  });
}

/** A part's lock in the attempt; a part the tree leaves out (archived, spec 4.2) is "coming soon". */
function lockOf(access: AttemptAccess, partId: string): DisableReason | null {
  const lock = access.locks.get(partId);
  return lock === undefined ? { key: "activityLock.comingSoon" } : lock;
}

/** Refuses the first locked part of `partIds` (none may be locked). */
export function refuseLocked(access: AttemptAccess, partIds: Iterable<string>): void {
  for (const partId of partIds) {
    const lock = lockOf(access, partId);
    if (lock) throw lockedError(lock);
  }
}

/** A learner who has not started the course has no activity open yet (the page shows none either). */
const notStarted = () =>
  new ApiError(403, { "": [message("courseNotStarted", "Start the course to open its activities.")] });

/**
 * The learner's current attempt (the aggregate's last workflow) of every course that contains one of
 * `partIds` or of `activityId`'s parts, with those parts; one statement. Courses the learner has no
 * standing in are not listed; a standing without an attempt is listed with `workflow: null`.
 */
async function currentAttemptsFor(db: Db | Tx, userId: string, where: { partId: string } | { activityId: string }) {
  const rows = await db
    .select({
      partId: activityParts.id,
      wf: {
        id: objectiveWorkflows.id,
        objectiveId: objectiveWorkflows.objectiveId,
        aggregateId: objectiveWorkflows.aggregateId,
        state: objectiveWorkflows.state,
      },
    })
    .from(activityParts)
    .innerJoin(owa, and(eq(owa.objectiveId, activityParts.objectiveId), eq(owa.userId, userId)))
    .leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId))
    .where(
      "partId" in where ? eq(activityParts.id, where.partId) : inArray(activityParts.activityId, [where.activityId]),
    );
  return rows.map((r) => ({ partId: r.partId, workflow: r.wf?.id ? (r.wf as AttemptRow) : null }));
}

/**
 * Whether the learner may open a part of a course (its content, its file, its discussion) in their current
 * attempt `workflow` of that course: null when they may, else the refusal.
 */
export async function attemptRefusal(
  db: Db | Tx,
  workflow: AttemptRow | null,
  partId: string,
  now: Date,
): Promise<ApiError | null> {
  if (!workflow) return notStarted();
  const access = await attemptAccess(db, workflow, now);
  if (!access.reviewAllowed) return lockedError({ key: "activityLock.reviewPolicyNotAllowed" });
  const lock = lockOf(access, partId);
  return lock ? lockedError(lock) : null;
}

/**
 * Whether the learner may open an activity in their current attempt of a course that contains it: null
 * when they may (in one of them), else the refusal. `found` is false when the learner has no standing in
 * any such course (the caller answers as for a missing object). An activity is in one course in practice;
 * each further course it is in costs one more lock decision.
 */
export async function openActivityRefusal(
  db: Db | Tx,
  userId: string,
  where: { partId: string } | { activityId: string },
  now: Date,
): Promise<{ found: boolean; refusal: ApiError | null }> {
  const attempts = await currentAttemptsFor(db, userId, where);
  let refusal: ApiError | null = null;
  for (const { partId, workflow } of attempts) {
    const refused = await attemptRefusal(db, workflow, partId, now);
    if (!refused) return { found: true, refusal: null };
    refusal ??= refused;
  }
  return { found: attempts.length > 0, refusal };
}
