import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  activityPathPathSchema,
  createDiscussionPostSchema,
  discussionPageQuerySchema,
  discussionThreadSchema,
  type DiscussionPost,
  type DiscussionThread,
  type DiscussionThreadPost,
} from "../../domain/contract/discussions";
import type { ApiEnv } from "../context";
import type { Db } from "../db/client";
import {
  activities,
  activityParts,
  discussionPosts,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
  users,
} from "../db/schema";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { attemptRefusal } from "../queries/activity-access";
import { ApiError, message, notFound } from "../errors";
import { validJson, validParams, validQuery } from "../validate";
import { operations } from "../openapi";
import { limitWrites } from "../limit-writes";
import { ActivityKind, ActivityWorkflowState, ObjectiveWorkflowState } from "../../domain/vocabulary";
import { finishActivityWorkflows, startActivityWorkflows } from "../commands/workflows";

const op = operations("discussions");

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const READY = 2;
const EXPIRED = 3;

/**
 * requireUser, unless an earlier middleware of this request already signed the user in (another
 * route group's `/users/*` guard matches these paths too): one user lookup per request, not two.
 */
const signedIn = createMiddleware<ApiEnv>(async (c, next) => {
  if (c.get("user")) return next();
  return requireUser(c, next);
});

/**
 * The discussion part as the signed-in learner may see it: a discussion activity (kind 6) that is
 * ready or expired, in a course where the learner has a standing. Anything else is "not found",
 * so outsiders cannot tell a discussion from a missing one.
 */
async function discussionPart(db: Db | Tx, userId: string, partId: string) {
  const rows = await db
    .select({
      id: activityParts.id,
      state: activities.state,
      workflow: {
        id: objectiveWorkflows.id,
        objectiveId: objectiveWorkflows.objectiveId,
        aggregateId: objectiveWorkflows.aggregateId,
        state: objectiveWorkflows.state,
      },
    })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .innerJoin(owa, and(eq(owa.objectiveId, activityParts.objectiveId), eq(owa.userId, userId)))
    .leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId))
    .where(
      and(
        eq(activityParts.id, partId),
        eq(activities.kind, ActivityKind.discussion),
        inArray(activities.state, [READY, EXPIRED]),
      ),
    )
    .limit(1);
  if (!rows[0]) throw notFound("discussion");
  return rows[0];
}

/** Spec 4.12: a discussion is read and written only while it is open in the learner's current attempt. */
async function refuseWhenLocked(db: Db, part: Awaited<ReturnType<typeof discussionPart>>, now: Date) {
  const refusal = await attemptRefusal(db, part.workflow?.id ? part.workflow : null, part.id, now);
  if (refusal) throw refusal;
}

/** Post columns with the author's name (one join, no lookups per post). */
const postColumns = {
  id: discussionPosts.id,
  activityPartId: discussionPosts.activityPartId,
  parentPostId: discussionPosts.parentPostId,
  userId: discussionPosts.userId,
  body: discussionPosts.body,
  createdAt: discussionPosts.createdAt,
  firstName: users.firstName,
  lastName: users.lastName,
};
type PostRow = {
  id: string;
  activityPartId: string;
  parentPostId: string | null;
  userId: string;
  body: string;
  createdAt: Date;
  firstName: string;
  lastName: string;
};

function toPost(row: PostRow, viewerId: string): DiscussionPost {
  return {
    id: row.id,
    activityPathId: row.activityPartId,
    parentPostId: row.parentPostId,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    author: { id: row.userId, name: `${row.firstName} ${row.lastName}`.trim() },
    mine: row.userId === viewerId,
  };
}

