/**
 * Planner statistics and the visibility map of the embedded database (decisions 012 and 038).
 *
 * PGlite runs no autovacuum. Without fresh statistics joins are planned blind; without a fresh
 * visibility map index-only scans (the catalog's total) read the table too. Both are kept in the
 * data directory, so they outlive a restart — only PostgreSQL's activity counters do not, so nothing
 * says which table changed. Hence: `vacuum analyze` when the statistics are a day old, when the data
 * grew by a tenth since, or when they were never made (a fresh or newly seeded database), noted in a
 * file beside the data directory; otherwise a restart does nothing (decision 038 addendum 2: it took
 * 0.66 s of the database thread, ahead of the first answers, at every start).
 *
 * It runs table by table, each its own statement, so an answer waits behind one table at most
 * (0.37 s for the 10,000 courses, 0.05 s or less for most), not behind the whole database.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Database } from "./client";
import { log } from "./log";

/** Statistics older than this are made again. */
export const STATISTICS_MAX_AGE_MS = 24 * 60 * 60_000;
/** …and so are they when the data grew by more than this share since. */
const STATISTICS_MAX_GROWTH = 0.1;

/** What the last refresh left: when, and how big the tables were then. */
export interface StatisticsMark {
  at: string;
  bytes: number;
}

/** Whether the statistics need making again (table test in maintenance.test.ts). */
export function statisticsDue(mark: StatisticsMark | null, now: Date, bytes: number): boolean {
  if (!mark) return true;
  const at = Date.parse(mark.at);
  if (!Number.isFinite(at) || now.getTime() - at >= STATISTICS_MAX_AGE_MS) return true;
  return bytes > mark.bytes * (1 + STATISTICS_MAX_GROWTH);
}

/** The mark file beside a PGlite directory (`…/pglite` → `…/pglite.statistics.json`). */
export const statisticsMarkFile = (dataDir: string) => `${dataDir.replace(/\/+$/, "")}.statistics.json`;

function readMark(file: string): StatisticsMark | null {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Partial<StatisticsMark>;
    return typeof value.at === "string" && typeof value.bytes === "number"
      ? { at: value.at, bytes: value.bytes }
      : null;
  } catch {
    return null; // none yet, or unreadable: make the statistics
  }
}

function writeMark(file: string, mark: StatisticsMark) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(mark));
  renameSync(temporary, file);
}

async function userTables(database: Database): Promise<{ tables: string[]; bytes: number }> {
  const rows = (await database.db.execute(
    sql`select format('%I.%I', schemaname, relname) as name, pg_total_relation_size(relid)::float8 as bytes
        from pg_stat_user_tables order by relname`,
  )) as unknown as { rows: { name: string; bytes: number }[] };
  return { tables: rows.rows.map((r) => r.name), bytes: rows.rows.reduce((n, r) => n + Number(r.bytes), 0) };
}

/**
 * Makes the statistics of an embedded database when they are due (`force`: whatever the mark says,
 * after a seed). Returns the tables done, or null when nothing was due. A PostgreSQL server vacuums
 * and analyses by itself; after a seed (`force`) it gets one `analyze` so the new rows are planned for
 * at once.
 */
export async function refreshStatistics(
  database: Database,
  options: { markFile: string; now?: () => Date; force?: boolean },
): Promise<string[] | null> {
  if (database.kind !== "pglite") {
    if (options.force) await database.db.execute(sql`analyze`);
    return null;
  }
  const now = options.now ?? (() => new Date());
  const before = await userTables(database);
  if (!options.force && !statisticsDue(readMark(options.markFile), now(), before.bytes)) return null;
  const started = performance.now();
  for (const table of before.tables) await database.db.execute(sql.raw(`vacuum analyze ${table}`));
  const after = await userTables(database);
  writeMark(options.markFile, { at: now().toISOString(), bytes: after.bytes });
  log().info(
    { tables: before.tables.length, ms: Math.round(performance.now() - started) },
    "db: planner statistics and visibility map refreshed",
  );
  return before.tables;
}
