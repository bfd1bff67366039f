// Queries: reads and writes the handlers share, grouped by resource. This one: the learner's attempts (objective
// workflows), their records, their activity records and contents, and where the learner left off in an activity.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { canReview } from "../../domain/lifecycle";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  grades,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
} from "../db/schema";
import { notFound } from "../errors";
import { iso } from "../mappers/common";

/** One of the learner's workflows (locked for update inside a command); 404 when it is not theirs. */
export async function ownWorkflow(db: Db | Tx, userId: string, workflowId: string, lock = false) {
  const q = db
    .select()
    .from(objectiveWorkflows)
    .where(and(eq(objectiveWorkflows.id, workflowId), eq(objectiveWorkflows.userId, userId)))
    .limit(1);
  const rows = lock ? await q.for("update") : await q;
  if (!rows[0]) throw notFound("workflow");
  return rows[0];
}

/**
 * Whether an attempt's activity scores are shown: always before it is finished, afterwards only where review is
 * allowed (spec 4.7).
 */
export async function activityScoresRevealed(
  db: Db | Tx,
  wf: { aggregateId: string; objectiveId: string; state: ObjectiveWorkflowState },
  now: Date,
): Promise<boolean> {
  const [agg] = await db.select().from(owa).where(eq(owa.id, wf.aggregateId));
  const [objective] = await db
    .select({ supportReview: objectives.supportReview })
    .from(objectives)
    .where(eq(objectives.id, wf.objectiveId));
  return (
    wf.state !== ObjectiveWorkflowState.finished ||
    canReview(
      {
        workflow: { state: ObjectiveWorkflowState.finished },
        supportReview: objective.supportReview,
        gradeRevealPolicy: agg.gradeRevealPolicy as "none",
        gradeRevealDate: iso(agg.gradeRevealDate),
      },
      now,
    )
  );
}

/**
 * The records (attempts) of one of the learner's courses, by aggregate or by course, newest first, with
 * their workflows and the grades they name; 404 when the learner has no standing in the course.
 */
export async function loadAttemptRecords(
  db: Db,
  userId: string,
  where: { aggregateId?: string; objectiveId?: string },
) {
  const [agg] = await db
    .select()
    .from(owa)
    .where(
      and(
        where.aggregateId ? eq(owa.id, where.aggregateId) : eq(owa.objectiveId, where.objectiveId!),
        eq(owa.userId, userId),
      ),
    )
    .limit(1);
  if (!agg) throw notFound("course");
  const rows = await db
    .select({
      r: objectiveRecords,
      wfState: objectiveWorkflows.state,
      attempt: objectiveWorkflows.attempt,
      started: objectiveWorkflows.started,
    })
    .from(objectiveRecords)
    .leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, objectiveRecords.workflowId))
    .where(eq(objectiveRecords.aggregateId, agg.id))
    .orderBy(
      desc(sql`coalesce(${objectiveRecords.finished}, ${objectiveWorkflows.submitted}, ${objectiveWorkflows.started})`),
    );
  const gradeIds = [...new Set(rows.map((x) => x.r.gradeId).filter((g): g is string => !!g))];
  const gradeRows = gradeIds.length ? await db.select().from(grades).where(inArray(grades.id, gradeIds)) : [];
  const gradeMap = new Map(
    gradeRows.map((g) => [g.id, { id: g.id, name: g.name, color: g.color, normalizedMinScore: g.normalizedMinScore }]),
  );
  return { aggregate: agg, rows, gradeMap };
}

/** The activity records of one attempt, of one activity or of all. */
export async function loadActivityRecords(db: Db, objectiveWorkflowId: string, activityId: string | null) {
  return db
    .select({ rec: activityRecords, activityId: activityParts.activityId })
    .from(activityRecords)
    .innerJoin(activityParts, eq(activityParts.id, activityRecords.activityPartId))
    .where(
      and(
        eq(activityRecords.objectiveWorkflowId, objectiveWorkflowId),
        activityId ? eq(activityParts.activityId, activityId) : undefined,
      ),
    );
}

