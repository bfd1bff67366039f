import type { Database } from "../api/db/client";
import { createLimiter } from "../api/rate-limit";

/**
 * The provider's limits, on the shared limiter (`api/rate-limit.ts`: counted in the database, so
 * several nodes count together — decision 017).
 *
 * Sign-in counts failures: after 5 wrong passwords for one e-mail from one address (or 50 from one
 * address overall) within 15 minutes, further tries get 429 until the window passes; a success
 * forgets the e-mail's failures. Sign-up counts every attempt that gets as far as hashing a
 * password: 3 per e-mail and 10 per address an hour.
 */
export const SIGN_IN_LIMITS = { perEmail: 5, perAddress: 50, windowSeconds: 15 * 60 };
export const SIGN_UP_LIMITS = { perEmail: 3, perAddress: 10, windowSeconds: 60 * 60 };
/**
 * Issue 26: "Forgot password?" — every request counts, known address or not (so the limit tells nothing):
 * 3 an hour per e-mail (no mailbox is flooded), 50 per client address (an office behind one address).
 */
const RESET_LIMITS = { perEmail: 3, perAddress: 50, windowSeconds: 60 * 60 };

const emailKey = (ip: string, email: string) => `${ip}|${email.trim().toLowerCase()}`;

export function signInLimits(database: Pick<Database, "db"> | null) {
  const perEmail = createLimiter(database, {
    name: "signin-email",
    points: SIGN_IN_LIMITS.perEmail,
    durationSeconds: SIGN_IN_LIMITS.windowSeconds,
    store: "shared",
  });
  const perAddress = createLimiter(database, {
    name: "signin-ip",
    points: SIGN_IN_LIMITS.perAddress,
    durationSeconds: SIGN_IN_LIMITS.windowSeconds,
    store: "shared",
  });
  return {
    /** Seconds until another try is allowed; 0 when allowed now. */
    async blockedFor(ip: string, email: string): Promise<number> {
      const [a, b] = await Promise.all([perEmail.blockedFor(emailKey(ip, email)), perAddress.blockedFor(ip)]);
      return Math.max(a, b);
    },
    async fail(ip: string, email: string): Promise<void> {
      await Promise.all([perEmail.consume(emailKey(ip, email)), perAddress.consume(ip)]);
    },
    async succeed(ip: string, email: string): Promise<void> {
      await perEmail.reset(emailKey(ip, email));
    },
  };
}

export function signUpLimits(database: Pick<Database, "db"> | null) {
  const perEmail = createLimiter(database, {
    name: "signup-email",
    points: SIGN_UP_LIMITS.perEmail,
    durationSeconds: SIGN_UP_LIMITS.windowSeconds,
    store: "shared",
  });
  const perAddress = createLimiter(database, {
    name: "signup-ip",
    points: SIGN_UP_LIMITS.perAddress,
    durationSeconds: SIGN_UP_LIMITS.windowSeconds,
    store: "shared",
  });
  /** Counts one attempt; the seconds to wait when over a limit, else 0. */
  return async (ip: string, email: string): Promise<number> => {
    const [a, b] = await Promise.all([perAddress.consume(ip), perEmail.consume(email.trim().toLowerCase())]);
    return Math.max(a.ok ? 0 : a.retryAfterSeconds, b.ok ? 0 : b.retryAfterSeconds);
  };
}

/** Issue 26: password-reset requests, counted like sign-ups (per e-mail and per address, shared by every node). */
export function resetLimits(database: Pick<Database, "db"> | null) {
  const perEmail = createLimiter(database, {
    name: "reset-email",
    points: RESET_LIMITS.perEmail,
    durationSeconds: RESET_LIMITS.windowSeconds,
    store: "shared",
  });
  const perAddress = createLimiter(database, {
    name: "reset-ip",
    points: RESET_LIMITS.perAddress,
    durationSeconds: RESET_LIMITS.windowSeconds,
    store: "shared",
  });
  /** Counts one request; the seconds to wait when over a limit, else 0. */
  return async (ip: string, email: string): Promise<number> => {
    const [a, b] = await Promise.all([perAddress.consume(ip), perEmail.consume(email.trim().toLowerCase())]);
    return Math.max(a.ok ? 0 : a.retryAfterSeconds, b.ok ? 0 : b.retryAfterSeconds);
  };
}
