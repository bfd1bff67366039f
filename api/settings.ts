import { and, eq } from "drizzle-orm";
import { DEFAULT_FEATURES, type Features } from "../domain/menu";
import type { PublicSettings, Settings } from "../domain/contract/platform";
import type { Db, Tx } from "./db/client";
import { features, settings, tenants } from "./db/schema";
import { DEFAULT_SETTINGS } from "./settings-defaults";

export async function readSettings(db: Db, tenantId: string): Promise<Settings> {
  const [rows, featureRows] = await Promise.all([
    db.select().from(settings).where(eq(settings.tenantId, tenantId)),
    db.select().from(features).where(eq(features.tenantId, tenantId)),
  ]);
  const values: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) values[row.key] = row.value;
  const f: Features = { ...DEFAULT_FEATURES };
  for (const row of featureRows) if (row.name in f) f[row.name as keyof Features] = row.enabled;
  return { ...(values as Omit<Settings, "features">), features: f };
}

/** The first tenant is the one anonymous visitors see (single-tenant embedded LMS). */
export async function defaultTenantId(db: Db): Promise<string | null> {
  const rows = await db.select({ id: tenants.id }).from(tenants).orderBy(tenants.createdAt).limit(1);
  return rows[0]?.id ?? null;
}

/** Whether a feature is on for the tenant; `fallback` when the tenant has no row for it. */
export async function featureOn(db: Db | Tx, tenantId: string, name: string, fallback: boolean) {
  const rows = await db
    .select({ enabled: features.enabled })
    .from(features)
    .where(and(eq(features.tenantId, tenantId), eq(features.name, name)))
    .limit(1);
  return rows[0]?.enabled ?? fallback;
}

export function toPublicSettings(s: Settings): PublicSettings {
  return {
    portalName: s["platform.common.portal_name"],
    supportedLocales: s["platform.common.supported_locales"],
    defaultLocale: s["platform.common.locale"],
    features: { catalog: s.features.catalog },
  };
}
