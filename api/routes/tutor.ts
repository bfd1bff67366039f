import { Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { tutorExchanges } from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { readSettings } from "../settings";
import { conversation, openParts, retrieve, tutorCourse } from "../queries/tutor";
import { jsonBody, params } from "../validate";
import { limitWrites } from "../write-limits";
import { askTutorSchema, type KnowledgeModel, type TutorConversation } from "../../domain/contract/tutor";
import { searchConfigFor } from "../../domain/tutor";
import { modelAnswer } from "../tutor-model";

const aggregateParams = z.object({ id: z.uuid() });

/**
 * The knowledge model and the tutor (spec 7.3 `/api/lms-km/`; issue 16 items 4–6, decision 028): the
 * course's own text activities that the learner may open, searched with PostgreSQL full-text search;
 * answers are the best passages with their activities cited (extractive: no model needed).
 */
export function tutorRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/users/me/*", requireUser);
  r.use("/users/me/objective-workflow-aggregates/:id/tutor-questions", limitWrites("tutor"));

  r.get("/users/me/objective-workflow-aggregates/:id/knowledge-model", async (c) => {
    const { id } = params(c, aggregateParams);
    const [course, settings] = await Promise.all([
      tutorCourse(c.var.db, c.var.user.id, id),
      readSettings(c.var.db, c.var.user.tenantId),
    ]);
    const tutor = settings["learner.tutor"];
    if (!tutor.enabled) throw notFound("knowledge model");
    return c.json({ knowledgeModelId: tutor.defaultKnowledgeModelId ?? course.objectiveId } satisfies KnowledgeModel);
  });

  r.get("/users/me/objective-workflow-aggregates/:id/tutor-questions", async (c) => {
    const { id } = params(c, aggregateParams);
    const course = await tutorCourse(c.var.db, c.var.user.id, id);
    return c.json({
      data: await conversation(c.var.db, c.var.user.id, course.objectiveId),
    } satisfies TutorConversation);
  });

  r.post("/users/me/objective-workflow-aggregates/:id/tutor-questions", async (c) => {
    const { id } = params(c, aggregateParams);
    const body = await jsonBody(c, askTutorSchema);
    const db = c.var.db;
    const user = c.var.user;
    const course = await tutorCourse(db, user.id, id);
    const parts = await openParts(db, course.workflow, c.var.now);
    const locale = c.req.header("Accept-Language")?.split(",")[0]?.trim();
    const passages = await retrieve(db, course.objectiveId, parts, body.question, searchConfigFor(locale));
    const extractive = passages.map((p) => `${p.name}: “${p.text}”`).join("\n\n");
    // With a model (decision 028): its answer grounded in the same passages; failing or slow: extractive.
    const model = c.var.deps.tutorModel;
    const modelText =
      model && passages.length > 0 ? await modelAnswer(model, body.question, passages, locale ?? "en-US") : null;
    const answer = modelText ?? extractive;
    const answeredBy = modelText ? "model" : model && passages.length > 0 ? "fallback" : "extractive";
    return runCommand(c, { id: body.id, type: "ask-tutor", body: { aggregateId: id, ...body } }, async (tx) => {
      const [row] = await tx
        .insert(tutorExchanges)
        .values({
          id: body.id,
          userId: user.id,
          objectiveId: course.objectiveId,
          question: body.question,
          answer,
          answeredBy,
          passages,
          createdAt: c.var.now,
        })
        .onConflictDoNothing()
        .returning({ id: tutorExchanges.id });
      if (!row) throw new ApiError(409, { id: [message("commandIdReused", "This question id was already used.")] });
      return {
        id: body.id,
        question: body.question,
        answer,
        answeredBy,
        passages,
        citations: passages.map(({ activityPathId, name }) => ({ activityPathId, name })),
        createdAt: c.var.now.toISOString(),
      };
    });
  });
  return r;
}
