/**
 * Public lookups by certificate number: limited per address, so scanning for numbers
 * gets 429 long before it finds one, and answered after the same minimum time whether the number
 * exists or not, so timing tells nothing either.
 */
import type { Context } from "hono";
import type { ApiDeps, ApiEnv } from "./context";
import { createLimiter, tooManyRequests, type Limiter } from "./rate-limit";

/** 60 lookups a minute per address; past that, 5 minutes of 429. A person never comes near it. */
export const LOOKUP_LIMIT = { points: 60, durationSeconds: 60, blockSeconds: 300 } as const;
/** Every lookup answers after at least this long, found or not. */
export const LOOKUP_FLOOR_MS = 25;

const limiters = new WeakMap<ApiDeps, Limiter>();

function limiterOf(deps: ApiDeps): Limiter {
  let limiter = limiters.get(deps);
  if (!limiter) {
    // In-process counting (`local`): a hot public read; decision 020 gives the reasons.
    limiter = createLimiter(null, { name: "certificate-lookup", ...LOOKUP_LIMIT, store: "local" });
    limiters.set(deps, limiter);
  }
  return limiter;
}

/** The caller's address: the server sets X-Client-IP from the socket (a client's own value is replaced). */
function clientAddress(c: Context<ApiEnv>): string {
  return c.req.header("x-client-ip") ?? "unknown";
}

/** Counts one lookup for the caller's address; 429 with Retry-After when over the limit. */
export async function countLookup(c: Context<ApiEnv>): Promise<void> {
  const result = await limiterOf(c.var.deps).consume(clientAddress(c));
  if (!result.ok) tooManyRequests(c, result.retryAfterSeconds);
}

/** Runs a lookup and answers no sooner than LOOKUP_FLOOR_MS after it started. */
export async function evenly<T>(lookup: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await lookup();
  } finally {
    // Timers count whole milliseconds from the loop's cached clock and may fire a little early: wait
    // again until the floor has really passed.
    for (let rest = LOOKUP_FLOOR_MS - (performance.now() - started); rest > 0;) {
      await new Promise((r) => setTimeout(r, Math.ceil(rest)));
      rest = LOOKUP_FLOOR_MS - (performance.now() - started);
    }
  }
}
