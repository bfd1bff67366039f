// Commands: what a command (spec 7.7) does inside the transaction `runCommand` gives it — check the rules, write,
// return the command's data; a refusal is an ApiError. This one: an attempt's lifecycle (spec 4.4, 4.5, 7.3).
import { and, eq, inArray } from "drizzle-orm";
import { availabilityBlock, canFinishAttempt, gradeObjective, retakeOffered } from "../../domain/lifecycle";
import { proctorLocked } from "../../domain/proctoring";
import {
  ActivityWorkflowState,
  HIDDEN_START_STATES,
  ObjectiveState,
  ObjectiveWorkflowState,
} from "../../domain/vocabulary";
import type { Principal } from "../context";
import { scheduleReinforcement } from "./reinforcement";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
} from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { iso } from "../mappers/common";
import { toWorkflow } from "../mappers/courses";
import { featureOn } from "../settings";
import { leafProgress, progressOf } from "../queries/activity-tree";
import { issueCertificate } from "../queries/certificates";
import { loadScales } from "../queries/grading-scales";
import { lastProctoringSessionOf } from "../queries/proctoring";
import { ownWorkflow } from "../queries/workflows";
import { attemptAccess, refuseLocked } from "../queries/activity-access";
import type { WorkMode } from "../../domain/groups";
import { finishGroupWork, joinGroupWork, lockGroupWork, recordJoinedFinishedWork } from "./group-work";
import { gradedByTool } from "../../domain/tool-grading";
import { handInSettings } from "../../domain/hand-ins";
import { DEFAULT_ATTACHMENT_RULES } from "../../domain/chat-attachments";

function conflict(code: string, text: string, params?: Record<string, string | number>) {
  return new ApiError(409, { "": [message(code, text, params)] });
}
function refused(code: string, text: string, params?: Record<string, string | number>) {
  return new ApiError(422, { "": [message(code, text, params)] });
}

/** Spec 4.8: a completed proctoring session ends the sitting; the attempt's activities stay as they are. */
async function refuseWhenProctorLocked(tx: Tx, wf: { id: string; state: ObjectiveWorkflowState }) {
  const session = await lastProctoringSessionOf(tx, wf.id);
  if (proctorLocked({ workflow: { state: wf.state }, session })) {
    throw conflict("proctoringLocked", "The proctored session of this course is over.");
  }
}

/** Spec 7.3 / 4.4: start (or retake) an objective workflow. The body id is the new workflow's id. */
export async function startObjectiveWorkflow(
  tx: Tx,
  user: Principal,
  body: { id: string; objectiveWorkflowAggregateId: string },
  now: Date,
) {
  const rows = await tx
    .select({ a: owa, o: objectives })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .where(and(eq(owa.id, body.objectiveWorkflowAggregateId), eq(owa.userId, user.id)))
    .for("update", { of: owa })
    .limit(1);
  const row = rows[0];
  if (!row) throw notFound("course");
  const { a, o } = row;
  if (HIDDEN_START_STATES.includes(o.state) || o.activityState === ObjectiveState.archived)
    throw refused("courseNotAvailable", "This course cannot be started.");
  const last = a.lastWorkflowId
    ? (await tx.select().from(objectiveWorkflows).where(eq(objectiveWorkflows.id, a.lastWorkflowId)).limit(1))[0]
    : null;
  if (last && last.state !== ObjectiveWorkflowState.finished)
    throw conflict("workflowInProgress", "The course is already started.");
  if (last) {
    const allowed = retakeOffered({
      workflow: { state: last.state },
      retake: a.retake,
      kind: o.activityKind,
      activityState: o.activityState,
      compositeRetake: await featureOn(tx, user.tenantId, "compositeRetake", true),
    });
    if (!allowed) throw conflict("retakeNotAllowed", "Starting this course again is not allowed.");
  }
  const block = availabilityBlock(
    { availabilityDate: iso(a.availabilityDate), availabilityEndDate: iso(a.availabilityEndDate) },
    now,
  );
  if (block) {
    throw refused(
      block.kind === "notYetAvailable" ? "notYetAvailable" : "availabilityEnded",
      block.kind === "notYetAvailable" ? `Available from ${block.date}.` : `Available until ${block.date}.`,
      { date: block.date },
    );
  }
  const [wf] = await tx
    .insert(objectiveWorkflows)
    .values({
      id: body.id,
      aggregateId: a.id,
      userId: user.id,
      objectiveId: o.id,
      attempt: (last?.attempt ?? 0) + 1,
      state: ObjectiveWorkflowState.inProgress,
      progress: 0,
      started: now,
    })
    .onConflictDoNothing()
    .returning();
  // The client chooses the new workflow's id; one that is already taken (by anyone) is not this command's.
  if (!wf)
    throw new ApiError(409, {
      id: [message("commandIdReused", "This command id was already used for another command.")],
    });
  await tx
    .update(owa)
    .set({ lastWorkflowId: wf.id, lastWorkflowState: ObjectiveWorkflowState.inProgress })
    .where(eq(owa.id, a.id));
  return { ...toWorkflow(wf), objectiveWorkflowAggregateId: a.id };
}

