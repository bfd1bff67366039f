/**
 * The demo tenant: settings, roles, units and the demo accounts of demo/data/ (tenant.json,
 * users.json), then the demo catalog with the demo users' enrolments (seed-catalog.ts). The data
 * files are read only when seeding, so a server on a seeded database never loads them.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../api/db/client";
import { demoContent } from "./demo-content";
import type { DemoUser } from "./content/schemas";
import { hashPassword } from "../identity/password";
import * as s from "../api/db/schema";
import { localStore, type FileStore } from "../api/files/object-store";
import { storageDir } from "../api/files/roots";
import { DEFAULT_FEATURE_ROWS, DEFAULT_SETTINGS } from "../api/settings-defaults";

export type { DemoUser };

/** Whether the database has no tenant yet: nothing seeded. */
export async function isEmpty(db: Db): Promise<boolean> {
  const existing = await db.select({ id: s.tenants.id }).from(s.tenants).limit(1);
  return existing.length === 0;
}

/**
 * Seeds the demo tenant and accounts when the database has no tenant yet; safe to call on every
 * start. `accounts: false` (a server that refuses demo accounts, decision 017) seeds the tenant
 * and catalog without the demo accounts.
 */
export async function seedIfEmpty(db: Db, options: { accounts?: boolean; store?: FileStore } = {}): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  await seedDemo(db, { accounts: options.accounts, store: options.store });
  return true;
}

export async function seedDemo(
  db: Db,
  /** store: where the demo SCORM packages' files go (DATA_DIR/storage or a bucket; a temporary folder in tests). */
  options: { catalog?: boolean; accounts?: boolean; store?: FileStore } = {},
): Promise<{ tenantId: string; userIds: Record<DemoUser, string> }> {
  const content = demoContent();
  const { insertUser } = await import("./seed-learners");
  const passwordHash = await hashPassword(content.password);
  return db.transaction(async (tx) => {
    const [tenant] = await tx
      .insert(s.tenants)
      .values({ name: content.tenant.name, domain: content.tenant.domain })
      .returning({ id: s.tenants.id });
    await tx.insert(s.settings).values(
      Object.entries(DEFAULT_SETTINGS)
        .filter(([, value]) => value !== null)
        .map(([key, value]) => ({ tenantId: tenant.id, key, value: value as object })),
    );
    await tx.insert(s.features).values(
      Object.entries({ ...DEFAULT_FEATURE_ROWS, ...content.tenant.features }).map(([name, enabled]) => ({
        tenantId: tenant.id,
        name,
        enabled,
      })),
    );
    await tx
      .insert(s.rolePermissions)
      .values(
        Object.entries(content.tenant.rolePermissions).flatMap(([role, perms]) =>
          (perms ?? []).map((permission) => ({ role, permission })),
        ),
      );
    const units = await tx
      .insert(s.units)
      .values(content.tenant.units.map((name) => ({ tenantId: tenant.id, name })))
      .returning({ id: s.units.id, name: s.units.name });
    const unitIds = Object.fromEntries(units.map((u) => [u.name, u.id]));
    const userIds: Record<DemoUser, string> = {};
    for (const [key, user] of options.accounts === false ? [] : Object.entries(content.users)) {
      userIds[key] = await insertUser(tx, { tenantId: tenant.id, user, passwordHash, unitIds });
    }
    if (options.catalog !== false) {
      const { seedCatalog } = await import("./seed-catalog");
      const { objectiveIds } = await seedCatalog(tx, { tenantId: tenant.id, userIds, now: new Date() });
      // Spec 3 widgetSettings name courses by id: known once the catalog is in.
      const widgetSettings = (content.tenant.tutorWidget ?? []).map((w) => ({
        objectiveId: objectiveIds[w.course],
        initialExpanded: w.initialExpanded,
      }));
      if (widgetSettings.length > 0)
        await tx
          .update(s.settings)
          .set({ value: { ...(DEFAULT_SETTINGS["learner.tutor"] as object), widgetSettings } })
          .where(and(eq(s.settings.tenantId, tenant.id), eq(s.settings.key, "learner.tutor")));
      const { seedScormPackages } = await import("./seed-scorm");
      await seedScormPackages(tx, tenant.id, options.store ?? localStore(storageDir(undefined)));
      // Decision 048: the seeded attempts' hand-ins, graded by the demo instructor.
      const { seedHandIns } = await import("./seed-hand-ins");
      await seedHandIns(tx, tenant.id, options.store ?? localStore(storageDir(undefined)), userIds.grace);
      const { seedQtiPackages } = await import("./seed-qti");
      await seedQtiPackages(tx, tenant.id, userIds);
    }
    // Groups after the courses: a team names its course and activity (decision 026).
    const { insertGroup } = await import("./seed-groups");
    for (const group of content.tenant.groups ?? []) {
      if (group.course && options.catalog === false) continue;
      await insertGroup(tx, tenant.id, content, group, group.members.map((m) => userIds[m]).filter(Boolean));
    }
    return { tenantId: tenant.id, userIds };
  });
}

export async function findUserByEmail(db: Db, email: string) {
  const rows = await db.select().from(s.users).where(eq(s.users.email, email.toLowerCase())).limit(1);
  return rows[0] ?? null;
}
