// Queries: hand-ins (decision 048) — the learner's own, the grading queue and one hand-in as a grader sees
// it, and who may read a hand-in's file. Another learner's hand-in, a course of another tenant and a
// caller who may not grade are all 404 (a grader's list: 403 to a non-grader).
import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import {
  handInSettings,
  feedbackReleased,
  canEditHandIn,
  canGrade,
  canWithdraw,
  approvalRefusal,
} from "../../domain/hand-ins";
import type { HandInState } from "../../domain/hand-ins";
import { DEFAULT_ATTACHMENT_RULES, type AttachmentRules } from "../../domain/chat-attachments";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";
import { HAND_IN_TEXT_MAX } from "../../domain/hand-ins";
import type {
  GradingHandIn,
  GradingQueue,
  GradingQueueItem,
  GradingQueueQuery,
  HandInSummary,
  LearnerHandIn,
} from "../../domain/contract/hand-ins";
import type { Principal } from "../context";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  handInFiles,
  handIns,
  handInGradingEvents,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
  userRoles,
  users,
} from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { toHandInFile } from "../files/hand-in-files";

type HandInRow = typeof handIns.$inferSelect;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const nameOf = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();

/** The learner's last attempt at a course (locked inside a command); 404 when she has none. */
export async function currentAttempt(db: Db | Tx, user: Principal, objectiveId: string, lock = false) {
  const q = db
    .select({ wf: objectiveWorkflows })
    .from(owa)
    .innerJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId))
    .where(and(eq(owa.userId, user.id), eq(owa.objectiveId, objectiveId)))
    .limit(1);
  const [row] = lock ? await q.for("update", { of: objectiveWorkflows }) : await q;
  if (!row) throw notFound("workflow");
  return row.wf;
}

/** An activity of a course of the caller's tenant that takes hand-ins, with its settings; else 404. */
export async function handInActivity(
  db: Db | Tx,
  user: Principal,
  objectiveId: string,
  activityPartId: string,
  defaults: AttachmentRules = DEFAULT_ATTACHMENT_RULES,
) {
  const [row] = await db
    .select({ part: activityParts, activity: activities, objective: objectives })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .innerJoin(objectives, eq(objectives.id, activityParts.objectiveId))
    .where(
      and(
        eq(activityParts.id, activityPartId),
        eq(activityParts.objectiveId, objectiveId),
        eq(objectives.tenantId, user.tenantId),
      ),
    )
    .limit(1);
  const settings = row ? handInSettings(row.activity, defaults) : null;
  if (!row || !settings) throw notFound("activity");
  return { ...row, settings };
}

/** Whether the caller grades the courses of her tenant (the Instructor role, as the hub reads it). */
async function mayGrade(db: Db | Tx, user: Principal): Promise<boolean> {
  const [row] = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, user.id), eq(userRoles.role, "Instructor")))
    .limit(1);
  return Boolean(row);
}

async function filesOf(db: Db | Tx, ids: string[]) {
  if (ids.length === 0) return new Map<string, (typeof handInFiles.$inferSelect)[]>();
  const rows = await db
    .select()
    .from(handInFiles)
    .where(inArray(handInFiles.handInId, ids))
    .orderBy(asc(handInFiles.createdAt), asc(handInFiles.name));
  const out = new Map<string, (typeof handInFiles.$inferSelect)[]>();
  for (const r of rows) out.set(r.handInId, [...(out.get(r.handInId) ?? []), r]);
  return out;
}

function summary(row: HandInRow, files: (typeof handInFiles.$inferSelect)[], maxScore: number | null): HandInSummary {
  const released = feedbackReleased(row.state);
  return {
    id: row.id,
    state: row.state,
    body: row.body,
    submittedAt: iso(row.submittedAt),
    late: row.late,
    files: files.filter((f) => f.role === "submission").map(toHandInFile),
    feedback:
      released && row.releasedAt
        ? {
            score: row.score,
            maxScore,
            comment: row.comment,
            releasedAt: row.releasedAt.toISOString(),
            files: files.filter((f) => f.role === "feedback").map(toHandInFile),
          }
        : null,
  };
}

/** Hand-ins of a learner's other attempts at an activity, newest first. */
async function earlierOf(
  db: Db | Tx,
  userId: string,
  activityPartId: string,
  exceptId: string | null,
  maxScore: number | null,
) {
  const rows = await db
    .select()
    .from(handIns)
    .where(
      and(
        eq(handIns.userId, userId),
        eq(handIns.activityPartId, activityPartId),
        exceptId ? ne(handIns.id, exceptId) : undefined,
        ne(handIns.state, "draft"),
      ),
    )
    .orderBy(desc(handIns.createdAt))
    .limit(10);
  const files = await filesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => summary(r, files.get(r.id) ?? [], maxScore));
}