/**
 * Spec 7.3: start activity workflows of an attempt in progress (idempotent per workflow and part). Spec 4.12:
 * an activity the page shows locked cannot be started either — 403 with the lock reason (decision 018).
 */
export async function startActivityWorkflows(
  tx: Tx,
  user: Principal,
  objectiveWorkflowId: string,
  parts: string[],
  now: Date,
  mode?: WorkMode,
) {
  const wf = await ownWorkflow(tx, user.id, objectiveWorkflowId, true);
  if (wf.state !== ObjectiveWorkflowState.inProgress)
    throw conflict("workflowNotInProgress", "The course is not in progress.");
  await refuseWhenProctorLocked(tx, wf);
  const found = await tx
    .select({
      id: activityParts.id,
      supportCollaborativeMode: activities.supportCollaborativeMode,
      supportPersonalMode: activities.supportPersonalMode,
    })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(and(eq(activityParts.objectiveId, wf.objectiveId), inArray(activityParts.id, parts)));
  if (found.length !== parts.length)
    throw new ApiError(404, {
      activityPartIds: [message("notFound", "An activity was not found in this course.")],
    });
  // Draft and archived activities are locked as "coming soon" (spec 4.2), like every other lock.
  refuseLocked(await attemptAccess(tx, wf, now), parts);
  // Decision 026: a collaborative activity in group mode follows the group's one workflow of it.
  const links = await joinGroupWork(tx, user.id, wf.objectiveId, found, mode, now);
  const created = await tx
    .insert(activityWorkflows)
    .values(
      parts.map((activityPartId) => {
        const group = links.get(activityPartId);
        return {
          objectiveWorkflowId: wf.id,
          activityPartId,
          userId: user.id,
          state: group?.state ?? ActivityWorkflowState.inProgress,
          started: now,
          finished: group?.finished ?? null,
          groupActivityWorkflowId: group?.id ?? null,
        };
      }),
    )
    .onConflictDoNothing()
    .returning();
  if (links.size > 0 && created.some((r) => r.state !== ActivityWorkflowState.inProgress)) {
    await recordJoinedFinishedWork(tx, created, links, { userId: user.id, objectiveWorkflowId: wf.id });
    const progress = progressOf(await leafProgress(tx, wf.objectiveId, wf.id));
    await tx.update(objectiveWorkflows).set({ progress }).where(eq(objectiveWorkflows.id, wf.id));
  }
  const rows = await tx
    .select({
      id: activityWorkflows.id,
      activityPartId: activityWorkflows.activityPartId,
      state: activityWorkflows.state,
    })
    .from(activityWorkflows)
    .where(and(eq(activityWorkflows.objectiveWorkflowId, wf.id), inArray(activityWorkflows.activityPartId, parts)));
  return { objectiveWorkflowId: wf.id, activityWorkflows: rows };
}

/**
 * Spec 7.3: finish activity workflows (decision 018). A learner's finish records completion, never a score:
 * an ungraded activity (no maxScore) is finished without one; a graded one (a maxScore, or graded by a
 * person) waits in grading for its grader — a person, or the tool through LTI grading. Spec 4.12: a
 * locked activity cannot be finished (403).
 */
