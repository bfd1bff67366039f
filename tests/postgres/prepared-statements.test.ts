/**
 * Repeated data statements on PostgreSQL run as named prepared statements with one generic plan
 * (decision 038, addendum 4): from their second sighting, at most `perConnection` per connection,
 * never DDL or session commands. Only in the vitest project "postgres" (TEST_DATABASE_URL).
 */
import pg from "pg";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../api/db/client";
import { preparingClient } from "../../api/db/pg-prepared";
import { createPostgresDatabase, testDatabaseUrl } from "../fixtures/database";

const server = testDatabaseUrl();
if (!server) throw new Error("tests/postgres/* run in the vitest project 'postgres' (TEST_DATABASE_URL)");

describe("a connection of the preparing client", () => {
  let fresh: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const pools: pg.Pool[] = [];
  // One connection each, so pg_prepared_statements (per session) shows what it kept. The probe starts
  // with a comment, which the client does not take for a data statement: it is never named itself.
  const connection = (perConnection = 2) => {
    const pool = new pg.Pool({
      connectionString: fresh.url,
      max: 1,
      Client: preparingClient(pg.Client, { perConnection }),
    });
    // Dropping the database at the end ends its connections: not a failure of the test.
    pool.on("error", () => {});
    pools.push(pool);
    const prepared = async () =>
      (
        await pool.query<{ statement: string }>(
          "/* probe */ select statement from pg_prepared_statements order by prepare_time",
        )
      ).rows.map((r) => r.statement);
    return { pool, prepared };
  };
  beforeAll(async () => {
    fresh = await createPostgresDatabase(server, { empty: true });
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await fresh?.drop();
  });

  it("prepares a statement the second time it runs, and answers the same both times", async () => {
    const { pool, prepared } = connection();
    const first = await pool.query("select $1::int + 1 as n", [1]);
    expect(await prepared()).toEqual([]);
    const second = await pool.query({ text: "select $1::int + 1 as n", values: [41] });
    expect([first.rows[0].n, second.rows[0].n]).toEqual([2, 42]);
    expect(await prepared()).toEqual(["select $1::int + 1 as n"]);
    // The third run reuses it: still one.
    expect((await pool.query("select $1::int + 1 as n", [9])).rows[0].n).toBe(10);
    expect(await prepared()).toHaveLength(1);
  });

  it("names drizzle's unnamed prepared statements (name ''), and keeps a caller's own name", async () => {
    const { pool, prepared } = connection();
    for (let i = 0; i < 2; i++) await pool.query({ name: "", text: "select $1::int * 2 as n", values: [i] });
    expect((await pool.query({ name: "mine", text: "select $1::int * 3 as n", values: [1] })).rows[0].n).toBe(3);
    expect(await prepared()).toEqual(["select $1::int * 2 as n", "select $1::int * 3 as n"]);
  });

  it("keeps at most perConnection statements; the next ones still run, unnamed", async () => {
    const { pool, prepared } = connection(2);
    for (const text of ["select $1::text as s", "select lower($1::text) as s", "select upper($1::text) as s"])
      for (let i = 0; i < 3; i++) expect((await pool.query(text, ["a"])).rows[0].s).toMatch(/^a$/i);
    expect(await prepared()).toEqual(["select $1::text as s", "select lower($1::text) as s"]);
  });

  it("never names DDL, session settings or transaction control", async () => {
    const { pool, prepared } = connection();
    for (let i = 0; i < 2; i++) {
      await pool.query("begin");
      await pool.query(`create temporary table t${i} (x int) on commit drop`);
      await pool.query("set local work_mem = '8MB'");
      await pool.query("commit");
    }
    expect(await prepared()).toEqual([]);
  });

  it("a statement that fails to parse is not kept and fails alike the next time", async () => {
    const { pool, prepared } = connection();
    for (let i = 0; i < 3; i++)
      await expect(pool.query("select no_such_column from pg_class")).rejects.toThrow(/no_such_column/);
    expect(await prepared()).toEqual([]);
  });
});

describe("a node on DATABASE_URL", () => {
  let fresh: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await createPostgresDatabase(server, { empty: true });
    database = await openDatabase({ databaseUrl: fresh.url });
  });
  afterAll(async () => {
    await database?.close();
    await fresh?.drop();
  });

  it("keeps one generic plan per prepared statement (plan_cache_mode)", async () => {
    const rows = (await database.db.execute(sql`show plan_cache_mode`)) as unknown as {
      rows: { plan_cache_mode: string }[];
    };
    expect(rows.rows[0].plan_cache_mode).toBe("force_generic_plan");
  });
});