/** The hand-in page: the activity's rules, the current attempt's hand-in and the earlier ones. */
export async function learnerHandIn(
  db: Db,
  user: Principal,
  objectiveId: string,
  activityPartId: string,
  defaults: AttachmentRules,
): Promise<LearnerHandIn> {
  const { part, activity, objective, settings } = await handInActivity(db, user, objectiveId, activityPartId, defaults);
  const [agg] = await db
    .select({ id: owa.id, lastWorkflowId: owa.lastWorkflowId })
    .from(owa)
    .where(and(eq(owa.userId, user.id), eq(owa.objectiveId, objectiveId)))
    .limit(1);
  if (!agg) throw notFound("course");
  const [wf] = agg.lastWorkflowId
    ? await db.select().from(objectiveWorkflows).where(eq(objectiveWorkflows.id, agg.lastWorkflowId))
    : [];
  const [row] = wf
    ? await db
        .select()
        .from(handIns)
        .where(
          and(eq(handIns.objectiveWorkflowId, wf.id), eq(handIns.activityPartId, part.id), eq(handIns.userId, user.id)),
        )
        .limit(1)
    : [];
  const files = row ? ((await filesOf(db, [row.id])).get(row.id) ?? []) : [];
  const inProgress = wf?.state === ObjectiveWorkflowState.inProgress;
  const state: HandInState = row?.state ?? "draft";
  const due = (part.constraint as { due?: string | null }).due ?? null;
  return {
    objectiveId,
    objectiveName: objective.name,
    activityPartId: part.id,
    activityName: activity.name,
    maxScore: activity.maxScore,
    due,
    rules: {
      text: settings.text,
      files: settings.files,
      maxBytes: settings.rules.maxBytes,
      maxCount: settings.rules.maxCount,
      types: settings.rules.kinds,
      allowLate: settings.allowLate,
      allowWithdraw: settings.allowWithdraw,
      textMax: HAND_IN_TEXT_MAX,
    },
    attemptInProgress: inProgress,
    mayEdit: canEditHandIn(state, inProgress),
    maySubmit: canEditHandIn(state, inProgress),
    mayWithdraw: canWithdraw(state, inProgress, settings),
    handIn: row ? summary(row, files, activity.maxScore) : null,
    earlier: await earlierOf(db, user.id, part.id, row?.id ?? null, activity.maxScore),
  };
}

const queueColumns = {
  h: handIns,
  learner: { id: users.id, firstName: users.firstName, lastName: users.lastName },
  objectiveName: objectives.name,
  activityName: activities.name,
  maxScore: activities.maxScore,
  due: sql<string | null>`${activityParts.constraint} ->> 'due'`,
  fileCount: sql<number>`(select count(*)::int from ${handInFiles} where ${handInFiles.handInId} = ${handIns.id} and ${handInFiles.role} = 'submission')`,
  approval: objectives.gradingApproval,
};

function queueItem(r: {
  h: HandInRow;
  learner: { id: string; firstName: string; lastName: string };
  objectiveName: string;
  activityName: string;
  maxScore: number | null;
  due: string | null;
  fileCount: number;
}): GradingQueueItem {
  return {
    id: r.h.id,
    state: r.h.state,
    learner: { id: r.learner.id, name: nameOf(r.learner) },
    objective: { id: r.h.objectiveId, name: r.objectiveName },
    activity: { partId: r.h.activityPartId, name: r.activityName, maxScore: r.maxScore },
    submittedAt: iso(r.h.submittedAt),
    due: r.due,
    late: r.h.late,
    fileCount: Number(r.fileCount),
  };
}

const forbidden = () => new ApiError(403, { "": [message("gradingForbidden", "Only graders see the grading queue.")] });

/** The grading queue: hand-ins of the tenant awaiting grading (or in one state), oldest first. 403 to a non-grader. */
export async function gradingQueue(
  db: Db,
  user: Principal,
  q: GradingQueueQuery & { limit: number },
): Promise<GradingQueue> {
  if (!(await mayGrade(db, user))) throw forbidden();
  const states: HandInState[] = q.state ? [q.state] : ["submitted", "inGrading"];
  const [rows, courses] = await Promise.all([
    db
      .select(queueColumns)
      .from(handIns)
      .innerJoin(users, eq(users.id, handIns.userId))
      .innerJoin(objectives, eq(objectives.id, handIns.objectiveId))
      .innerJoin(activityParts, eq(activityParts.id, handIns.activityPartId))
      .innerJoin(activities, eq(activities.id, activityParts.activityId))
      .where(
        and(
          eq(handIns.tenantId, user.tenantId),
          inArray(handIns.state, states),
          q.objectiveId ? eq(handIns.objectiveId, q.objectiveId) : undefined,
          q.activityPartId ? eq(handIns.activityPartId, q.activityPartId) : undefined,
        ),
      )
      .orderBy(asc(handIns.submittedAt), asc(handIns.id))
      .limit(q.limit),
    db
      .selectDistinct({
        objectiveId: objectives.id,
        objectiveName: objectives.name,
        partId: activityParts.id,
        activityName: activities.name,
      })
      .from(handIns)
      .innerJoin(objectives, eq(objectives.id, handIns.objectiveId))
      .innerJoin(activityParts, eq(activityParts.id, handIns.activityPartId))
      .innerJoin(activities, eq(activities.id, activityParts.activityId))
      .where(and(eq(handIns.tenantId, user.tenantId), ne(handIns.state, "draft")))
      .orderBy(asc(objectives.name), asc(activities.name)),
  ]);
  const byCourse = new Map<string, GradingQueue["courses"][number]>();
  for (const c of courses) {
    const course = byCourse.get(c.objectiveId) ?? { id: c.objectiveId, name: c.objectiveName, activities: [] };
    course.activities.push({ partId: c.partId, name: c.activityName });
    byCourse.set(c.objectiveId, course);
  }
  return { data: rows.map(queueItem), courses: [...byCourse.values()] };
}