/** An activity whose content can be opened, if it is in a course where the learner has a standing. */
export async function loadActivityForLearner(db: Db, userId: string, activityId: string) {
  const rows = await db
    .select({ activity: activities })
    .from(activities)
    .innerJoin(activityParts, eq(activityParts.activityId, activities.id))
    .innerJoin(owa, and(eq(owa.objectiveId, activityParts.objectiveId), eq(owa.userId, userId)))
    .where(and(eq(activities.id, activityId), sql`${activities.state} in (2, 3)`))
    .limit(1);
  return rows[0]?.activity;
}

/** The contents of the given activities of a course, of those whose state lets them be opened. */
export async function loadActivityContents(db: Db, objectiveId: string, activityIds: string[]) {
  if (activityIds.length === 0) return [];
  return db
    .select({
      id: activities.id,
      kind: activities.kind,
      contentType: activities.contentType,
      content: activities.content,
      duration: activities.duration,
      toolUrl: activities.toolUrl,
      imageUrl: activities.imageUrl,
      preferredWidth: activities.preferredWidth,
      preferredHeight: activities.preferredHeight,
    })
    .from(activities)
    .innerJoin(activityParts, eq(activityParts.activityId, activities.id))
    .where(
      and(
        eq(activityParts.objectiveId, objectiveId),
        inArray(activities.id, activityIds),
        sql`${activities.state} in (2, 3)`,
      ),
    );
}

/** The course part an activity workflow of this attempt is for, or null when it is not one of the attempt's. */
export async function activityWorkflowPart(db: Db, objectiveWorkflowId: string, activityWorkflowId: string) {
  const [row] = await db
    .select({ partId: activityWorkflows.activityPartId })
    .from(activityWorkflows)
    .where(
      and(eq(activityWorkflows.id, activityWorkflowId), eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflowId)),
    )
    .limit(1);
  return row?.partId ?? null;
}

/**
 * Where the learner left off inside an activity (e.g. a PDF page), merged into what was saved: opening
 * an activity keeps the page saved earlier. Undefined when the activity workflow is not in the attempt.
 */
export async function saveResume(
  db: Db,
  objectiveWorkflowId: string,
  activityWorkflowId: string,
  resume: Record<string, unknown>,
  now: Date,
) {
  const [row] = await db
    .update(activityWorkflows)
    .set({
      resume: sql`coalesce(${activityWorkflows.resume}, '{}'::jsonb) || ${JSON.stringify({ ...resume, openedAt: now.toISOString() })}::jsonb`,
    })
    .where(
      and(eq(activityWorkflows.id, activityWorkflowId), eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflowId)),
    )
    .returning({ id: activityWorkflows.id, resume: activityWorkflows.resume });
  return row;
}

/** The aggregate (course standing) of one of the learner's records; another learner's record is not found. */
export async function ownRecordAggregateId(db: Db, userId: string, recordId: string): Promise<string> {
  const [row] = await db
    .select({ aggregateId: objectiveRecords.aggregateId })
    .from(objectiveRecords)
    .where(and(eq(objectiveRecords.id, recordId), eq(objectiveRecords.userId, userId)))
    .limit(1);
  if (!row) throw notFound("record");
  return row.aggregateId;
}

/**
 * One activity of an attempt's course: its latest activity workflow and latest record in the attempt
 * (two indexed reads in parallel); null when the activity is not part of the course.
 */
export async function loadActivityStanding(db: Db, wf: { id: string; objectiveId: string }, activityId: string) {
  const [part, latest] = await Promise.all([
    db
      .select({ id: activityParts.id })
      .from(activityParts)
      .where(and(eq(activityParts.objectiveId, wf.objectiveId), eq(activityParts.activityId, activityId)))
      .limit(1),
    db
      .select({ aw: activityWorkflows, rec: activityRecords })
      .from(activityWorkflows)
      .innerJoin(activityParts, eq(activityParts.id, activityWorkflows.activityPartId))
      .leftJoin(activityRecords, eq(activityRecords.activityWorkflowId, activityWorkflows.id))
      .where(and(eq(activityWorkflows.objectiveWorkflowId, wf.id), eq(activityParts.activityId, activityId)))
      .orderBy(desc(activityWorkflows.started))
      .limit(1),
  ]);
  if (!part[0]) return null;
  return { activityWorkflow: latest[0]?.aw ?? null, activityRecord: latest[0]?.rec ?? null };
}
