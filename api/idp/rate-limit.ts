/**
 * Sign-in failure limiter: after MAX_FAILURES wrong passwords for one e-mail from one address
 * (or MAX_PER_IP from one address overall) within WINDOW_MS, further tries get 429 until the
 * window passes. In memory: the embedded provider runs on one node (docs/decisions).
 */
export class LoginRateLimiter {
  static readonly MAX_FAILURES = 5;
  static readonly MAX_PER_IP = 50;
  static readonly WINDOW_MS = 15 * 60 * 1000;
  private failures = new Map<string, number[]>();

  constructor(private now: () => number = Date.now) {}

  private recent(key: string): number[] {
    const since = this.now() - LoginRateLimiter.WINDOW_MS;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Milliseconds until another try is allowed; 0 when allowed now. */
  blockedFor(ip: string, email: string): number {
    const checks: [string, number][] = [
      [`${ip}|${email.toLowerCase()}`, LoginRateLimiter.MAX_FAILURES],
      [ip, LoginRateLimiter.MAX_PER_IP],
    ];
    let wait = 0;
    for (const [key, max] of checks) {
      const list = this.recent(key);
      if (list.length >= max) wait = Math.max(wait, list[list.length - max] + LoginRateLimiter.WINDOW_MS - this.now());
    }
    return wait;
  }

  fail(ip: string, email: string) {
    for (const key of [`${ip}|${email.toLowerCase()}`, ip]) {
      const list = this.recent(key);
      list.push(this.now());
      this.failures.set(key, list);
      if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
    }
  }

  succeed(ip: string, email: string) {
    this.failures.delete(`${ip}|${email.toLowerCase()}`);
  }
}
