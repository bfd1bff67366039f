// Reinforcement workflows as the learner reads them (spec 3, 7.6), and the questions due — for the
// answer page, the mail job and the dashboard (issue 13).
import { and, asc, eq, isNull, lte } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { activities, objectives, reinforcementWorkflows } from "../db/schema";

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
export type ReinforcementRow = NonNullable<Awaited<ReturnType<typeof loadReinforcementWorkflow>>>;

/**
 * The learner's unanswered questions that are due by `now`, oldest first (one query; the
 * user-and-due index serves it). The dashboard and calendar (issue 13) list them.
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
