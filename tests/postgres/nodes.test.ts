/**
 * Several nodes on one PostgreSQL database behave as one (decision 019): they
 * start together without tripping over each other's migrations or seed, a command id is one command
 * whichever node gets it, and what a node remembers follows the other nodes' writes.
 * Only in the vitest project "postgres" (TEST_DATABASE_URL; docs/postgres-tests.md).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import { openDatabase, type Database } from "../../api/db/client";
import { seedIfEmpty } from "../../demo/seed";
import { seedOnStart } from "../../demo/seed-process";
import { localStore } from "../../api/files/object-store";
import * as s from "../../api/db/schema";
import { ReadCache } from "../../app/services/read-cache.server";
import type { DataChange } from "../../domain/contract/changes";
import { createTestApi, type TestApi, type TestNode } from "../fixtures/api";
import { createCourse } from "../fixtures/courses";
import { createPostgresDatabase, testDatabaseUrl } from "../fixtures/database";

const server = testDatabaseUrl();
if (!server) throw new Error("tests/postgres/* run in the vitest project 'postgres' (TEST_DATABASE_URL)");

const journal = JSON.parse(
  readFileSync(new URL("../../api/db/migrations/meta/_journal.json", import.meta.url), "utf8"),
);

describe("nodes started together on an empty database", () => {
  let empty: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const nodes: Database[] = [];
  beforeAll(async () => {
    empty = await createPostgresDatabase(server, { empty: true });
    for (let i = 0; i < 3; i++) nodes.push(await openDatabase({ databaseUrl: empty.url }));
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.close()));
    await empty?.drop();
  });

  it("run the migrations once: all three start, each migration is recorded once", async () => {
    // Without the advisory lock one of them died: duplicate key … (typname)=(commands).
    await Promise.all(nodes.map((n) => n.migrate()));
    const rows = await nodes[0].db.execute<{ n: number }>(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect(rows.rows[0].n).toBe(journal.entries.length);
    // A node started later finds nothing to do.
    await nodes[1].migrate();
    const again = await nodes[0].db.execute<{ n: number }>(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect(again.rows[0].n).toBe(journal.entries.length);
  });

  it("seed the demo once: one node seeds, the others find it done", async () => {
    const seeded = await Promise.all(nodes.map((n) => n.exclusive("seed", () => seedIfEmpty(n.db))));
    expect(seeded.filter(Boolean)).toHaveLength(1);
    const [{ n }] = await nodes[0].db.select({ n: count() }).from(s.tenants);
    expect(n).toBe(1);
    const emails = await nodes[0].db.select({ email: s.users.email }).from(s.users);
    expect(new Set(emails.map((e) => e.email)).size).toBe(emails.length);
  });

  it(
    "a node seeds from a child process, once: the others find it done (decision 038, addendum 11)",
    { timeout: 120_000 },
    async () => {
      const fresh = await createPostgresDatabase(server, { empty: true });
      const starting: Database[] = [];
      const dataDir = mkdtempSync(join(tmpdir(), "seed-nodes-"));
      try {
        for (let i = 0; i < 3; i++) starting.push(await openDatabase({ databaseUrl: fresh.url }));
        await Promise.all(starting.map((n) => n.migrate()));
        // What server.ts does at start; the child reads the node's environment.
        const env = { ...process.env, DATABASE_URL: fresh.url, DATA_DIR: dataDir };
        const store = localStore(join(dataDir, "storage"));
        const seeded = await Promise.all(starting.map((n) => seedOnStart(n, { accounts: true, store, env })));
        expect(seeded.filter(Boolean)).toHaveLength(1);
        const [{ n }] = await starting[0].db.select({ n: count() }).from(s.tenants);
        expect(n).toBe(1);
        // The demo accounts and their courses are there (README: ada@example.com).
        const [ada] = await starting[0].db
          .select({ id: s.users.id })
          .from(s.users)
          .where(eq(s.users.email, "ada@example.com"));
        expect(ada).toBeDefined();
        expect(await seedOnStart(starting[1], { accounts: true, store, env })).toBe(false);
      } finally {
        await Promise.all(starting.map((n) => n.close()));
        await fresh.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it("a node that holds a lock makes the others wait for it, not fail", async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = nodes[0].exclusive("test-lock", async () => {
      order.push("first in");
      await held;
      order.push("first out");
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = nodes[1].exclusive("test-lock", async () => void order.push("second"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual(["first in"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first in", "first out", "second"]);
  });
});

describe("two API nodes on one database", () => {
  let a: TestApi;
  let b: TestNode;
  let tenantId: string;
  beforeAll(async () => {
    a = await createTestApi();
    b = await a.otherNode();
    [{ id: tenantId }] = await a.database.db.select({ id: s.tenants.id }).from(s.tenants);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const enrol = async (node: { request: TestApi["request"] }, id: string, objectiveAccessId: string) =>
    node.request("POST", "/api/lms/v1/create-self-enrollments", {
      token: await a.token("ada"),
      body: { id, objectiveAccessId },
      headers: { Prefer: "respond-sync" },
    });
  const enrolments = async (objectiveId: string) =>
    a.database.db
      .select()
      .from(s.objectiveWorkflowAggregates)
      .where(
        and(
          eq(s.objectiveWorkflowAggregates.userId, a.users.ada),
          eq(s.objectiveWorkflowAggregates.objectiveId, objectiveId),
        ),
      );

  it("a command id sent to A and then to B makes one record, and B answers with A's outcome", async () => {
    const { objective, access } = await createCourse(a.database.db, tenantId, { name: "One command, two nodes" });
    const id = crypto.randomUUID();
    const onA = await enrol(a, id, access.id);
    const onB = await enrol(b, id, access.id);
    expect([onA.status, onB.status]).toEqual([200, 200]);
    expect(await onB.json()).toEqual(await onA.json());
    expect(await enrolments(objective.id)).toHaveLength(1);
    const commands = await a.database.db.select().from(s.commands).where(eq(s.commands.id, id));
    expect(commands).toHaveLength(1);
  });

  it("the same command id sent to both at once, ten times each, makes one record", async () => {
    const { objective, access } = await createCourse(a.database.db, tenantId, { name: "Twenty at once" });
    const id = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => enrol(i % 2 === 0 ? a : b, id, access.id)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(await enrolments(objective.id)).toHaveLength(1);
  });

  it("a write on A is what B's next read shows: B's remembered shell and lists are forgotten", async () => {
    // B's app: its read cache follows B's database connection, as the server wires it (decision 019).
    const cache = new ReadCache(b.database.changes);
    const heard: DataChange[] = [];
    b.database.changes.subscribe((change) => heard.push(change));
    await b.database.changes.listening();
    const token = await a.token("ada");
    const readShell = async () =>
      (
        await cache.shell("ada's session", false, async () => ({
          user: (await (await b.request("GET", "/api/platform/v1/users/me", { token })).json()) as {
            id: string;
            timezone: string | null;
          },
        }))
      ).user;
    const readShowcases = () =>
      cache.list("ada's session", a.users.ada, "/users/me/enrolled-showcases", async () =>
        (await b.request("GET", "/api/lms/v1/users/me/enrolled-showcases", { token })).json(),
      );
    const before = await readShell();
    const showcasesBefore = (await readShowcases()).data.map((x: { name: string }) => x.name);
    expect(showcasesBefore).not.toContain("Shown on every node");

    // On A: a new time zone and an enrolment in a course of a new collection.
    const { objective, access } = await createCourse(a.database.db, tenantId, { name: "Collected course" });
    const [showcase] = await a.database.db
      .insert(s.showcases)
      .values({ tenantId, name: "Shown on every node" })
      .returning();
    await a.database.db.insert(s.objectiveShowcases).values({ objectiveId: objective.id, showcaseId: showcase.id });
    expect((await readShell()).timezone).toBe(before.timezone); // B still remembers
    heard.length = 0;
    const sent = Date.now();
    const tz = await a.request("POST", "/api/platform/v1/users/me/timezone", {
      token,
      body: {
        timezone: before.timezone === "Asia/Tokyo" ? "Europe/Oslo" : "Asia/Tokyo",
        commandId: crypto.randomUUID(),
      },
      headers: { Prefer: "respond-sync" },
    });
    expect(tz.status).toBe(200);
    expect((await enrol(a, crypto.randomUUID(), access.id)).status).toBe(200);

    // The notice reaches B within moments of A's answer…
    while (!heard.some((c) => c.kind === "user" && c.userId === a.users.ada)) {
      expect(Date.now() - sent).toBeLessThan(2_000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // …and B's next reads show A's writes.
    expect((await readShell()).timezone).not.toBe(before.timezone);
    expect((await readShowcases()).data.map((x: { name: string }) => x.name)).toContain("Shown on every node");
  });
});

describe("chat on two nodes (issue 16 item 2, decision 027)", () => {
  let a: TestApi;
  let b: TestNode;
  beforeAll(async () => {
    a = await createTestApi();
    b = await a.otherNode();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("a message posted on A is heard on B at once (NOTIFY chat:<id>) and B reads it after the last number", async () => {
    const [{ id: tenantId }] = await a.database.db.select({ id: s.tenants.id }).from(s.tenants);
    const { objective } = await createCourse(a.database.db, tenantId, { announcementChannelId: crypto.randomUUID() });
    await a.database.db
      .insert(s.objectiveWorkflowAggregates)
      .values([a.users.ada, a.users.grace].map((userId) => ({ tenantId, userId, objectiveId: objective.id })));
    const path = `/api/lms/v1/users/me/objectives/${objective.id}/channels/chat/messages`;
    const grace = await a.token("grace");
    const before = (await (await b.request("GET", path, { token: grace })).json()) as { lastVersion: number };
    const heard: DataChange[] = [];
    b.database.changes.subscribe((change) => heard.push(change));
    await b.database.changes.listening();
    const posted = await a.request("POST", "/api/lms/v1/create-chat-messages", {
      token: await a.token("ada"),
      body: { id: crypto.randomUUID(), objectiveId: objective.id, channel: "chat", body: "hello from A" },
      headers: { Prefer: "respond-sync" },
    });
    expect(posted.status).toBe(200);
    const deadline = Date.now() + 5_000;
    while (!heard.some((c) => c.kind === "chat")) {
      if (Date.now() > deadline) throw new Error(`B heard no chat notice: ${JSON.stringify(heard)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const after = (await (await b.request("GET", `${path}?after=${before.lastVersion}`, { token: grace })).json()) as {
      data: { body: string }[];
    };
    expect(after.data.map((m) => m.body)).toEqual(["hello from A"]);
  });
});
