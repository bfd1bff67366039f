/**
 * The database thread (decision 011): PGlite in a worker behaves like PGlite in the process for
 * everything drizzle and the API do — results, dates as text, JSON, errors with PostgreSQL's
 * fields, transactions that commit or roll back — and a data directory has one owner at a time.
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../api/db/client";
import { lockDataDir, startEarly, takeEarlyStart } from "../../api/db/pglite-start";
import { PGliteThread } from "../../api/db/pglite-thread";
import { seedDemo } from "../../demo/seed";
import { users } from "../../api/db/schema";

describe("PGlite in a worker thread", () => {
  let thread: PGliteThread;
  beforeAll(async () => {
    thread = await PGliteThread.create("memory://");
    await thread.exec("create table t (id int primary key, name text not null, at timestamptz, doc jsonb)");
  });
  afterAll(() => thread.close());

  it("answers queries in object and array mode, dates as text and JSON as values", async () => {
    await thread.query("insert into t values ($1, $2, $3, $4)", [
      1,
      "one",
      "2026-11-22T10:00:00Z",
      JSON.stringify({ a: [1, 2] }),
    ]);
    const objects = await thread.query<{ id: number; name: string; at: string; doc: unknown }>(
      "select * from t where id = $1",
      [1],
    );
    expect(objects.rows).toEqual([{ id: 1, name: "one", at: "2026-11-22 10:00:00+00", doc: { a: [1, 2] } }]);
    expect(objects.fields.map((f) => f.name)).toEqual(["id", "name", "at", "doc"]);
    const arrays = await thread.query("select id, name from t", [], { rowMode: "array" });
    expect(arrays.rows).toEqual([[1, "one"]]);
  });

  it("keeps PostgreSQL's error fields (code, constraint) across the thread", async () => {
    const error = await thread.query("insert into t values (1, 'again')").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: "23505", constraint: "t_pkey" });
    expect(String((error as Error).message)).toMatch(/duplicate key/);
  });

  // Decision 038, addendum 9: a plain `select` is read by node-postgres's protocol parser, every other
  // statement by PGlite's. A `with` in front sends the same select down PGlite's path: both must answer
  // alike, in both row modes, for every type the app reads.
  const EVERY_TYPE = `select 7::int2 as i2, 2147483647::int4 as i4, 9007199254740993::int8 as i8, 1.5::float8 as f8,
    12.340::numeric as num, true as yes, false as no, null::text as nothing, 'é😀 ع'::text as text,
    '2026-11-22T10:00:00Z'::timestamptz as at, '2026-11-22 10:00'::timestamp as local, '2026-11-22'::date as day,
    '1 day 02:00'::interval as span, '{"a":[1,null,"x"]}'::jsonb as doc, '[1, 2]'::json as list,
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid as id, '\\x00ff'::bytea as bytes, array[1, 2]::int4[] as ints,
    array['a', null, 'b c']::text[] as texts, array['2026-11-22T10:00:00Z']::timestamptz[] as ats,
    array[1.5]::numeric[] as nums, '' as empty`;
  it.each(["object", "array"] as const)(
    "reads every type the app uses the same way on both paths (%s rows)",
    async (rowMode) => {
      const fast = await thread.query(EVERY_TYPE, [], { rowMode });
      const pglite = await thread.query(`with _ as (select 1) ${EVERY_TYPE}`, [], { rowMode });
      expect(fast.rows).toEqual(pglite.rows);
      expect(fast.fields).toEqual(pglite.fields);
      expect(fast.rows).toHaveLength(1);
      const row = fast.rows[0] as Record<string, unknown>;
      if (rowMode === "object") {
        expect(row).toMatchObject({ i4: 2147483647, yes: true, nothing: null, text: "é😀 ع", empty: "" });
        expect(row.at).toBe("2026-11-22 10:00:00+00");
        expect(row.doc).toEqual({ a: [1, null, "x"] });
      }
    },
  );

  it("reads a long answer whole, whatever the number of rows and their sizes", async () => {
    const statement = `select n, repeat('ж', n % 700) as t from generate_series(1, 5000) n order by n`;
    const fast = await thread.query<{ n: number; t: string }>(statement);
    const pglite = await thread.query<{ n: number; t: string }>(`with _ as (select 1) ${statement}`);
    expect(fast.rows).toHaveLength(5000);
    expect(fast.rows[4999]).toEqual({ n: 5000, t: "ж".repeat(5000 % 700) });
    expect(fast.rows).toEqual(pglite.rows);
  });

  it("gives a read's error with PostgreSQL's fields, and answers the next read", async () => {
    const error = await thread.query("select 1 / $1::int as x", [0]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: "22012" });
    expect(String((error as Error).message)).toMatch(/division by zero/);
    expect((await thread.query("select 1 / $1::int as x", [1])).rows).toEqual([{ x: 1 }]);
  });

  it("passes on the NOTIFY a write's trigger sends, and counts the rows it changed", async () => {
    await thread.exec(`create table watched (id int primary key);
      create function watched_notify() returns trigger language plpgsql as $$
        begin perform pg_notify('watched_changes', new.id::text); return new; end $$;
      create trigger watched_notify after insert on watched for each row execute function watched_notify();`);
    const heard: string[] = [];
    await thread.listen("watched_changes", (payload) => heard.push(payload));
    const inserted = await thread.query("insert into watched values ($1), ($2)", [1, 2]);
    expect(inserted.affectedRows).toBe(2);
    await expect.poll(() => heard).toEqual(["1", "2"]);
  });

  it("commits a transaction that resolves and rolls back one that throws", async () => {
    await thread.transaction(async (tx) => {
      await tx.query("insert into t (id, name) values (2, 'two')");
      await tx.query("insert into t (id, name) values (3, 'three')");
    });
    await expect(
      thread.transaction(async (tx) => {
        await tx.query("insert into t (id, name) values (4, 'four')");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await expect(
      thread.transaction(async (tx) => {
        await tx.query("insert into t (id, name) values (5, 'five')");
        await tx.query("insert into t (id, name) values (2, 'duplicate')");
      }),
    ).rejects.toMatchObject({ code: "23505" });
    const ids = await thread.query<{ id: number }>("select id from t order by id");
    expect(ids.rows.map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it("runs statements from outside a transaction after it, not inside it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = thread.transaction(async (t) => {
      await t.query("insert into t (id, name) values (10, 'ten')");
      await held;
      throw new Error("roll back");
    });
    // Issued while the transaction is open: it must not see (or join) the uncommitted row.
    const outside = thread.query<{ n: number }>("select count(*)::int as n from t where id = 10");
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect(tx).rejects.toThrow("roll back");
    expect((await outside).rows[0].n).toBe(0);
  });

  it("carries the whole demo seed and drizzle's queries", async () => {
    const database = await openDatabase({ dataDir: "memory://", thread: true });
    try {
      await database.migrate();
      await seedDemo(database.db, { catalog: true });
      const rows = await database.db
        .select({ email: users.email })
        .from(users)
        .where(sql`${users.email} like 'ada@%'`);
      expect(rows).toEqual([{ email: "ada@example.com" }]);
      const counted = await database.db.execute(sql`select count(*)::int as n from objectives`);
      expect((counted.rows[0] as { n: number }).n).toBeGreaterThanOrEqual(30);
    } finally {
      await database.close();
    }
  }, 120_000);

  it("rejects every call after close with a clear error", async () => {
    const other = await PGliteThread.create("memory://");
    await other.close();
    await expect(other.query("select 1")).rejects.toThrow(/closed/);
  });
});

describe("one owner per data directory", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pglite-lock-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a second opener while the first one runs, and frees the directory on close", async () => {
    const dataDir = join(dir, "pglite");
    const first = await openDatabase({ dataDir, thread: true });
    await expect(openDatabase({ dataDir })).rejects.toThrow(new RegExp(`in use by process ${process.pid}|in use`));
    await first.close();
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    const second = await openDatabase({ dataDir });
    await second.close();
  }, 60_000);

  it("takes over a lock left by a process that no longer runs", () => {
    const dataDir = join(dir, "stale");
    // A pid far above any Linux pid_max: nobody runs it.
    writeFileSync(`${dataDir}.lock`, "99999999");
    const release = lockDataDir(dataDir);
    expect(existsSync(`${dataDir}.lock`)).toBe(true);
    release();
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  });

  it("starts the thread early under the lock, and openDatabase takes that thread instead of a second one (decision 038)", async () => {
    const dataDir = join(dir, "early");
    startEarly(dataDir);
    // The lock is held from the start: another opener is refused while the thread is still starting.
    await expect(openDatabase({ dataDir })).rejects.toThrow(/in use/);
    const database = await openDatabase({ dataDir, thread: true });
    try {
      expect(takeEarlyStart(dataDir)).toBeUndefined(); // taken once
      await database.migrate();
      const rows = await database.db.execute(sql`select 1 as one`);
      expect(rows.rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  }, 60_000);

  it("leaves an early start for another directory alone", async () => {
    const dataDir = join(dir, "early-other");
    startEarly(dataDir);
    const memory = await openDatabase({ dataDir: "memory://", thread: true });
    await memory.close();
    const early = takeEarlyStart(dataDir);
    expect(early).toBeDefined();
    await (await early!.thread).close();
    early!.unlock();
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  }, 60_000);
});
