/**
 * The database half of a node's readiness (decision 037): the database answers, and the last
 * migration this build ships is applied (drizzle records each in `drizzle.__drizzle_migrations` with
 * its journal timestamp). A node started on a database that an older build migrated, or whose
 * migration is still under way on another node, is not ready yet.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { Db } from "./client";

const journal = JSON.parse(
  readFileSync(fileURLToPath(new URL("./migrations/meta/_journal.json", import.meta.url)), "utf8"),
) as { entries: { when: number; tag: string }[] };
const expected = journal.entries.at(-1)!;

/** Null when ready; else why not. */
export async function databaseNotReady(db: Db): Promise<string | null> {
  const result = await db.execute<{ last: string | number | null }>(
    sql`select max(created_at) as last from drizzle.__drizzle_migrations`,
  );
  const last = Number(result.rows[0]?.last ?? 0);
  return last >= expected.when ? null : `migrations: ${expected.tag} is not applied`;
}
