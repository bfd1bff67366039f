/**
 * Decision 012: the server runs the LMS API in the database thread, and PGlite keeps data
 * statements prepared there. The API must answer exactly as it does in process — bodies, statuses,
 * headers, errors, commands, files with ranges — and prepared statements must give the answers
 * PGlite's own query() gives, through rollbacks and schema changes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGliteThread } from "../../api/db/pglite-thread";
import * as s from "../../api/db/schema";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import { zipFolder } from "../../api/scorm/zip-folder";

describe("prepared statements in the database thread", () => {
  let thread: PGliteThread;
  beforeAll(async () => {
    thread = await PGliteThread.create("memory://");
    await thread.exec(
      "create table p (id int primary key, name text, at timestamptz, doc jsonb, flag boolean, tags text[])",
    );
  });
  afterAll(() => thread.close());

  it("answers a statement run many times (past the plan cache's threshold) like the first time", async () => {
    await thread.query("insert into p values ($1, $2, $3, $4, $5, $6)", [
      1,
      "one",
      "2026-11-22T10:00:00Z",
      JSON.stringify({ a: 1 }),
      true,
      ["x", "y"],
    ]);
    await thread.query("insert into p values ($1, $2, $3, $4, $5, $6)", [2, null, null, null, false, []]);
    const answers = [];
    for (let i = 0; i < 12; i++)
      answers.push(
        (await thread.query("select * from p where id = $1 or name = $2 order by id", [1 + (i % 2), "none"])).rows,
      );
    expect(answers[0]).toEqual([
      { id: 1, name: "one", at: "2026-11-22 10:00:00+00", doc: { a: 1 }, flag: true, tags: ["x", "y"] },
    ]);
    expect(answers[1]).toEqual([{ id: 2, name: null, at: null, doc: null, flag: false, tags: [] }]);
    for (let i = 2; i < 12; i++) expect(answers[i]).toEqual(answers[i % 2]);
    const arrays = await thread.query("select id, flag from p order by id", [], { rowMode: "array" });
    expect(arrays.rows).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(arrays.fields.map((f) => f.name)).toEqual(["id", "flag"]);
  });

  it("reports affected rows of writes and keeps errors' fields, then carries on", async () => {
    const updated = await thread.query("update p set name = $1 where id > $2", ["many", 0]);
    expect(updated.affectedRows).toBe(2);
    for (let i = 0; i < 3; i++) {
      await expect(thread.query("insert into p (id) values ($1)", [1])).rejects.toMatchObject({
        code: "23505",
        constraint: "p_pkey",
      });
      await expect(thread.query("select 1 / $1::int", [0])).rejects.toMatchObject({ code: "22012" });
    }
    expect(
      (await thread.query<{ n: number }>("select count(*)::int as n from p where name = $1", ["many"])).rows[0].n,
    ).toBe(2);
  });

  it("keeps statements prepared inside a transaction that rolled back", async () => {
    await expect(
      thread.transaction(async (tx) => {
        await tx.query("insert into p (id, name) values ($1, $2)", [3, "three"]);
        expect((await tx.query<{ n: number }>("select count(*)::int as n from p where id >= $1", [3])).rows[0].n).toBe(
          1,
        );
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    // The same statements again, outside: prepared before the rollback, still valid, nothing committed.
    expect((await thread.query<{ n: number }>("select count(*)::int as n from p where id >= $1", [3])).rows[0].n).toBe(
      0,
    );
    await thread.query("insert into p (id, name) values ($1, $2)", [3, "three"]);
    expect((await thread.query<{ n: number }>("select count(*)::int as n from p where id >= $1", [3])).rows[0].n).toBe(
      1,
    );
  });

  it("sees a table's new shape after DDL, by query() or by exec()", async () => {
    await thread.exec("create table shape (id int)");
    await thread.query("insert into shape values ($1)", [1]);
    expect((await thread.query("select * from shape")).rows).toEqual([{ id: 1 }]);
    await thread.query("alter table shape add column label text default 'a'");
    expect((await thread.query("select * from shape")).rows).toEqual([{ id: 1, label: "a" }]);
    await thread.exec("alter table shape drop column label; alter table shape add column n int default 7");
    expect((await thread.query("select * from shape")).rows).toEqual([{ id: 1, n: 7 }]);
  });

  it("refuses to start with an unknown PGLITE_PLAN_CACHE_MODE", async () => {
    const before = process.env.PGLITE_PLAN_CACHE_MODE;
    process.env.PGLITE_PLAN_CACHE_MODE = "sometimes";
    try {
      await expect(PGliteThread.create("memory://")).rejects.toThrow(/PGLITE_PLAN_CACHE_MODE must be one of/);
    } finally {
      if (before === undefined) delete process.env.PGLITE_PLAN_CACHE_MODE;
      else process.env.PGLITE_PLAN_CACHE_MODE = before;
    }
  });
});

describe("the LMS API in the database thread answers like the API in process", () => {
  let local: TestApi;
  let threaded: TestApi;
  let dataDir: string;
  const big = randomBytes(300_000);
  const fileIds: { small: string; big: string } = { small: "", big: "" };

  /** The same course, files and enrolment in both databases (ids differ; they are looked up by name). */
  async function prepare(t: TestApi) {
    const db = t.database.db;
    const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
    const { objective } = await createCourse(db, tenantId, { activityKind: 1 });
    const [small, large] = await db
      .insert(s.activities)
      .values([
        {
          tenantId,
          name: "Board pack",
          kind: 1,
          contentType: 3,
          content: { path: "private/board/2026-q2-board-pack.pdf", fileName: "pack.pdf", mimeType: "application/pdf" },
        },
        {
          tenantId,
          name: "Big file",
          kind: 1,
          contentType: 3,
          content: { path: "private/big.bin", fileName: "big.bin", mimeType: "application/octet-stream" },
        },
      ])
      .returning();
    await db.insert(s.activityParts).values([
      { objectiveId: objective.id, activityId: small.id, axis: "00" },
      { objectiveId: objective.id, activityId: large.id, axis: "01" },
    ]);
    // In an attempt: a file is an activity's content, open only in an attempt (decision 018).
    await enrolUser(db, { tenantId, userId: t.users.ada, objectiveId: objective.id }, { workflowState: 1 });
    return { small: small.id, big: large.id, objective: objective.id };
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "api-thread-"));
    mkdirSync(join(dataDir, "storage", "private"), { recursive: true });
    writeFileSync(join(dataDir, "storage", "private", "big.bin"), big);
    [local, threaded] = await Promise.all([
      createTestApi({ catalog: true, dataDir }),
      createTestApi({ catalog: true, dataDir, thread: true }),
    ]);
    await prepare(local);
    Object.assign(fileIds, await prepare(threaded));
  }, 180_000);
  afterAll(async () => {
    await Promise.all([local?.close(), threaded?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const both = async (
    method: string,
    path: string,
    init: { user?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    Promise.all(
      [local, threaded].map(async (t) => {
        const token = init.user === null ? null : await t.token(init.user ?? "ada");
        return t.request(method, path, { token, body: init.body, headers: init.headers });
      }),
    );

  /** JSON with ids, times and the fixture's numbered course names taken out: the databases were seeded separately. */
  const VARIES = [/^[0-9a-f-]{36}$/, /^\d{4}-\d\d-\d\d[T ]\d/, /^Course \d+$/, /^C-\d+$/];
  const shape = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (_key, v) =>
      typeof v === "string" && VARIES.some((re) => re.test(v)) ? "·" : v,
    );

  it("gives the same statuses, types and bodies for reads, errors and unknown endpoints", async () => {
    const cases: [string, string, { user?: string | null }?][] = [
      ["GET", "/api/platform/v1/users/me"],
      [
        "GET",
        "/api/lms/v1/objective-workflow-aggregates/query?skip=0&take=24&requireTotalCount=true&sort=objective.name",
      ],
      ["GET", "/api/lms/v1/objective-workflow-aggregates/query?filter=objective.name%20eq%20'x'%20or%20(("],
      ["GET", "/api/lms/v1/users/me/enrolled-showcases"],
      ["GET", `/api/lms/v1/objectives/${crypto.randomUUID()}/objective-workflow-aggregate`],
      ["GET", "/api/lms/v1/users/me/terms", { user: null }],
      ["GET", "/api/lms/v1/no-such-thing"],
      ["GET", "/api/openapi.json", { user: null }],
    ];
    for (const [method, path, init] of cases) {
      const [a, b] = await both(method, path, init);
      expect(b.status, path).toBe(a.status);
      expect(b.headers.get("content-type"), path).toBe(a.headers.get("content-type"));
      expect(b.headers.get("cache-control"), path).toBe(a.headers.get("cache-control"));
      expect(shape(await b.json()), path).toEqual(shape(await a.json()));
    }
  });

  it("takes JSON bodies: a self-enrolment command sent twice enrols once", async () => {
    const token = await threaded.token("ada");
    const list = await threaded.request(
      "GET",
      "/api/lms/v1/users/me/objective-accesses/query?skip=0&take=100&requireTotalCount=true&sort=objective.name",
      { token },
    );
    expect(list.status).toBe(200);
    const accesses = (
      (await list.json()) as {
        data: { id: string; enrolled: boolean; objective: { id: string; allowSelfEnrollment: boolean } }[];
      }
    ).data;
    const open = accesses.find((a) => a.objective.allowSelfEnrollment && !a.enrolled);
    expect(open).toBeDefined();
    const body = { id: crypto.randomUUID(), objectiveAccessId: open!.id };
    const send = () =>
      threaded.request("POST", "/api/lms/v1/create-self-enrollments", {
        token,
        body,
        headers: { Prefer: "respond-sync" },
      });
    const [first, again] = await Promise.all([send(), send()]);
    expect([first.status, again.status]).toEqual([200, 200]);
    const rows = await threaded.database.db
      .select({ id: s.objectiveWorkflowAggregates.id })
      .from(s.objectiveWorkflowAggregates)
      .where(
        and(
          eq(s.objectiveWorkflowAggregates.userId, threaded.users.ada),
          eq(s.objectiveWorkflowAggregates.objectiveId, open!.objective.id),
        ),
      );
    expect(rows).toHaveLength(1);
    const refused = await threaded.request("POST", "/api/lms/v1/create-self-enrollments", {
      token,
      body: "{not json",
      headers: { Prefer: "respond-sync" },
    });
    expect(refused.status).toBe(400);
  });

  it("streams a file larger than one chunk, whole and by range, and answers HEAD without a body", async () => {
    const token = await threaded.token("ada");
    const path = `/api/lms-storage/v1/activities/${fileIds.big}/file`;
    const whole = await threaded.request("GET", path, { token });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("application/octet-stream");
    expect(Buffer.from(await whole.arrayBuffer()).equals(big)).toBe(true);

    const part = await threaded.request("GET", path, { token, headers: { Range: "bytes=100000-199999" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100000-199999/${big.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(big.subarray(100_000, 200_000))).toBe(true);

    const head = await threaded.request("HEAD", path, { token });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(big.length);
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const pdf = await threaded.request("GET", `/api/lms-storage/v1/activities/${fileIds.small}/file`, { token });
    expect(pdf.status).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    expect((await threaded.request("GET", path, { token: await threaded.token("grace") })).status).toBe(403);
  });

  it("lets a reader stop a file halfway, and keeps answering afterwards", async () => {
    const token = await threaded.token("ada");
    const res = await threaded.request("GET", `/api/lms-storage/v1/activities/${fileIds.big}/file`, { token });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    const me = await threaded.request("GET", "/api/platform/v1/users/me", { token });
    expect(me.status).toBe(200);
  });

  /**
   * Issue 29 item 2: a body crosses into the thread as the API reads it. `bytes` of a body that
   * counts what was pulled from it (in 64 KB chunks, made as they are asked for).
   */
  function countedBody(bytes: number, source?: Uint8Array) {
    const read = { bytes: 0 };
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (read.bytes >= bytes) return controller.close();
          const size = Math.min(64 * 1024, bytes - read.bytes);
          controller.enqueue(source ? source.subarray(read.bytes, read.bytes + size) : new Uint8Array(size));
          read.bytes += size;
        },
      },
      { highWaterMark: 0 },
    );
    return { body, read };
  }

  it("reads nothing of an upload refused for who sends it (401, 403), and streams an author's package whole", async () => {
    const db = threaded.database.db;
    const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
    const { objective } = await createCourse(db, tenantId, { activityKind: 2, type: 9 });
    const [quiz] = await db
      .insert(s.activities)
      .values({ tenantId, name: "Quiz", kind: 2, contentType: 1, type: 9 })
      .returning();
    await db.insert(s.activityParts).values({ objectiveId: objective.id, activityId: quiz.id, axis: "0" });
    const path = `/api/scorm/v1/packages?course=${encodeURIComponent(objective.code)}&activity=${quiz.id}`;
    const headers = { "Content-Type": "application/zip" };
    const anonymous = countedBody(50 * 1024 * 1024);
    expect((await threaded.request("POST", path, { body: anonymous.body, headers })).status).toBe(401);
    const learner = countedBody(50 * 1024 * 1024);
    const token = await threaded.token("ada");
    expect((await threaded.request("POST", path, { token, body: learner.body, headers })).status).toBe(403);
    expect([anonymous.read.bytes, learner.read.bytes]).toEqual([0, 0]);
    const zip = readFileSync(zipFolder("demo/data/scorm/gifts-quiz-12", { "padding.bin": randomBytes(300_000) }));
    const author = countedBody(zip.length, zip);
    const res = await threaded.request("POST", path, {
      token: await threaded.token("admin"),
      body: author.body,
      headers,
    });
    expect(res.status).toBe(201);
    expect(author.read.bytes).toBe(zip.length);
    expect(await res.json()).toMatchObject({ version: "1.2", scoCount: 1 });
  });

  it("reads nothing of an anonymous chat post with files", async () => {
    const post = countedBody(20 * 1024 * 1024);
    const res = await threaded.request("POST", "/api/lms/v1/create-chat-messages", {
      body: post.body,
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(res.status).toBe(401);
    expect(post.read.bytes).toBe(0);
  });
});
