import type { Database } from "../api/db/client";
import { createLimiter } from "../api/rate-limit";
import { addressKey } from "../api/analytics-limits";

/**
 * The provider's limits, on the shared limiter (`api/rate-limit.ts`: counted in the database, so
 * several nodes count together — decision 017), keyed so that nobody can lock anybody else out
 * (decision 050): the **client** (its address; an IPv6 address by its /64, which one subscriber
 * holds whole) is what gets stopped, together with the account it tries; the **account** alone is
 * only slowed down, never locked.
 *
 * - Sign-in counts failures: 5 wrong passwords for one account from one client (or 50 from one client
 *   overall) within 15 minutes stop that client for the rest of the window; every client together may
 *   fail an account at most 10 times a minute (a ramp, not a lockout: the owner waits at most a
 *   minute). A success forgets the client's failures for that account.
 * - Sign-up counts every attempt that gets as far as hashing a password: 3 per address and client and
 *   10 per client an hour.
 * - "Forgot password?" counts every request, known address or not (so the limit tells nothing): 3 an
 *   hour per address and client, 50 per client (an office behind one address). A stranger's requests
 *   never stop the owner's.
 */
export const SIGN_IN_LIMITS = { perEmail: 5, perAddress: 50, windowSeconds: 15 * 60, perAccountPerMinute: 10 };
export const SIGN_UP_LIMITS = { perEmail: 3, perAddress: 10, windowSeconds: 60 * 60 };
export const RESET_LIMITS = { perEmail: 3, perAddress: 50, windowSeconds: 60 * 60 };

/** The client a limit counts: the socket's address, an IPv6 one by its /64 (`addressKey`). */
export const clientKey = (address: string | undefined): string => addressKey(address ?? "unknown");

const account = (email: string) => email.trim().toLowerCase();
const clientAccount = (client: string, email: string) => `${client}|${account(email)}`;

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
  const perAccount = createLimiter(database, {
    name: "signin-account",
    points: SIGN_IN_LIMITS.perAccountPerMinute,
    durationSeconds: 60,
    store: "shared",
  });
  return {
    /** Seconds until `client` may try `email` again; 0 when allowed now. `client` is a `clientKey`. */
    async blockedFor(client: string, email: string): Promise<number> {
      const waits = await Promise.all([
        perEmail.blockedFor(clientAccount(client, email)),
        perAddress.blockedFor(client),
        perAccount.blockedFor(account(email)),
      ]);
      return Math.max(...waits);
    },
    async fail(client: string, email: string): Promise<void> {
      await Promise.all([
        perEmail.consume(clientAccount(client, email)),
        perAddress.consume(client),
        perAccount.consume(account(email)),
      ]);
    },
    async succeed(client: string, email: string): Promise<void> {
      await perEmail.reset(clientAccount(client, email));
    },
  };
}

/** Counts one try per client and per client + address; the seconds to wait when over either, else 0. */
function perClientLimits(
  database: Pick<Database, "db"> | null,
  names: { email: string; client: string },
  limits: { perEmail: number; perAddress: number; windowSeconds: number },
) {
  const perEmail = createLimiter(database, {
    name: names.email,
    points: limits.perEmail,
    durationSeconds: limits.windowSeconds,
    store: "shared",
  });
  const perAddress = createLimiter(database, {
    name: names.client,
    points: limits.perAddress,
    durationSeconds: limits.windowSeconds,
    store: "shared",
  });
  return async (client: string, email: string): Promise<number> => {
    const [a, b] = await Promise.all([perAddress.consume(client), perEmail.consume(clientAccount(client, email))]);
    return Math.max(a.ok ? 0 : a.retryAfterSeconds, b.ok ? 0 : b.retryAfterSeconds);
  };
}

export function signUpLimits(database: Pick<Database, "db"> | null) {
  return perClientLimits(database, { email: "signup-email", client: "signup-ip" }, SIGN_UP_LIMITS);
}

/** Password-reset requests, counted like sign-ups (per client and address, shared by every node). */
export function resetLimits(database: Pick<Database, "db"> | null) {
  return perClientLimits(database, { email: "reset-email", client: "reset-ip" }, RESET_LIMITS);
}