export function discussionRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/users/me/activity-paths/*", signedIn);
  r.use("/create-discussion-posts", signedIn);
  r.use("/create-discussion-posts", limitWrites("post"));

  // The thread of a discussion: a page of top-level posts (newest first), each with all its replies
  // (oldest first). Four statements whatever the number of posts: access, page, count, replies.
  r.get(
    "/users/me/activity-paths/:activityPathId/discussion/posts",
    op({
      summary: "A discussion's thread: top-level posts newest first (query page, pageSize ≤ 50), each with all replies",
      response: discussionThreadSchema,
      notShown: true,
    }),
    validParams(activityPathPathSchema),
    validQuery(discussionPageQuerySchema),
    async (c) => {
      const { activityPathId } = c.req.valid("param");
      const { page, pageSize } = c.req.valid("query");
      const db = c.var.db;
      const viewerId = c.var.user.id;
      const part = await discussionPart(db, viewerId, activityPathId);
      await refuseWhenLocked(db, part, c.var.now);
      const topLevel = and(eq(discussionPosts.activityPartId, part.id), isNull(discussionPosts.parentPostId));
      const [rows, [{ n: totalCount }]] = await Promise.all([
        db
          .select(postColumns)
          .from(discussionPosts)
          .innerJoin(users, eq(users.id, discussionPosts.userId))
          .where(topLevel)
          .orderBy(desc(discussionPosts.createdAt), desc(discussionPosts.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(discussionPosts)
          .where(topLevel),
      ]);
      const ids = rows.map((p) => p.id);
      const replyRows = ids.length
        ? await db
            .select(postColumns)
            .from(discussionPosts)
            .innerJoin(users, eq(users.id, discussionPosts.userId))
            .where(and(eq(discussionPosts.activityPartId, part.id), inArray(discussionPosts.parentPostId, ids)))
            .orderBy(asc(discussionPosts.createdAt), asc(discussionPosts.id))
        : [];
      const replies = new Map<string, DiscussionPost[]>();
      for (const row of replyRows) {
        const list = replies.get(row.parentPostId!) ?? [];
        list.push(toPost(row, viewerId));
        replies.set(row.parentPostId!, list);
      }
      const data: DiscussionThreadPost[] = rows.map((row) => ({
        ...toPost(row, viewerId),
        replies: replies.get(row.id) ?? [],
      }));
      return c.json({
        activityPathId: part.id,
        open: part.state === READY,
        page,
        pageSize,
        totalCount,
        data,
      } satisfies DiscussionThread);
    },
  );

  // Write a post or a reply. Idempotent by the post id: a double-clicked submit makes one post.
  r.post(
    "/create-discussion-posts",
    op({
      summary: "Write a discussion post or reply (idempotent by id); 422 when the discussion is closed",
      command: true,
      errors: { 422: "The discussion is closed (discussionClosed)" },
      notShown: true,
    }),
    validJson(createDiscussionPostSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      const now = c.var.now;
      // Learners outside the course are refused before anything (not even a command) is recorded.
      await refuseWhenLocked(c.var.db, await discussionPart(c.var.db, user.id, body.activityPathId), now);
      return runCommand(c, { id: body.id, type: "create-discussion-post", body }, async (tx) => {
        const part = await discussionPart(tx, user.id, body.activityPathId);
        if (part.state !== READY)
          throw new ApiError(422, { "": [message("discussionClosed", "This discussion is closed.")] });
        let parentPostId: string | null = null;
        if (body.parentPostId) {
          const [parent] = await tx
            .select({ id: discussionPosts.id, parentPostId: discussionPosts.parentPostId })
            .from(discussionPosts)
            .where(and(eq(discussionPosts.id, body.parentPostId), eq(discussionPosts.activityPartId, part.id)))
            .limit(1);
          if (!parent)
            throw new ApiError(404, {
              parentPostId: [message("notFound", "The post was not found in this discussion.")],
            });
          // Replies are one level deep: a reply to a reply joins the same top-level post.
          parentPostId = parent.parentPostId ?? parent.id;
        }
        const [created] = await tx
          .insert(discussionPosts)
          .values({
            id: body.id,
            activityPartId: part.id,
            parentPostId,
            userId: user.id,
            body: body.body,
            createdAt: now,
          })
          .onConflictDoNothing()
          .returning();
        if (!created) throw new ApiError(409, { id: [message("commandIdReused", "This post id was already used.")] });
        // A discussion completes when the learner posts in it (its completion rule, domain/completion.ts):
        // started if she had not, then finished, in the post's own transaction.
        if (part.workflow?.id && part.workflow.state === ObjectiveWorkflowState.inProgress) {
          const started = await startActivityWorkflows(tx, user, part.workflow.id, [part.id], now);
          const open = started.activityWorkflows.filter((aw) => aw.state === ActivityWorkflowState.inProgress);
          if (open.length > 0)
            await finishActivityWorkflows(
              tx,
              user,
              part.workflow.id,
              open.map((aw) => aw.id),
              now,
            );
        }
        const [author] = await tx
          .select({ firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(eq(users.id, user.id));
        return toPost({ ...created, ...author }, user.id);
      });
    },
  );

  return r;
}
