/**
 * A node started while its database is down waits for it (decision 053, issue 53 item 2): it tries
 * again with a growing delay (0.5 s, 1 s, 2 s … at most 15 s), logs each try, and never exits for
 * it — a supervisor restarting it in a loop would do the same, slower and noisier. What no wait
 * cures (a wrong password, a database that does not exist) stops the start with a message that says so.
 */
import { log } from "./log";

/** Network failures and PostgreSQL's "not now" answers: the database may come. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down, in recovery)
  "53300", // too_many_connections
]);

const UNREACHABLE_MESSAGE =
  /Connection terminated|timeout expired|connect ETIMEDOUT|the database system is (starting|shutting)/i;

/** What waiting may cure, by the error's code (its cause's too, or an aggregate's first). */
export function isUnreachable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown; errors?: unknown[]; message?: unknown } | undefined, i = 0;
    e && i < 4;
    i++
  ) {
    const code = typeof e.code === "string" ? e.code : "";
    if (UNREACHABLE_CODES.has(code) || code.startsWith("08")) return true;
    if (typeof e.message === "string" && UNREACHABLE_MESSAGE.test(e.message)) return true;
    if (Array.isArray(e.errors) && e.errors.some(isUnreachable)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** What an operator should do about an error no wait cures, when it is a known one. */
function notCuredByWaiting(error: unknown): string | null {
  const code = (error as { code?: unknown })?.code;
  if (code === "28P01" || code === "28000")
    return "the database refused the user or password of DATABASE_URL: check them";
  if (code === "3D000") return "the database named in DATABASE_URL does not exist: create it first (docs/operations/)";
  return null;
}

export interface WaitOptions {
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** A try that takes longer than this counts as failed. */
  tryTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export class DatabaseRefused extends Error {}

/**
 * Resolves once `probe` succeeds; retries while the database is unreachable; rejects with
 * `DatabaseRefused` for what waiting cannot cure.
 */
export async function waitForDatabase(probe: () => Promise<unknown>, options: WaitOptions = {}): Promise<number> {
  const { firstDelayMs = 500, maxDelayMs = 15_000, tryTimeoutMs = 10_000 } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = Date.now();
  let delay = firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await withTimeout(probe(), tryTimeoutMs);
      if (attempt > 1)
        log().info({ attempts: attempt, waitedMs: Date.now() - started }, "db: the database answers; starting");
      return attempt;
    } catch (error) {
      if (!isUnreachable(error)) {
        const advice = notCuredByWaiting(error);
        throw new DatabaseRefused(
          `db: the database cannot be used${advice ? `: ${advice}` : ""} (${(error as Error).message})`,
          { cause: error },
        );
      }
      log().warn(
        { attempt, retryInMs: delay, error: reasonOf(error) },
        "db: the database does not answer at start; waiting for it",
      );
      await sleep(delay);
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: "ETIMEDOUT" })), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The innermost code of an error's chain (drizzle wraps the driver's), or its first line. */
export function reasonOf(error: unknown): string {
  let found: string | null = null;
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 4;
    i++, e = e.cause as typeof e
  )
    if (typeof e.code === "string") found = e.code;
  return (
    found ??
    String((error as Error)?.message ?? error)
      .split("\n")[0]!
      .slice(0, 200)
  );
}
