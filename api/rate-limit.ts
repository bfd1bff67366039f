import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Context } from "hono";
import type { Database } from "./db/client";
import { rateLimits } from "./db/schema";
import { ApiError, message } from "./errors";

/**
 * Rate limits of the API, the provider and the app's public pages, on one well-kept library
 * (rate-limiter-flexible). `shared` limits count in the database (one atomic upsert per try), so
 * several nodes on one PostgreSQL count together — for sign-up, sign-in and writes; `local` ones
 * count in the process's memory — for hot public reads where one more write per request would cost
 * more than the check is worth (an attacker spread over nodes gets at most nodes × the limit).
 */
export interface LimitOptions {
  /** A short name: the keys' prefix. */
  name: string;
  /** Tries allowed per window. */
  points: number;
  /** The window, in seconds. */
  durationSeconds: number;
  /** Once over, refused for this long (seconds; default: the rest of the window). */
  blockSeconds?: number;
  store: "shared" | "local";
}

type LimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface Limiter {
  /** Counts one try (or `points`) for `key`; refused when over the limit. */
  consume(key: string, points?: number): Promise<LimitResult>;
  /** Forgets `key` (e.g. after a successful sign-in). */
  reset(key: string): Promise<void>;
  /** Seconds until `key` may try again without counting a try (0: allowed now) — for limits that count failures. */
  blockedFor(key: string): Promise<number>;
}

export function createLimiter(database: Pick<Database, "db"> | null, options: LimitOptions): Limiter {
  const common = {
    keyPrefix: options.name,
    points: options.points,
    duration: options.durationSeconds,
    blockDuration: options.blockSeconds ?? 0,
  };
  const limiter: RateLimiterAbstract =
    options.store === "shared" && database
      ? new RateLimiterDrizzle({ ...common, schema: rateLimits, storeClient: database.db, clearExpiredByTimeout: true })
      : new RateLimiterMemory(common);
  return {
    async consume(key, points = 1) {
      try {
        await limiter.consume(key, points);
        return { ok: true };
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes)
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
        throw refusal;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
    async blockedFor(key) {
      const used = await limiter.get(key);
      if (!used || used.consumedPoints < options.points) return 0;
      return Math.max(1, Math.ceil(used.msBeforeNext / 1000));
    },
  };
}

/** The API's answer to a refused try: 429 with Retry-After and the `tooManyRequests` message. */
export function tooManyRequests(c: Context, retryAfterSeconds: number): never {
  c.header("Retry-After", String(retryAfterSeconds));
  throw new ApiError(429, {
    "": [message("tooManyRequests", "Too many requests. Please wait and try again.", { seconds: retryAfterSeconds })],
  });
}
