/**
 * The compiled row mapper gives what drizzle's own mapping gives (decision 038, addendum 5): nested
 * objects, decoded values (timestamps, JSON, numbers from SQL), and a left-joined table's object null
 * exactly when drizzle makes it null. On PGlite and, in the project "postgres", on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { openTestDatabase } from "../../tests/fixtures/database";
import type { Database } from "./client";
import { compileRowMapper, withCompiledRows } from "./compiled-rows";

const parent = pgTable("cr_parent", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  n: integer("n"),
  meta: jsonb("meta"),
});
const child = pgTable("cr_child", {
  id: uuid("id").primaryKey(),
  parentId: uuid("parent_id").notNull(),
  note: text("note"),
  at: timestamp("at", { withTimezone: true }),
});

const P1 = "00000000-0000-4000-8000-000000000001";
const P2 = "00000000-0000-4000-8000-000000000002";
const P3 = "00000000-0000-4000-8000-000000000003";

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  const db = database.db;
  await db.execute(
    sql`create table cr_parent (id uuid primary key, name text not null, created_at timestamptz not null, n integer, meta jsonb)`,
  );
  await db.execute(
    sql`create table cr_child (id uuid primary key, parent_id uuid not null, note text, at timestamptz)`,
  );
  await db.insert(parent).values([
    { id: P1, name: "one", createdAt: new Date("2026-01-02T03:04:05.678Z"), n: 1, meta: { a: [1, 2] } },
    { id: P2, name: "two", createdAt: new Date("2026-02-03T04:05:06Z"), n: null, meta: null },
    { id: P3, name: "three", createdAt: new Date("2026-03-04T05:06:07Z"), n: 3, meta: "text" },
  ]);
  await db.insert(child).values([
    // A child whose first column is set and the rest null: its object stays.
    { id: "00000000-0000-4000-8000-0000000000c1", parentId: P1, note: null, at: null },
    { id: "00000000-0000-4000-8000-0000000000c3", parentId: P3, note: "n3", at: new Date("2026-04-05T06:07:08Z") },
  ]);
});

afterAll(async () => {
  await database?.close();
});

/** The same select prepared twice: once mapped by drizzle, once by the compiled mapper. */
async function both(build: () => { prepare(name: string): unknown }) {
  type Prepared = { execute(values?: Record<string, unknown>): Promise<unknown[]> };
  const plain = build().prepare("") as Prepared;
  const compiled = withCompiledRows(build().prepare("")) as Prepared;
  expect((compiled as { customResultMapper?: unknown }).customResultMapper).toBeTypeOf("function");
  return { drizzle: await plain.execute(), compiled: await compiled.execute() };
}

describe("compiled row mapper", () => {
  it("maps a left join that hits and misses as drizzle does (the missing side null)", async () => {
    const { drizzle, compiled } = await both(() =>
      database.db
        .select({ p: parent, c: { id: child.id, note: child.note, at: child.at } })
        .from(parent)
        .leftJoin(child, eq(child.parentId, parent.id))
        .orderBy(parent.name),
    );
    expect(compiled).toEqual(drizzle);
    expect(compiled).toHaveLength(3);
    const byName = Object.fromEntries((compiled as { p: { name: string }; c: unknown }[]).map((r) => [r.p.name, r.c]));
    expect(byName.two).toBeNull();
    expect(byName.one).toEqual({ id: "00000000-0000-4000-8000-0000000000c1", note: null, at: null });
    expect((compiled[0] as { p: { createdAt: Date } }).p.createdAt).toBeInstanceOf(Date);
  });

  it("keeps an object whose columns come from two tables, and flat and SQL fields", async () => {
    const { drizzle, compiled } = await both(() =>
      database.db
        .select({
          id: parent.id,
          twice: sql<number>`${parent.n} * 2`.mapWith(Number),
          mixed: { note: child.note, name: parent.name },
          c: { at: child.at, note: child.note },
        })
        .from(parent)
        .leftJoin(child, eq(child.parentId, parent.id))
        .orderBy(parent.id),
    );
    expect(compiled).toEqual(drizzle);
    const two = (compiled as { id: string; mixed: unknown; c: unknown; twice: unknown }[]).find((r) => r.id === P2)!;
    expect(two.mixed).toEqual({ note: null, name: "two" });
    expect(two.c).toBeNull();
    expect(two.twice).toBeNull();
  });

  it("maps placeholders' statements and empty results", async () => {
    const build = () =>
      database.db
        .select({ p: { id: parent.id, meta: parent.meta } })
        .from(parent)
        .where(eq(parent.name, sql.placeholder("name")));
    const plain = build().prepare("");
    const compiled = withCompiledRows(build().prepare(""));
    for (const name of ["one", "three", "nobody"])
      expect(await compiled.execute({ name })).toEqual(await plain.execute({ name }));
  });

  it("leaves a query whose internals it does not recognise to drizzle", () => {
    expect(compileRowMapper({})).toBeNull();
    expect(compileRowMapper({ fields: [{ path: [], field: parent.id }] })).toBeNull();
    const own = () => [];
    expect(withCompiledRows({ fields: [], customResultMapper: own }).customResultMapper).toBe(own);
  });
});
