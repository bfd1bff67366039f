/**
 * SCIM Groups (RFC 7643 §4.2) ↔ the tenant's units: `displayName` is the unit's name, `members` the
 * people in it (user_units). A member added to a unit who has no primary unit gets it as her primary.
 */
import { and, asc, count, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../db/client";
import { units, users, userUnits } from "../db/schema";
import { ScimError } from "./errors";
import type { FilterColumn } from "./filter";

export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";

export const groupInput = z.looseObject({
  displayName: z.string().trim().min(1).max(200),
  members: z
    .array(z.looseObject({ value: z.string().trim().min(1).max(64) }))
    .max(10_000)
    .nullish(),
});
export type GroupInput = z.output<typeof groupInput>;

export const GROUP_FILTER: Record<string, FilterColumn> = {
  id: { kind: "text", sql: sql`${units.id}::text`, caseExact: true },
  displayname: { kind: "text", sql: sql`${units.name}` },
  "members.value": {
    kind: "eqOnly",
    eq: (value) =>
      sql`exists (select 1 from ${userUnits} where ${userUnits.unitId} = ${units.id} and ${userUnits.userId}::text = ${value})`,
  },
};

type Member = { unitId: string; id: string; firstName: string; lastName: string };

function groupResource(g: { id: string; name: string }, members: Member[] | null, base: string) {
  return {
    schemas: [GROUP_SCHEMA],
    id: g.id,
    displayName: g.name,
    ...(members
      ? {
          members: members.map((m) => ({
            value: m.id,
            display: `${m.firstName} ${m.lastName}`.trim(),
            type: "User",
            $ref: `${base}/Users/${m.id}`,
          })),
        }
      : {}),
    meta: { resourceType: "Group", location: `${base}/Groups/${g.id}` },
  };
}
export type GroupResource = ReturnType<typeof groupResource>;

/** The groups of a page with their members (unless excluded): two statements. */
async function resources(db: Db | Tx, rows: { id: string; name: string }[], withMembers: boolean, base: string) {
  const ids = rows.map((r) => r.id);
  const members =
    withMembers && ids.length
      ? await db
          .select({ unitId: userUnits.unitId, id: users.id, firstName: users.firstName, lastName: users.lastName })
          .from(userUnits)
          .innerJoin(users, eq(users.id, userUnits.userId))
          .where(inArray(userUnits.unitId, ids))
          .orderBy(asc(users.lastName), asc(users.id))
      : [];
  return rows.map((r) => groupResource(r, withMembers ? members.filter((m) => m.unitId === r.id) : null, base));
}

const inTenant = (tenantId: string, id: string) => and(eq(units.tenantId, tenantId), sql`${units.id}::text = ${id}`);

export async function getGroup(db: Db | Tx, tenantId: string, id: string, withMembers: boolean, base: string) {
  const rows = await db.select({ id: units.id, name: units.name }).from(units).where(inTenant(tenantId, id)).limit(1);
  if (!rows[0]) throw new ScimError(404, `Group ${id} not found`);
  return (await resources(db, rows, withMembers, base))[0]!;
}

export async function listGroups(
  db: Db,
  tenantId: string,
  q: { where: SQL | undefined; startIndex: number; count: number; withMembers: boolean },
  base: string,
) {
  const where = and(eq(units.tenantId, tenantId), q.where);
  const [{ total }] = await db.select({ total: count() }).from(units).where(where);
  const rows = q.count
    ? await db
        .select({ id: units.id, name: units.name })
        .from(units)
        .where(where)
        .orderBy(asc(units.name), asc(units.id))
        .offset(q.startIndex - 1)
        .limit(q.count)
    : [];
  return { total, resources: await resources(db, rows, q.withMembers, base) };
}

async function refuseTakenName(tx: Tx, tenantId: string, name: string, self?: string) {
  const [taken] = await tx
    .select({ id: units.id })
    .from(units)
    .where(
      and(
        eq(units.tenantId, tenantId),
        sql`lower(${units.name}) = ${name.toLowerCase()}`,
        self ? ne(units.id, self) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw new ScimError(409, `A group named ${name} exists`, "uniqueness");
}

/** The unit's members become `wanted` (user ids of the tenant): the missing ones added, the others removed. */
async function setMembers(tx: Tx, tenantId: string, unitId: string, wanted: string[]) {
  const ids = [...new Set(wanted)];
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const bad = ids.find((id) => !uuid.test(id));
  if (bad) throw new ScimError(400, `No user ${bad}`, "invalidValue");
  const known = ids.length
    ? await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), inArray(users.id, ids)))
    : [];
  const missing = ids.find((id) => !known.some((k) => k.id === id.toLowerCase()));
  if (missing) throw new ScimError(400, `No user ${missing}`, "invalidValue");
  const want = known.map((k) => k.id);
  await tx.delete(userUnits).where(
    and(
      eq(userUnits.unitId, unitId),
      want.length
        ? sql`${userUnits.userId} not in (${sql.join(
            want.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`
        : undefined,
    ),
  );
  if (!want.length) return;
  await tx
    .insert(userUnits)
    .values(want.map((userId) => ({ userId, unitId, isPrimary: false })))
    .onConflictDoNothing();
  // Her first unit is her primary unit (the profile's, the rosters').
  await tx.execute(sql`
    update ${userUnits} set is_primary = true
    where ${userUnits.unitId} = ${unitId} and ${inArray(userUnits.userId, want)}
      and not exists (select 1 from ${userUnits} p where p.user_id = ${userUnits.userId} and p.is_primary)`);
}

export async function createGroup(db: Db, tenantId: string, input: GroupInput, base: string) {
  const id = await db.transaction(async (tx) => {
    await refuseTakenName(tx, tenantId, input.displayName);
    const [u] = await tx.insert(units).values({ tenantId, name: input.displayName }).returning({ id: units.id });
    await setMembers(
      tx,
      tenantId,
      u.id,
      (input.members ?? []).map((m) => m.value),
    );
    return u.id;
  });
  return getGroup(db, tenantId, id, true, base);
}

/** PUT, and a PATCH once applied: the unit takes the resource's name and members. */
export async function replaceGroup(db: Db, tenantId: string, id: string, input: GroupInput, base: string) {
  await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: units.id, name: units.name })
      .from(units)
      .where(inTenant(tenantId, id))
      .for("update");
    if (!found) throw new ScimError(404, `Group ${id} not found`);
    if (found.name !== input.displayName) {
      await refuseTakenName(tx, tenantId, input.displayName, found.id);
      await tx.update(units).set({ name: input.displayName }).where(eq(units.id, found.id));
    }
    await setMembers(
      tx,
      tenantId,
      found.id,
      (input.members ?? []).map((m) => m.value),
    );
  });
  return getGroup(db, tenantId, id, true, base);
}

export async function deleteGroup(db: Db, tenantId: string, id: string): Promise<void> {
  const gone = await db.delete(units).where(inTenant(tenantId, id)).returning({ id: units.id });
  if (!gone.length) throw new ScimError(404, `Group ${id} not found`);
}
