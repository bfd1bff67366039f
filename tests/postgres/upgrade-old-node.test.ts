/**
 * Upgrades (docs/operations/upgrades.md, decision 053): between `npm run db -- migrate` and the last node
 * rolled, nodes of the old build serve on the new schema. An expanding migration (a new nullable column
 * and a new table under the `migrate` lock, an index built CONCURRENTLY, a slow backfill in small
 * batches) must let them keep serving — reads and writes answered throughout, none stalled; a
 * contracting one (a column the old code names, renamed) breaks them, which is why it waits for the
 * next release. Only in the vitest project "postgres" (TEST_DATABASE_URL; docs/postgres-tests.md).
 */
import pg from "pg";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../../api/db/client";
import * as s from "../../api/db/schema";
import { createPostgresDatabase, testDatabaseUrl } from "../fixtures/database";

const server = testDatabaseUrl();
if (!server) throw new Error("tests/postgres/* run in the vitest project 'postgres' (TEST_DATABASE_URL)");

let fresh: Awaited<ReturnType<typeof createPostgresDatabase>>;
let oldNode: Database;
let newNode: Database;
let userId: string;
beforeAll(async () => {
  fresh = await createPostgresDatabase(server);
  oldNode = await openDatabase({ databaseUrl: fresh.url });
  newNode = await openDatabase({ databaseUrl: fresh.url });
  const [tenant] = await oldNode.db.insert(s.tenants).values({ name: "T", domain: "t.example" }).returning();
  const rows = Array.from({ length: 2_000 }, (_, i) => ({
    tenantId: tenant!.id,
    email: `u${i}@t.example`,
    firstName: "U",
    lastName: String(i),
  }));
  const users = await oldNode.db.insert(s.users).values(rows).returning({ id: s.users.id });
  userId = users[0]!.id;
});
afterAll(async () => {
  await oldNode?.close();
  await newNode?.close();
  await fresh?.drop();
});

/** The old node's traffic while `work` runs: a read and a write every 20 ms, each timed. */
async function trafficDuring(work: () => Promise<void>) {
  const answered: number[] = [];
  const failed: string[] = [];
  let running = true;
  const load = (async () => {
    while (running) {
      const t = performance.now();
      try {
        await oldNode.db.select().from(s.users).where(eq(s.users.id, userId));
        await oldNode.db
          .update(s.users)
          .set({ department: `d${answered.length}` })
          .where(eq(s.users.id, userId));
        answered.push(performance.now() - t);
      } catch (error) {
        failed.push((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await new Promise((r) => setTimeout(r, 200));
  await work();
  await new Promise((r) => setTimeout(r, 200));
  running = false;
  await load;
  return { answered, failed, slowest: Math.max(...answered) };
}

it("an expanding migration: the old node keeps serving, no request stalled", async () => {
  const direct = new pg.Client({ connectionString: fresh.url });
  await direct.connect();
  const { answered, failed, slowest } = await trafficDuring(() =>
    newNode.exclusive("migrate", async () => {
      // Short locks: a new nullable column and a new table (catalog changes only), lock_timeout as a guard.
      await direct.query("begin; set local lock_timeout = '2s'; alter table users add column nickname text; commit");
      await direct.query("create table user_nicknames (user_id uuid primary key references users(id), nickname text)");
      // The index without a table lock, the backfill in batches of 200 rows (each its own short transaction).
      await direct.query("create index concurrently users_nickname_idx on users (nickname)");
      for (;;) {
        const r = await direct.query(
          "update users set nickname = first_name where id in (select id from users where nickname is null limit 200)",
        );
        if (r.rowCount === 0) break;
        await direct.query("select pg_sleep(0.1)"); // a slow migration: about a second in all
      }
    }),
  );
  await direct.end();
  expect(failed).toEqual([]);
  expect(answered.length).toBeGreaterThan(20);
  // No request waited for the migration (the old node's requests stalled for ~7 s with a table rewrite).
  expect(slowest).toBeLessThan(1_000);
  // The old build's code still reads and writes every column it knows.
  const [row] = await oldNode.db.select().from(s.users).where(eq(s.users.id, userId));
  expect(row!.department).toMatch(/^d\d+$/);
}, 60_000);

it("a contracting change in the same release breaks the old node: it waits for the next release", async () => {
  await newNode.db.execute(sql`alter table users rename column department to team`);
  const error = await oldNode.db
    .select()
    .from(s.users)
    .where(eq(s.users.id, userId))
    .then(
      () => null,
      (e: { cause?: { message?: string } }) => e.cause?.message ?? String(e),
    );
  expect(error).toMatch(/column .*department.* does not exist/);
  await newNode.db.execute(sql`alter table users rename column team to department`);
});