export async function finishActivityWorkflows(
  tx: Tx,
  user: Principal,
  objectiveWorkflowId: string,
  ids: string[],
  now: Date,
) {
  // Group work first (decision 026): members finishing at once queue on the group's workflow.
  await lockGroupWork(tx, user.id, objectiveWorkflowId, ids);
  const wf = await ownWorkflow(tx, user.id, objectiveWorkflowId, true);
  if (wf.state !== ObjectiveWorkflowState.inProgress)
    throw conflict("workflowNotInProgress", "The course is not in progress.");
  await refuseWhenProctorLocked(tx, wf);
  const rows = await tx
    .select({ aw: activityWorkflows, activity: activities })
    .from(activityWorkflows)
    .innerJoin(activityParts, eq(activityParts.id, activityWorkflows.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(and(eq(activityWorkflows.objectiveWorkflowId, wf.id), inArray(activityWorkflows.id, ids)));
  if (rows.length !== ids.length)
    throw new ApiError(404, {
      activityWorkflowIds: [message("notFound", "An activity workflow was not found.")],
    });
  const open = rows.filter(({ aw }) => aw.state === ActivityWorkflowState.inProgress);
  // The tool that grades an activity finishes it with its score; the learner cannot.
  if (open.some(({ activity }) => gradedByTool(activity)))
    throw conflict("gradedByTool", "This activity is done when its tool sends the result.");
  // Decision 048: an assignment that takes a hand-in is done when it is handed in.
  if (open.some(({ activity }) => handInSettings(activity, DEFAULT_ATTACHMENT_RULES)))
    throw conflict("handInRequired", "This activity is done when you hand it in.");
  // A QTI test or survey is done when the learner submits it (the server scores it).
  if (open.some(({ activity }) => (activity.content as { qti?: unknown } | null)?.qti))
    throw conflict("doneBySubmitting", "This activity is done when you submit your answers.");
  const finishedActivityIds = open.map(({ activity }) => activity.id);
  if (open.length > 0) {
    refuseLocked(
      await attemptAccess(tx, wf, now),
      open.map(({ aw }) => aw.activityPartId),
    );
    // Spec 1: one submission of a group's work counts for every member who has joined it.
    for (const { aw, activity } of open)
      if (aw.groupActivityWorkflowId) await finishGroupWork(tx, user.id, aw.groupActivityWorkflowId, activity, now);
    const personal = open.filter(({ aw }) => !aw.groupActivityWorkflowId);
    const graded = (a: typeof activities.$inferSelect) => a.maxScore !== null || a.manualGrading;
    const done = personal.filter(({ activity }) => !graded(activity)).map(({ aw }) => aw.id);
    const toGrade = personal.filter(({ activity }) => graded(activity)).map(({ aw }) => aw.id);
    if (done.length > 0)
      await tx
        .update(activityWorkflows)
        .set({ state: ActivityWorkflowState.finished, finished: now })
        .where(inArray(activityWorkflows.id, done));
    if (toGrade.length > 0)
      await tx
        .update(activityWorkflows)
        .set({ state: ActivityWorkflowState.inGrading, finished: now })
        .where(inArray(activityWorkflows.id, toGrade));
    if (personal.length > 0)
      await tx
        .insert(activityRecords)
        .values(
          personal.map(({ aw, activity }) => ({
            activityWorkflowId: aw.id,
            objectiveWorkflowId: wf.id,
            activityPartId: aw.activityPartId,
            userId: user.id,
            score: null,
            maxScore: activity.maxScore,
            passed: null,
            finished: now,
          })),
        )
        .onConflictDoNothing();
  }
  const progress = progressOf(await leafProgress(tx, wf.objectiveId, wf.id));
  await tx.update(objectiveWorkflows).set({ progress }).where(eq(objectiveWorkflows.id, wf.id));
  // Spec 2.8 / decision 021: a finished module's questions come back by e-mail at spaced intervals.
  await scheduleReinforcement(tx, {
    userId: user.id,
    objectiveId: wf.objectiveId,
    objectiveWorkflowId: wf.id,
    activityIds: finishedActivityIds,
    now,
  });
  return { objectiveWorkflowId: wf.id, progress };
}

/**
 * What submitting the attempt now would record (spec 4.5): its activities' scores, an activity not done
 * counting as no points and one awaiting a person as pending. The submission, its preview and a grader's
 * release of the last hand-in (decision 048) share it.
 */
export async function gradeAtSubmission(db: Db | Tx, wf: { id: string; objectiveId: string }) {
  const [objective] = await db.select().from(objectives).where(eq(objectives.id, wf.objectiveId));
  const leaves = await leafProgress(db, wf.objectiveId, wf.id);
  const [scale] = objective?.gradingScaleId ? await loadScales(db, [objective.gradingScaleId]) : [];
  const result = gradeObjective({
    activities: leaves.map(({ part, activity, aw, rec }) => ({
      scoreWeight: part.scoreWeight,
      optional: part.optional,
      maxScore: activity.maxScore,
      finished: !!aw && aw.state !== ActivityWorkflowState.inProgress,
      // Not done by the time of submission counts as no points; done but awaiting a person: pending.
      score: rec?.score ?? (aw && aw.state === ActivityWorkflowState.inGrading ? null : 0),
    })),
    scale: scale
      ? {
          maxScore: scale.maxScore,
          normalizedPassingScore: scale.normalizedPassingScore,
          grades: scale.objectiveGrades,
        }
      : null,
  });
  return { leaves, result, objective };
}

/** Spec 7.3 / 4.5: submit; grading makes the record at once (or waits for a person to grade). */
export async function submitObjectiveWorkflow(tx: Tx, user: Principal, objectiveWorkflowId: string, now: Date) {
  const wf = await ownWorkflow(tx, user.id, objectiveWorkflowId, true);
  if (wf.state !== ObjectiveWorkflowState.inProgress)
    throw conflict("workflowNotInProgress", "The course is not in progress.");
  // A sitting that is over locks the whole attempt — handing it in too — until the proctor or an
  // administrator unlocks it (decisions 010 and 024 let the learner submit; the page now offers nothing).
  await refuseWhenProctorLocked(tx, wf);
  const [agg] = await tx.select().from(owa).where(eq(owa.id, wf.aggregateId));
  const { leaves, result } = await gradeAtSubmission(tx, wf);
  const progress = progressOf(leaves);
  const pending = result.pending > 0;
  const state = pending ? ObjectiveWorkflowState.inGrading : ObjectiveWorkflowState.finished;
  const [record] = await tx
    .insert(objectiveRecords)
    .values({
      aggregateId: agg.id,
      workflowId: wf.id,
      userId: user.id,
      objectiveId: wf.objectiveId,
      score: result.score,
      maxScore: result.maxScore,
      normalizedScore: result.normalizedScore,
      gradeId: result.gradeId,
      passed: result.passed,
      finished: pending ? null : now,
      progress,
      protectResults: wf.protectResults,
    })
    .returning();
  const [updated] = await tx
    .update(objectiveWorkflows)
    .set({ state, progress, submitted: now, finished: pending ? null : now, objectiveRecordId: record.id })
    .where(eq(objectiveWorkflows.id, wf.id))
    .returning();
  await tx.update(owa).set({ lastWorkflowState: state, lastRecordId: record.id }).where(eq(owa.id, agg.id));
  // A passed attempt of a course with a certificate template earns its certificate in this transaction.
  await issueCertificate(tx, {
    objectiveId: wf.objectiveId,
    userId: user.id,
    objectiveRecordId: record.id,
    passed: record.passed,
    now,
  });
  return toWorkflow(updated);
}

/** Spec 7.3: finish a submitted/graded workflow (the domain's canFinishAttempt, decision 030); the answer replaces the client's copy. */
export async function finishObjectiveWorkflow(tx: Tx, user: Principal, objectiveWorkflowId: string, now: Date) {
  const wf = await ownWorkflow(tx, user.id, objectiveWorkflowId, true);
  if (wf.state === ObjectiveWorkflowState.finished)
    throw conflict("alreadyFinished", "The course is already finished.");
  if (!canFinishAttempt(wf)) throw conflict("cannotFinish", "The course cannot be finished in its current state.");
  const [updated] = await tx
    .update(objectiveWorkflows)
    .set({ state: ObjectiveWorkflowState.finished, finished: now })
    .where(eq(objectiveWorkflows.id, wf.id))
    .returning();
  if (wf.objectiveRecordId) {
    const [record] = await tx
      .update(objectiveRecords)
      .set({ finished: now })
      .where(eq(objectiveRecords.id, wf.objectiveRecordId))
      .returning({ id: objectiveRecords.id, passed: objectiveRecords.passed });
    // Graded by a person after submission: the certificate comes when the attempt is finished.
    if (record)
      await issueCertificate(tx, {
        objectiveId: wf.objectiveId,
        userId: user.id,
        objectiveRecordId: record.id,
        passed: record.passed,
        now,
      });
  }
  await tx.update(owa).set({ lastWorkflowState: ObjectiveWorkflowState.finished }).where(eq(owa.id, wf.aggregateId));
  return toWorkflow(updated);
}
