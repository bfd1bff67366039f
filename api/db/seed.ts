import { eq } from "drizzle-orm";
import type { Db } from "./client";
import { hashPassword } from "./password";
import * as s from "./schema";
import { seedCatalog } from "./seed-catalog";
import { seedActivities } from "./seed-activities";
import { DEFAULT_FEATURE_ROWS, DEFAULT_SETTINGS } from "../settings-defaults";

export const DEMO_PASSWORD = "demo";
export const DEMO_TENANT_DOMAIN = "demo.local";

/** Demo accounts listed in the README (password `demo` for all). */
export const DEMO_USERS = {
  ada: { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", roles: ["Learner"], licences: ["LMS"] },
  grace: {
    email: "grace@example.com",
    firstName: "Grace",
    lastName: "Hopper",
    roles: ["Instructor", "Learner"],
    licences: ["LMS"],
  },
  admin: {
    email: "admin@example.com",
    firstName: "Alan",
    lastName: "Admin",
    roles: ["Administrator"],
    licences: ["LMS"],
  },
  rita: {
    email: "rita@example.com",
    firstName: "Rita",
    lastName: "Levi",
    roles: ["Learner"],
    licences: ["Platform.Research"],
  },
} as const;

const ROLE_PERMISSIONS: Record<string, string[]> = {
  Learner: ["ObjectiveWorkflow.Create"],
  Instructor: ["Admin.Access"],
  Author: ["Admin.Access"],
  Administrator: ["Admin.Access", "ObjectiveWorkflow.Create", "Research.Access"],
};

/** Seeds the demo tenant and accounts when the database has no tenant yet; safe to call on every start. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  const existing = await db.select({ id: s.tenants.id }).from(s.tenants).limit(1);
  if (existing.length > 0) return false;
  await seedDemo(db);
  return true;
}

export async function seedDemo(
  db: Db,
  options: { catalog?: boolean } = {},
): Promise<{ tenantId: string; userIds: Record<keyof typeof DEMO_USERS, string> }> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    const [tenant] = await tx
      .insert(s.tenants)
      .values({ name: "Demo tenant", domain: DEMO_TENANT_DOMAIN })
      .returning({ id: s.tenants.id });
    await tx.insert(s.settings).values(
      Object.entries(DEFAULT_SETTINGS)
        .filter(([, value]) => value !== null)
        .map(([key, value]) => ({ tenantId: tenant.id, key, value: value as object })),
    );
    await tx
      .insert(s.features)
      .values(Object.entries(DEFAULT_FEATURE_ROWS).map(([name, enabled]) => ({ tenantId: tenant.id, name, enabled })));
    await tx
      .insert(s.rolePermissions)
      .values(
        Object.entries(ROLE_PERMISSIONS).flatMap(([role, perms]) => perms.map((permission) => ({ role, permission }))),
      );
    const [engineering, research] = await tx
      .insert(s.units)
      .values([
        { tenantId: tenant.id, name: "Engineering" },
        { tenantId: tenant.id, name: "Research" },
      ])
      .returning({ id: s.units.id });
    const userIds = {} as Record<keyof typeof DEMO_USERS, string>;
    for (const [key, u] of Object.entries(DEMO_USERS) as [
      keyof typeof DEMO_USERS,
      (typeof DEMO_USERS)[keyof typeof DEMO_USERS],
    ][]) {
      const [row] = await tx
        .insert(s.users)
        .values({
          tenantId: tenant.id,
          email: u.email,
          firstName: u.firstName,
          lastName: u.lastName,
          department: key === "rita" ? "Research" : "Engineering",
          timezone: key === "ada" ? "Europe/London" : null,
          passwordHash,
        })
        .returning({ id: s.users.id });
      userIds[key] = row.id;
      await tx.insert(s.userRoles).values(u.roles.map((role) => ({ userId: row.id, role })));
      await tx.insert(s.licences).values(u.licences.map((product) => ({ userId: row.id, product })));
      await tx
        .insert(s.userUnits)
        .values([
          { userId: row.id, unitId: key === "rita" ? research.id : engineering.id, isPrimary: true },
          ...(key === "grace" ? [{ userId: row.id, unitId: research.id, isPrimary: false }] : []),
        ]);
    }
    if (options.catalog !== false) {
      const now = new Date();
      const { objectiveIds } = await seedCatalog(tx, { tenantId: tenant.id, userIds, now });
      await seedActivities(tx, { tenantId: tenant.id, objectiveIds, now });
    }
    return { tenantId: tenant.id, userIds };
  });
}

export async function findUserByEmail(db: Db, email: string) {
  const rows = await db.select().from(s.users).where(eq(s.users.email, email.toLowerCase())).limit(1);
  return rows[0] ?? null;
}
