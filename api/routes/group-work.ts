import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { saveGroupWork } from "../commands/group-work";
import {
  groupActivityWorkflowPathSchema,
  groupWorkSchema,
  participantsPathSchema,
  participantsQuerySchema,
} from "../../domain/contract/groups";
import { attemptAccess, refuseLocked } from "../queries/activity-access";
import { groupWorkflowForMember, participants, toGroupActivityWorkflow } from "../queries/group-work";
import { activityScoresRevealed, ownWorkflow } from "../queries/workflows";
import { objectiveWorkflows } from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { validJson, validParams, validQuery } from "../validate";
import { operations } from "../openapi";
import { limitWrites } from "../limit-writes";
import { eq } from "drizzle-orm";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";

const op = operations("group work");
const GAW = "/users/me/objective-workflow-aggregates/:owaId/group-activity-workflows/:gawId";
const PARTICIPANTS = "/users/me/objective-workflows/:id/activity-paths/:activityPathId/participants/query";

/** Team and mini-group activities (spec 1, 3, 7.3; issue 15 items 7–9; decision 026). Thin handlers. */
export function groupWorkRoutes() {
  const r = new Hono<ApiEnv>();
  r.use(GAW, requireUser);
  r.use(PARTICIPANTS, requireUser);

  // Spec 7.3: the group's one workflow of an activity, as every member sees it; others get 404.
  r.get(
    GAW,
    op({
      summary:
        "A group's one workflow of an activity (decision 026): state, who submitted, the shared answer and its version; members only (404 otherwise)",
    }),
    validParams(groupActivityWorkflowPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const db = c.var.db;
      const row = await groupWorkflowForMember(db, c.var.user.id, p.owaId, p.gawId);
      const reveal = await revealFor(c.var, row.lastWorkflowId);
      return c.json(toGroupActivityWorkflow(row, reveal));
    },
  );

  // A member saves the group's shared answer (rate-limited as progress; 409 when a teammate saved first).
  r.put(
    GAW,
    op({
      summary:
        "A member saves the group's shared answer, naming the version it was written from (409 groupWorkChanged when a teammate saved first, groupWorkSubmitted after the submission)",
      errors: { 409: "A teammate saved first, or the work was submitted (groupWorkChanged, groupWorkSubmitted)" },
      notShown: true,
    }),
    limitWrites("progress"),
    validParams(groupActivityWorkflowPathSchema),
    validJson(groupWorkSchema),
    async (c) => {
      const p = c.req.valid("param");
      const body = c.req.valid("json");
      const { db, user, now } = c.var;
      const row = await db.transaction(async (tx) => {
        const current = await groupWorkflowForMember(tx, user.id, p.owaId, p.gawId, true);
        // The member's own attempt must be in progress and the activity open to them (spec 4.12, decision 018).
        if (!current.lastWorkflowId) throw notFound("workflow");
        const wf = await ownWorkflow(tx, user.id, current.lastWorkflowId);
        if (wf.state !== ObjectiveWorkflowState.inProgress)
          throw new ApiError(409, { "": [message("workflowNotInProgress", "The course is not in progress.")] });
        refuseLocked(await attemptAccess(tx, wf, now), [current.gaw.activityPartId]);
        await saveGroupWork(tx, user.id, current.gaw, body, now);
        return groupWorkflowForMember(tx, user.id, p.owaId, p.gawId);
      });
      return c.json(toGroupActivityWorkflow(row, true));
    },
  );

  // Spec 7.3 participants/query: the caller's group for one activity of their attempt (search, paging).
  r.get(
    PARTICIPANTS,
    op({
      summary:
        "The members of the caller's team or mini-group for one activity, with their contributions (query: search, skip, take ≤ 100); 404 without a group",
    }),
    validParams(participantsPathSchema),
    validQuery(participantsQuerySchema),
    async (c) => {
      const p = c.req.valid("param");
      const q = c.req.valid("query");
      const db = c.var.db;
      const wf = await ownWorkflow(db, c.var.user.id, p.id);
      return c.json(await participants(db, c.var.user.id, wf, p.activityPathId, q));
    },
  );
  return r;
}

/** Spec 4.7: a group's score is shown where the member's own attempt shows its activity scores. */
async function revealFor(v: ApiEnv["Variables"], workflowId: string | null): Promise<boolean> {
  if (!workflowId) return false;
  const [wf] = await v.db.select().from(objectiveWorkflows).where(eq(objectiveWorkflows.id, workflowId));
  return wf ? activityScoresRevealed(v.db, wf, v.now) : false;
}
