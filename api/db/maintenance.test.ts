/**
 * The embedded database's planner statistics (api/db/maintenance.ts, decision 038 addendum 2): made
 * when never made, a day old or a tenth more data; otherwise a restart leaves them as they are.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./client";
import { refreshStatistics, statisticsDue, statisticsMarkFile, STATISTICS_MAX_AGE_MS } from "./maintenance";

const now = new Date("2026-11-27T08:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe("statisticsDue", () => {
  it.each([
    ["never made", null, 1000, true],
    ["an unreadable date", { at: "yesterday", bytes: 1000 }, 1000, true],
    ["made an hour ago, same data", { at: ago(3600_000), bytes: 1000 }, 1000, false],
    ["made an hour ago, 10 % more data", { at: ago(3600_000), bytes: 1000 }, 1100, false],
    ["made an hour ago, 11 % more data", { at: ago(3600_000), bytes: 1000 }, 1110, true],
    ["made an hour ago, less data", { at: ago(3600_000), bytes: 1000 }, 500, false],
    ["made a day ago", { at: ago(STATISTICS_MAX_AGE_MS), bytes: 1000 }, 1000, true],
  ])("%s → %s", (_name, mark, bytes, due) => {
    expect(statisticsDue(mark, now, bytes)).toBe(due);
  });
});

describe("refreshStatistics on PGlite", () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "statistics-"));
    database = await openDatabase({ dataDir: join(dir, "pglite") });
    await database.migrate();
  }, 60_000);
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("vacuums and analyses every table when due, notes it, and does nothing on the next start", async () => {
    const markFile = statisticsMarkFile(join(dir, "pglite"));
    const tables = await refreshStatistics(database, { markFile, now: () => now });
    expect(tables).toContain("public.objectives");
    const analysed = await database.db.execute(
      sql`select count(*)::int as n from pg_class where relname = 'objectives' and reltuples >= 0`,
    );
    expect((analysed.rows[0] as { n: number }).n).toBe(1); // reltuples is -1 until a table is first analysed
    expect(JSON.parse(readFileSync(markFile, "utf8"))).toMatchObject({ at: now.toISOString() });
    expect(await refreshStatistics(database, { markFile, now: () => new Date(now.getTime() + 3600_000) })).toBeNull();
    expect(await refreshStatistics(database, { markFile, now: () => now, force: true })).toContain("public.objectives");
    const dayLater = new Date(now.getTime() + STATISTICS_MAX_AGE_MS);
    expect(await refreshStatistics(database, { markFile, now: () => dayLater })).not.toBeNull();
  }, 60_000);
});
