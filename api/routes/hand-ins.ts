import { Hono, type Context } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { approveHandIn, gradeHandIn, saveHandIn, submitHandIn, withdrawHandIn } from "../commands/hand-ins";
import {
  gradableHandIn,
  gradingHandIn,
  gradingQueue,
  handInActivity,
  learnerHandIn,
  readableHandInFile,
} from "../queries/hand-ins";
import { jsonBody, validJson, validParams, validQuery, idParams } from "../validate";
import { operations } from "../openapi";
import { limitWrites } from "../limit-writes";
import { attachmentRulesOf, removeStored, storeAttachments, type IncomingAttachment } from "../files/chat-attachments";
import { readUpload, sendKeptFile } from "../files/hand-in-files";
import { fileStore } from "../files/roots";
import { notFound } from "../errors";
import { log } from "../db/log";
import {
  approveHandInSchema,
  gradeHandInSchema,
  gradingQueueQuerySchema,
  HAND_IN_FILES_FIELD,
  handInPathSchema,
  handInTargetSchema,
  saveHandInSchema,
} from "../../domain/contract/hand-ins";
import type { AttachmentRules } from "../../domain/chat-attachments";
import type { LearnerNotifications } from "../../domain/contract/hand-ins";
import { markNotificationsRead, notificationsOf } from "../notifications/learner-notifications";

const notificationsPathSchema = z.object({ objectiveId: z.uuid() });

const op = operations("hand-ins and grading");
const isMultipart = (c: Context<ApiEnv>) => (c.req.header("content-type") ?? "").startsWith("multipart/form-data");

/**
 * A command whose files are written in its transaction after its rows, and removed when it does not
 * commit (decision 027's rule for chat attachments).
 */
async function withFiles(c: Context<ApiEnv>, run: (written: string[]) => Promise<Response>): Promise<Response> {
  const written: string[] = [];
  try {
    return await run(written);
  } catch (err) {
    await removeStored(fileStore(c.var.deps), written).catch((error: unknown) =>
      log().warn({ err: error, keys: written }, "hand-ins: files of a command that did not commit were not removed"),
    );
    throw err;
  }
}

