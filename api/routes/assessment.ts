import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { requireRole, requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { ApiError, message, notFound } from "../errors";
import { limitWrites } from "../limit-writes";
import { operations } from "../openapi";
import { idParams, jsonBody, validJson, validParams, validQuery } from "../validate";
import type { Context } from "hono";
import { attachmentRulesOf, removeStored, storeAttachments } from "../files/chat-attachments";
import { readUpload, sendKeptFile } from "../files/hand-in-files";
import { fileStore } from "../files/roots";
import { log } from "../db/log";
import { answerFilesOf, pageUploadRules, readableAnswerFile, type IncomingAnswerFile } from "../assessment/uploads";
import {
  attemptPage,
  attemptReview,
  closeAttempt,
  closeIfLate,
  isLate,
  itemsOf,
  loadDelivery,
  saveAnswers,
  startAttempt,
} from "../assessment/delivery";
import {
  attemptPageQuerySchema,
  gradeItemSchema,
  scoreAnswersSchema,
  importQtiQuerySchema,
  ANSWER_FILE_PREFIX,
  saveAnswersFormSchema,
  saveAnswersSchema,
  submitAttemptSchema,
  type SaveAnswers,
} from "../../domain/contract/assessment";
import { activityWorkflowPathSchema } from "../../domain/contract/lifecycle";
import { z } from "zod";
import { rm } from "node:fs/promises";
import { readQtiZip, storeQtiPackage } from "../assessment/import";
import { quizGradingAttempt, quizGradingQueue, scoreAnswers } from "../assessment/grading";
import { SCORM_LIMITS, saveUpload } from "../scorm/import";
import { ScormPackageError } from "../scorm/manifest";

const op = operations("assessment");
const GRADERS = ["Instructor", "Administrator"];
const AUTHORS = ["Author", "Administrator"];

const isMultipart = (c: Context<ApiEnv>) => (c.req.header("content-type") ?? "").startsWith("multipart/form-data");

const timeUp = () => new ApiError(409, { "": [message("assessmentTimeUp", "The time for this test is up.")] });

/**
 * Decision 055: `/api/assessment/v1` — a QTI test delivered in one of the learner's activity
 * workflows and scored on the server.
 */
export function assessmentRoutes() {
  const r = new Hono<ApiEnv>();
  const base = "/users/me/objective-workflows/:id/activity-workflows/:awId/assessment";
  r.use(`${base}`, requireUser);
  r.use(`${base}/*`, requireUser);
  // Every write is limited per user before its body is read (reads pass: limitWrites skips GET).
  r.use(base, limitWrites("command"));
  r.use(`${base}/answers`, limitWrites("command"));
  r.use(`${base}/submit`, limitWrites("command"));

  r.get(
    base,
    op({
      summary:
        "The learner's attempt at a QTI test: its pages, which items are answered, the deadline, and one page's items (the current one, or ?page= in a nonlinear part) with her saved answers — never correct responses, mappings or feedback; 404 before it is started",
      errors: { 409: "A linear test's page that is not open (assessmentLinear)" },
    }),
    validParams(activityWorkflowPathSchema),
    validQuery(attemptPageQuerySchema),
    async (c) => {
      const p = c.req.valid("param");
      const d = await loadDelivery(c.var.db, c.var.user.id, p.id, p.awId);
      const attempt = await closeIfLate(c.var.db, d, c.var.now);
      if (!attempt) throw new ApiError(404, { "": [message("notFound", "The attempt was not found.")] });
      return c.json(await attemptPage(c.var.db, d, attempt, c.req.valid("query").page, c.var.now));
    },
  );

  r.put(
    base,
    op({
      summary:
        "Starts the attempt of this activity workflow: the test's selection and ordering drawn once from the attempt's seed and kept, the server's deadline from its time limit; the same attempt on every later call",
      errors: { 409: "The activity or the course is no longer in progress" },
    }),
    validParams(activityWorkflowPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const db = c.var.db;
      const d = await loadDelivery(db, c.var.user.id, p.id, p.awId);
      const attempt = d.attempt ?? (await db.transaction((tx) => startAttempt(tx, d, c.var.now)));
      return c.json(await attemptPage(db, { ...d, attempt }, attempt, undefined, c.var.now));
    },
  );

  r.post(
    `${base}/answers`,
    op({
      summary:
        "Saves the answers of one page (each response's values as strings) and moves to another page when asked (a linear part: only forward, an item that may not be skipped only answered); once per command id; after the deadline refused and the attempt ends itself",
      description:
        "JSON, or multipart/form-data (decision 068) with the same fields (`answers` and `flagged` as JSON) and one file per upload interaction in a part named `file::<item ref>::<response>`, checked as hand-in files are and narrowed to the interaction's MIME types; the file replaces the one sent before. An upload's value is its stored file's id: absent keeps it, [] clears it",
      body: { type: "application/json", description: "The page's answers", schema: saveAnswersSchema },
      multipart: { fields: saveAnswersFormSchema, files: "file::<item ref>::<response>" },
      command: true,
      errors: {
        400: "An answer that is not one of the item's (responseInvalid, responseTooMany, responseUnknown), a question of another page (assessmentNotOnPage), a required answer missing (assessmentAnswerRequired), a file too large or of another type (attachmentTooLarge, attachmentType, attachmentCount)",
        409: "The attempt is over (assessmentSubmitted), its time is up (assessmentTimeUp), a linear test's page that is not open (assessmentLinear)",
      },
    }),
    validParams(activityWorkflowPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const db = c.var.db;
      const d = await loadDelivery(db, c.var.user.id, p.id, p.awId);
      if (!d.attempt) throw new ApiError(404, { "": [message("notFound", "The attempt was not found.")] });
      // The server's time limit: a late save is refused and the attempt ends with what was saved in time.
      if (isLate(d.attempt, c.var.now)) {
        await closeIfLate(db, d, c.var.now);
        throw timeUp();
      }
      const attempt = d.attempt;
      let body: SaveAnswers;
      let files: IncomingAnswerFile[] = [];
      let fingerprint: unknown;
      if (isMultipart(c)) {
        // The page's uploads and their rules, known before a byte of a file is read.
        let rulesOf: ReturnType<typeof pageUploadRules>["rulesOf"] = () => {
          throw new ApiError(400, { page: [message("invalid", "There is no such page.")] });
        };
        const authorise = async (fields: { page: number }) => {
          const planned = attempt.plan.pages[fields.page];
          if (!planned) throw new ApiError(400, { page: [message("invalid", "There is no such page.")] });
          const items = await itemsOf(
            db,
            d.pkg.id,
            planned.items.map((i) => i.href),
          );
          const rules = pageUploadRules(planned.items.map((i) => ({ ref: i.ref, item: items.get(i.href)!.item })));
          rulesOf = rules.rulesOf;
          return { rules: attachmentRulesOf(c), room: rules.room };
        };
        const read = await readUpload(c, saveAnswersFormSchema, attachmentRulesOf(c), authorise, {
          accepts: (name) => name.startsWith(ANSWER_FILE_PREFIX),
          rulesOf: (name, rules) => rulesOf(name, rules),
        });
        body = read.fields;
        files = answerFilesOf(read.files);
        fingerprint = read.fingerprint;
      } else fingerprint = body = await jsonBody(c, saveAnswersSchema);
      const fields = body;
      let removed: string[] = [];
      const store = fileStore(c.var.deps);
      const written: string[] = [];
      let answer: Response;
      try {
        answer = await runCommand(
          c,
          { id: fields.id, type: "save-assessment-answers", body: { ...(fingerprint as object), awId: p.awId } },
          async (tx) => {
            const { removedKeys, ...saved } = await saveAnswers(tx, d, attempt.id, fields, c.var.now, files);
            await storeAttachments(store, files, written);
            removed = removedKeys;
            return saved;
          },
        );
      } catch (err) {
        await removeStored(store, written).catch((error: unknown) =>
          log().warn({ err: error, keys: written }, "assessment: files of a save that did not commit were not removed"),
        );
        throw err;
      }
      // The replaced files' bytes go once their rows are gone for good.
      await removeStored(store, removed).catch((error: unknown) =>
        log().warn({ err: error, keys: removed }, "assessment: replaced answer files were not deleted from the store"),
      );
      return answer;
    },
  );

  r.post(
    `${base}/submit`,
    op({
      summary:
        "Submits the attempt: every item scored on the server, the test's outcome (its outcome processing, or the weighted sum, and passed from its PASS outcome or the activity's cut value), the activity workflow finished — in grading while an essay waits for a person — and its record; a survey is done without a score. Once per command id",
      command: true,
      errors: { 409: "The attempt is already over (assessmentSubmitted)" },
    }),
    validParams(activityWorkflowPathSchema),
    validJson(submitAttemptSchema),
    async (c) => {
      const p = c.req.valid("param");
      const body = c.req.valid("json");
      const db = c.var.db;
      const d = await loadDelivery(db, c.var.user.id, p.id, p.awId);
      if (!d.attempt) throw new ApiError(404, { "": [message("notFound", "The attempt was not found.")] });
      return runCommand(c, { id: body.id, type: "submit-assessment", body: { awId: p.awId } }, async (tx) => {
        const reason = isLate(d.attempt!, c.var.now) ? "timeUp" : "submitted";
        const closed = await closeAttempt(tx, d, d.attempt!.id, reason, c.var.now);
        return { state: closed.state, ended: closed.ended };
      });
    },
  );

  r.get(
    `${base}/review`,
    op({
      summary:
        "Review of a finished attempt, as the reveal rules allow (spec 4.7/4.12 and the test's item session control): her answers, and the scores, feedback and solutions only when they may be shown",
      errors: { 409: "The attempt is not over, or its review is not allowed (assessmentNoReview)" },
    }),
    validParams(activityWorkflowPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const d = await loadDelivery(c.var.db, c.var.user.id, p.id, p.awId);
      const attempt = await closeIfLate(c.var.db, d, c.var.now);
      if (!attempt) throw new ApiError(404, { "": [message("notFound", "The attempt was not found.")] });
      return c.json(await attemptReview(c.var.db, d, attempt, c.var.now));
    },
  );

  // Issue 48 item 4: the zip as the body, streamed to disk (the SCORM import's limits and defences).
  r.use("/packages", requireUser, limitWrites("packageImport"));
  r.post(
    "/packages",
    op({
      summary:
        "Import a QTI 3.0 package (a test, or items), a QTI 2.1/2.2 one, or a single item into a course's activity; authors and administrators only (issue 48)",
      description:
        "The zip is the body (application/zip, at most SCORM_MAX_BYTES). ?course=CODE[&activity=ID][&title=…][&cut=0.6][&survey=true][&anonymous=true]. A refusal names the file, the line when known and the reason, and stores nothing: 400/413/422 with errors.package[0].code",
      body: { type: "application/zip", description: "The package" },
      answer: { status: 201, type: "application/json", description: "The imported package and its activity" },
      errors: { 403: "Not an author or administrator", 413: "Larger than the limit", 422: "Not a usable package" },
      notShown: true,
    }),
    validQuery(
      importQtiQuerySchema,
      () => new ApiError(400, { course: [message("invalid", "Name the course by its code: ?course=CODE.")] }),
    ),
    async (c) => {
      const q = c.req.valid("query");
      await requireRole(c.var.db, c.var.user.id, AUTHORS, "Only authors and administrators import packages.");
      let zipPath: string | null = null;
      try {
        const limits = c.var.deps.scormLimits ?? SCORM_LIMITS;
        zipPath = await saveUpload(c.req.raw.body, limits.maxBytes);
        const content = await readQtiZip(zipPath, q.title ?? q.course, limits);
        const stored = await storeQtiPackage(c.var.db, content, {
          tenantId: c.var.user.tenantId,
          courseCode: q.course,
          activityId: q.activity,
          title: q.title,
          cutValue: q.cut ?? null,
          survey: q.survey === "true",
          anonymous: q.anonymous === "true",
        });
        return c.json(stored, 201);
      } catch (e) {
        if (e instanceof ScormPackageError) throw new ApiError(e.status, { package: [message(e.code, e.message)] });
        throw e;
      } finally {
        if (zipPath) await rm(zipPath, { force: true });
      }
    },
  );

  r.use("/attempts/:id/items/:ref/score", requireUser, limitWrites("command"));
  r.put(
    "/attempts/:id/items/:ref/score",
    op({
      summary:
        "An instructor's or administrator's score of one item that needs a person (essay, upload); the attempt is done once none waits any more (the grading queue's PUT …/scores sends several at once)",
      errors: {
        403: "Not an instructor or administrator",
        409: "The item is scored by the server, or the attempt is not in grading",
      },
    }),
    validParams(idParams.extend({ ref: z.string().min(1).max(200) })),
    validJson(gradeItemSchema),
    async (c) => {
      await requireRole(c.var.db, c.var.user.id, GRADERS, "Only instructors and administrators grade answers.");
      const p = c.req.valid("param");
      const scores = { [p.ref]: c.req.valid("json").score };
      return c.json(await scoreAnswers(c.var.db, c.var.user, p.id, scores, c.var.now));
    },
  );

  // Decision 065: the test answers that wait for a person, in the grading queue.
  r.use("/grading/*", requireUser);
  r.get(
    "/grading/attempts",
    op({
      summary:
        "The grading queue's test attempts: the tenant's attempts in grading (never the caller's own), oldest first, each with how many answers wait for a person. 403 to a caller who does not grade",
      errors: { 403: "The caller does not grade (gradingForbidden)" },
    }),
    async (c) => c.json(await quizGradingQueue(c.var.db, c.var.user)),
  );
  r.get(
    "/grading/attempts/:id",
    op({
      summary:
        "One test attempt as its grader sees it: each item that needs a person with the learner's answer, its maximum and the score given so far. 404 to a caller who does not grade, for her own attempt or another tenant's",
    }),
    validParams(idParams),
    async (c) => c.json(await quizGradingAttempt(c.var.db, c.var.user, c.req.valid("param").id)),
  );
  r.use("/grading/attempts/:id/scores", limitWrites("command"));
  r.put(
    "/grading/attempts/:id/scores",
    op({
      summary:
        "Scores of answers that wait for a person, by item ref, in one transaction: the attempt is scored again and done once none waits (its activity record and the course's progress). The same scores again answer the attempt as it stands",
      errors: {
        400: "An unknown item, or a score above the item's maximum (scores.<ref>)",
        409: "The item is scored by the server or was not answered, or the attempt is not in grading",
      },
    }),
    validParams(idParams),
    validJson(scoreAnswersSchema),
    async (c) =>
      c.json(await scoreAnswers(c.var.db, c.var.user, c.req.valid("param").id, c.req.valid("json").scores, c.var.now)),
  );
  return r;
}

/** Decision 068: a file sent as an upload's answer (under /lms-storage/v1), to its learner and her graders. */
export function assessmentFileRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/assessment-files/*", requireUser);
  r.on(
    ["GET", "HEAD"],
    "/assessment-files/:id",
    op({
      summary:
        "A file a learner sent as a test's upload answer: to her, and to the graders (Instructors, Administrators) of her tenant once the attempt is submitted; 404 to anyone else. PDF and images inline, other files as attachment; HEAD reads its size",
      file: true,
      notShown: true,
    }),
    validParams(idParams),
    async (c) => {
      const row = await readableAnswerFile(c.var.db, c.var.user, c.req.valid("param").id);
      if (!row) throw notFound("file");
      return sendKeptFile(c, fileStore(c.var.deps), row);
    },
  );
  return r;
}
