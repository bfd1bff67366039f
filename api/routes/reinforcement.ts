import { Hono } from "hono";
import { reinforcementAnswerCommandSchema, reinforcementWorkflowSchema } from "../../domain/contract/reinforcement";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { limitWrites } from "../limit-writes";
import { notFound } from "../errors";
import { answerReinforcement } from "../commands/reinforcement";
import { runCommand } from "../commands/run";
import { toReinforcementWorkflow } from "../mappers/reinforcement";
import { loadReinforcementWorkflow } from "../queries/reinforcement";
import { idParams, validJson, validParams } from "../validate";
import { operations } from "../openapi";

const op = operations("reinforcement");

/** Spec 7.6: the e-mail answer page's calls. Only the learner's own workflows exist for them. */
export function reinforcementRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/users/me/reinforcement-learning-workflows/*", requireUser);
  // Per-user write limits (decision 018).
  r.use("/users/me/reinforcement-learning-workflows/:id/answer", limitWrites("command"));

  // A read never records anything: mail scanners follow the links in e-mails.
  r.get(
    "/users/me/reinforcement-learning-workflows/:id",
    op({
      summary: "One of the learner's reinforcement questions (the e-mail answer page); reading records nothing",
      response: reinforcementWorkflowSchema,
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await loadReinforcementWorkflow(c.var.db, c.var.user.id, id);
      if (!row) throw notFound("workflow");
      return c.json(toReinforcementWorkflow(row));
    },
  );

  // Spec 4.10: the answer, recorded once; an answered workflow answers with itself (the review).
  r.post(
    "/users/me/reinforcement-learning-workflows/:id/answer",
    op({
      summary: "Answer a reinforcement question, recorded once; an answered one answers with itself (the review)",
      command: true,
    }),
    validParams(idParams),
    validJson(reinforcementAnswerCommandSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const body = c.req.valid("json");
      const userId = c.var.user.id;
      const now = c.var.now;
      const command = {
        id: body.commandId ?? crypto.randomUUID(),
        type: "answer-reinforcement",
        body: { id, answer: body.answer },
      };
      return runCommand(c, command, async (tx) => {
        await answerReinforcement(tx, userId, id, body.answer, now);
        const row = await loadReinforcementWorkflow(tx, userId, id);
        if (!row) throw notFound("workflow");
        return toReinforcementWorkflow(row);
      });
    },
  );

  return r;
}