/** Hand-ins (the learner) and grading (Instructors), decision 048. Thin handlers. */
export function handInRoutes() {
  const r = new Hono<ApiEnv>();
  for (const path of [
    "/users/me/objectives/:objectiveId/hand-ins/*",
    "/users/me/objectives/:objectiveId/notifications",
    "/grading/*",
    "/save-hand-ins",
    "/submit-hand-ins",
    "/withdraw-hand-ins",
    "/grade-hand-ins",
    "/approve-hand-ins",
  ])
    r.use(path, requireUser);
  for (const path of [
    "/save-hand-ins",
    "/submit-hand-ins",
    "/withdraw-hand-ins",
    "/grade-hand-ins",
    "/approve-hand-ins",
  ])
    r.use(path, limitWrites("chat"));

  r.get(
    "/users/me/objectives/:objectiveId/hand-ins/:activityPartId",
    op({
      summary:
        "The learner's hand-in of an activity of her current attempt: the activity's rules (text, files, limits, late, withdraw), the hand-in with its files, the released grade and comment, and earlier attempts' hand-ins",
      notShown: true,
    }),
    validParams(handInPathSchema),
    async (c) => {
      const { objectiveId, activityPartId } = c.req.valid("param");
      return c.json(await learnerHandIn(c.var.db, c.var.user, objectiveId, activityPartId, attachmentRulesOf(c)));
    },
  );

  // Decision 058: "your assignment was graded" in the course's hub; reading them marks them read.
  r.get(
    "/users/me/objectives/:objectiveId/notifications",
    op({
      summary:
        "The learner's notifications of a course (a released grade: the activity, score and maximum), newest first; reading marks them read",
      notShown: true,
    }),
    validParams(notificationsPathSchema),
    async (c) => {
      const { objectiveId } = c.req.valid("param");
      const rows = await notificationsOf(c.var.db, c.var.user.id, [objectiveId]);
      const marked = rows.some((n) => !n.read)
        ? await markNotificationsRead(c.var.db, c.var.user.id, objectiveId, c.var.now)
        : 0;
      return c.json({
        data: rows.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
        markedRead: marked > 0,
      } satisfies LearnerNotifications);
    },
  );

  r.post(
    "/save-hand-ins",
    op({
      summary: "Save the draft of a hand-in (text, files kept, new files); idempotent by id",
      description:
        "JSON, or multipart/form-data with files in `files` (checked by size, name and contents as chat attachments are; the activity may narrow the kinds, size and count). The caller's standing in the course and the activity are checked before a byte of a file is read. Refusals: 400 attachmentTooLarge, attachmentType, attachmentCount, handInNoText, handInNoFiles; 409 handInNotDraft, workflowNotInProgress",
      body: { type: "application/json", description: "The draft (text only)", schema: saveHandInSchema },
      multipart: { fields: saveHandInSchema, files: HAND_IN_FILES_FIELD },
      command: true,
      notShown: true,
    }),
    async (c) => {
      const user = c.var.user;
      const ceiling = attachmentRulesOf(c);
      let rules: AttachmentRules = ceiling;
      let settings: Awaited<ReturnType<typeof handInActivity>>["settings"] | null = null;
      const authorise = async (fields: { objectiveId: string; activityPartId: string }) => {
        ({ settings } = await handInActivity(c.var.db, user, fields.objectiveId, fields.activityPartId, ceiling));
        rules = settings.rules;
        return { rules, room: rules.maxCount };
      };
      let body;
      let files: IncomingAttachment[] = [];
      let fingerprint: unknown;
      if (isMultipart(c))
        ({ fields: body, files, fingerprint } = await readUpload(c, saveHandInSchema, ceiling, authorise));
      else {
        fingerprint = body = await jsonBody(c, saveHandInSchema);
        await authorise(body);
      }
      const fields = body;
      let removed: string[] = [];
      const answer = await withFiles(c, (written) =>
        runCommand(c, { id: fields.id, type: "save-hand-in", body: fingerprint }, async (tx) => {
          const saved = await saveHandIn(tx, user, fields, files, settings!, c.var.now);
          await storeAttachments(fileStore(c.var.deps), files, written);
          removed = saved.removedKeys;
          return { handInId: saved.handInId };
        }),
      );
      // The removed files' bytes go once their rows are gone for good; a failure leaves bytes nobody can reach.
      await removeStored(fileStore(c.var.deps), removed).catch((error: unknown) =>
        log().warn({ err: error, keys: removed }, "hand-ins: removed files were not deleted from the store"),
      );
      return answer;
    },
  );

  r.post(
    "/submit-hand-ins",
    op({
      summary: "Hand in the draft: the activity waits in grading; after the due date it is marked late, or refused",
      description: "Refusals: 400 handInEmpty; 409 handInNotDraft, handInAttemptNotInProgress, handInLateRefused",
      command: true,
      notShown: true,
    }),
    validJson(handInTargetSchema),
    async (c) => {
      const body = c.req.valid("json");
      return runCommand(c, { id: body.id, type: "submit-hand-in", body }, (tx) =>
        submitHandIn(tx, c.var.user, body, c.var.now),
      );
    },
  );

  r.post(
    "/withdraw-hand-ins",
    op({
      summary: "Withdraw a hand-in to edit it (until a grader starts, while the attempt is in progress)",
      description: "Refusal: 409 handInNotWithdrawable",
      command: true,
      notShown: true,
    }),
    validJson(handInTargetSchema),
    async (c) => {
      const body = c.req.valid("json");
      return runCommand(c, { id: body.id, type: "withdraw-hand-in", body }, (tx) =>
        withdrawHandIn(tx, c.var.user, body, c.var.now),
      );
    },
  );

  r.get(
    "/grading/hand-ins",
    op({
      summary:
        "The grading queue: the tenant's hand-ins awaiting grading (or in one state), oldest first, with the due date and late; with the courses and activities for the filters. 403 to a caller who does not grade",
      errors: { 403: "The caller does not grade (gradingForbidden)" },
      notShown: true,
    }),
    validQuery(gradingQueueQuerySchema),
    async (c) => c.json(await gradingQueue(c.var.db, c.var.user, c.req.valid("query"))),
  );

  r.get(
    "/grading/hand-ins/:id",
    op({
      summary:
        "One hand-in as its grader sees it: text, files, the grade so far and its version, earlier attempts, the audit of grading. 404 to a caller who does not grade",
      notShown: true,
    }),
    validParams(idParams),
    async (c) => c.json(await gradingHandIn(c.var.db, c.var.user, c.req.valid("param").id)),
  );

  r.post(
    "/grade-hand-ins",
    op({
      summary:
        "Save (draft) or release a grade: score within the activity's maximum, a comment, an optional feedback file; idempotent by id",
      description:
        "JSON, or multipart/form-data with a feedback file in `files`. `version` is the grading version the grade was written from: 409 gradingConflict when another grader saved in between (nothing is saved). A release records the activity's score and moves the attempt on (spec 4.1: graded, or gradingApproved once approved where the course asks for it), recomputing the course result and issuing the certificate when it passes. Refusals: 400 gradingScoreRange, gradingScoreRequired; 409 gradingConflict, gradingReleased",
      body: { type: "application/json", description: "The grade", schema: gradeHandInSchema },
      multipart: { fields: gradeHandInSchema, files: HAND_IN_FILES_FIELD },
      command: true,
      errors: { 409: "Another grader saved first, or the grade was released (gradingConflict, gradingReleased)" },
      notShown: true,
    }),
    async (c) => {
      const user = c.var.user;
      const ceiling = attachmentRulesOf(c);
      const authorise = async (fields: { handInId: string }) => {
        await gradableHandIn(c.var.db, user, fields.handInId);
        return { rules: ceiling, room: 1 };
      };
      let body;
      let files: IncomingAttachment[] = [];
      let fingerprint: unknown;
      if (isMultipart(c))
        ({ fields: body, files, fingerprint } = await readUpload(c, gradeHandInSchema, ceiling, authorise));
      else {
        fingerprint = body = await jsonBody(c, gradeHandInSchema);
        await authorise(body);
      }
      const fields = body;
      return withFiles(c, (written) =>
        runCommand(c, { id: fields.id, type: "grade-hand-in", body: fingerprint }, async (tx) => {
          const graded = await gradeHandIn(tx, user, fields, files, c.var.now);
          await storeAttachments(fileStore(c.var.deps), files, written);
          return graded;
        }),
      );
    },
  );

  r.post(
    "/approve-hand-ins",
    op({
      summary: "A second grader approves a released grade (where the course asks for approval)",
      description: "Refusals: 409 gradingApprovalNotRequired, gradingNotReleased, gradingSameGrader",
      command: true,
      notShown: true,
    }),
    validJson(approveHandInSchema),
    async (c) => {
      const body = c.req.valid("json");
      return runCommand(c, { id: body.id, type: "approve-hand-in", body }, (tx) =>
        approveHandIn(tx, c.var.user, body.handInId, c.var.now),
      );
    },
  );

  return r;
}

/** A hand-in's file (under /lms-storage/v1): to the learner, and to graders. */
export function handInFileRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/hand-in-files/*", requireUser);
  r.on(
    ["GET", "HEAD"],
    "/hand-in-files/:id",
    op({
      summary:
        "A hand-in's file: to the learner who handed it in (feedback files once released) and to graders of her tenant; 404 to anyone else. PDF and images inline, other files as attachment; HEAD reads its size",
      file: true,
      notShown: true,
    }),
    validParams(idParams),
    async (c) => {
      const row = await readableHandInFile(c.var.db, c.var.user, c.req.valid("param").id);
      if (!row) throw notFound("file");
      return sendKeptFile(c, fileStore(c.var.deps), row);
    },
  );
  return r;
}
