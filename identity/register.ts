import { sql } from "drizzle-orm";
import type { Db } from "../api/db/client";
import { hashPassword } from "./password";
import { licences, pendingRegistrations, userRoles, users } from "../api/db/schema";
import { defaultTenantId } from "../api/settings";

type Field = "firstName" | "lastName" | "email" | "password";
type FieldError = {
  code: "fieldRequired" | "invalidEmail" | "passwordTooShort" | "tooLong";
  length?: number;
};

type Values = { firstName: string; lastName: string; email: string };

export type CheckResult =
  | { ok: true; values: Values }
  | { ok: false; status: number; errors: Partial<Record<Field, FieldError>>; values: Values };

/**
 * `userId` is null when the e-mail address already has an account: the caller answers exactly as
 * for a new one (decision 017), so a sign-up does not tell who has an account.
 */
export type RegisterResult = { ok: true; userId: string | null; values: Values } | Extract<CheckResult, { ok: false }>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 8;

/** The form's rules, without touching the database or hashing anything. */
export function checkRegistration(input: Record<Field, string>): CheckResult {
  const values = {
    firstName: input.firstName.trim().slice(0, 200),
    lastName: input.lastName.trim().slice(0, 200),
    email: input.email.trim().toLowerCase().slice(0, 300),
  };
  const errors: Partial<Record<Field, FieldError>> = {};
  for (const f of ["firstName", "lastName", "email"] as const) {
    if (!values[f]) errors[f] = { code: "fieldRequired" };
    else if (values[f].length > (f === "email" ? 254 : 100))
      errors[f] = { code: "tooLong", length: f === "email" ? 254 : 100 };
  }
  if (!errors.email && !EMAIL.test(values.email)) errors.email = { code: "invalidEmail" };
  if (!input.password) errors.password = { code: "fieldRequired" };
  else if (input.password.length < PASSWORD_MIN) errors.password = { code: "passwordTooShort" };
  else if (input.password.length > 1024) errors.password = { code: "tooLong", length: 1024 };
  if (Object.keys(errors).length) return { ok: false, status: 400, errors, values };
  return { ok: true, values };
}

/**
 * Self-registration of a learner in the default tenant, at once (Learner role, LMS licence): what the
 * tests and tools use to make an account. The provider's sign-up form makes it only when the e-mailed
 * link is used (`account-links.ts`, decision 036). The password is hashed whether or not the address is
 * taken, so both answers take the same time.
 */
export async function registerLearner(db: Db, input: Record<Field, string>): Promise<RegisterResult> {
  const checked = checkRegistration(input);
  if (!checked.ok) return checked;
  const { values } = checked;
  const tenantId = await defaultTenantId(db);
  if (!tenantId) return { ok: false, status: 503, errors: { email: { code: "fieldRequired" } }, values };
  const passwordHash = await hashPassword(input.password);
  const created = await db.transaction(async (tx) => {
    const taken = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${values.email}`)
      .limit(1);
    if (taken[0]) return null;
    return createLearnerAccount(tx, tenantId, { ...values, passwordHash });
  });
  return { ok: true, userId: created, values };
}

/**
 * A learner's account in `tenantId`: Learner role, LMS licence, and a registration to greet once at the
 * first sign-in (the provider's ID token says `registered`). Null when the address has an account.
 */
export async function createLearnerAccount(
  tx: Pick<Db, "insert">,
  tenantId: string,
  account: { email: string; firstName: string; lastName: string; passwordHash: string },
): Promise<string | null> {
  const [u] = await tx
    .insert(users)
    .values({ tenantId, ...account })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!u) return null;
  await tx.insert(userRoles).values({ userId: u.id, role: "Learner" });
  await tx.insert(licences).values({ userId: u.id, product: "LMS" });
  await tx.insert(pendingRegistrations).values({ userId: u.id });
  return u.id;
}
