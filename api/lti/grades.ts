/**
 * Assignment and Grade Services 2.0 (issue 14 item 4, issue 32 item 3; decisions 023, 041): the line
 * items a tool sees in a course — the platform's own, one per graded resource link of the tool, and
 * the ones the tool made (§3.2) — the scores it posts (§3.4), which on a resource link's line item
 * become the learner's activity record, and the results it reads back (§3.3).
 */
import { and, asc, count, eq, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { ACTIVITY_PROGRESS, GRADING_PROGRESS, scoreOutcome } from "../../domain/lti";
import { ActivityWorkflowState, ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import {
  activityRecords,
  activityWorkflows,
  ltiLineItems,
  ltiResults,
  objectiveWorkflowAggregates,
  objectiveWorkflows,
} from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { leafProgress, progressOf } from "../queries/activity-tree";
import { learnerStanding, resourceLink, toolLinks } from "../queries/lti";
import type { LtiTool } from "./registry";

type Link = NonNullable<Awaited<ReturnType<typeof resourceLink>>>;
type ToolLineItem = typeof ltiLineItems.$inferSelect;

/** How many line items a tool may make in one course. */
const TOOL_LINE_ITEMS_MAX = 1000;

const refuse = (status: number, field: string, code: string, text: string) =>
  new ApiError(status, { [field]: [message(code, text)] });

/** AGS §3.2 line item of a resource link (the platform's own). */
function lineItem(link: Pick<Link, "part" | "activity">, contextUrl: string) {
  return {
    id: `${contextUrl}/line-items/${link.part.id}`,
    label: link.activity.name,
    scoreMaximum: link.activity.maxScore ?? 1,
    resourceLinkId: link.part.id,
  };
}

/** AGS §3.2 line item a tool made. */
function toolLineItem(item: ToolLineItem, contextUrl: string) {
  return {
    id: `${contextUrl}/line-items/${item.id}`,
    label: item.label,
    scoreMaximum: item.scoreMaximum,
    ...(item.resourceLinkId ? { resourceLinkId: item.resourceLinkId } : {}),
    ...(item.resourceId ? { resourceId: item.resourceId } : {}),
    ...(item.tag ? { tag: item.tag } : {}),
    ...(item.startDateTime ? { startDateTime: item.startDateTime.toISOString() } : {}),
    ...(item.endDateTime ? { endDateTime: item.endDateTime.toISOString() } : {}),
  };
}
export type LineItem = ReturnType<typeof toolLineItem>;

/** The tool's resource links in the course; none → 403 (a tool sees only courses that launch it). */
async function ownLinks(db: Db, tool: LtiTool, contextId: string) {
  const links = await toolLinks(db, contextId, tool.key);
  if (links.length === 0) throw refuse(403, "", "ltiOtherDeployment", "The tool has no resource link in this course.");
  return links;
}

/**
 * AGS §3.2.4: the line items of a course this tool may see — its graded resource links' and its own —
 * filtered by `resource_link_id`, `resource_id` and `tag` (exact matches). Two statements.
 */
export async function toolLineItems(
  db: Db,
  tool: LtiTool,
  contextId: string,
  contextUrl: string,
  filter: { resourceLinkId?: string; resourceId?: string; tag?: string },
): Promise<LineItem[]> {
  const [links, made] = await Promise.all([
    ownLinks(db, tool, contextId),
    db
      .select()
      .from(ltiLineItems)
      .where(and(eq(ltiLineItems.objectiveId, contextId), eq(ltiLineItems.toolKey, tool.key)))
      .orderBy(asc(ltiLineItems.createdAt), asc(ltiLineItems.id)),
  ]);
  const items: LineItem[] = [
    ...links
      .filter((l) => l.activity.supportLtiGrading)
      .sort((a, b) => a.part.axis.localeCompare(b.part.axis, "en", { numeric: true }))
      .map((l) => lineItem(l, contextUrl)),
    ...made.map((m) => toolLineItem(m, contextUrl)),
  ];
  return items.filter(
    (i) =>
      (filter.resourceLinkId === undefined || i.resourceLinkId === filter.resourceLinkId) &&
      (filter.resourceId === undefined || i.resourceId === filter.resourceId) &&
      (filter.tag === undefined || i.tag === filter.tag),
  );
}

export type OwnLineItem = { kind: "link"; link: Link } | { kind: "tool"; item: ToolLineItem };

/**
 * A line item of this tool by the id in its URL: one it made, or its resource link's. Another tool's is
 * refused with 403; anything else is 404. One statement each way, run together.
 */
export async function ownLineItem(db: Db, tool: LtiTool, contextId: string, id: string): Promise<OwnLineItem> {
  const [[made], link] = await Promise.all([
    db
      .select()
      .from(ltiLineItems)
      .where(and(eq(ltiLineItems.id, id), eq(ltiLineItems.objectiveId, contextId)))
      .limit(1),
    resourceLink(db, contextId, id),
  ]);
  const other = () => refuse(403, "", "ltiOtherDeployment", "This line item belongs to another tool's deployment.");
  if (made) {
    if (made.toolKey !== tool.key) throw other();
    return { kind: "tool", item: made };
  }
  if (!link || !link.activity.supportLtiGrading) throw notFound("line item");
  if ((link.activity.content as { tool?: unknown }).tool !== tool.key) throw other();
  return { kind: "link", link };
}

export function lineItemJson(own: OwnLineItem, contextUrl: string): LineItem {
  return own.kind === "link" ? lineItem(own.link, contextUrl) : toolLineItem(own.item, contextUrl);
}

/** AGS §3.2.7 line item as a tool sends it (POST, PUT); other properties are ignored. */
export const lineItemSchema = z
  .object({
    label: z.string().trim().min(1).max(500),
    scoreMaximum: z.number().positive().max(1e9),
    resourceLinkId: z.string().max(200).optional(),
    resourceId: z.string().max(500).optional(),
    tag: z.string().max(500).optional(),
    startDateTime: z.iso.datetime({ offset: true }).optional(),
    endDateTime: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((i) => !i.startDateTime || !i.endDateTime || Date.parse(i.startDateTime) <= Date.parse(i.endDateTime), {
    path: ["endDateTime"],
    message: "endDateTime is before startDateTime.",
  });
type LineItemBody = z.infer<typeof lineItemSchema>;

const dateOrNull = (s: string | undefined) => (s ? new Date(s) : null);

/** AGS §3.2.5: the tool makes a line item; a resource link it names must be one of its own here. */
export async function createLineItem(db: Db, tool: LtiTool, contextId: string, body: LineItemBody) {
  const links = await ownLinks(db, tool, contextId);
  if (body.resourceLinkId !== undefined && !links.some((l) => l.part.id === body.resourceLinkId))
    throw refuse(
      400,
      "resourceLinkId",
      "ltiResourceLink",
      "This resource link is not one of the tool's in this course.",
    );
  const [{ n }] = await db
    .select({ n: count() })
    .from(ltiLineItems)
    .where(and(eq(ltiLineItems.objectiveId, contextId), eq(ltiLineItems.toolKey, tool.key)));
  if (n >= TOOL_LINE_ITEMS_MAX)
    throw refuse(
      409,
      "",
      "ltiTooManyLineItems",
      `A tool may make at most ${TOOL_LINE_ITEMS_MAX} line items in a course.`,
    );
  const [item] = await db
    .insert(ltiLineItems)
    .values({
      objectiveId: contextId,
      toolKey: tool.key,
      label: body.label,
      scoreMaximum: body.scoreMaximum,
      resourceLinkId: body.resourceLinkId ?? null,
      resourceId: body.resourceId ?? null,
      tag: body.tag ?? null,
      startDateTime: dateOrNull(body.startDateTime),
      endDateTime: dateOrNull(body.endDateTime),
    })
    .returning();
  return item!;
}

const platformItem = () =>
  refuse(
    403,
    "",
    "ltiPlatformLineItem",
    "This is the platform's line item of a resource link: its label and maximum follow the activity, and it is removed only with the activity.",
  );

/**
 * AGS §3.2.6: the tool updates a line item it made (label, maximum, resource id, tag, dates); it stays
 * on its resource link. The platform's own line items are refused (403).
 */
export async function updateLineItem(db: Db, own: OwnLineItem, body: LineItemBody) {
  if (own.kind === "link") throw platformItem();
  if (body.resourceLinkId !== undefined && body.resourceLinkId !== (own.item.resourceLinkId ?? undefined))
    throw refuse(400, "resourceLinkId", "ltiResourceLink", "A line item stays on the resource link it was made for.");
  const [item] = await db
    .update(ltiLineItems)
    .set({
      label: body.label,
      scoreMaximum: body.scoreMaximum,
      resourceId: body.resourceId ?? null,
      tag: body.tag ?? null,
      startDateTime: dateOrNull(body.startDateTime),
      endDateTime: dateOrNull(body.endDateTime),
    })
    .where(eq(ltiLineItems.id, own.item.id))
    .returning();
  return item!;
}

/** AGS §3.2.8: the tool deletes a line item it made, and its results with it. */
export async function deleteLineItem(db: Db, own: OwnLineItem) {
  if (own.kind === "link") throw platformItem();
  await db.transaction(async (tx) => {
    await tx.delete(ltiResults).where(eq(ltiResults.lineItemId, own.item.id));
    await tx.delete(ltiLineItems).where(eq(ltiLineItems.id, own.item.id));
  });
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
type Score = z.infer<typeof scoreSchema>;

/** AGS §3.4: a score older than the one kept does not replace it — the tool is told, with 409. */
function refuseStale(kept: { timestamp: Date } | null | undefined, score: Score) {
  if (kept && kept.timestamp.getTime() > Date.parse(score.timestamp))
    throw refuse(
      409,
      "timestamp",
      "ltiStaleScore",
      `A later score (of ${kept.timestamp.toISOString()}) is on record for this learner; this one was not applied.`,
    );
}

/** The row kept of a score (the results service reads it). */
function resultRow(
  tool: LtiTool,
  lineItemId: string,
  objectiveId: string,
  objectiveWorkflowId: string | null,
  score: Score,
  result: { score: number | null; maximum: number },
  now: Date,
) {
  return {
    lineItemId,
    userId: score.userId,
    objectiveId,
    objectiveWorkflowId,
    toolKey: tool.key,
    scoreGiven: score.scoreGiven ?? null,
    scoreMaximum: score.scoreMaximum ?? null,
    resultScore: result.score,
    resultMaximum: result.maximum,
    comment: score.comment ?? null,
    activityProgress: score.activityProgress,
    gradingProgress: score.gradingProgress,
    timestamp: new Date(score.timestamp),
    received: now,
  };
}

const upsertResult = (db: Db | Parameters<Parameters<Db["transaction"]>[0]>[0], row: ReturnType<typeof resultRow>) =>
  db
    .insert(ltiResults)
    .values(row)
    .onConflictDoUpdate({ target: [ltiResults.lineItemId, ltiResults.userId], set: row });

/**
 * Applies a tool's score to the learner's current attempt: the record keeps the scaled score, the
 * activity finishes when the tool says so, and the course's progress follows (as a finish does). A
 * learner without an attempt at the course is 404; an attempt already submitted (or further), or one in
 * which the learner never opened the activity, is 409 with its reason; nothing is written then.
 */
export async function applyScore(db: Db, tool: LtiTool, link: Link, score: Score, now: Date) {
  if (score.scoreGiven != null && !score.scoreMaximum)
    throw new ApiError(400, { scoreMaximum: [message("required", "scoreMaximum is required with scoreGiven.")] });
  const outcome = scoreOutcome(score, link.activity.maxScore);
  return db.transaction(async (tx) => {
    const standing = await learnerStanding(tx, score.userId, link.objective.id, link.part.id);
    if (!standing) throw refuse(404, "userId", "notFound", "This user has no attempt at this course.");
    const { wf, aw, kept } = standing;
    if (wf.state !== ObjectiveWorkflowState.inProgress)
      throw refuse(
        409,
        "userId",
        "ltiAttemptSubmitted",
        `This learner's attempt was submitted${wf.submitted ? ` on ${wf.submitted.toISOString()}` : ""}; a score can no longer change it.`,
      );
    if (!aw)
      throw refuse(
        409,
        "userId",
        "ltiNotLaunched",
        "This learner has not opened this activity in the current attempt.",
      );
    if (kept?.objectiveWorkflowId === wf.id) refuseStale(kept, score);
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
    await upsertResult(
      tx,
      resultRow(
        tool,
        link.part.id,
        link.objective.id,
        wf.id,
        score,
        {
          score: outcome.score,
          maximum: link.activity.maxScore ?? 1,
        },
        now,
      ),
    );
    const progress = progressOf(await leafProgress(tx, wf.objectiveId, wf.id));
    await tx.update(objectiveWorkflows).set({ progress }).where(eq(objectiveWorkflows.id, wf.id));
    return { score: outcome.score, finished: outcome.finishes };
  });
}

/**
 * A score on a line item the tool made: kept as the learner's result on its scale (once fully graded),
 * for a learner enrolled in the course (404 otherwise); a later one on record is kept (409).
 */
export async function applyToolItemScore(db: Db, tool: LtiTool, item: ToolLineItem, score: Score, now: Date) {
  if (score.scoreGiven != null && !score.scoreMaximum)
    throw new ApiError(400, { scoreMaximum: [message("required", "scoreMaximum is required with scoreGiven.")] });
  const [row] = await db
    .select({ enrolled: objectiveWorkflowAggregates.id, kept: ltiResults })
    .from(objectiveWorkflowAggregates)
    .leftJoin(ltiResults, and(eq(ltiResults.lineItemId, item.id), eq(ltiResults.userId, score.userId)))
    .where(
      and(
        eq(objectiveWorkflowAggregates.userId, score.userId),
        eq(objectiveWorkflowAggregates.objectiveId, item.objectiveId),
      ),
    )
    .limit(1);
  if (!row) throw refuse(404, "userId", "notFound", "This user is not enrolled in this course.");
  refuseStale(row.kept, score);
  const outcome = scoreOutcome(score, item.scoreMaximum);
  await upsertResult(
    db,
    resultRow(tool, item.id, item.objectiveId, null, score, { score: outcome.score, maximum: item.scoreMaximum }, now),
  );
}

/**
 * AGS §3.3: a line item's results — the last score of each learner enrolled in the course, on the
 * line item's scale; on a resource link's line item only scores of the learner's current attempt (a
 * retake starts without one). Filter by `user_id`. One statement.
 */
export async function lineItemResults(db: Db, own: OwnLineItem, lineItemUrl: string, userId: string | undefined) {
  const id = own.kind === "link" ? own.link.part.id : own.item.id;
  const rows = await db
    .select({ r: ltiResults })
    .from(ltiResults)
    .innerJoin(
      objectiveWorkflowAggregates,
      and(
        eq(objectiveWorkflowAggregates.userId, ltiResults.userId),
        eq(objectiveWorkflowAggregates.objectiveId, ltiResults.objectiveId),
      ),
    )
    .where(
      and(
        eq(ltiResults.lineItemId, id),
        userId ? eq(ltiResults.userId, userId) : undefined,
        or(
          isNull(ltiResults.objectiveWorkflowId),
          eq(ltiResults.objectiveWorkflowId, sql`${objectiveWorkflowAggregates.lastWorkflowId}`),
        ),
      ),
    )
    .orderBy(asc(ltiResults.userId));
  return rows.map(({ r }) => ({
    id: `${lineItemUrl}/results/${r.userId}`,
    scoreOf: lineItemUrl,
    userId: r.userId,
    ...(r.resultScore !== null ? { resultScore: r.resultScore } : {}),
    resultMaximum: r.resultMaximum,
    ...(r.comment ? { comment: r.comment } : {}),
  }));
}
