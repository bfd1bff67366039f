// Reinforcement workflows as the learner reads them (spec 3, 7.6), and the questions due — for the
// answer page, the mail job and the dashboard.
import { and, asc, eq, gte, isNull, lt, lte, sql } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  objectives,
  objectiveWorkflowAggregates as owa,
  reinforcementWorkflows,
} from "../db/schema";

const columns = {
  wf: reinforcementWorkflows,
  objectiveName: objectives.name,
  moduleName: activities.name,
};

/** One of the learner's workflows with its course and module names; undefined when not theirs. */
export async function loadReinforcementWorkflow(db: Db | Tx, userId: string, id: string) {
  const [row] = await db
    .select(columns)
    .from(reinforcementWorkflows)
    .innerJoin(objectives, eq(objectives.id, reinforcementWorkflows.objectiveId))
    .innerJoin(activities, eq(activities.id, reinforcementWorkflows.activityId))
    .where(and(eq(reinforcementWorkflows.id, id), eq(reinforcementWorkflows.userId, userId)))
    .limit(1);
  return row;
}

/**
 * The learner's unanswered questions that are due by `now`, oldest first (one query; the
 * user-and-due index serves it). The dashboard and calendar list them.
 */
export async function dueReinforcementQuestions(db: Db, userId: string, now: Date, limit = 20) {
  return db
    .select(columns)
    .from(reinforcementWorkflows)
    .innerJoin(objectives, eq(objectives.id, reinforcementWorkflows.objectiveId))
    .innerJoin(activities, eq(activities.id, reinforcementWorkflows.activityId))
    .where(
      and(
        eq(reinforcementWorkflows.userId, userId),
        lte(reinforcementWorkflows.dueAt, now),
        isNull(reinforcementWorkflows.answer),
      ),
    )
    .orderBy(asc(reinforcementWorkflows.dueAt))
    .limit(limit);
}

const dateColumns = {
  id: reinforcementWorkflows.id,
  objectiveId: reinforcementWorkflows.objectiveId,
  activityId: reinforcementWorkflows.activityId,
  question: reinforcementWorkflows.question,
  options: reinforcementWorkflows.options,
  answer: reinforcementWorkflows.answer,
  dueAt: reinforcementWorkflows.dueAt,
  courseName: objectives.name,
  courseCode: objectives.code,
  isMandatory: sql<boolean>`coalesce(${owa.isMandatory}, false)`,
  moduleName: activities.name,
  moduleKind: activities.kind,
  // The module's place in the course tree (the content viewer's activityPathId).
  pathId: sql<string | null>`(select p.id from ${activityParts} p
    where p.objective_id = ${reinforcementWorkflows.objectiveId} and p.activity_id = ${reinforcementWorkflows.activityId}
    order by p.id limit 1)`,
};

/** The learner's questions with their course and module, as the calendar's items need them. */
function questionsWithDates<T extends SelectedFields>(db: Db, extra: T) {
  return db
    .select({ ...dateColumns, ...extra })
    .from(reinforcementWorkflows)
    .innerJoin(objectives, eq(objectives.id, reinforcementWorkflows.objectiveId))
    .innerJoin(activities, eq(activities.id, reinforcementWorkflows.activityId))
    .leftJoin(
      owa,
      and(eq(owa.userId, reinforcementWorkflows.userId), eq(owa.objectiveId, reinforcementWorkflows.objectiveId)),
    );
}

/**
 * The learner's questions due in [from, to) — or all of them, for the calendar feed — with their
 * course, the module and its place in the course tree (issue 13 item 6): one statement, served by the
 * user-and-due index.
 */
export async function reinforcementDatesOf(db: Db, userId: string, window: { from: Date; to: Date } | null) {
  return questionsWithDates(db, {})
    .where(
      and(
        eq(reinforcementWorkflows.userId, userId),
        window ? gte(reinforcementWorkflows.dueAt, window.from) : undefined,
        window ? lt(reinforcementWorkflows.dueAt, window.to) : undefined,
      ),
    )
    .orderBy(asc(reinforcementWorkflows.dueAt));
}
export type ReinforcementDateRow = Awaited<ReturnType<typeof reinforcementDatesOf>>[number];

/**
 * The dashboard's "Questions to answer": the learner's unanswered questions due by `now`, the
 * longest waiting first, at most `limit`, each row with the total — one statement.
 */
export async function questionsToAnswer(db: Db, userId: string, now: Date, limit: number) {
  return questionsWithDates(db, { total: sql<number>`(count(*) over ())::int` })
    .where(
      and(
        eq(reinforcementWorkflows.userId, userId),
        lte(reinforcementWorkflows.dueAt, now),
        isNull(reinforcementWorkflows.answer),
      ),
    )
    .orderBy(asc(reinforcementWorkflows.dueAt), asc(reinforcementWorkflows.question))
    .limit(limit);
}
