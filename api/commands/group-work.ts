// Commands of team and mini-group activities (spec 1, 3, 7.3; decision 026): joining the group's one
// workflow of an activity, saving its shared answer, and the one submission that counts for all.
import { and, asc, eq, inArray } from "drizzle-orm";
import { groupForActivity, startMode, type WorkMode } from "../../domain/groups";
import { ActivityWorkflowState } from "../../domain/vocabulary";
import type { Tx } from "../db/client";
import {
  activities,
  activityRecords,
  activityWorkflows,
  groupActivityWorkflows as gaw,
  objectiveWorkflows,
} from "../db/schema";
import { ApiError, message } from "../errors";
import { leafProgress, progressOf } from "../queries/activity-tree";
import { candidateGroups, ensureGroupWorkflow, recordContribution } from "../queries/group-work";
import { scheduleReinforcement } from "./reinforcement";

type GroupWorkflow = typeof gaw.$inferSelect;

/**
 * The group workflow each part is started in (a part missing from the map is started in personal mode).
 * Spec 3: collaborative only → the group's; both → the learner's choice; no group where one is needed → 409.
 */
export async function joinGroupWork(
  tx: Tx,
  userId: string,
  objectiveId: string,
  parts: { id: string; supportCollaborativeMode: boolean; supportPersonalMode: boolean }[],
  mode: WorkMode | undefined,
  now: Date,
): Promise<Map<string, GroupWorkflow>> {
  const links = new Map<string, GroupWorkflow>();
  const collaborative = parts.filter((p) => p.supportCollaborativeMode);
  const candidates = collaborative.length > 0 ? await candidateGroups(tx, userId, objectiveId) : [];
  for (const part of parts) {
    const group = part.supportCollaborativeMode
      ? groupForActivity(candidates, { objectiveId, activityPartId: part.id })
      : null;
    const decided = startMode(part, mode, group !== null);
    if ("refused" in decided) {
      if (decided.refused === "noGroup")
        throw new ApiError(409, {
          "": [message("noGroup", "You are not in a team or mini-group for this activity.")],
        });
      throw new ApiError(422, {
        mode: [message("modeNotSupported", "This activity cannot be taken in this mode.")],
      });
    }
    if (decided.mode === "group" && group)
      links.set(part.id, await ensureGroupWorkflow(tx, group.id, part.id, userId, now));
  }
  return links;
}

/** A member who joins a group's work that is already submitted has its record at once (one result for all). */
export async function recordJoinedFinishedWork(
  tx: Tx,
  rows: { id: string; activityPartId: string; state: ActivityWorkflowState; finished: Date | null }[],
  links: Map<string, GroupWorkflow>,
  owner: { userId: string; objectiveWorkflowId: string },
) {
  const done = rows.filter((r) => r.state !== ActivityWorkflowState.inProgress);
  if (done.length === 0) return;
  await tx
    .insert(activityRecords)
    .values(
      done.map((r) => {
        const g = links.get(r.activityPartId)!;
        return {
          activityWorkflowId: r.id,
          objectiveWorkflowId: owner.objectiveWorkflowId,
          activityPartId: r.activityPartId,
          userId: owner.userId,
          score: g.score,
          maxScore: g.maxScore,
          passed: g.passed,
          finished: r.finished,
        };
      }),
    )
    .onConflictDoNothing();
}

/**
 * Locks the group workflows that the learner's activity workflows `ids` follow, before anything else
 * of the command is locked: two members finishing at once queue here, and the lock order (group work,
 * then attempts) is the same in every command, so they cannot deadlock.
 */
export async function lockGroupWork(tx: Tx, userId: string, objectiveWorkflowId: string, ids: string[]) {
  return tx
    .select({ id: gaw.id, state: gaw.state })
    .from(activityWorkflows)
    .innerJoin(gaw, eq(gaw.id, activityWorkflows.groupActivityWorkflowId))
    .where(
      and(
        eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflowId),
        eq(activityWorkflows.userId, userId),
        inArray(activityWorkflows.id, ids),
      ),
    )
    .orderBy(asc(gaw.id))
    .for("update", { of: gaw });
}

/**
 * The one submission of a group's work (spec 1: one submission counts for all): the group workflow
 * leaves "in progress" once — the update is guarded by its state, so of 20 members' finishes at once
 * one wins and the others find it done — and every member who has joined it gets the same state and
 * a record, with their attempt's progress. Returns whether this call was the one that submitted.
 */
