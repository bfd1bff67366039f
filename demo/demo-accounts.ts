import { inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../api/db/client";
import { demoContent } from "./demo-content";
import { verifyPassword } from "../identity/password";
import { users } from "../api/db/schema";

/**
 * Demo accounts (README) share a password everybody knows. A server is allowed them only on a
 * loopback origin (the README's `npm start`, the tests), or with DEMO_ACCOUNTS=1 (decision 017).
 */
export function demoAccountsAllowed(appUrl: string, demoAccounts: string | undefined): boolean {
  if (demoAccounts === "1") return true;
  const host = new URL(appUrl).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The demo password (demo/data/users.json). */
export function demoPassword(): string {
  return demoContent().password;
}

/**
 * Takes the password away from every account that has the demo password (it can no longer sign
 * in; an administrator sets a new one). Candidates are the demo e-mail addresses and any password
 * hash shared by several accounts (the seed gives all demo accounts one hash) — one scrypt per
 * distinct hash, not per user. Returns the e-mail addresses disabled.
 */
export async function disableDemoPasswordAccounts(db: Db): Promise<string[]> {
  const content = demoContent();
  const demoEmails = Object.values(content.users).map((u) => u.email.toLowerCase());
  const candidates = await db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(isNotNull(users.passwordHash))
    .groupBy(users.passwordHash)
    .having(sql`count(*) > 1 or bool_or(lower(${users.email}) in ${demoEmails})`);
  const demoHashes: string[] = [];
  for (const { hash } of candidates) {
    if (hash && (await verifyPassword(content.password, hash))) demoHashes.push(hash);
  }
  if (demoHashes.length === 0) return [];
  const disabled = await db
    .update(users)
    .set({ passwordHash: null })
    .where(inArray(users.passwordHash, demoHashes))
    .returning({ email: users.email });
  return disabled.map((u) => u.email);
}
