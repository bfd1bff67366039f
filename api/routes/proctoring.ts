import { Hono } from "hono";
import { z } from "zod";
import type { ProctoringSession } from "../../domain/contract/proctoring";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { notFound } from "../errors";
import { activityWorkflowSession } from "../queries/proctoring";
import { params } from "../validate";

const activityWorkflowParams = z.object({ id: z.uuid(), awId: z.uuid() });

export function proctoringRoutes() {
  const r = new Hono<ApiEnv>();
  const path = "/users/me/objective-workflows/:id/activity-workflows/:awId/last-proctoring-session";
  r.use(path, requireUser);

  // Spec 7.5: the last proctoring session of one of the learner's activity workflows; 404 when none.
  r.get(path, async (c) => {
    const p = params(c, activityWorkflowParams);
    const row = await activityWorkflowSession(c.var.db, c.var.user.id, p.id, p.awId);
    if (!row) throw notFound("activity workflow");
    const s = row.session;
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
