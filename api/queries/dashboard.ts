// Queries: reads and writes the handlers share, grouped by resource. This one: the learner dashboard's
// sections. Each section is one statement that returns its first rows and, with a window
// count, how many there are in all — so the dashboard costs the same few statements for 10 enrolments
// or 1,000 (decision 022).
import { and, asc, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import { IN_PROGRESS_FILTER_STATES, ObjectiveWorkflowState, ProctoringSessionState } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import {
  activityWorkflows,
  certificateRecords,
  grades,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
  proctoringSessions,
} from "../db/schema";
import { filterToSql } from "../filter-sql";
import { gradeColumns, recordColumns } from "../mappers/courses";
import { STANDING } from "./course-scopes";

const total = sql<number>`(count(*) over ())::int`;

const courseColumns = {
  aggregateId: owa.id,
  objectiveId: owa.objectiveId,
  name: objectives.name,
  code: objectives.code,
  imageUrl: objectives.imageUrl,
  isMandatory: owa.isMandatory,
  dueDate: owa.dueDate,
  state: owa.lastWorkflowState,
};

/** Counts of the learner's courses by progress (spec 4.11 filter), and the mean progress of those in progress. */
export async function dashboardSummary(db: Db, userId: string) {
  const inProgress = sql.join(
    IN_PROGRESS_FILTER_STATES.map((s) => sql`${s}`),
    sql`, `,
  );
  const [row] = await db
    .select({
      enrolled: sql<number>`count(*)::int`,
      notStarted: sql<number>`(count(*) filter (where ${owa.lastWorkflowState} is null and ${owa.lastRecordId} is null))::int`,
      inProgress: sql<number>`(count(*) filter (where ${owa.lastWorkflowState} in (${inProgress})))::int`,
      completed: sql<number>`(count(*) filter (where ${owa.lastWorkflowState} = ${ObjectiveWorkflowState.finished} or (${owa.lastWorkflowState} is null and ${owa.lastRecordId} is not null)))::int`,
      averageProgress: sql<
        number | null
      >`avg(${objectiveWorkflows.progress}) filter (where ${owa.lastWorkflowState} = ${ObjectiveWorkflowState.inProgress})`,
    })
    .from(owa)
    .leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId))
    .where(and(eq(owa.userId, userId), filterToSql(STANDING)));
  return { ...row, averageProgress: Number(row.averageProgress ?? 0) };
}

/**
 * Continue learning: courses in progress, most recently used first — the newest time the learner
 * opened, started or finished an activity of the attempt (else the attempt's start) — with the
 * activity they were last in when it is still in progress (the content viewer opens it).
 */
