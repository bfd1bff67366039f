// Queries: reads and writes the handlers share, grouped by resource. This one: list statements built once
// per query shape (decision 038, addenda 4 and 7), shared by My courses and the catalog.
import type { Db } from "../db/client";

/** A prepared statement built once per shape: its values are the placeholders'. */
export interface PreparedRead<T> {
  execute(values: Record<string, unknown>): Promise<T>;
}

/** The page and count statements of one shape of a list query. */
export interface ListStatements<Row> {
  list: PreparedRead<Row[]>;
  count: PreparedRead<{ n: number }[]>;
  /** The count statement's text (the count cache keeps no count of a statement that reads the clock). */
  countSql: string;
  /**
   * What the count cache keys by, with the placeholders' values: the statement's text and the shape,
   * whose filter values are written into the statement as parameters of their own.
   */
  countKey: string;
}

/** The count half of `ListStatements`, from its drizzle query. */
export function countStatement(
  query: { prepare(name: string): unknown; toSQL(): { sql: string } },
  shapeKey: string,
): Pick<ListStatements<never>, "count" | "countSql" | "countKey"> {
  const { sql } = query.toSQL();
  // prepare(""): drizzle's own unnamed statement; on PostgreSQL the client names it once it repeats
  // (api/db/pg-prepared.ts).
  return {
    count: query.prepare("") as PreparedRead<{ n: number }[]>,
    countSql: sql,
    countKey: `${sql}\u0000${shapeKey}`,
  };
}

/** Shapes kept per database client; past it they start over (a memory bound, not a policy). */
const MAX_SHAPES = 200;

/**
 * A cache of what is built for each shape of a list query (its statements), per database client.
 * `key` names the shape: everything that changes the statement's text, never a placeholder's value.
 */
export function statementShapes<T>(): (db: Db, key: string, build: () => T) => T {
  const byDb = new WeakMap<Db, Map<string, T>>();
  return (db, key, build) => {
    let shapes = byDb.get(db);
    if (!shapes) byDb.set(db, (shapes = new Map()));
    const known = shapes.get(key);
    if (known) return known;
    const built = build();
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(key, built);
    return built;
  };
}