/** A hand-in a grader may grade (locked inside a command); 404 for a non-grader, a draft or another tenant's. */
export async function gradableHandIn(db: Db | Tx, user: Principal, handInId: string, lock = false) {
  if (!(await mayGrade(db, user))) throw notFound("hand-in");
  const q = db
    .select({ row: handIns, activity: activities, objective: objectives, part: activityParts })
    .from(handIns)
    .innerJoin(objectives, eq(objectives.id, handIns.objectiveId))
    .innerJoin(activityParts, eq(activityParts.id, handIns.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(
      and(
        eq(handIns.id, handInId),
        eq(handIns.tenantId, user.tenantId),
        ne(handIns.state, "draft"),
        ne(handIns.userId, user.id),
      ),
    )
    .limit(1);
  const [found] = lock ? await q.for("update", { of: handIns }) : await q;
  if (!found) throw notFound("hand-in");
  return found;
}

/** One hand-in as its grader sees it: the work, its files, the grade so far, earlier attempts, the audit. */
export async function gradingHandIn(db: Db, user: Principal, handInId: string): Promise<GradingHandIn> {
  const { row } = await gradableHandIn(db, user, handInId);
  const [[item], files, events] = await Promise.all([
    db
      .select(queueColumns)
      .from(handIns)
      .innerJoin(users, eq(users.id, handIns.userId))
      .innerJoin(objectives, eq(objectives.id, handIns.objectiveId))
      .innerJoin(activityParts, eq(activityParts.id, handIns.activityPartId))
      .innerJoin(activities, eq(activities.id, activityParts.activityId))
      .where(eq(handIns.id, row.id)),
    filesOf(db, [row.id]),
    db
      .select({ e: handInGradingEvents, firstName: users.firstName, lastName: users.lastName })
      .from(handInGradingEvents)
      .leftJoin(users, eq(users.id, handInGradingEvents.actorId))
      .where(eq(handInGradingEvents.handInId, row.id))
      .orderBy(asc(handInGradingEvents.at)),
  ]);
  const [grader] = row.graderId
    ? await db
        .select({ firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(eq(users.id, row.graderId))
    : [];
  const own = files.get(row.id) ?? [];
  return {
    ...queueItem(item),
    body: row.body,
    files: own.filter((f) => f.role === "submission").map(toHandInFile),
    score: row.score,
    comment: row.comment,
    feedbackFiles: own.filter((f) => f.role === "feedback").map(toHandInFile),
    version: row.gradingVersion,
    grader: grader ? nameOf(grader) : null,
    releasedAt: iso(row.releasedAt),
    approvedAt: iso(row.approvedAt),
    approvalRequired: item.approval,
    mayGrade: canGrade(row.state),
    mayApprove:
      approvalRefusal({
        state: row.state,
        approvalRequired: item.approval,
        releasedBy: row.releasedBy,
        approver: user.id,
      }) === null,
    earlier: await earlierOf(db, row.userId, row.activityPartId, row.id, item.maxScore),
    events: events.map(({ e, firstName, lastName }) => ({
      action: e.action,
      actor: firstName !== null && lastName !== null ? nameOf({ firstName, lastName }) : null,
      at: e.at.toISOString(),
      before: e.before,
      after: e.after,
    })),
  };
}

/**
 * A hand-in's file, when the caller may read it: her own submitted files (and feedback files once
 * released), or any file of her tenant's hand-ins when she grades. Else null (404).
 */
export async function readableHandInFile(db: Db, user: Principal, fileId: string) {
  const [row] = await db
    .select({ f: handInFiles, h: { userId: handIns.userId, tenantId: handIns.tenantId, state: handIns.state } })
    .from(handInFiles)
    .innerJoin(handIns, eq(handIns.id, handInFiles.handInId))
    .where(eq(handInFiles.id, fileId))
    .limit(1);
  if (!row || row.h.tenantId !== user.tenantId) return null;
  if (row.h.userId === user.id && (row.f.role === "submission" || feedbackReleased(row.h.state))) return row.f;
  if (row.h.state !== "draft" && (await mayGrade(db, user))) return row.f;
  return null;
}
