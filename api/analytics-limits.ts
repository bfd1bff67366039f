/**
 * What the analytics collector stores, and how much (issue 29 item 3, decision 039). `/learn/collect`
 * took 500 anonymous 64 KB batches in 6.2 s and the database grew by 66 MB: now a visitor (no sign-in)
 * may store only page views with bounded fields, so many a minute per address and per analytics
 * session, and so many an hour per address; a signed-in user so many batches a minute and events an
 * hour. Past a limit the collector answers 429 with Retry-After and stores nothing of the batch.
 *
 * Request rates count in the process's memory (a flood costs no database write); what is stored in an
 * hour counts in the database (`rate_limits`), so every node counts one address or user together.
 */
import type { Context } from "hono";
import type { ApiDeps, ApiEnv } from "./context";
import { createLimiter, tooManyRequests, type Limiter } from "./rate-limit";
import type { AnalyticsBatch } from "../domain/contract/analytics";

export const ANALYTICS_LIMITS = {
  /** Visitors' batches a minute from one address (a browser sends one every 5 s at most, per tab). */
  perAddress: { points: 60, durationSeconds: 60, blockSeconds: 60 },
  /** Batches a minute of one session: a signed-in user's, or a visitor's analytics session. */
  perSession: { points: 30, durationSeconds: 60 },
  /** Events a signed-in user stores in an hour. */
  userHourly: { points: 2_000, durationSeconds: 3_600 },
  /** Page views visitors of one address store in an hour (ANALYTICS_ANONYMOUS_PER_HOUR). */
  anonymousHourly: { points: 300, durationSeconds: 3_600 },
} as const;

/** A visitor's page view: a path of at most this many characters. */
const VISITOR_PAGE_MAX = 512;
/** A session id as the client makes them (a UUID), or anything of these characters up to 64. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

type Event = AnalyticsBatch["events"][number];

/** A visitor's event as it may be stored: a page view of a path, its sessions if well formed, nothing else. */
export function visitorEvent(event: Event): Event | null {
  if (event.name !== "page_view") return null;
  const page = event.page ?? null;
  if (page !== null && (page.length > VISITOR_PAGE_MAX || !page.startsWith("/") || /[\s\u0000-\u001f]/.test(page)))
    return null;
  const session = (value: string | null | undefined) => (value && SESSION_ID.test(value) ? value : null);
  return {
    name: "page_view",
    page,
    session: session(event.session),
    datalakeSession: session(event.datalakeSession),
    props: {},
  };
}

/**
 * The address a limit counts: the caller's as the server saw it (X-Client-IP, set from the socket),
 * an IPv6 address by its /64 network (one host has all of them).
 */
export function addressKey(address: string): string {
  const ip = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

interface AnalyticsLimiters {
  perAddress: Limiter;
  perSession: Limiter;
  userHourly: Limiter;
  anonymousHourly: Limiter;
}

const limitersOf = new WeakMap<ApiDeps, AnalyticsLimiters>();

function limiters(deps: ApiDeps): AnalyticsLimiters {
  let found = limitersOf.get(deps);
  if (!found) {
    const hourly = deps.analyticsAnonymousPerHour ?? ANALYTICS_LIMITS.anonymousHourly.points;
    found = {
      perAddress: createLimiter(null, { name: "analytics-address", ...ANALYTICS_LIMITS.perAddress, store: "local" }),
      perSession: createLimiter(null, { name: "analytics-session", ...ANALYTICS_LIMITS.perSession, store: "local" }),
      userHourly: createLimiter(deps.database, {
        name: "analytics-user-hour",
        ...ANALYTICS_LIMITS.userHourly,
        store: "shared",
      }),
      anonymousHourly: createLimiter(deps.database, {
        name: "analytics-visitor-hour",
        points: Math.max(1, hourly),
        durationSeconds: ANALYTICS_LIMITS.anonymousHourly.durationSeconds,
        store: "shared",
      }),
    };
    limitersOf.set(deps, found);
  }
  return found;
}

const refuseOver = async (c: Context<ApiEnv>, limiter: Limiter, key: string, points = 1) => {
  const result = await limiter.consume(key, points);
  if (!result.ok) tooManyRequests(c, result.retryAfterSeconds);
};

/** Before the body is read: a visitor's address within its rate (429 with Retry-After past it). */
export async function limitVisitorRate(c: Context<ApiEnv>): Promise<void> {
  if (c.var.user) return;
  await refuseOver(c, limiters(c.var.deps).perAddress, addressKey(c.req.header("x-client-ip") ?? "unknown"));
}

/**
 * After the batch is read, before it is stored: the session's rate and what may be stored this hour
 * (a visitor's address, a user); the batch is stored whole or not at all.
 */
export async function limitStored(c: Context<ApiEnv>, events: Event[]): Promise<void> {
  const all = limiters(c.var.deps);
  const user = c.var.user;
  const address = addressKey(c.req.header("x-client-ip") ?? "unknown");
  const session = user ? `user:${user.id}` : `visitor:${events.find((e) => e.session)?.session ?? address}`;
  await refuseOver(c, all.perSession, session);
  if (events.length === 0) return;
  if (user) await refuseOver(c, all.userHourly, user.id, events.length);
  else await refuseOver(c, all.anonymousHourly, address, events.length);
}

/**
 * ANALYTICS_RETENTION_DAYS (180; 0 keeps events) and ANALYTICS_ANONYMOUS_PER_HOUR (300): whole numbers;
 * a bad value stops the server.
 */
export function analyticsConfigFrom(env: Record<string, string | undefined>): {
  retentionDays?: number;
  anonymousPerHour?: number;
} {
  const whole = (name: string, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") return undefined;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
    return n;
  };
  return {
    retentionDays: whole("ANALYTICS_RETENTION_DAYS", 0),
    anonymousPerHour: whole("ANALYTICS_ANONYMOUS_PER_HOUR", 1),
  };
}
