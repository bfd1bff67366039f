import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { WRITE_LIMITS, type WriteKind } from "../../api/write-limits";

/**
 * Decision 018: every write of the API has a per-user limit a learner never meets and
 * a script does; over it, 429 with Retry-After and the `tooManyRequests` message, and nothing is written.
 */
let t: TestApi;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApi();
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

describe("with the production limits", () => {
  it("30 discussion posts in a burst: the first 20 are written, the rest are 429; another learner is not held back", async () => {
    const db = t.database.db;
    const { objective, access } = await createCourse(db, tenantId);
    const { partIds } = await createTree(db, tenantId, objective.id, [{ kind: 6, maxScore: null }]);
    for (const user of ["ada", "grace"] as const)
      await enrolUser(
        db,
        { tenantId, userId: t.users[user], objectiveId: objective.id, accessId: access.id },
        { workflowState: 1 },
      );
    const post = async (user: string, i: number) =>
      t.request("POST", "/api/lms/v1/create-discussion-posts", {
        token: await t.token(user),
        body: { id: crypto.randomUUID(), activityPathId: partIds[0], body: `Spam ${i}` },
        headers: { Prefer: "respond-sync" },
      });
    const started = Date.now();
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await post("ada", i));
    expect(Date.now() - started).toBeLessThan(WRITE_LIMITS.post.durationSeconds * 1000);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(WRITE_LIMITS.post.points);
    expect(statuses.slice(WRITE_LIMITS.post.points)).toEqual(Array(30 - WRITE_LIMITS.post.points).fill(429));
    const refused = answers.at(-1)!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(WRITE_LIMITS.post.durationSeconds);
    expect((await refused.json()).errors[""][0]).toMatchObject({ code: "tooManyRequests" });
    const rows = await db.select().from(s.discussionPosts).where(eq(s.discussionPosts.activityPartId, partIds[0]));
    expect(rows).toHaveLength(WRITE_LIMITS.post.points);
    expect((await post("grace", 0)).status).toBe(200);
  });

  it("a learner's pace never meets them: starting and finishing 25 activities one after another", async () => {
    const db = t.database.db;
    const { objective, access } = await createCourse(db, tenantId, { activityKind: 3 });
    const { partIds } = await createTree(
      db,
      tenantId,
      objective.id,
      Array.from({ length: 25 }, () => ({ maxScore: null })),
    );
    const { aggregate } = await enrolUser(db, {
      tenantId,
      userId: t.users.rita,
      objectiveId: objective.id,
      accessId: access.id,
    });
    const call = async (path: string, body: unknown) =>
      t.request("POST", `/api/lms/v1/${path}`, {
        token: await t.token("rita"),
        body,
        headers: { Prefer: "respond-sync" },
      });
    const wfId = crypto.randomUUID();
    expect(
      (await call("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: wfId })).status,
    ).toBe(200);
    for (const part of partIds) {
      const started = await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: [part] });
      expect(started.status).toBe(200);
      const [aw] = (await started.json()).data.activityWorkflows;
      expect(
        (await call("finish-activity-workflows", { objectiveWorkflowId: wfId, activityWorkflowIds: [aw.id] })).status,
      ).toBe(200);
    }
    expect((await call("submit-objective-workflows", { id: wfId })).status).toBe(200);
  });
});

describe("every write of the OpenAPI document is limited", () => {
  let tiny: TestApi;
  beforeAll(async () => {
    const limits = Object.fromEntries(
      Object.keys(WRITE_LIMITS).map((k) => [k, { points: 2, durationSeconds: 60 }]),
    ) as Record<WriteKind, { points: number; durationSeconds: number }>;
    tiny = await createTestApi({ writeLimits: limits });
  });
  afterAll(() => tiny.close());

  it("the third write in a row of each path is 429, whatever its body; reads are not counted", async () => {
    const doc = (await (await tiny.request("GET", "/api/openapi.json")).json()) as {
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    };
    // The limits are per user: every write that needs a signed-in user (security: bearer only). The
    // others are limited otherwise or not callers of a learner's: LTI tools (their service tokens), the
    // proctoring service (its start token), the analytics collector (visitors too).
    const signedIn = (security: Record<string, string[]>[]) =>
      security.length > 0 && security.every((s) => Object.keys(s).join() === "bearer");
    const writes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([m, op]) => (m === "post" || m === "put" || m === "patch" || m === "delete") && signedIn(op.security))
        .map(([m]) => [m.toUpperCase(), path] as const),
    );
    expect(writes.length).toBeGreaterThanOrEqual(20);
    const token = await tiny.token("ada");
    for (const [method, template] of writes) {
      await tiny.database.db.delete(s.rateLimits);
      const path = template.replace(/\{id\}/g, "me").replace(/\{(\w+)\}/g, () => crypto.randomUUID());
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await tiny.request(method, path, { token, body: { id: crypto.randomUUID() } })).status);
      expect(
        statuses.slice(0, 2).every((x) => x !== 429),
        `${method} ${template}: ${statuses}`,
      ).toBe(true);
      expect(statuses[2], `${method} ${template}`).toBe(429);
    }
    // Reads are not writes: many in a row are answered.
    for (let i = 0; i < 5; i++)
      expect((await tiny.request("GET", "/api/platform/v1/users/me", { token })).status).toBe(200);
  });
});
