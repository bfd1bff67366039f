import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { hashPassword } from "../db/password";
import { licences, userRoles, users } from "../db/schema";
import { defaultTenantId } from "../settings";

type Field = "firstName" | "lastName" | "email" | "password";
type FieldError = {
  code: "fieldRequired" | "invalidEmail" | "passwordTooShort" | "emailTaken" | "tooLong";
  length?: number;
};

export type RegisterResult =
  | { ok: true; userId: string }
  | {
      ok: false;
      status: number;
      errors: Partial<Record<Field, FieldError>>;
      values: { firstName: string; lastName: string; email: string };
    };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 8;

/** Self-registration of a learner in the default tenant (Learner role, LMS licence). */
export async function registerLearner(db: Db, input: Record<Field, string>): Promise<RegisterResult> {
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
    const [u] = await tx
      .insert(users)
      .values({ tenantId, email: values.email, firstName: values.firstName, lastName: values.lastName, passwordHash })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!u) return null;
    await tx.insert(userRoles).values({ userId: u.id, role: "Learner" });
    await tx.insert(licences).values({ userId: u.id, product: "LMS" });
    return u.id;
  });
  if (!created) return { ok: false, status: 409, errors: { email: { code: "emailTaken" } }, values };
  return { ok: true, userId: created };
}
