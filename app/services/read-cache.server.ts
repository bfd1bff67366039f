import type { ChangeFeed, DataChange } from "#domain/contract/changes";

/**
 * What a node remembers per signed-in session for a short while: the shell (user, permissions,
 * licences, settings — four API calls every page needs) and the learner's filter lists. A write by
 * the learner on this node forgets their entries at once; a write on any node forgets them through
 * the database's change notices (decision 019: PostgreSQL LISTEN/NOTIFY, in process on PGlite), so
 * node B never shows what node A changed. The TTL only bounds what no notice covers (an external
 * LMS API).
 */
const READ_TTL_MS = 30_000;
/**
 * After the TTL an entry is still answered while its replacement loads (once), for at most this
 * long: requests never queue behind a refresh — under load, 50 requests waiting for one refresh
 * behind the database's queue made the slowest 1 % of My courses take seconds.
 */
const STALE_MS = 30_000;
/** Sessions remembered at once (the oldest is dropped first). */
const SESSIONS_MAX = 2_000;
/** Users whose last change is kept to judge loads that were under way when it came. */
const MARKS_MAX = 10_000;
/** The shell's key among a session's entries (lists are keyed by API paths, which start with "/"). */
const SHELL = "shell";

export interface Entry<T> {
  expires: number;
  value: Promise<T>;
  refreshing: boolean;
  /** The change notices counted when its load started: a notice after that may make it stale. */
  since: number;
}

/** Fresh → the value; stale → the value, and one background refresh; missing or too old → load. */
export function remember<T>(
  cache: Map<string, Entry<T>>,
  key: string,
  load: () => Promise<T>,
  max: number,
  since = 0,
): Promise<T> {
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value;
  if (hit && hit.expires + STALE_MS > now) {
    if (!hit.refreshing) {
      hit.refreshing = true;
      const next = load();
      next.then(
        () =>
          cache.get(key) === hit &&
          cache.set(key, { expires: Date.now() + READ_TTL_MS, value: next, refreshing: false, since }),
        () => cache.get(key) === hit && cache.delete(key),
      );
    }
    return hit.value;
  }
  const value = load();
  cache.set(key, { expires: now + READ_TTL_MS, value, refreshing: false, since });
  value.catch(() => cache.get(key)?.value === value && cache.delete(key));
  if (cache.size > max) cache.delete(cache.keys().next().value!);
  return value;
}

interface SessionReads {
  /** The API's id of the session's user, once a read has shown it. */
  userId: string | null;
  entries: Map<string, Entry<unknown>>;
}

export class ReadCache {
  readonly #sessions = new Map<string, SessionReads>();
  /** user id → keys of their sessions with entries (one user may be signed in twice). */
  readonly #owners = new Map<string, Set<string>>();
  /** Change notices heard so far; the number of the last one per user, and of the last "all". */
  #notices = 0;
  readonly #changedAt = new Map<string, number>();
  #allChangedAt = 0;

  constructor(feed?: ChangeFeed) {
    feed?.subscribe((change) => this.forget(change));
  }

  /** The shell of a session; `fresh` (after a write) loads it anew and keeps it no longer than the request. */
  async shell<T extends { user: { id: string } }>(
    sessionKey: string,
    fresh: boolean,
    load: () => Promise<T>,
  ): Promise<T> {
    if (fresh) {
      this.forgetSession(sessionKey);
      return load();
    }
    const shell = await remember(this.#entries(sessionKey) as Map<string, Entry<T>>, SHELL, load, 16, this.#notices);
    this.#own(sessionKey, shell.user.id);
    return shell;
  }

  /** A list that depends only on the session user's own data (`userId`: the API's id of that user). */
  async list<T>(sessionKey: string, userId: string, key: string, load: () => Promise<T>): Promise<T> {
    const value = await remember(this.#entries(sessionKey) as Map<string, Entry<T>>, key, load, 16, this.#notices);
    this.#own(sessionKey, userId);
    return value;
  }

  /** This node's own write: everything remembered for the session goes. */
  forgetSession(sessionKey: string): void {
    const reads = this.#sessions.get(sessionKey);
    if (!reads) return;
    this.#sessions.delete(sessionKey);
    if (reads.userId) this.#owners.get(reads.userId)?.delete(sessionKey);
  }

  /** A change notice from the database (any node's write). */
  forget(change: DataChange): void {
    // A chat message (decision 027) or the LTI tool registry (decision 043) changes nothing remembered here.
    if (change.kind === "chat" || change.kind === "ltiTools") return;
    const notice = ++this.#notices;
    if (change.kind === "all") {
      this.#sessions.clear();
      this.#owners.clear();
      this.#changedAt.clear();
      this.#allChangedAt = notice;
      return;
    }
    for (const key of this.#owners.get(change.userId) ?? []) this.#sessions.delete(key);
    this.#owners.delete(change.userId);
    this.#changedAt.delete(change.userId);
    this.#changedAt.set(change.userId, notice);
    if (this.#changedAt.size > MARKS_MAX) {
      // Too many to keep: judge every load under way as if everything had changed.
      this.#changedAt.clear();
      this.#allChangedAt = notice;
    }
  }

  /** How many sessions have something remembered (for tests). */
  get size(): number {
    return this.#sessions.size;
  }

  #entries(sessionKey: string): Map<string, Entry<unknown>> {
    let reads = this.#sessions.get(sessionKey);
    if (!reads) {
      reads = { userId: null, entries: new Map() };
      this.#sessions.set(sessionKey, reads);
      if (this.#sessions.size > SESSIONS_MAX) this.forgetSession(this.#sessions.keys().next().value!);
    }
    return reads.entries;
  }

  /**
   * Files the session under its user, now that a read showed who it is; and drops what loaded from
   * before a notice about that user (a load under way when the notice came may hold the old data).
   */
  #own(sessionKey: string, userId: string): void {
    const reads = this.#sessions.get(sessionKey);
    if (!reads) return;
    if (reads.userId !== userId) {
      if (reads.userId) this.#owners.get(reads.userId)?.delete(sessionKey);
      reads.userId = userId;
      let keys = this.#owners.get(userId);
      if (!keys) this.#owners.set(userId, (keys = new Set()));
      keys.add(sessionKey);
    }
    const changedAt = Math.max(this.#allChangedAt, this.#changedAt.get(userId) ?? 0);
    for (const [key, entry] of reads.entries) if (entry.since < changedAt) reads.entries.delete(key);
  }
}

const caches = new WeakMap<object, ReadCache>();

/**
 * The node's cache for a change feed (the load context's, decision 015); without a feed (an
 * external LMS API), one per configuration that only the TTL and this node's writes refresh.
 */
export function readCacheFor(feed: ChangeFeed | undefined, owner: object): ReadCache {
  const key = feed ?? owner;
  let cache = caches.get(key);
  if (!cache) {
    cache = new ReadCache(feed);
    caches.set(key, cache);
  }
  return cache;
}
