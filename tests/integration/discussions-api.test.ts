import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { forgetPrincipals } from "../../api/auth";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { ActivityWorkflowState } from "../../domain/vocabulary";

let t: TestApi;
let clock = new Date("2026-03-01T09:00:00Z");
let tenantId: string;
let ada: string;
let grace: string;

async function request(
  method: string,
  path: string,
  init: { user?: "ada" | "grace" | "rita" | null; body?: unknown; prefer?: string } = {},
) {
  const token = init.user === null ? null : await t.token(init.user ?? "ada");
  return t.request(method, path, {
    token,
    body: init.body,
    headers: init.prefer ? { Prefer: init.prefer } : undefined,
  });
}

/** Each post a minute after the previous one, so "newest first" is unambiguous. */
function tick() {
  clock = new Date(clock.getTime() + 60_000);
  t.setNow(clock);
}

const write = async (
  user: "ada" | "grace" | "rita",
  body: { activityPathId: string; body: unknown; parentPostId?: string; id?: string },
  prefer = "respond-sync",
) => {
  tick();
  return request("POST", "/api/lms/v1/create-discussion-posts", {
    user,
    body: { id: crypto.randomUUID(), ...body },
    prefer,
  });
};
const thread = (user: "ada" | "grace" | "rita", partId: string, query = "") =>
  request("GET", `/api/lms/v1/users/me/activity-paths/${partId}/discussion/posts${query}`, { user });

/** A course whose first leaf is a discussion (kind 6), with Ada and Grace in an attempt; Rita is not enrolled. */
async function setup(
  leaves: Parameters<typeof createTree>[3] = [
    { name: "Discussion", kind: 6, maxScore: null },
    { name: "Reading", kind: 1 },
  ],
) {
  const db = t.database.db;
  const { objective, access } = await createCourse(db, tenantId);
  const { partIds } = await createTree(db, tenantId, objective.id, leaves);
  await enrolUser(db, { tenantId, userId: ada, objectiveId: objective.id, accessId: access.id }, { workflowState: 1 });
  await enrolUser(
    db,
    { tenantId, userId: grace, objectiveId: objective.id, accessId: access.id },
    { workflowState: 1 },
  );
  return { objective, partIds, discussion: partIds[0] };
}

const postsOf = (partId: string) =>
  t.database.db.select().from(s.discussionPosts).where(eq(s.discussionPosts.activityPartId, partId));

