/** A build never runs on a schema newer than its own, and says why (issue 53 item 6). */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../tests/fixtures/database";
import type { Database } from "./client";
import { compareMigrations, SchemaNewerThanBuild, schemaStatus, shippedMigrations } from "./schema-version";

const shipped = [
  { when: 100, tag: "0000_a" },
  { when: 200, tag: "0001_b" },
];

describe("compareMigrations", () => {
  it.each([
    ["a new database", [], { applied: 0, pending: 2, unknown: 0 }],
    ["one behind", [100], { applied: 1, pending: 1, unknown: 0 }],
    ["current", [100, 200], { applied: 2, pending: 0, unknown: 0 }],
    ["a newer build migrated it", [100, 200, 300], { applied: 2, pending: 0, unknown: 1 }],
  ])("%s", (_name, applied, counts) => {
    const s = compareMigrations(applied, shipped);
    expect({ applied: s.applied.length, pending: s.pending.length, unknown: s.unknown.length }).toEqual(counts);
  });
});

describe("on a real database", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it("a migrated database is current", async () => {
    const s = await schemaStatus(database.db);
    expect(s.pending).toEqual([]);
    expect(s.unknown).toEqual([]);
    expect(s.applied.map((m) => m.tag)).toEqual(shippedMigrations.map((m) => m.tag));
  });

  it("a newer build's migration makes this build refuse to migrate or start, naming the way out", async () => {
    const future = shippedMigrations.at(-1)!.when + 86_400_000;
    await database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-build', ${future})`,
    );
    const error = await database.migrate().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SchemaNewerThanBuild);
    expect((error as Error).message).toMatch(/newer than this build.*1 migration.*docs\/operations\/upgrades\.md/);
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations where hash = 'from-a-newer-build'`);
    await expect(database.migrate()).resolves.toBeUndefined();
  });
});
