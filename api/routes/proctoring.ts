import { Hono } from "hono";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { AttemptProctoringSession, ProctoringSession } from "../../domain/contract/proctoring";
import type { ApiEnv } from "../context";
import type { Db } from "../db/client";
import { activityWorkflows, objectiveWorkflows, proctoringSessions } from "../db/schema";
import { requireUser } from "../auth";
import { notFound } from "../errors";
import { params } from "../validate";

const activityWorkflowParams = z.object({ id: z.uuid(), awId: z.uuid() });

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

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

export function proctoringRoutes() {
  const r = new Hono<ApiEnv>();
  const path = "/users/me/objective-workflows/:id/activity-workflows/:awId/last-proctoring-session";
  r.use(path, requireUser);

  // Spec 7.5: the last proctoring session of one of the learner's activity workflows; 404 when none.
  r.get(path, async (c) => {
    const p = params(c, activityWorkflowParams);
    const rows = await c.var.db
      .select({ session: proctoringSessions })
      .from(activityWorkflows)
      .innerJoin(
        objectiveWorkflows,
        and(
          eq(objectiveWorkflows.id, activityWorkflows.objectiveWorkflowId),
          eq(objectiveWorkflows.userId, c.var.user.id),
        ),
      )
      .leftJoin(proctoringSessions, eq(proctoringSessions.id, activityWorkflows.lastProctoringSessionId))
      .where(and(eq(activityWorkflows.id, p.awId), eq(activityWorkflows.objectiveWorkflowId, p.id)))
      .limit(1);
    if (!rows[0]) throw notFound("activity workflow");
    const s = rows[0].session;
    if (!s) throw notFound("proctoring session");
    return c.json({
      id: s.id,
      state: s.state,
      created: s.created.toISOString(),
      completed: s.completed?.toISOString() ?? null,
    } satisfies ProctoringSession);
  });

  return r;
}
