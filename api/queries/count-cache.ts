/**
 * Totals of list queries (`totalCount`, spec 7.2), remembered until the data they count changes
 * (decision 038). My courses counts a learner's ~1,000 enrolments and the catalog joins ~10,000
 * tenant-wide accesses with the courses on every first page, although the answer changes only with
 * an enrolment or a catalog edit: counting was the largest statement of both pages.
 *
 * Keyed by the count statement's own SQL and parameters, so two filters never share an entry. Forgotten
 * by the database's change notices (decision 019): "user:<id>" forgets that learner's counts, "all"
 * every count; a count whose statement reads the clock (`now()`) is never kept. A count that was being
 * read while a notice came is not kept either. The API's own writes forget their user's counts at once
 * (`forgetUser`), before the notice comes back.
 */
import type { DataChange } from "../../domain/contract/changes";

interface CountQuery {
  toSQL(): { sql: string; params: unknown[] };
  then: PromiseLike<{ n: number }[]>["then"];
}

/** Most entries kept; past it the cache starts over (a memory bound, not a policy). */
const MAX_ENTRIES = 10_000;
const CLOCK = /\b(now|current_date|current_timestamp|localtimestamp|clock_timestamp)\b/i;

export class CountCache {
  private entries = new Map<string, { userId: string | null; n: number }>();
  /** Notices heard so far: a read that saw this number change while it ran is not kept. */
  private heard = 0;

  /** The query's count: remembered, or read (and remembered for `userId`, null for counts of the whole tenant). */
  async count(userId: string | null, query: CountQuery): Promise<number> {
    const { sql, params } = query.toSQL();
    return this.countBy(userId, `${sql}\u0000${JSON.stringify(params)}`, sql, async () => (await query)[0]?.n ?? 0);
  }

  /**
   * A count by a key the caller made from its statement's text and parameters (a statement built once
   * per shape: `queryAggregates`). `sql` is the statement's text: one reading the clock is not kept.
   */
  async countBy(userId: string | null, key: string, sql: string, read: () => Promise<number>): Promise<number> {
    if (CLOCK.test(sql)) return read();
    const known = this.entries.get(key);
    if (known) return known.n;
    const heard = this.heard;
    const n = await read();
    if (heard === this.heard) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { userId, n });
    }
    return n;
  }

  /** A change notice (decision 019): forget what it may have changed. */
  forgetAfter(change: DataChange): void {
    // Chat and the LTI tools change no course counts.
    if (change.kind === "chat" || change.kind === "ltiTools") return;
    this.heard++;
    if (change.kind === "all") this.entries.clear();
    else this.forgetUser(change.userId);
  }

  /** This user's counts (their enrolments changed here); counts of the whole tenant stay. */
  forgetUser(userId: string): void {
    this.heard++;
    for (const [key, entry] of this.entries) if (entry.userId === userId) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
