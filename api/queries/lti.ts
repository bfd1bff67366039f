import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  ltiOneTimeValues,
  objectives,
  objectiveWorkflows,
  users,
} from "../db/schema";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";

/** A resource link of a course (an activity part) with its activity and course, in one query. */
export async function resourceLink(db: Db | Tx, objectiveId: string, partId: string) {
  const rows = await db
    .select({ part: activityParts, activity: activities, objective: objectives })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .innerJoin(objectives, eq(objectives.id, activityParts.objectiveId))
    .where(and(eq(activityParts.id, partId), eq(activityParts.objectiveId, objectiveId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The resource links of a course that launch one tool (by `content.tool`). */
export async function toolLinks(db: Db | Tx, objectiveId: string, toolKey: string) {
  const rows = await db
    .select({ part: activityParts, activity: activities })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(eq(activityParts.objectiveId, objectiveId));
  return rows.filter((r) => (r.activity.content as { tool?: unknown }).tool === toolKey);
}

/** Marks a one-time value used; false when it was used before (a replay). */
export async function useOnce(
  db: Db | Tx,
  kind: "nonce" | "jti" | "oauth-nonce" | "hint",
  clientId: string,
  value: string,
  now: Date,
) {
  const rows = await db
    .insert(ltiOneTimeValues)
    .values({ kind, clientId, value, used: now })
    .onConflictDoNothing()
    .returning({ value: ltiOneTimeValues.value });
  return rows.length > 0;
}

/** The learner's workflow in progress of a course that holds this part (where a tool's score goes). */
export async function learnerStanding(db: Db | Tx, userId: string, objectiveId: string, partId: string) {
  const rows = await db
    .select({ wf: objectiveWorkflows, aw: activityWorkflows, rec: activityRecords })
    .from(objectiveWorkflows)
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflows.id),
        eq(activityWorkflows.activityPartId, partId),
      ),
    )
    .leftJoin(activityRecords, eq(activityRecords.activityWorkflowId, activityWorkflows.id))
    .where(
      and(
        eq(objectiveWorkflows.userId, userId),
        eq(objectiveWorkflows.objectiveId, objectiveId),
        inArray(objectiveWorkflows.state, [ObjectiveWorkflowState.inProgress]),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Course members for NRPS: the learners with a workflow of the course. */
export async function courseMembers(db: Db | Tx, objectiveId: string) {
  return db
    .selectDistinct({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(objectiveWorkflows)
    .innerJoin(users, eq(users.id, objectiveWorkflows.userId))
    .where(eq(objectiveWorkflows.objectiveId, objectiveId));
}