beforeAll(async () => {
  // This file writes about 40 posts as Ada within seconds; the post limit has its own test
  // (write-limits-api.test.ts).
  t = await createTestApi({ writeLimits: { post: { points: 1_000, durationSeconds: 60 } } });
  t.setNow(clock);
  ada = t.users.ada;
  grace = t.users.grace;
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

describe("discussions (activity kind 6)", () => {
  it("posts, replies and reads the thread: replies oldest first, one level deep, authors and mine", async () => {
    const c = await setup();
    const first = await write("ada", { activityPathId: c.discussion, body: "  Hello, class!\nSecond line  " });
    expect(first.status).toBe(200);
    const created = (await first.json()).data;
    expect(created).toMatchObject({
      activityPathId: c.discussion,
      parentPostId: null,
      body: "Hello, class!\nSecond line",
      author: { id: ada, name: "Ada Lovelace" },
      mine: true,
      createdAt: clock.toISOString(),
    });
    const reply = (
      await (await write("grace", { activityPathId: c.discussion, body: "Hi Ada", parentPostId: created.id })).json()
    ).data;
    expect(reply.parentPostId).toBe(created.id);
    // A reply to a reply joins the same top-level post.
    const nested = (
      await (await write("ada", { activityPathId: c.discussion, body: "Hi Grace", parentPostId: reply.id })).json()
    ).data;
    expect(nested.parentPostId).toBe(created.id);
    const later = (await (await write("grace", { activityPathId: c.discussion, body: "A new topic" })).json()).data;

    const res = await thread("ada", c.discussion);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ activityPathId: c.discussion, open: true, page: 1, pageSize: 20, totalCount: 2 });
    expect(body.data.map((p: { id: string }) => p.id)).toEqual([later.id, created.id]);
    expect(body.data[0]).toMatchObject({ author: { name: "Grace Hopper" }, mine: false, replies: [] });
    expect(body.data[1].replies.map((p: { id: string }) => p.id)).toEqual([reply.id, nested.id]);
    expect(body.data[1].replies[0]).toMatchObject({
      body: "Hi Ada",
      author: { id: grace, name: "Grace Hopper" },
      mine: false,
      parentPostId: created.id,
    });
    expect(body.data[1].replies[1]).toMatchObject({ body: "Hi Grace", mine: true });
    expect(new Date(body.data[1].createdAt).toISOString()).toBe(body.data[1].createdAt);

    // Grace reads the same thread; "mine" follows the reader.
    const asGrace = await (await thread("grace", c.discussion)).json();
    expect(asGrace.data[0].mine).toBe(true);
    expect(asGrace.data[1].mine).toBe(false);
  });

  it("answers respond-async with 202 and a status location that holds the created post", async () => {
    const c = await setup();
    const id = crypto.randomUUID();
    const res = await write("ada", { id, activityPathId: c.discussion, body: "Async" }, "respond-async");
    expect(res.status).toBe(202);
    const location = res.headers.get("Location")!;
    expect(location).toBe(`/api/lms/v1/commands/${id}`);
    const status = await (await request("GET", location)).json();
    expect(status).toMatchObject({ state: "completed", data: { id, body: "Async", mine: true } });
  });

  it("pages top-level posts newest first with the total count; replies do not count", async () => {
    const c = await setup();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++)
      ids.push((await (await write("ada", { activityPathId: c.discussion, body: `Post ${i}` })).json()).data.id);
    await write("grace", { activityPathId: c.discussion, body: "Reply", parentPostId: ids[0] });
    const page = async (q: string) =>
      (await (await thread("ada", c.discussion, q)).json()) as {
        totalCount: number;
        page: number;
        pageSize: number;
        data: { id: string; body: string; replies: unknown[] }[];
      };
    const p1 = await page("?page=1&pageSize=2");
    expect(p1).toMatchObject({ totalCount: 5, page: 1, pageSize: 2 });
    expect(p1.data.map((p) => p.body)).toEqual(["Post 5", "Post 4"]);
    expect((await page("?page=2&pageSize=2")).data.map((p) => p.body)).toEqual(["Post 3", "Post 2"]);
    const p3 = await page("?page=3&pageSize=2");
    expect(p3.data.map((p) => p.id)).toEqual([ids[0]]);
    expect(p3.data[0].replies).toHaveLength(1);
    expect((await page("?page=4&pageSize=2")).data).toEqual([]);
    expect((await page("")).data).toHaveLength(5);
    // pageSize is at most 50; page starts at 1.
    expect((await thread("ada", c.discussion, "?pageSize=51")).status).toBe(400);
    expect((await thread("ada", c.discussion, "?page=0")).status).toBe(400);
    expect((await thread("ada", c.discussion, "?pageSize=50")).status).toBe(200);
  });

  it("is idempotent by post id: twice in a row and 10 in parallel make one post", async () => {
    const c = await setup();
    const id = crypto.randomUUID();
    const a = await write("ada", { id, activityPathId: c.discussion, body: "Once" });
    const b = await write("ada", { id, activityPathId: c.discussion, body: "Once" });
    expect([a.status, b.status]).toEqual([200, 200]);
    const [first, second] = [(await a.json()).data, (await b.json()).data];
    expect(second).toEqual(first);
    expect(second.body).toBe("Once");
    // The same id with another text is another command: refused at once (decision 018), nothing changes.
    const other = await write("ada", { id, activityPathId: c.discussion, body: "Once, again" });
    expect(other.status).toBe(409);
    expect((await other.json()).errors.id[0].code).toBe("commandIdReused");

    const parallelId = crypto.randomUUID();
    tick();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        request("POST", "/api/lms/v1/create-discussion-posts", {
          user: "ada",
          body: { id: parallelId, activityPathId: c.discussion, body: "Parallel" },
          prefer: "respond-sync",
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const rows = await postsOf(c.discussion);
    expect(rows.map((r) => r.id).sort()).toEqual([id, parallelId].sort());
    // The same id used by someone else is a conflict, not a second post.
    expect((await write("grace", { id, activityPathId: c.discussion, body: "Mine now" })).status).toBe(409);
    expect(await postsOf(c.discussion)).toHaveLength(2);
  });

  it("refuses learners without a standing in the course (404) and writes nothing", async () => {
    const c = await setup();
    await write("ada", { activityPathId: c.discussion, body: "Members only" });
    expect((await thread("rita", c.discussion)).status).toBe(404);
    const id = crypto.randomUUID();
    const refused = await write("rita", { id, activityPathId: c.discussion, body: "Let me in" });
    expect(refused.status).toBe(404);
    expect((await refused.json()).errors[""][0].code).toBe("notFound");
    expect(await postsOf(c.discussion)).toHaveLength(1);
    expect(await t.database.db.select().from(s.commands).where(eq(s.commands.id, id))).toHaveLength(0);
    // Signed-out callers are refused before anything else.
    expect(
      (await request("GET", `/api/lms/v1/users/me/activity-paths/${c.discussion}/discussion/posts`, { user: null }))
        .status,
    ).toBe(401);
    expect(
      (
        await request("POST", "/api/lms/v1/create-discussion-posts", {
          user: null,
          body: { id, activityPathId: c.discussion, body: "x" },
        })
      ).status,
    ).toBe(401);
  });

  it("answers 404 for a part that is not a discussion, a draft discussion, or an unknown id", async () => {
    const c = await setup([
      { name: "Reading", kind: 1 },
      { name: "Draft discussion", kind: 6, state: 1, maxScore: null },
      { name: "Archived discussion", kind: 6, state: 4, maxScore: null },
    ]);
    for (const part of [...c.partIds, crypto.randomUUID()]) {
      expect((await thread("ada", part)).status).toBe(404);
      expect((await write("ada", { activityPathId: part, body: "Hello" })).status).toBe(404);
    }
    expect((await thread("ada", "not-a-uuid")).status).toBe(404);
    const rows = await t.database.db
      .select()
      .from(s.discussionPosts)
      .where(inArray(s.discussionPosts.activityPartId, c.partIds));
    expect(rows).toHaveLength(0);
  });

  it("an expired discussion can be read but not written (422 discussionClosed)", async () => {
    const c = await setup();
    await write("ada", { activityPathId: c.discussion, body: "Before the end" });
    const [part] = await t.database.db.select().from(s.activityParts).where(eq(s.activityParts.id, c.discussion));
    await t.database.db.update(s.activities).set({ state: 3 }).where(eq(s.activities.id, part.activityId));
    const read = await (await thread("ada", c.discussion)).json();
    expect(read).toMatchObject({ open: false, totalCount: 1 });
    const closed = await write("ada", { activityPathId: c.discussion, body: "Too late" });
    expect(closed.status).toBe(422);
    expect((await closed.json()).errors[""][0]).toMatchObject({ code: "discussionClosed" });
    expect(await postsOf(c.discussion)).toHaveLength(1);
  });

  it("refuses a parent post from another discussion (404) and writes nothing", async () => {
    const c = await setup([
      { name: "Discussion A", kind: 6, maxScore: null },
      { name: "Discussion B", kind: 6, maxScore: null },
    ]);
    const [a, b] = c.partIds;
    const inA = (await (await write("ada", { activityPathId: a, body: "In A" })).json()).data;
    const cross = await write("ada", { activityPathId: b, body: "Reply across", parentPostId: inA.id });
    expect(cross.status).toBe(404);
    expect((await cross.json()).errors.parentPostId[0].code).toBe("notFound");
    const unknown = await write("ada", {
      activityPathId: a,
      body: "Reply to nothing",
      parentPostId: crypto.randomUUID(),
    });
    expect(unknown.status).toBe(404);
    expect(await postsOf(b)).toHaveLength(0);
    expect(await postsOf(a)).toHaveLength(1);
  });

  it("validates the body: required (empty, blank, missing) and at most 5000 characters", async () => {
    const c = await setup();
    for (const body of ["", "   \n\t ", undefined]) {
      const res = await write("ada", { activityPathId: c.discussion, body });
      expect(res.status).toBe(400);
      expect((await res.json()).errors.body).toEqual([{ code: "required", message: "Field is required" }]);
    }
    const long = await write("ada", { activityPathId: c.discussion, body: "x".repeat(5001) });
    expect(long.status).toBe(400);
    expect((await long.json()).errors.body).toEqual([
      { code: "maxLength", message: "Maximum length is 5000", params: { length: 5000 } },
    ]);
    const bad = await write("ada", { id: "nope", activityPathId: c.discussion, body: "Hi" });
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()).errors)).toEqual(["id"]);
    expect(await postsOf(c.discussion)).toHaveLength(0);
    const exact = await write("ada", { activityPathId: c.discussion, body: "y".repeat(5000) });
    expect(exact.status).toBe(200);
    expect((await exact.json()).data.body).toHaveLength(5000);
  });

  it("stores and returns HTML in a body as plain text, unchanged", async () => {
    const c = await setup();
    const html = `<script>alert("x")</script>\n<b onclick='steal()'>bold</b> &amp; <img src=x onerror=alert(1)> & < >`;
    const created = (await (await write("ada", { activityPathId: c.discussion, body: html })).json()).data;
    expect(created.body).toBe(html);
    const [row] = await t.database.db
      .select()
      .from(s.discussionPosts)
      .where(and(eq(s.discussionPosts.id, created.id)));
    expect(row.body).toBe(html);
    const read = await (await thread("grace", c.discussion)).json();
    expect(read.data[0].body).toBe(html);
  });

  it("reads a page with a bounded number of queries, whatever the number of posts and replies", async () => {
    const c = await setup();
    const measure = async () => {
      forgetPrincipals();
      const before = t.database.queryCount();
      const res = await thread("ada", c.discussion, "?pageSize=50");
      expect(res.status).toBe(200);
      return t.database.queryCount() - before;
    };
    const post = (await (await write("ada", { activityPathId: c.discussion, body: "First" })).json()).data;
    await write("grace", { activityPathId: c.discussion, body: "Reply", parentPostId: post.id });
    const few = await measure();
    const db = t.database.db;
    const base = clock.getTime();
    const tops = Array.from({ length: 40 }, (_, i) => ({
      id: crypto.randomUUID(),
      activityPartId: c.discussion,
      userId: i % 2 ? ada : grace,
      body: `Bulk ${i}`,
      createdAt: new Date(base + i * 1000),
    }));
    await db.insert(s.discussionPosts).values(tops);
    await db.insert(s.discussionPosts).values(
      tops.flatMap((p, i) =>
        [0, 1, 2].map((k) => ({
          id: crypto.randomUUID(),
          activityPartId: c.discussion,
          parentPostId: p.id,
          userId: k % 2 ? ada : grace,
          body: `Re ${i}.${k}`,
          createdAt: new Date(base + i * 1000 + k + 1),
        })),
      ),
    );
    const many = await measure();
    expect(many).toBe(few);
    // user lookup, access (with the attempt), the attempt's locks (course, tree), page, count, replies
    expect(many).toBeLessThanOrEqual(7);
    const body = await (await thread("ada", c.discussion, "?pageSize=50")).json();
    expect(body.totalCount).toBe(41);
    expect(body.data[0].replies).toHaveLength(3);
  });
});

describe("a discussion completes when the learner posts (its completion rule)", () => {
  it("her first post starts and finishes her activity workflow; a reply later changes nothing", async () => {
    const { discussion } = await setup();
    const mine = () =>
      t.database.db
        .select({ state: s.activityWorkflows.state, finished: s.activityWorkflows.finished })
        .from(s.activityWorkflows)
        .where(and(eq(s.activityWorkflows.activityPartId, discussion), eq(s.activityWorkflows.userId, ada)));
    expect(await mine()).toEqual([]);
    const res = await write("ada", { activityPathId: discussion, body: "My first thought" });
    expect(res.status).toBe(200);
    const [done] = await mine();
    expect(done?.state).toBe(ActivityWorkflowState.finished);
    const post = (await res.json()) as { id: string };
    expect((await write("ada", { activityPathId: discussion, body: "And more", parentPostId: post.id })).status).toBe(
      200,
    );
    expect(await mine()).toHaveLength(1);
    // Grace has not posted: hers is not started.
    const graces = await t.database.db
      .select()
      .from(s.activityWorkflows)
      .where(and(eq(s.activityWorkflows.activityPartId, discussion), eq(s.activityWorkflows.userId, grace)));
    expect(graces).toEqual([]);
  });
});
