// Queries: reads and writes the handlers share, grouped by resource. This one: a course's activity tree for one
// attempt (spec 7.4), and the attempt's progress over its leaf activities.
import { and, asc, eq, sql } from "drizzle-orm";
import type { ActivityTree } from "../../domain/contract/lifecycle";
import { ActivityWorkflowState } from "../../domain/vocabulary";
import type { Db, Tx } from "../db/client";
import { activities, activityParts, activityRecords, activityWorkflows } from "../db/schema";
import { toActivityTree } from "../mappers/activity-tree";

/** Leaf parts (not composite) of a course with this workflow's activity workflows and records. */
export async function leafProgress(db: Db | Tx, objectiveId: string, objectiveWorkflowId: string) {
  return db
    .select({ part: activityParts, activity: activities, aw: activityWorkflows, rec: activityRecords })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.activityPartId, activityParts.id),
        eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflowId),
      ),
    )
    .leftJoin(activityRecords, eq(activityRecords.activityWorkflowId, activityWorkflows.id))
    .where(
      and(eq(activityParts.objectiveId, objectiveId), sql`${activities.kind} <> 3`, sql`${activities.state} <> 4`),
    );
}

/** An attempt's progress: the share of its required leaves that are no longer in progress. */
export function progressOf(rows: Awaited<ReturnType<typeof leafProgress>>): number {
  const counted = rows.filter((r) => !r.part.optional);
  if (counted.length === 0) return 0;
  const done = counted.filter((r) => r.aw && r.aw.state !== ActivityWorkflowState.inProgress).length;
  return Math.round((done / counted.length) * 10_000) / 10_000;
}

/** The tree of a course with one attempt's activity workflows and records (none without a workflow). */
export async function loadTree(
  db: Db | Tx,
  objectiveId: string,
  workflow: { id: string; state: number } | null,
  revealScores: boolean,
  _now: Date,
): Promise<Omit<ActivityTree, "objectiveWorkflowId">> {
  const rows = await db
    .select({ part: activityParts, activity: activities, aw: activityWorkflows, rec: activityRecords })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.activityPartId, activityParts.id),
        eq(activityWorkflows.objectiveWorkflowId, workflow?.id ?? "00000000-0000-0000-0000-000000000000"),
      ),
    )
    .leftJoin(activityRecords, eq(activityRecords.activityWorkflowId, activityWorkflows.id))
    .where(eq(activityParts.objectiveId, objectiveId))
    .orderBy(asc(activityParts.axis));
  return toActivityTree(rows, revealScores);
}
