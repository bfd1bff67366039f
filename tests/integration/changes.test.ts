/**
 * Change notices (decision 019): a committed write that changes what the shell or a learner's lists
 * show reaches every node from the database — "user:<id>" for one user's data (enrolments, time
 * zone), "all" for what everyone sees (the tenant's settings, the catalog). Runs on PGlite (the
 * channel in process, and across the database thread) and on PostgreSQL (LISTEN/NOTIFY).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import type { Database } from "../../api/db/client";
import type { DataChange } from "../../domain/contract/changes";

const MARK = "00000000-0000-4000-8000-000000000000";

/** What a node hears: `hear` waits for a notice (PostgreSQL delivers it a moment after commit). */
function listen(database: Database) {
  const heard: DataChange[] = [];
  database.changes.subscribe((change) => heard.push(change));
  const hear = async (wanted: DataChange, within = 5_000) => {
    const deadline = Date.now() + within;
    const matches = (c: DataChange) =>
      c.kind === wanted.kind &&
      (c.kind === "all" ||
        (c.kind === "user" && wanted.kind === "user" && c.userId === wanted.userId) ||
        (c.kind === "chat" && wanted.kind === "chat" && c.channelId === wanted.channelId));
    while (!heard.some(matches)) {
      if (Date.now() > deadline) throw new Error(`no notice ${JSON.stringify(wanted)}; heard ${JSON.stringify(heard)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /** Sends a notice of its own and waits for it: everything sent before it has arrived (and LISTEN is on). */
  const drain = async () => {
    await database.changes.listening();
    await database.db.execute(sql`select pg_notify('learner_changes', ${`user:${MARK}`})`);
    await hear({ kind: "user", userId: MARK });
    heard.splice(
      heard.findIndex((c) => c.kind === "user" && c.userId === MARK),
      1,
    );
  };
  return { heard, hear, drain };
}

let t: TestApi;
let node: ReturnType<typeof listen>;
let heard: DataChange[];

beforeAll(async () => {
  t = await createTestApi();
  node = listen(t.database);
  heard = node.heard;
  await node.drain();
});
afterAll(() => t?.close());
const hear = (wanted: DataChange) => node.hear(wanted);
const drain = () => node.drain();
/** Hears out what earlier steps sent, then starts a clean list. */
const quiet = async () => {
  await drain();
  heard.length = 0;
};

describe("the database tells every node what changed", () => {
  it("an enrolment is news about that learner only", async () => {
    const [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
    const { access } = await createCourse(t.database.db, tenantId, { name: "Notices 101" });
    await quiet();
    const res = await t.request("POST", "/api/lms/v1/create-self-enrollments", {
      token: await t.token("ada"),
      body: { id: crypto.randomUUID(), objectiveAccessId: access.id },
      headers: { Prefer: "respond-sync" },
    });
    expect(res.status).toBe(200);
    await hear({ kind: "user", userId: t.users.ada });
    await drain();
    expect(heard.filter((c) => c.kind === "user" && c.userId === t.users.grace)).toEqual([]);
    expect(heard.filter((c) => c.kind === "all")).toEqual([]);
  });

  it("a time zone change is news about that user", async () => {
    await quiet();
    const res = await t.request("POST", "/api/platform/v1/users/me/timezone", {
      token: await t.token("grace"),
      body: { timezone: "Asia/Tokyo", commandId: crypto.randomUUID() },
      headers: { Prefer: "respond-sync" },
    });
    expect(res.status).toBe(200);
    await hear({ kind: "user", userId: t.users.grace });
  });

  it("a change of the tenant's settings is news for everyone", async () => {
    await quiet();
    await t.database.db.update(s.features).set({ enabled: false }).where(eq(s.features.name, "catalog"));
    await hear({ kind: "all" });
    await t.database.db.update(s.features).set({ enabled: true }).where(eq(s.features.name, "catalog"));
  });

  it("a write that is rolled back tells nobody", async () => {
    await quiet();
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.update(s.users).set({ timezone: "Europe/Oslo" }).where(eq(s.users.id, t.users.ada));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await drain();
    expect(heard.filter((c) => c.kind === "user" && c.userId === t.users.ada)).toEqual([]);
  });

  it("the API forgets a removed user at once: the token it knew gets 401, not the old answer", async () => {
    const token = await t.token("rita");
    expect((await t.request("GET", "/api/platform/v1/users/me", { token })).status).toBe(200);
    await quiet();
    await t.database.db.delete(s.users).where(eq(s.users.id, t.users.rita));
    await hear({ kind: "user", userId: t.users.rita });
    expect((await t.request("GET", "/api/platform/v1/users/me", { token })).status).toBe(401);
  });
});

describe("PGlite in the database thread (the server's default)", () => {
  it("passes the thread's notices to the main thread", async () => {
    const threaded = await createTestApi({ thread: true });
    try {
      const main = listen(threaded.database);
      await main.drain();
      const res = await threaded.request("POST", "/api/platform/v1/users/me/timezone", {
        token: await threaded.token("ada"),
        body: { timezone: "America/Lima", commandId: crypto.randomUUID() },
        headers: { Prefer: "respond-sync" },
      });
      expect(res.status).toBe(200);
      await main.hear({ kind: "user", userId: threaded.users.ada });
    } finally {
      await threaded.close();
    }
  });
});
