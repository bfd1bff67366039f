/**
 * What every log line of the product obeys (decision 053), shared by the web front's logger
 * (app/services/logger.server.ts) and the LMS API's (api/db/log.ts):
 *
 * - no e-mail address and no bearer token or password ever reaches the log, whatever wrote it
 *   (a failed query's parameters, an error message that quotes a value, a mail line): `redactLine`
 *   runs on each finished JSON line;
 * - an error is logged as its type, code, message and stack (and its cause's), never its other
 *   properties (drizzle's failed-query error carries the statement's parameters): `safeError`;
 * - a warning or an error repeated many times (every request of a database outage says
 *   "analytics: events not recorded") is written a few times, then counted: one line per interval
 *   with the number left out (`RepeatedWarnings`).
 */

/** An e-mail address, loosely: anything@host.tld. */
const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+/g;
/** `Bearer <token>`, and JSON or query values of names that hold secrets. */
const BEARER = /\b(Bearer|Basic)\s+[\w.~+/=-]{8,}/gi;
const SECRET_VALUE =
  /("?(?:password|passwd|token|secret|authorization|cookie|api[_-]?key|client_secret)"?\s*[:=]\s*)(?!(?:Bearer|Basic) |\[redacted\])("(?:[^"\\]|\\.)*"|[^\s,&}"]+)/gi;

/** The line with e-mail addresses and secrets' values replaced. */
export function redactLine(line: string): string {
  if (line.includes("@")) line = line.replace(EMAIL, "[email]");
  return line
    .replace(BEARER, "$1 [redacted]")
    .replace(SECRET_VALUE, (_m, name: string, value: string) =>
      value.startsWith('"') ? `${name}"[redacted]"` : `${name}[redacted]`,
    );
}

export interface SafeError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: SafeError;
}

/** An error as a log line may show it: type, code, message, stack, and its causes (three deep). */
export function safeError(error: unknown, depth = 0): SafeError {
  if (!(error instanceof Error)) return { type: typeof error, message: redactLine(String(error)) };
  const code = (error as { code?: unknown }).code;
  const out: SafeError = {
    type: error.constructor?.name || error.name,
    message: redactLine(error.message),
    ...(typeof code === "string" || typeof code === "number" ? { code: String(code) } : {}),
    ...(error.stack ? { stack: redactLine(error.stack) } : {}),
  };
  if (error.cause !== undefined && depth < 3) out.cause = safeError(error.cause, depth + 1);
  return out;
}

export interface RepeatedWarningsOptions {
  /** The interval over which a message is counted. */
  intervalMs: number;
  /** Lines of one message written one by one per interval before the rest are counted. */
  perInterval: number;
  /** Writes the summary of a message: how many of its lines were left out in the interval. */
  summarize: (message: string, left: number, level: number) => void;
  now?: () => number;
}

/**
 * Counts lines by message: the first `perInterval` of each message in an interval are written, the
 * rest are left out and, when the interval ends, summarized in one line. Bounded: at most 500
 * messages are tracked (messages are the code's own texts, not values).
 */
export class RepeatedWarnings {
  private readonly seen = new Map<string, { start: number; written: number; left: number; level: number }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;

  constructor(private readonly options: RepeatedWarningsOptions) {
    this.now = options.now ?? (() => Date.now());
  }

  /** Whether this line is written (true) or counted (false). */
  admit(message: string, level: number): boolean {
    const t = this.now();
    let entry = this.seen.get(message);
    if (entry && t - entry.start >= this.options.intervalMs) {
      this.report(message, entry);
      entry = undefined;
    }
    if (!entry) {
      if (this.seen.size >= 500) this.flush();
      entry = { start: t, written: 0, left: 0, level };
      this.seen.set(message, entry);
    }
    if (entry.written < this.options.perInterval) {
      entry.written++;
      return true;
    }
    entry.left++;
    this.schedule();
    return false;
  }

  /** Summarizes every message with lines left out, and forgets them all. */
  flush(): void {
    for (const [message, entry] of this.seen) this.report(message, entry);
    this.seen.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private report(message: string, entry: { left: number; level: number }) {
    if (entry.left > 0) this.options.summarize(message, entry.left, entry.level);
    entry.left = 0;
    this.seen.delete(message);
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const t = this.now();
      for (const [message, entry] of this.seen)
        if (t - entry.start >= this.options.intervalMs || entry.left > 0) this.report(message, entry);
      if ([...this.seen.values()].some((e) => e.left > 0)) this.schedule();
    }, this.options.intervalMs);
    this.timer.unref?.();
  }
}

/** The pino hook that puts `RepeatedWarnings` on a logger's warn and error lines (levels 40 and 50). */
export function repeatedLinesHook(repeated: RepeatedWarnings) {
  return function logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void, level: number): void {
    if (level === 40 || level === 50) {
      const message = typeof args[0] === "string" ? args[0] : typeof args[1] === "string" ? args[1] : "";
      if (message && !repeated.admit(message, level)) return;
    }
    method.apply(this, args);
  };
}

const asSafe = (e: unknown) => (e instanceof Error ? safeError(e) : e);

/** Lines of one message written one by one per interval (`RepeatedWarnings`), and the interval. */
const REPEATED_LINES = { perInterval: 5, intervalMs: 10_000 };

/**
 * The parts of a pino logger's options that apply this policy: errors as `safeError`, repeated warn
 * and error lines counted, every finished line redacted. `summaryOf` gives the logger once it exists,
 * for the lines that say how many were left out.
 */
export function logPolicyOptions(summaryOf: () => { warn: (fields: object, msg: string) => void } | undefined) {
  const repeated = new RepeatedWarnings({
    ...REPEATED_LINES,
    summarize: (message, left) =>
      summaryOf()?.warn({ repeated: left, intervalMs: REPEATED_LINES.intervalMs }, `${message} (repeated)`),
  });
  return {
    repeated,
    serializers: { err: asSafe, error: asSafe },
    hooks: { logMethod: repeatedLinesHook(repeated), streamWrite: redactLine },
  };
}
