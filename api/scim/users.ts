/**
 * SCIM Users (RFC 7643 §4.1) ↔ the LMS's people: `userName` and the one work e-mail are the account's
 * address, `externalId` its external id (the CSV import's too), `name` its names, `active: false` a
 * deactivated account (signed in nowhere, in no roster, nothing of hers deleted), `groups` its units.
 */
import { and, asc, count, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../db/client";
import { appSessions, licences, oidcModels, units, userRoles, users, userUnits } from "../db/schema";
import { forgetPrincipalsAfter } from "../auth";
import { isSupportedLocale } from "../../domain/locales";
import { ScimError } from "./errors";
import type { FilterColumn } from "./filter";

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";

/** Entra ID sends booleans as the strings "True" and "False" in PATCH values. */
const boolish = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^(true|false)$/i)
    .transform((v) => v.toLowerCase() === "true"),
]);
const text = (max: number) => z.string().trim().max(max);

/** What a create (POST) or a replace (PUT) may say; other attributes (an enterprise extension…) are ignored. */
export const userInput = z.looseObject({
  userName: text(254).min(1),
  externalId: text(254).nullish(),
  name: z
    .looseObject({ givenName: text(200).nullish(), familyName: text(200).nullish(), middleName: text(200).nullish() })
    .nullish(),
  displayName: text(400).nullish(),
  emails: z
    .array(z.looseObject({ value: text(254), primary: boolish.optional(), type: z.string().nullish() }))
    .max(20)
    .nullish(),
  active: boolish.optional(),
  locale: text(35).nullish(),
  preferredLanguage: text(35).nullish(),
  timezone: text(64).nullish(),
});
export type UserInput = z.output<typeof userInput>;

type UserRow = {
  id: string;
  email: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  externalId: string | null;
  locale: string | null;
  timezone: string | null;
  deactivatedAt: Date | null;
  createdAt: Date;
};

const userColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  middleName: users.middleName,
  lastName: users.lastName,
  externalId: users.externalId,
  locale: users.locale,
  timezone: users.timezone,
  deactivatedAt: users.deactivatedAt,
  createdAt: users.createdAt,
};

/** What `filter=` may name for Users. */
export const USER_FILTER: Record<string, FilterColumn> = {
  id: { kind: "text", sql: sql`${users.id}::text`, caseExact: true },
  username: { kind: "text", sql: sql`${users.email}` },
  "emails.value": { kind: "text", sql: sql`${users.email}` },
  emails: { kind: "text", sql: sql`${users.email}` },
  "emails.type": { kind: "text", sql: sql`'work'` },
  externalid: { kind: "text", sql: sql`${users.externalId}`, caseExact: true },
  "name.givenname": { kind: "text", sql: sql`${users.firstName}` },
  "name.familyname": { kind: "text", sql: sql`${users.lastName}` },
  displayname: { kind: "text", sql: sql`${users.firstName} || ' ' || ${users.lastName}` },
  active: { kind: "bool", sql: sql`${users.deactivatedAt} is null` },
};

const validTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

function userResource(u: UserRow, groups: { id: string; name: string }[], base: string) {
  return {
    schemas: [USER_SCHEMA],
    id: u.id,
    ...(u.externalId ? { externalId: u.externalId } : {}),
    userName: u.email,
    name: {
      formatted: [u.firstName, u.middleName, u.lastName].filter(Boolean).join(" "),
      givenName: u.firstName,
      ...(u.middleName ? { middleName: u.middleName } : {}),
      familyName: u.lastName,
    },
    displayName: [u.firstName, u.lastName].filter(Boolean).join(" "),
    emails: [{ value: u.email, type: "work", primary: true }],
    active: u.deactivatedAt === null,
    ...(u.locale ? { locale: u.locale } : {}),
    ...(u.timezone ? { timezone: u.timezone } : {}),
    groups: groups.map((g) => ({ value: g.id, display: g.name, $ref: `${base}/Groups/${g.id}` })),
    meta: { resourceType: "User", created: u.createdAt.toISOString(), location: `${base}/Users/${u.id}` },
  };
}
export type UserResource = ReturnType<typeof userResource>;

/** The users of a page with their units: two statements whatever the page's length. */
async function resources(db: Db | Tx, rows: UserRow[], base: string): Promise<UserResource[]> {
  const ids = rows.map((r) => r.id);
  const memberships = ids.length
    ? await db
        .select({ userId: userUnits.userId, id: units.id, name: units.name })
        .from(userUnits)
        .innerJoin(units, eq(units.id, userUnits.unitId))
        .where(inArray(userUnits.userId, ids))
        .orderBy(sql`${userUnits.isPrimary} desc`, asc(units.name))
    : [];
  return rows.map((r) =>
    userResource(
      r,
      memberships.filter((m) => m.userId === r.id),
      base,
    ),
  );
}

const inTenant = (tenantId: string, id: string) => and(eq(users.tenantId, tenantId), sql`${users.id}::text = ${id}`);

export async function getUser(db: Db | Tx, tenantId: string, id: string, base: string): Promise<UserResource> {
  const rows = await db.select(userColumns).from(users).where(inTenant(tenantId, id)).limit(1);
  if (!rows[0]) throw new ScimError(404, `User ${id} not found`);
  return (await resources(db, rows, base))[0]!;
}

