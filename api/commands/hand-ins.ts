// Commands: a learner's hand-in (save a draft, hand in, withdraw) and a grader's grading (save, release,
// approve) — decision 048. Each runs inside the transaction `runCommand` gives it; a refusal is an ApiError.
import { and, count, eq, inArray, sql } from "drizzle-orm";
import {
  approvalRefusal,
  attemptStateAfterGrading,
  canEditHandIn,
  canGrade,
  canWithdraw,
  gradeSettled,
  isLate,
  scoreRefusal,
  submitRefusal,
  type HandInSettings,
  type HandInState,
} from "../../domain/hand-ins";
import { ActivityWorkflowState, ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { GradeHandIn, HandInTarget } from "../../domain/contract/hand-ins";
import type { Principal } from "../context";
import type { Tx } from "../db/client";
import {
  activityRecords,
  activityWorkflows,
  handInFiles,
  handIns,
  handInGradingEvents,
  objectiveRecords,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
} from "../db/schema";
import { ApiError, message } from "../errors";
import { leafProgress, progressOf } from "../queries/activity-tree";
import { attemptAccess, refuseLocked } from "../queries/activity-access";
import { issueCertificate } from "../queries/certificates";
import { currentAttempt, gradableHandIn, handInActivity } from "../queries/hand-ins";
import { handInFileKey, sha256 } from "../files/hand-in-files";
import type { IncomingAttachment } from "../files/chat-attachments";
import { gradeAtSubmission, startActivityWorkflows } from "./workflows";
import { notifyGraded } from "../notifications/learner-notifications";

const refusal = (status: 400 | 403 | 409 | 422, code: string, text: string, field = "") =>
  new ApiError(status, { [field]: [message(code, text)] });

const SUBMIT_TEXTS = {
  notDraft: "This hand-in was already handed in.",
  attemptNotInProgress: "The course is not in progress.",
  empty: "Write your answer or add a file before handing in.",
  lateRefused: "The due date has passed: this assignment no longer takes hand-ins.",
} as const;

/** The learner's hand-in row of an activity of her current attempt, locked; null when there is none yet. */
async function ownHandIn(tx: Tx, userId: string, activityWorkflowId: string) {
  const [row] = await tx
    .select()
    .from(handIns)
    .where(and(eq(handIns.activityWorkflowId, activityWorkflowId), eq(handIns.userId, userId)))
    .for("update")
    .limit(1);
  return row ?? null;
}

const progressAfter = async (tx: Tx, wf: { id: string; objectiveId: string }) => {
  const progress = progressOf(await leafProgress(tx, wf.objectiveId, wf.id));
  await tx.update(objectiveWorkflows).set({ progress }).where(eq(objectiveWorkflows.id, wf.id));
  return progress;
};

/**
 * Saves the learner's draft: the text, the files she removes and the new files (their rows here, their
 * bytes by the caller in the same transaction). The activity workflow is started when it was not.
 * Returns the hand-in's id, the new files' keys to write and the removed files' keys to delete after commit.
 */
export async function saveHandIn(
  tx: Tx,
  user: Principal,
  input: { objectiveId: string; activityPartId: string; body: string; removeFileIds: string[] },
  files: IncomingAttachment[],
  settings: HandInSettings,
  now: Date,
) {
  const wf = await currentAttempt(tx, user, input.objectiveId, true);
  if (wf.state !== ObjectiveWorkflowState.inProgress)
    throw refusal(409, "workflowNotInProgress", "The course is not in progress.");
  refuseLocked(await attemptAccess(tx, wf, now), [input.activityPartId]);
  let [aw] = await tx
    .select()
    .from(activityWorkflows)
    .where(
      and(eq(activityWorkflows.objectiveWorkflowId, wf.id), eq(activityWorkflows.activityPartId, input.activityPartId)),
    );
  if (!aw) {
    await startActivityWorkflows(tx, user, wf.id, [input.activityPartId], now);
    [aw] = await tx
      .select()
      .from(activityWorkflows)
      .where(
        and(
          eq(activityWorkflows.objectiveWorkflowId, wf.id),
          eq(activityWorkflows.activityPartId, input.activityPartId),
        ),
      );
  }
  let row = await ownHandIn(tx, user.id, aw.id);
  if (!row) {
    [row] = await tx
      .insert(handIns)
      .values({
        id: crypto.randomUUID(),
        tenantId: user.tenantId,
        userId: user.id,
        objectiveId: input.objectiveId,
        activityPartId: input.activityPartId,
        objectiveWorkflowId: wf.id,
        activityWorkflowId: aw.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
  }
  if (!canEditHandIn(row.state, true))
    throw refusal(409, "handInNotDraft", "This hand-in was handed in: withdraw it to change it.");
  if (!settings.text && input.body.trim() !== "")
    throw refusal(400, "handInNoText", "This assignment takes files only.", "body");
  if (!settings.files && files.length > 0)
    throw refusal(400, "handInNoFiles", "This assignment takes no files.", "files");
  const removed =
    input.removeFileIds.length > 0
      ? await tx
          .delete(handInFiles)
          .where(
            and(
              eq(handInFiles.handInId, row.id),
              eq(handInFiles.role, "submission"),
              inArray(handInFiles.id, input.removeFileIds),
            ),
          )
          .returning({ key: handInFiles.storageKey })
      : [];
  const [{ kept }] = await tx
    .select({ kept: count() })
    .from(handInFiles)
    .where(and(eq(handInFiles.handInId, row.id), eq(handInFiles.role, "submission")));
  if (kept + files.length > settings.rules.maxCount)
    throw new ApiError(400, {
      files: [
        message("attachmentCount", `Attach at most ${settings.rules.maxCount} files.`, {
          count: settings.rules.maxCount,
        }),
      ],
    });
  for (const f of files) f.path = handInFileKey(row.id, f.id);
  if (files.length > 0)
    await tx.insert(handInFiles).values(
      files.map((f) => ({
        id: f.id,
        handInId: row.id,
        role: "submission" as const,
        name: f.name,
        size: f.size,
        kind: f.kind,
        sha256: sha256(f.bytes),
        storageKey: f.path,
        createdAt: now,
      })),
    );
  await tx.update(handIns).set({ body: input.body, updatedAt: now }).where(eq(handIns.id, row.id));
  return { handInId: row.id, removedKeys: removed.map((r) => r.key) };
}

/** Hands in the draft (spec 4.1: the activity waits in grading); late after the due date, or refused. */
export async function submitHandIn(tx: Tx, user: Principal, target: HandInTarget, now: Date) {
  const { activity, part, settings } = await handInActivity(tx, user, target.objectiveId, target.activityPartId);
  const wf = await currentAttempt(tx, user, target.objectiveId, true);
  const inProgress = wf.state === ObjectiveWorkflowState.inProgress;
  const [aw] = await tx
    .select()
    .from(activityWorkflows)
    .where(and(eq(activityWorkflows.objectiveWorkflowId, wf.id), eq(activityWorkflows.activityPartId, part.id)));
  const row = aw ? await ownHandIn(tx, user.id, aw.id) : null;
  if (inProgress) refuseLocked(await attemptAccess(tx, wf, now), [part.id]);
  const [{ files }] = row
    ? await tx
        .select({ files: count() })
        .from(handInFiles)
        .where(and(eq(handInFiles.handInId, row.id), eq(handInFiles.role, "submission")))
    : [{ files: 0 }];
  const due = (part.constraint as { due?: string | null }).due ?? null;
  const why = submitRefusal({
    state: row?.state ?? "draft",
    attemptInProgress: inProgress,
    settings,
    body: row?.body ?? "",
    fileCount: files,
    due,
    now,
  });
  if (why)
    throw refusal(why === "empty" ? 400 : 409, `handIn${why[0].toUpperCase()}${why.slice(1)}`, SUBMIT_TEXTS[why]);
  const late = isLate(due, now);
  await tx
    .update(handIns)
    .set({ state: "submitted", submittedAt: now, late, submissions: sql`${handIns.submissions} + 1`, updatedAt: now })
    .where(eq(handIns.id, row!.id));
  await tx
    .update(activityWorkflows)
    .set({ state: ActivityWorkflowState.inGrading, finished: now })
    .where(eq(activityWorkflows.id, aw!.id));
  await tx
    .insert(activityRecords)
    .values({
      activityWorkflowId: aw!.id,
      objectiveWorkflowId: wf.id,
      activityPartId: part.id,
      userId: user.id,
      score: null,
      maxScore: activity.maxScore,
      passed: null,
      finished: now,
    })
    .onConflictDoUpdate({
      target: activityRecords.activityWorkflowId,
      set: { score: null, maxScore: activity.maxScore, finished: now },
    });
  const progress = await progressAfter(tx, wf);
  return { handInId: row!.id, state: "submitted" as HandInState, submittedAt: now.toISOString(), late, progress };
}

/** "Withdraw and edit": back to a draft while no grader has started and the attempt is in progress. */
export async function withdrawHandIn(tx: Tx, user: Principal, target: HandInTarget, now: Date) {
  const { settings, part } = await handInActivity(tx, user, target.objectiveId, target.activityPartId);
  const wf = await currentAttempt(tx, user, target.objectiveId, true);
  const [aw] = await tx
    .select()
    .from(activityWorkflows)
    .where(and(eq(activityWorkflows.objectiveWorkflowId, wf.id), eq(activityWorkflows.activityPartId, part.id)));
  const row = aw ? await ownHandIn(tx, user.id, aw.id) : null;
  if (!row || !canWithdraw(row.state, wf.state === ObjectiveWorkflowState.inProgress, settings))
    throw refusal(409, "handInNotWithdrawable", "This hand-in can no longer be withdrawn.");
  await tx
    .update(handIns)
    .set({ state: "draft", submittedAt: null, late: false, updatedAt: now })
    .where(eq(handIns.id, row.id));
  await tx
    .update(activityWorkflows)
    .set({ state: ActivityWorkflowState.inProgress, finished: null })
    .where(eq(activityWorkflows.id, aw.id));
  await tx.delete(activityRecords).where(eq(activityRecords.activityWorkflowId, aw.id));
  const progress = await progressAfter(tx, wf);
  return { handInId: row.id, state: "draft" as HandInState, progress };
}

const gradingValues = (row: { state: HandInState; score: number | null; comment: string }) => ({
  state: row.state,
  score: row.score,
  comment: row.comment,
});

/**
 * A grader saves (draft) or releases a score and a comment, with optional feedback files (their rows
 * here, their bytes by the caller). `version` must be the current grading version: a second grader who
 * saved in between makes this a 409 and nothing is written. A release records the activity's score and
 * settles the attempt (spec 4.1).
 */
export async function gradeHandIn(
  tx: Tx,
  user: Principal,
  body: Omit<GradeHandIn, "score" | "release" | "version"> & {
    score: number | null;
    release: boolean;
    version: number;
  },
  files: IncomingAttachment[],
  now: Date,
) {
  const { row, activity, objective } = await gradableHandIn(tx, user, body.handInId, true);
  if (!canGrade(row.state)) throw refusal(409, "gradingReleased", "This grade was already released.");
  if (body.version !== row.gradingVersion)
    throw refusal(409, "gradingConflict", "Another grader saved this hand-in in the meantime: reload it and check.");
  const scoreWhy = scoreRefusal(body.score, activity.maxScore, body.release);
  if (scoreWhy)
    throw new ApiError(400, {
      score: [
        scoreWhy === "gradingScoreRequired"
          ? message(scoreWhy, "A score is needed to release the grade.")
          : message(scoreWhy, `The score must be between 0 and ${activity.maxScore ?? "the maximum"}.`, {
              max: activity.maxScore ?? 0,
            }),
      ],
    });
  const state: HandInState = body.release ? "graded" : "inGrading";
  const [updated] = await tx
    .update(handIns)
    .set({
      state,
      score: body.score,
      comment: body.comment ?? "",
      graderId: user.id,
      gradedAt: now,
      gradingVersion: row.gradingVersion + 1,
      ...(body.release ? { releasedAt: now, releasedBy: user.id } : {}),
      updatedAt: now,
    })
    .where(eq(handIns.id, row.id))
    .returning();
  for (const f of files) f.path = handInFileKey(row.id, f.id);
  if (files.length > 0)
    await tx.insert(handInFiles).values(
      files.map((f) => ({
        id: f.id,
        handInId: row.id,
        role: "feedback" as const,
        name: f.name,
        size: f.size,
        kind: f.kind,
        sha256: sha256(f.bytes),
        storageKey: f.path,
        createdAt: now,
      })),
    );
  await tx.insert(handInGradingEvents).values({
    handInId: row.id,
    actorId: user.id,
    action: body.release ? "release" : "saveDraft",
    before: gradingValues(row),
    after: { ...gradingValues(updated), ...(files.length > 0 ? { feedbackFiles: files.map((f) => f.name) } : {}) },
    at: now,
  });
  if (body.release) {
    await tx
      .update(activityRecords)
      .set({ score: body.score })
      .where(eq(activityRecords.activityWorkflowId, row.activityWorkflowId));
    await tx
      .update(activityWorkflows)
      .set({ state: ActivityWorkflowState.finished })
      .where(eq(activityWorkflows.id, row.activityWorkflowId));
    await settleAttempt(tx, row.objectiveWorkflowId, objective.gradingApproval, now);
    // Decision 058: the learner is told (hub, e-mail), once per released grade.
    await notifyGraded(
      tx,
      {
        userId: row.userId,
        itemId: row.id,
        objectiveId: row.objectiveId,
        activityPartId: row.activityPartId,
        score: body.score,
        maxScore: activity.maxScore,
      },
      now,
    );
  }
  return { handInId: row.id, state, version: updated.gradingVersion };
}

/** A second grader approves a released grade (spec 4.1 gradingApproved, where the course asks for it). */
export async function approveHandIn(tx: Tx, user: Principal, handInId: string, now: Date) {
  const { row, objective } = await gradableHandIn(tx, user, handInId, true);
  const why = approvalRefusal({
    state: row.state,
    approvalRequired: objective.gradingApproval,
    releasedBy: row.releasedBy,
    approver: user.id,
  });
  if (why)
    throw refusal(
      409,
      `grading${why[0].toUpperCase()}${why.slice(1)}`,
      why === "sameGrader"
        ? "A second grader approves: you released this grade."
        : why === "notReleased"
          ? "Only a released grade can be approved."
          : "This course does not ask for an approval.",
    );
  const [updated] = await tx
    .update(handIns)
    .set({
      state: "approved",
      approvedAt: now,
      approvedBy: user.id,
      gradingVersion: row.gradingVersion + 1,
      updatedAt: now,
    })
    .where(eq(handIns.id, row.id))
    .returning();
  await tx.insert(handInGradingEvents).values({
    handInId: row.id,
    actorId: user.id,
    action: "approve",
    before: gradingValues(row),
    after: gradingValues(updated),
    at: now,
  });
  await settleAttempt(tx, row.objectiveWorkflowId, true, now);
  return { handInId: row.id, state: "approved" as HandInState, version: updated.gradingVersion };
}

/**
 * After a release or an approval: an attempt still in progress only gains the activity's score; a
 * submitted one (in grading, or graded awaiting approval) is graded again — the record's score, grade
 * and passed — and moves on (spec 4.1), with its certificate once the grade is settled and passed; a
 * finished one whose result was left unresolved gets its result (and certificate) and stays finished.
 */
async function settleAttempt(tx: Tx, objectiveWorkflowId: string, approvalRequired: boolean, now: Date) {
  const [wf] = await tx
    .select()
    .from(objectiveWorkflows)
    .where(eq(objectiveWorkflows.id, objectiveWorkflowId))
    .for("update");
  if (!wf) return;
  if (wf.state === ObjectiveWorkflowState.inProgress) {
    await progressAfter(tx, wf);
    return;
  }
  if (!wf.objectiveRecordId) return;
  const { result } = await gradeAtSubmission(tx, wf);
  // Spec 4.1: a finished attempt whose result is unresolved (passed null) gets it once nothing is pending.
  if (wf.state === ObjectiveWorkflowState.finished) {
    const [kept] = await tx.select().from(objectiveRecords).where(eq(objectiveRecords.id, wf.objectiveRecordId));
    if (!kept || kept.passed !== null || result.pending > 0) return;
    const [record] = await tx
      .update(objectiveRecords)
      .set({
        score: result.score,
        maxScore: result.maxScore,
        normalizedScore: result.normalizedScore,
        gradeId: result.gradeId,
        passed: result.passed,
      })
      .where(eq(objectiveRecords.id, kept.id))
      .returning();
    await issueCertificate(tx, {
      objectiveId: wf.objectiveId,
      userId: wf.userId,
      objectiveRecordId: record.id,
      passed: record.passed,
      now,
    });
    return;
  }
  const settling: ObjectiveWorkflowState[] = [ObjectiveWorkflowState.inGrading, ObjectiveWorkflowState.graded];
  if (!settling.includes(wf.state)) return;
  const [{ unapproved }] = await tx
    .select({ unapproved: count() })
    .from(handIns)
    .where(and(eq(handIns.objectiveWorkflowId, wf.id), eq(handIns.state, "graded")));
  const next = attemptStateAfterGrading({ pending: result.pending, approvalRequired, unapproved });
  const state = ObjectiveWorkflowState[next];
  const [record] = await tx
    .update(objectiveRecords)
    .set({
      score: result.score,
      maxScore: result.maxScore,
      normalizedScore: result.normalizedScore,
      gradeId: result.gradeId,
      passed: result.passed,
    })
    .where(eq(objectiveRecords.id, wf.objectiveRecordId))
    .returning();
  await tx.update(objectiveWorkflows).set({ state }).where(eq(objectiveWorkflows.id, wf.id));
  await tx.update(owa).set({ lastWorkflowState: state }).where(eq(owa.id, wf.aggregateId));
  if (gradeSettled(next, approvalRequired))
    await issueCertificate(tx, {
      objectiveId: wf.objectiveId,
      userId: wf.userId,
      objectiveRecordId: record.id,
      passed: record.passed,
      now,
    });
}