export async function finishGroupWork(
  tx: Tx,
  userId: string,
  gawId: string,
  activity: Pick<typeof activities.$inferSelect, "id" | "maxScore" | "manualGrading">,
  now: Date,
): Promise<boolean> {
  const graded = activity.maxScore !== null || activity.manualGrading;
  const state = graded ? ActivityWorkflowState.inGrading : ActivityWorkflowState.finished;
  const [won] = await tx
    .update(gaw)
    .set({ state, finished: now, finishedBy: userId, maxScore: activity.maxScore })
    .where(and(eq(gaw.id, gawId), eq(gaw.state, ActivityWorkflowState.inProgress)))
    .returning({ id: gaw.id });
  if (!won) return false;
  await recordContribution(tx, gawId, userId, "submitted", now);
  const members = await tx
    .update(activityWorkflows)
    .set({ state, finished: now })
    .where(
      and(
        eq(activityWorkflows.groupActivityWorkflowId, gawId),
        eq(activityWorkflows.state, ActivityWorkflowState.inProgress),
      ),
    )
    .returning({
      id: activityWorkflows.id,
      objectiveWorkflowId: activityWorkflows.objectiveWorkflowId,
      activityPartId: activityWorkflows.activityPartId,
      userId: activityWorkflows.userId,
    });
  if (members.length === 0) return true;
  await tx
    .insert(activityRecords)
    .values(
      members.map((m) => ({
        activityWorkflowId: m.id,
        objectiveWorkflowId: m.objectiveWorkflowId,
        activityPartId: m.activityPartId,
        userId: m.userId,
        score: null,
        maxScore: activity.maxScore,
        passed: null,
        finished: now,
      })),
    )
    .onConflictDoNothing();
  // The other members' attempts move on too (the caller's own is updated by its command), in id order,
  // and their reinforcement questions of the activity are scheduled as the caller's are (spec 2.8).
  const others = members
    .filter((m) => m.userId !== userId)
    .sort((a, b) => (a.objectiveWorkflowId < b.objectiveWorkflowId ? -1 : 1));
  for (const m of others) {
    const [wf] = await tx
      .select({ objectiveId: objectiveWorkflows.objectiveId })
      .from(objectiveWorkflows)
      .where(eq(objectiveWorkflows.id, m.objectiveWorkflowId));
    if (!wf) continue;
    const progress = progressOf(await leafProgress(tx, wf.objectiveId, m.objectiveWorkflowId));
    await tx.update(objectiveWorkflows).set({ progress }).where(eq(objectiveWorkflows.id, m.objectiveWorkflowId));
    await scheduleReinforcement(tx, {
      userId: m.userId,
      objectiveId: wf.objectiveId,
      objectiveWorkflowId: m.objectiveWorkflowId,
      activityIds: [activity.id],
      now,
    });
  }
  return true;
}

/**
 * A member saves the group's shared answer, naming the version it started from: a newer save by a
 * teammate meanwhile → 409 with the group's text (nothing is overwritten unseen); the same text saved
 * twice by the same member (a double click) is one save.
 */
export async function saveGroupWork(
  tx: Tx,
  userId: string,
  current: GroupWorkflow,
  body: { text: string; version: number },
  now: Date,
): Promise<boolean> {
  if (current.state !== ActivityWorkflowState.inProgress)
    throw new ApiError(409, { "": [message("groupWorkSubmitted", "Your group has already submitted this activity.")] });
  if (body.version !== current.version) {
    if (current.updatedBy === userId && current.work.text === body.text && body.version === current.version - 1)
      return false;
    throw new ApiError(409, {
      text: [message("groupWorkChanged", "A teammate saved a newer version. Review it and save again.")],
    });
  }
  const [saved] = await tx
    .update(gaw)
    .set({ work: { text: body.text }, version: current.version + 1, updatedAt: now, updatedBy: userId })
    .where(and(eq(gaw.id, current.id), eq(gaw.version, body.version), eq(gaw.state, ActivityWorkflowState.inProgress)))
    .returning({ id: gaw.id });
  if (!saved) throw new ApiError(409, { text: [message("groupWorkChanged", "A teammate saved a newer version.")] });
  await recordContribution(tx, current.id, userId, "saved", now);
  return true;
}
