import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { stableUuid } from "../../api/ids";
import { createLmsClient } from "../../app/services/lms.server";
import { enrol } from "../../app/services/course-lists.server";

/**
 * Spec 7.7 command ids, scoped to the user (issue 17 item 9, decision 018): an id another user learns or
 * derives cannot be claimed before its owner uses it; the same id with other input is a 409 at once.
 */
let t: TestApi;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApi();
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

const call = async (path: string, body: unknown, user: string, prefer = "respond-sync") =>
  t.request("POST", `/api/lms/v1/${path}`, { token: await t.token(user), body, headers: { Prefer: prefer } });

async function course(user: "ada" | "grace") {
  const db = t.database.db;
  const { objective, access } = await createCourse(db, tenantId, { activityKind: 3 });
  const tree = await createTree(db, tenantId, objective.id, [{ maxScore: null }]);
  const { aggregate } = await enrolUser(db, {
    tenantId,
    userId: t.users[user],
    objectiveId: objective.id,
    accessId: access.id,
  });
  return { objective, access, aggregate, ...tree };
}

describe("command ids belong to the user who sends them", () => {
  it("another user who derives the submit command's id cannot make the owner's submit fail", async () => {
    const c = await course("ada");
    const wfId = crypto.randomUUID();
    expect(
      (await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId }, "ada"))
        .status,
    ).toBe(200);
    // Grace learns the workflow id (a shared link) and sends its submit first: not hers, 404.
    expect((await call("submit-objective-workflows", { id: wfId }, "grace")).status).toBe(404);
    expect((await call("submit-objective-workflows", { id: wfId }, "grace")).status).toBe(404);
    // Ada's own submit still works, once.
    const submitted = await call("submit-objective-workflows", { id: wfId }, "ada");
    expect(submitted.status).toBe(200);
    expect((await submitted.json()).data.state).toBe(6);
  });

  it("two users, one client command id: each gets their own command and their own status", async () => {
    const mine = await course("ada");
    const hers = await course("grace");
    const id = crypto.randomUUID();
    // Grace claims the id first, for her own enrolment …
    const first = await call("create-self-enrollments", { id, objectiveAccessId: hers.access.id }, "grace");
    expect(first.status).toBe(200);
    // … and Ada's command with the same id is still Ada's, and runs.
    const second = await call("create-self-enrollments", { id, objectiveAccessId: mine.access.id }, "ada");
    expect(second.status).toBe(200);
    expect((await second.json()).data).toMatchObject({ objectiveAccessId: mine.access.id });
    // The status resource answers each with their own command; nobody reads another's.
    const status = async (user: string) =>
      (await t.request("GET", `/api/lms/v1/commands/${id}`, { token: await t.token(user) })).json();
    expect((await status("ada")).data).toMatchObject({ objectiveAccessId: mine.access.id });
    expect((await status("grace")).data).toMatchObject({ objectiveAccessId: hers.access.id });
    expect((await t.request("GET", `/api/lms/v1/commands/${id}`, { token: await t.token("rita") })).status).toBe(404);
    const rows = await t.database.db.select().from(s.commands).where(eq(s.commands.id, id));
    expect(rows.map((r) => r.userId).sort()).toEqual([t.users.ada, t.users.grace].sort());
  });

  it("a client-chosen workflow id another user already took is a 409, not a server error", async () => {
    const hers = await course("grace");
    const mine = await course("ada");
    const id = crypto.randomUUID();
    expect(
      (await call("start-objective-workflows", { objectiveWorkflowAggregateId: hers.aggregate.id, id }, "grace"))
        .status,
    ).toBe(200);
    const res = await call("start-objective-workflows", { objectiveWorkflowAggregateId: mine.aggregate.id, id }, "ada");
    expect(res.status).toBe(409);
    expect((await res.json()).errors.id[0].code).toBe("commandIdReused");
  });

  it("a derived id is the same for everyone, and still each user's own: 20 users' worth of squatting changes nothing", async () => {
    const c = await course("ada");
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId }, "ada");
    const derived = stableUuid(`start-aw:${wfId}:${c.partIds[0]}`);
    await t.database.db.insert(s.commands).values({
      id: derived,
      userId: t.users.grace,
      type: "start-activity-workflows",
      state: "failed",
      data: { status: 404 },
    });
    const res = await call(
      "start-activity-workflows",
      { objectiveWorkflowId: wfId, activityPartIds: c.partIds },
      "ada",
    );
    expect(res.status).toBe(200);
  });
});

describe("the same command id with other input", () => {
  it("is refused at once with 409, and the app's enrolment does not wait for a course it never gets", async () => {
    const a = await course("grace");
    const b = await course("grace");
    await t.database.db
      .delete(s.objectiveWorkflowAggregates)
      .where(
        and(
          eq(s.objectiveWorkflowAggregates.userId, t.users.grace),
          eq(s.objectiveWorkflowAggregates.objectiveId, b.objective.id),
        ),
      );
    const id = crypto.randomUUID();
    expect((await call("create-self-enrollments", { id, objectiveAccessId: a.access.id }, "grace")).status).toBe(200);
    const started = Date.now();
    const reused = await call("create-self-enrollments", { id, objectiveAccessId: b.access.id }, "grace");
    expect(reused.status).toBe(409);
    expect((await reused.json()).errors.id[0].code).toBe("commandIdReused");
    expect(Date.now() - started).toBeLessThan(1_000);

    // Through the app's client and its enrolment flow (spec 4.14: it waits up to 15 × 1.5 s for the
    // aggregate): the reused id answers at once, and no sleep happens.
    const token = await t.token("grace");
    const lms = createLmsClient({ accessToken: token, locale: "en-US", transport: (r) => t.api.fetch(r) });
    const sleeps: number[] = [];
    const result = await enrol(lms, b.objective.id, id, async (ms) => void sleeps.push(ms));
    expect(result).toMatchObject({ ok: false, reason: "refused", message: { code: "commandIdReused" } });
    expect(sleeps).toEqual([]);
  });
});