export async function listUsers(
  db: Db,
  tenantId: string,
  q: { where: SQL | undefined; startIndex: number; count: number },
  base: string,
) {
  const where = and(eq(users.tenantId, tenantId), q.where);
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  const rows = q.count
    ? await db
        .select(userColumns)
        .from(users)
        .where(where)
        .orderBy(asc(users.createdAt), asc(users.id))
        .offset(q.startIndex - 1)
        .limit(q.count)
    : [];
  return { total, resources: await resources(db, rows, base) };
}

/** The account's values from a SCIM User: its address, names, external id, and what the LMS keeps of the rest. */
function accountValues(input: UserInput) {
  const emails = input.emails ?? [];
  const primary = emails.find((e) => e.primary) ?? emails[0];
  const asEmail = (v: string | undefined) => (v && z.email().safeParse(v).success ? v.toLowerCase() : undefined);
  const email = asEmail(input.userName) ?? asEmail(primary?.value);
  if (!email)
    throw new ScimError(400, "The user needs an e-mail address: userName or a work e-mail (emails).", "invalidValue");
  const words = (input.displayName ?? "").split(/\s+/).filter(Boolean);
  const firstName = input.name?.givenName || words[0] || email.split("@")[0]!;
  const lastName = input.name?.familyName || words.slice(1).join(" ") || "";
  const locale = input.locale || input.preferredLanguage;
  return {
    email,
    firstName,
    middleName: input.name?.middleName || null,
    lastName,
    externalId: input.externalId || null,
    // A language or time zone the app does not know is left out (the person keeps hers): never a refusal.
    ...(locale && isSupportedLocale(locale) ? { locale } : {}),
    ...(input.timezone && validTimeZone(input.timezone) ? { timezone: input.timezone } : {}),
  };
}

async function refuseTaken(
  tx: Tx,
  tenantId: string,
  values: { email: string; externalId: string | null },
  self?: string,
) {
  const other = self ? ne(users.id, self) : undefined;
  const [byEmail] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${values.email}`, other))
    .limit(1);
  if (byEmail) throw new ScimError(409, `A user with userName ${values.email} exists`, "uniqueness");
  if (values.externalId) {
    const [byExternal] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.externalId, values.externalId), other))
      .limit(1);
    if (byExternal) throw new ScimError(409, `A user with externalId ${values.externalId} exists`, "uniqueness");
  }
}

/** The start of this second, by the clock that stamps the tokens (`iat` counts whole seconds). */
const thisSecond = () => new Date(Math.floor(Date.now() / 1000) * 1000);

/**
 * Ends everything the person is signed in with — the app's session rows, the provider's sessions and
 * grants, and every access token issued before now — as an operator's `sessions revoke` does.
 */
async function endSessions(tx: Tx, userId: string, email: string) {
  await tx
    .update(appSessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        sql`(${appSessions.subject} = ${userId} or ${appSessions.email} = ${email.toLowerCase()})`,
        sql`${appSessions.revokedAt} is null`,
      ),
    );
  const grants = tx
    .select({ id: oidcModels.id })
    .from(oidcModels)
    .where(and(eq(oidcModels.model, "Grant"), eq(oidcModels.accountId, userId)));
  await tx.delete(oidcModels).where(sql`${oidcModels.accountId} = ${userId} or ${oidcModels.grantId} in (${grants})`);
}

export async function createUser(db: Db, tenantId: string, input: UserInput, base: string): Promise<UserResource> {
  const values = accountValues(input);
  const id = await db.transaction(async (tx) => {
    await refuseTaken(tx, tenantId, values);
    const [u] = await tx
      .insert(users)
      .values({ tenantId, ...values, deactivatedAt: input.active === false ? new Date() : null })
      .returning({ id: users.id });
    // As the CSV import and the first sign-in make people: a learner with the LMS licence.
    await tx.insert(userRoles).values({ userId: u.id, role: "Learner" });
    await tx.insert(licences).values({ userId: u.id, product: "LMS" });
    return u.id;
  });
  return getUser(db, tenantId, id, base);
}

/** PUT, and a PATCH once applied to the resource: the account takes the resource's values. */
export async function replaceUser(
  db: Db,
  tenantId: string,
  id: string,
  input: UserInput,
  base: string,
): Promise<UserResource> {
  const values = accountValues(input);
  await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: users.id, deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(inTenant(tenantId, id))
      .for("update")
      .limit(1);
    if (!found) throw new ScimError(404, `User ${id} not found`);
    await refuseTaken(tx, tenantId, values, found.id);
    const active = input.active ?? found.deactivatedAt === null;
    const deactivating = !active && found.deactivatedAt === null;
    await tx
      .update(users)
      .set({
        ...values,
        deactivatedAt: active ? null : (found.deactivatedAt ?? new Date()),
        ...(deactivating ? { tokensValidAfter: thisSecond() } : {}),
      })
      .where(eq(users.id, found.id));
    if (deactivating) await endSessions(tx, found.id, values.email);
  });
  forgetPrincipalsAfter({ kind: "user", userId: id });
  return getUser(db, tenantId, id, base);
}

/** DELETE: the account and what is hers go (RFC 7644 §3.6); a provider that wants her kept sends active: false. */
export async function deleteUser(db: Db, tenantId: string, id: string): Promise<void> {
  const gone = await db.transaction(async (tx) => {
    const [found] = await tx.select({ id: users.id, email: users.email }).from(users).where(inTenant(tenantId, id));
    if (!found) return false;
    await endSessions(tx, found.id, found.email);
    await tx.delete(users).where(eq(users.id, found.id));
    return true;
  });
  if (!gone) throw new ScimError(404, `User ${id} not found`);
  forgetPrincipalsAfter({ kind: "user", userId: id });
}
