import { Hono, type Context } from "hono";
import { streamSSE } from "hono/streaming";
import { and, eq } from "drizzle-orm";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { tutorExchanges } from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { readSettings } from "../settings";
import { conversation, openParts, retrieve, tutorCourse } from "../queries/tutor";
import { idParams, validJson, validParams } from "../validate";
import { operations } from "../openapi";
import { limitWrites } from "../limit-writes";
import {
  askTutorSchema,
  citationsOf,
  type KnowledgeModel,
  type TutorConversation,
  type TutorExchange,
  type TutorPassage,
} from "../../domain/contract/tutor";
import { searchConfigFor } from "../../domain/tutor";
import { modelAnswer } from "../tutor-model";

const op = operations("tutor");

/** A passage's place in the stored extractive answer: the activity, and the page of a PDF. */
const sourceOf = (p: TutorPassage) => (p.page === undefined ? p.name : `${p.name}, p. ${p.page}`);

/**
 * The knowledge model and the tutor (spec 7.3 `/api/lms-km/`; issue 16 items 4–6, decision 028): the
 * course's own content that the learner may open (texts, PDF pages, discussion posts), searched with PostgreSQL full-text search;
 * answers are the best passages with their activities cited (extractive: no model needed).
 */
export function tutorRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/users/me/*", requireUser);
  r.use("/users/me/objective-workflow-aggregates/:id/tutor-questions", limitWrites("tutor"));
  r.use("/users/me/objective-workflow-aggregates/:id/tutor-questions/stream", limitWrites("tutor"));

  r.get(
    "/users/me/objective-workflow-aggregates/:id/knowledge-model",
    op({
      summary:
        "Spec 7.3: the knowledge model of the learner's course (knowledgeModelId; the tenant's defaultKnowledgeModelId, else the course); 404 when the tenant's tutor is off",
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const [course, settings] = await Promise.all([
        tutorCourse(c.var.db, c.var.user.id, id),
        readSettings(c.var.db, c.var.user.tenantId),
      ]);
      const tutor = settings["learner.tutor"];
      if (!tutor.enabled) throw notFound("knowledge model");
      return c.json({ knowledgeModelId: tutor.defaultKnowledgeModelId ?? course.objectiveId } satisfies KnowledgeModel);
    },
  );

  r.get(
    "/users/me/objective-workflow-aggregates/:id/tutor-questions",
    op({ summary: "The learner's conversation with the course's tutor, oldest first", notShown: true }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const course = await tutorCourse(c.var.db, c.var.user.id, id);
      return c.json({
        data: await conversation(c.var.db, c.var.user.id, course.objectiveId),
      } satisfies TutorConversation);
    },
  );

  /** The course, the passages the learner may see for the question, and the extractive answer. */
  const ground = async (c: Context<ApiEnv>, aggregateId: string, question: string) => {
    const db = c.var.db;
    const course = await tutorCourse(db, c.var.user.id, aggregateId);
    const parts = await openParts(db, course.workflow, c.var.now);
    const locale = c.req.header("Accept-Language")?.split(",")[0]?.trim();
    const passages = await retrieve(db, course.objectiveId, parts, question, searchConfigFor(locale));
    const extractive = passages.map((p) => `${sourceOf(p)}: “${p.text}”`).join("\n\n");
    return { course, passages, extractive, locale: locale ?? "en-US" };
  };
  const exchangeOf = (
    body: { id: string; question: string },
    answer: string,
    answeredBy: TutorExchange["answeredBy"],
    passages: TutorPassage[],
    now: Date,
  ): TutorExchange => ({
    id: body.id,
    question: body.question,
    answer,
    answeredBy,
    passages,
    citations: citationsOf(passages),
    createdAt: now.toISOString(),
  });

  r.post(
    "/users/me/objective-workflow-aggregates/:id/tutor-questions",
    op({
      summary:
        "Ask the tutor ({ id, question }): the answer grounded in the course passages the learner may open — text activities, PDF pages, discussion posts — with citations ({ activityPathId, name, page? })",
      description:
        "Extractive without a model; the model's answer, or extractive when it fails, with one (decision 028). 409 commandIdReused when the id was used for another question.",
      command: true,
      notShown: true,
    }),
    validParams(idParams),
    validJson(askTutorSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const body = c.req.valid("json");
      const user = c.var.user;
      const { course, passages, extractive, locale } = await ground(c, id, body.question);
      // With a model (decision 028): its answer grounded in the same passages; failing or slow: extractive.
      const model = c.var.deps.tutorModel;
      const modelText = model && passages.length > 0 ? await modelAnswer(model, body.question, passages, locale) : null;
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
        return exchangeOf(body, answer, answeredBy, passages, c.var.now);
      });
    },
  );

  /**
   * The same question with the answer streamed as it is written (issue 16 item 6, decision 028):
   * server-sent events `delta` ({ text }) while the model writes, `fallback` when it failed after all
   * (the text so far is dropped), then `done` with the stored exchange. A question id already answered
   * is sent back as `done` at once (a double submit asks once); a learner who stops the stream stops the
   * model, and nothing is stored.
   */
  r.post(
    "/users/me/objective-workflow-aggregates/:id/tutor-questions/stream",
    op({
      summary:
        "The same question with the answer streamed: `delta` { text } while the model writes, `fallback` when it failed after all, then `done` with the stored exchange; an id already answered is sent back as `done` at once",
      answer: { type: "text/event-stream", description: "Server-sent events: delta, fallback, done" },
      notShown: true,
    }),
    validParams(idParams),
    validJson(askTutorSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const body = c.req.valid("json");
      const user = c.var.user;
      const db = c.var.db;
      const [kept] = await db
        .select()
        .from(tutorExchanges)
        .where(and(eq(tutorExchanges.id, body.id), eq(tutorExchanges.userId, user.id)));
      if (kept && kept.question !== body.question)
        throw new ApiError(409, { id: [message("commandIdReused", "This question id was already used.")] });
      const grounded = kept ? null : await ground(c, id, body.question);
      return streamSSE(c, async (stream) => {
        const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) });
        if (kept) {
          const passages = kept.passages as TutorPassage[];
          await send(
            "done",
            exchangeOf(kept, kept.answer, kept.answeredBy as TutorExchange["answeredBy"], passages, kept.createdAt),
          );
          return;
        }
        const { course, passages, extractive, locale } = grounded!;
        const stopped = new AbortController();
        stream.onAbort(() => stopped.abort());
        const model = c.var.deps.tutorModel;
        let wrote = false;
        const modelText =
          model && passages.length > 0
            ? await modelAnswer(model, body.question, passages, locale, {
                signal: stopped.signal,
                onDelta: (text) => {
                  wrote = true;
                  void send("delta", { text });
                },
              })
            : null;
        if (stopped.signal.aborted) return;
        if (!modelText && wrote) await send("fallback", {});
        const answer = modelText ?? extractive;
        const answeredBy = modelText ? "model" : model && passages.length > 0 ? "fallback" : "extractive";
        await db
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
          .onConflictDoNothing();
        await send("done", exchangeOf(body, answer, answeredBy, passages, c.var.now));
      });
    },
  );
  return r;
}
