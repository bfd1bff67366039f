// Queries: reads and writes the handlers share, grouped by resource. This one: proctoring sessions (spec 4.8, 7.5).
import { and, desc, eq } from "drizzle-orm";
import type { AttemptProctoringSession } from "../../domain/contract/proctoring";
import type { Db, Tx } from "../db/client";
import { activityWorkflows, objectiveWorkflows, proctoringSessions } from "../db/schema";

/**
 * The newest proctoring session among the last sessions of an attempt's activity workflows — what
 * the proctor lock looks at (docs/decisions/010-proctor-lock.md). One indexed query.
 */
export async function lastProctoringSessionOf(
  db: Db | Tx,
  objectiveWorkflowId: string,
): Promise<AttemptProctoringSession | null> {
  const rows = await db
    .select({
      id: proctoringSessions.id,
      state: proctoringSessions.state,
      activityWorkflowId: proctoringSessions.activityWorkflowId,
    })
    .from(activityWorkflows)
    .innerJoin(proctoringSessions, eq(proctoringSessions.id, activityWorkflows.lastProctoringSessionId))
    .where(eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflowId))
    .orderBy(desc(proctoringSessions.created), desc(proctoringSessions.id))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * One of the learner's activity workflows with its last proctoring session (null when it has none);
 * undefined when the activity workflow is not the learner's or not in that attempt.
 */
export async function activityWorkflowSession(
  db: Db,
  userId: string,
  objectiveWorkflowId: string,
  activityWorkflowId: string,
) {
  const rows = await db
    .select({ session: proctoringSessions })
    .from(activityWorkflows)
    .innerJoin(
      objectiveWorkflows,
      and(eq(objectiveWorkflows.id, activityWorkflows.objectiveWorkflowId), eq(objectiveWorkflows.userId, userId)),
    )
    .leftJoin(proctoringSessions, eq(proctoringSessions.id, activityWorkflows.lastProctoringSessionId))
    .where(
      and(eq(activityWorkflows.id, activityWorkflowId), eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflowId)),
    )
    .limit(1);
  return rows[0];
}
