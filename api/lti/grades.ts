/**
 * Assignment and Grade Services 2.0 (issue 14 item 4): line items (one per resource link of a tool
 * with `supportLtiGrading`) and the scores a tool posts, which become the learner's activity record.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { ACTIVITY_PROGRESS, GRADING_PROGRESS, scoreOutcome } from "../../domain/lti";
import { ActivityWorkflowState } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import { activityRecords, activityWorkflows, objectiveWorkflows } from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { leafProgress, progressOf } from "../queries/activity-tree";
import { learnerStanding, resourceLink, toolLinks } from "../queries/lti";
import type { LtiTool } from "./registry";

type Link = NonNullable<Awaited<ReturnType<typeof resourceLink>>>;

/** AGS §3.2 line item of a resource link. */
export function lineItem(link: Pick<Link, "part" | "activity">, contextUrl: string) {
  return {
    id: `${contextUrl}/line-items/${link.part.id}`,
    label: link.activity.name,
    scoreMaximum: link.activity.maxScore ?? 1,
    resourceLinkId: link.part.id,
  };
}

/** The line items of a course this tool may see: its own resource links that it grades. */
export async function toolLineItems(db: Db, tool: LtiTool, contextId: string, contextUrl: string) {
  const links = await toolLinks(db, contextId, tool.key);
  return links.filter((l) => l.activity.supportLtiGrading).map((l) => lineItem(l, contextUrl));
}

/** A line item of this tool; another tool's (another deployment's) is refused with 403. */
export async function ownLineItem(db: Db, tool: LtiTool, contextId: string, partId: string) {
  const link = await resourceLink(db, contextId, partId);
  if (!link || !link.activity.supportLtiGrading) throw notFound("line item");
  if ((link.activity.content as { tool?: unknown }).tool !== tool.key)
    throw new ApiError(403, {
      "": [message("ltiOtherDeployment", "This line item belongs to another tool's deployment.")],
    });
  return link;
}

/** AGS §3.4 Score. */
export const scoreSchema = z.object({
  userId: z.string().min(1).max(200),
  scoreGiven: z.number().min(0).max(1e9).nullable().optional(),
  scoreMaximum: z.number().positive().max(1e9).nullable().optional(),
  comment: z.string().max(4000).optional(),
  timestamp: z.iso.datetime({ offset: true }),
  activityProgress: z.enum(ACTIVITY_PROGRESS),
  gradingProgress: z.enum(GRADING_PROGRESS),
});

/**
 * Applies a tool's score to the learner's attempt in progress: the record keeps the scaled score,
 * the activity finishes when the tool says so, and the course's progress follows (as a finish does).
 */
export async function applyScore(db: Db, link: Link, score: z.infer<typeof scoreSchema>, now: Date) {
  if (score.scoreGiven != null && !score.scoreMaximum)
    throw new ApiError(400, { scoreMaximum: [message("required", "scoreMaximum is required with scoreGiven.")] });
  const outcome = scoreOutcome(score, link.activity.maxScore);
  return db.transaction(async (tx) => {
    const standing = await learnerStanding(tx, score.userId, link.objective.id, link.part.id);
    if (!standing?.aw)
      throw new ApiError(404, {
        userId: [message("notFound", "This learner has not launched this activity in an attempt in progress.")],
      });
    const { wf, aw } = standing;
    const finished = outcome.finishes ? (aw.finished ?? now) : aw.finished;
    if (outcome.finishes && aw.state !== ActivityWorkflowState.finished)
      await tx
        .update(activityWorkflows)
        .set({ state: ActivityWorkflowState.finished, finished })
        .where(eq(activityWorkflows.id, aw.id));
    if (outcome.finishes || outcome.score !== null)
      await tx
        .insert(activityRecords)
        .values({
          activityWorkflowId: aw.id,
          objectiveWorkflowId: wf.id,
          activityPartId: link.part.id,
          userId: score.userId,
          score: outcome.score,
          maxScore: link.activity.maxScore,
          passed: null,
          finished,
        })
        .onConflictDoUpdate({
          target: activityRecords.activityWorkflowId,
          set: { score: outcome.score, maxScore: link.activity.maxScore, finished },
        });
    const progress = progressOf(await leafProgress(tx, wf.objectiveId, wf.id));
    await tx.update(objectiveWorkflows).set({ progress }).where(eq(objectiveWorkflows.id, wf.id));
    return { score: outcome.score, finished: outcome.finishes };
  });
}
