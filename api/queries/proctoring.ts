// Queries: reads and writes the handlers share, grouped by resource. This one: proctoring sessions (spec 4.8, 7.5).
import { and, desc, eq } from "drizzle-orm";
import type { AttemptProctoringSession } from "../../domain/contract/proctoring";
import { ProctoringSessionState } from "../../domain/vocabulary";
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
  db: Db | Tx,
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

/**
 * Starts a proctored sitting of an activity workflow (issue 14 item 8, decision 024): a session in
 * progress becomes the activity workflow's last session. A session already in progress is returned
 * as it is (a reload of the wrapper starts nothing new).
 */
export async function startProctoringSession(
  tx: Tx,
  userId: string,
  activityWorkflowId: string,
  current: typeof proctoringSessions.$inferSelect | null,
  now: Date,
) {
  if (current && current.state === ProctoringSessionState.inProgress) return current;
  const [session] = await tx
    .insert(proctoringSessions)
    .values({ activityWorkflowId, userId, state: ProctoringSessionState.inProgress, created: now })
    .returning();
  await tx
    .update(activityWorkflows)
    .set({ lastProctoringSessionId: session!.id })
    .where(eq(activityWorkflows.id, activityWorkflowId));
  return session!;
}

/** The proctoring service ends a sitting: in progress → completed, with its time; anything else stays. */
export async function completeProctoringSession(db: Db | Tx, sessionId: string, now: Date) {
  const rows = await db
    .update(proctoringSessions)
    .set({ state: ProctoringSessionState.completed, completed: now })
    .where(and(eq(proctoringSessions.id, sessionId), eq(proctoringSessions.state, ProctoringSessionState.inProgress)))
    .returning();
  return rows[0] ?? null;
}
