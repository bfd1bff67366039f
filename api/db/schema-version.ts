/**
 * Which migrations a database holds, against the ones this build ships (decision 053, issue 53
 * item 6). drizzle records each applied migration in `drizzle.__drizzle_migrations` with its
 * journal timestamp (`created_at`); this build's journal names them.
 *
 * - `schemaStatus`: applied, pending, and applied ones this build does not know (a newer build
 *   migrated the database) — what `npm run ops -- db status` prints;
 * - `refuseNewerSchema`: a node or a command of an older build stops before it touches a database
 *   that a newer build migrated, and says which migrations it does not know;
 * - `migrateLogged`: runs the migrations with their names and time in the log.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql, type SQL } from "drizzle-orm";

/** What these reads need of the database (client.ts's `Db`, which imports this module). */
type Db = { execute: (query: SQL) => PromiseLike<{ rows: Record<string, unknown>[] }> };
import { log } from "./log";

export interface JournalEntry {
  when: number;
  tag: string;
}

export const shippedMigrations: readonly JournalEntry[] = (
  JSON.parse(readFileSync(fileURLToPath(new URL("./migrations/meta/_journal.json", import.meta.url)), "utf8")) as {
    entries: JournalEntry[];
  }
).entries.map(({ when, tag }) => ({ when, tag }));

export interface SchemaStatus {
  applied: JournalEntry[];
  pending: JournalEntry[];
  /** Applied migrations this build does not ship, by their timestamp (a newer build's). */
  unknown: { when: number; appliedAt: string }[];
}

/** Pure: the status from the timestamps the database holds. */
export function compareMigrations(
  appliedWhen: readonly number[],
  shipped: readonly JournalEntry[] = shippedMigrations,
): SchemaStatus {
  const have = new Set(appliedWhen);
  const known = new Set(shipped.map((m) => m.when));
  const lastShipped = shipped.at(-1)?.when ?? 0;
  return {
    applied: shipped.filter((m) => have.has(m.when)),
    // drizzle applies a migration only when it is newer than the last applied one: none after a newer one.
    pending: shipped.filter((m) => !have.has(m.when)),
    unknown: appliedWhen
      .filter((w) => !known.has(w) && w > lastShipped)
      .map((w) => ({ when: w, appliedAt: new Date(w).toISOString() })),
  };
}

/** The timestamps of the migrations applied to this database (none on a new one). */
async function appliedMigrations(db: Db): Promise<number[]> {
  const exists = await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!exists.rows[0]?.t) return [];
  const rows = await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at`);
  return rows.rows.map((r) => Number(r.created_at as string | number));
}

export async function schemaStatus(db: Db): Promise<SchemaStatus> {
  return compareMigrations(await appliedMigrations(db));
}

/** A database a newer build migrated: this build must not run on it. */
export class SchemaNewerThanBuild extends Error {
  constructor(readonly status: SchemaStatus) {
    const last = shippedMigrations.at(-1);
    super(
      `db: the database's schema is newer than this build: it holds ${status.unknown.length} migration(s) this build does not ship ` +
        `(the newest made ${status.unknown.at(-1)?.appliedAt}); this build's last is ${last?.tag}. ` +
        "Run the build that migrated it (or a newer one), or restore a backup made with this build (docs/operations/upgrades.md).",
    );
  }
}

function refuseNewerSchema(status: SchemaStatus): void {
  if (status.unknown.length > 0) throw new SchemaNewerThanBuild(status);
}

/**
 * Checks that the schema is not newer than the build, then runs `migrate` with the migrations' names
 * and the time they took in the log (nothing is logged when none is pending).
 */
export async function migrateLogged(db: Db, migrate: () => Promise<void>): Promise<SchemaStatus> {
  const before = await schemaStatus(db);
  refuseNewerSchema(before);
  if (before.pending.length === 0) return before;
  const names = before.pending.map((m) => m.tag);
  log().info({ migrations: names }, "db: applying migrations");
  const started = performance.now();
  try {
    await migrate();
  } catch (error) {
    log().error(
      { migrations: names, ms: Math.round(performance.now() - started), err: error },
      "db: migrations failed",
    );
    throw error;
  }
  const ms = Math.round(performance.now() - started);
  const after = await schemaStatus(db);
  for (const m of after.applied.filter((a) => names.includes(a.tag)))
    log().info({ migration: m.tag, ms }, "db: migration applied");
  log().info({ migrations: names.length, ms }, "db: migrations applied");
  return after;
}