export async function continueLearning(db: Db, userId: string, limit: number) {
  // The learner's activity workflows by attempt (index activity_workflows_user_idx): when each attempt
  // was last used, and the activity of that moment — one pass, not a sub-select per course.
  const used = sql`greatest(${activityWorkflows.started}, ${activityWorkflows.finished}, (${activityWorkflows.resume}->>'openedAt')::timestamptz)`;
  const last = db
    .selectDistinctOn([activityWorkflows.objectiveWorkflowId], {
      workflowId: sql<string>`${activityWorkflows.objectiveWorkflowId}`.as("workflow_id"),
      partId: sql<string>`${activityWorkflows.activityPartId}`.as("part_id"),
      state: sql<number>`${activityWorkflows.state}`.as("part_state"),
      used: sql<Date>`${used}`.as("used"),
    })
    .from(activityWorkflows)
    .where(eq(activityWorkflows.userId, userId))
    .orderBy(activityWorkflows.objectiveWorkflowId, sql`${used} desc nulls last`)
    .as("last");
  const lastUsed = sql<Date | null>`coalesce(${last.used}, ${objectiveWorkflows.started})`;
  // The attempt's newest proctored sitting (decision 010), in the same pass. A sitting that is
  // over locks an attempt in progress (domain/proctoring.ts `proctorLocked`): such a course cannot be
  // continued, so it comes after the ones that can, and the page marks it.
  const sitting = db
    .selectDistinctOn([activityWorkflows.objectiveWorkflowId], {
      workflowId: sql<string>`${activityWorkflows.objectiveWorkflowId}`.as("sitting_workflow_id"),
      state: sql<ProctoringSessionState>`${proctoringSessions.state}`.as("sitting_state"),
    })
    .from(activityWorkflows)
    .innerJoin(proctoringSessions, eq(proctoringSessions.id, activityWorkflows.lastProctoringSessionId))
    .where(eq(activityWorkflows.userId, userId))
    .orderBy(activityWorkflows.objectiveWorkflowId, desc(proctoringSessions.created), desc(proctoringSessions.id))
    .as("sitting");
  const over = sql`coalesce(${sitting.state} in (${ProctoringSessionState.completed}, ${ProctoringSessionState.reviewed}), false)`;
  return db
    .select({
      ...courseColumns,
      progress: objectiveWorkflows.progress,
      started: objectiveWorkflows.started,
      submitted: objectiveWorkflows.submitted,
      lastUsed,
      lastPartId: last.partId,
      lastPartState: last.state,
      sittingState: sitting.state,
      total,
    })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .innerJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId))
    .leftJoin(last, eq(last.workflowId, owa.lastWorkflowId))
    .leftJoin(sitting, eq(sitting.workflowId, owa.lastWorkflowId))
    .where(
      and(eq(owa.userId, userId), eq(owa.lastWorkflowState, ObjectiveWorkflowState.inProgress), filterToSql(STANDING)),
    )
    .orderBy(over, sql`${lastUsed} desc nulls last`, asc(owa.id))
    .limit(limit);
}

/** Mandatory courses not started (spec 4.11 notStarted), the earliest due first. */
export async function mandatoryNotStarted(db: Db, userId: string, limit: number) {
  return db
    .select({ ...courseColumns, total })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .where(
      and(
        eq(owa.userId, userId),
        eq(owa.isMandatory, true),
        isNull(owa.lastWorkflowState),
        isNull(owa.lastRecordId),
        filterToSql(STANDING),
      ),
    )
    .orderBy(sql`${owa.dueDate} asc nulls last`, asc(owa.sortName), asc(owa.id))
    .limit(limit);
}

/** Handed in and waiting: submitted or in grading (spec 4.1), the latest first. */
export async function waitingForResults(db: Db, userId: string, limit: number) {
  return db
    .select({
      ...courseColumns,
      progress: objectiveWorkflows.progress,
      started: objectiveWorkflows.started,
      submitted: objectiveWorkflows.submitted,
      total,
    })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .innerJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId))
    .where(
      and(
        eq(owa.userId, userId),
        inArray(owa.lastWorkflowState, [ObjectiveWorkflowState.submitted, ObjectiveWorkflowState.inGrading]),
        filterToSql(STANDING),
      ),
    )
    .orderBy(sql`${objectiveWorkflows.submitted} desc nulls last`, asc(owa.id))
    .limit(limit);
}

/**
 * Results of the last days: the last record of each course finished since `since`, with what the
 * reveal rule (spec 4.7) needs, its grade and its certificate.
 */
export async function recentResults(db: Db, userId: string, since: Date, limit: number) {
  return db
    .select({
      objectiveId: owa.objectiveId,
      name: objectives.name,
      code: objectives.code,
      gradeRevealPolicy: owa.gradeRevealPolicy,
      gradeRevealDate: owa.gradeRevealDate,
      workflowState: owa.lastWorkflowState,
      r: recordColumns,
      g: gradeColumns,
      certificateNumber: certificateRecords.certificateNumber,
      certificateExpires: certificateRecords.expirationDate,
      total,
    })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .innerJoin(objectiveRecords, eq(objectiveRecords.id, owa.lastRecordId))
    .leftJoin(grades, eq(grades.id, objectiveRecords.gradeId))
    .leftJoin(certificateRecords, eq(certificateRecords.objectiveRecordId, objectiveRecords.id))
    .where(and(eq(owa.userId, userId), gte(objectiveRecords.finished, since), filterToSql(STANDING)))
    .orderBy(desc(objectiveRecords.finished), asc(owa.id))
    .limit(limit);
}
