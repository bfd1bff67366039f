/**
 * The body budget's bounds (decision 050) as pure rules: the options, and the running check that says
 * whether a body being read has fallen behind (`body-budget.ts` reads bodies before the overload gate
 * with it; `streamedBody` in front.ts holds the bodies that stream to their handler to it).
 */

export interface BodyBudgetOptions {
  /** Bytes a second a body must keep up with once `graceMs` has passed; 0 = no rate check. */
  minBytesPerSecond: number;
  /** Longest a body may take, headers to its last byte (ms); 0 = no total bound. */
  readTimeoutMs: number;
  /** Bodies one client address may be sending at once; 0 = no cap. */
  readersPerAddress: number;
  /** How long a body may take before its rate is checked (ms). */
  graceMs: number;
}

/**
 * Defaults (decision 050): 1 KB/s after 2 s, 30 s in all, 8 bodies at once per address. A phone on a
 * poor 3G link sends tens of kilobytes a second; a form post is one packet. Eight slow connections
 * sending a byte every 8 s are answered 408 after about 2 s, each.
 */
export const DEFAULT_BODY_BUDGET: BodyBudgetOptions = {
  minBytesPerSecond: 1024,
  readTimeoutMs: 30_000,
  readersPerAddress: 8,
  graceMs: 2_000,
};

/**
 * Whether a body that started `elapsedMs` ago and has brought `received` bytes is too slow: past the
 * total time, or (after the grace) behind the minimum rate.
 */
export function bodyTooSlow(options: BodyBudgetOptions, elapsedMs: number, received: number): boolean {
  if (options.readTimeoutMs > 0 && elapsedMs >= options.readTimeoutMs) return true;
  if (options.minBytesPerSecond <= 0 || elapsedMs < options.graceMs) return false;
  return received < (options.minBytesPerSecond * elapsedMs) / 1000;
}

/**
 * The budget as a running check, for a body read elsewhere: `progress(n)` as bytes come, `tooSlow()`
 * to ask, and `deadline()` for when to ask again if no byte comes (ms from now, or null: never).
 */
export class RateCheck {
  private received = 0;
  private readonly started: number;

  constructor(
    private readonly options: BodyBudgetOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  progress(bytes: number): void {
    this.received += bytes;
  }

  tooSlow(): boolean {
    return bodyTooSlow(this.options, this.now() - this.started, this.received);
  }

  /** Milliseconds until the body becomes too slow if nothing more arrives. */
  deadline(): number | null {
    const elapsed = this.now() - this.started;
    const byTotal = this.options.readTimeoutMs > 0 ? this.options.readTimeoutMs - elapsed : Infinity;
    const byRate =
      this.options.minBytesPerSecond > 0
        ? Math.max(this.options.graceMs, (this.received * 1000) / this.options.minBytesPerSecond) - elapsed
        : Infinity;
    const next = Math.min(byTotal, byRate);
    return Number.isFinite(next) ? Math.max(0, next) : null;
  }
}
