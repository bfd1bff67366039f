/**
 * Retention of analytics events (issue 29 item 3, decision 039): events older than
 * ANALYTICS_RETENTION_DAYS (180 by default; 0 keeps them) are deleted by the background jobs, a few
 * thousand rows a statement so that no run holds the table long. Every node may run it: a row deleted
 * twice is deleted once.
 */
import { and, inArray, lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { analyticsEvents } from "../db/schema";
import { ANALYTICS_EVENTS } from "../../domain/analytics";

export const DEFAULT_ANALYTICS_RETENTION_DAYS = 180;
const BATCH = 5_000;
/** At most this many statements a run; the next run (a minute later) goes on. */
const BATCHES_PER_RUN = 20;

/** Deletes events older than `retentionDays` (none when it is 0); returns how many. */
export async function deleteOldAnalyticsEvents(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  if (!(retentionDays > 0)) return 0;
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let deleted = 0;
  for (let i = 0; i < BATCHES_PER_RUN; i++) {
    // By name and time: the (name, created_at) index finds them (the collector stores only these names).
    const old = db
      .select({ id: analyticsEvents.id })
      .from(analyticsEvents)
      .where(and(inArray(analyticsEvents.name, [...ANALYTICS_EVENTS]), lt(analyticsEvents.createdAt, cutoff)))
      .limit(BATCH);
    const rows = await db
      .delete(analyticsEvents)
      .where(inArray(analyticsEvents.id, old))
      .returning({ id: analyticsEvents.id });
    deleted += rows.length;
    if (rows.length < BATCH) break;
  }
  return deleted;
}
