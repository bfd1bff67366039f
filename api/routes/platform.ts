import { Hono } from "hono";
import { and, eq, sql } from "drizzle-orm";
import { ROLES, type Role } from "../../domain/vocabulary";
import {
  licencesSchema,
  miniGroupMembersSchema,
  permissionsSchema,
  publicSettingsSchema,
  settingsSchema,
  timezoneCommandSchema,
  unitsSchema,
  userPathSchema,
  userSchema,
  type User,
} from "../../domain/contract/platform";
import type { ApiEnv } from "../context";
import { licences, rolePermissions, tenants, units, userPermissions, userRoles, userUnits, users } from "../db/schema";
import { runCommand } from "../commands/run";
import { miniGroupMembers } from "../queries/groups";
import { ApiError, message, notFound } from "../errors";
import { requireUser } from "../auth";
import { defaultTenantId, readSettings, toPublicSettings } from "../settings";
import { validJson, validParams } from "../validate";
import { limitWrites } from "../limit-writes";
import { operations } from "../openapi";

const op = operations("platform");

const ROLE_ORDER = new Map(ROLES.map((r, i) => [r, i]));

export function platformRoutes() {
  const r = new Hono<ApiEnv>();

  r.get(
    "/public/settings",
    op({
      summary: "Public runtime settings (portal name, locales)",
      auth: "none",
      response: publicSettingsSchema,
      notShown: true,
    }),
    async (c) => {
      const tenantId = await defaultTenantId(c.var.db);
      if (!tenantId) throw notFound("tenant");
      return c.json(toPublicSettings(await readSettings(c.var.db, tenantId)));
    },
  );

  r.use("/users/*", requireUser);
  r.use("/settings", requireUser);
  r.use("/users/:id/timezone", limitWrites("profile"));

  r.get("/users/me", op({ summary: "Current user (spec 3 User)", response: userSchema, notShown: true }), async (c) =>
    c.json(await loadUser(c.var.db, c.var.user.id)),
  );

  r.get(
    "/users/me/permissions",
    op({ summary: "Permission entries of the current user", response: permissionsSchema, notShown: true }),
    async (c) => {
      const db = c.var.db;
      const userId = c.var.user.id;
      const [byRole, direct] = await Promise.all([
        db
          .selectDistinct({ permission: rolePermissions.permission, scope_id: rolePermissions.scopeId })
          .from(rolePermissions)
          .innerJoin(userRoles, eq(userRoles.role, rolePermissions.role))
          .where(eq(userRoles.userId, userId)),
        db
          .select({ permission: userPermissions.permission, scope_id: userPermissions.scopeId })
          .from(userPermissions)
          .where(eq(userPermissions.userId, userId)),
      ]);
      const seen = new Set<string>();
      const data = [...byRole, ...direct].filter((p) => {
        const key = `${p.permission}|${p.scope_id ?? ""}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      return c.json({ data });
    },
  );

  r.get(
    "/users/me/licences",
    op({ summary: "Valid licences of the current user", response: licencesSchema, notShown: true }),
    async (c) => {
      const rows = await c.var.db
        .select({ product: licences.product, validUntil: licences.validUntil })
        .from(licences)
        .where(
          and(
            eq(licences.userId, c.var.user.id),
            sql`(${licences.validUntil} is null or ${licences.validUntil} > now())`,
          ),
        );
      return c.json({
        data: rows.map((l) => ({ product: l.product, validUntil: l.validUntil?.toISOString() ?? null })),
      });
    },
  );

  r.get(
    "/settings",
    op({ summary: "Tenant settings and features (spec 3 Settings read)", response: settingsSchema, notShown: true }),
    async (c) => c.json(await readSettings(c.var.db, c.var.user.tenantId)),
  );

  // Spec 7.6: GET users/{id}/units. Only one's own units (or "me").
  r.get(
    "/users/:id/units",
    op({ summary: "Units of a user (only yourself, or me)", response: unitsSchema }),
    validParams(userPathSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      if (id !== "me" && id !== c.var.user.id) throw notFound("user");
      const items = await unitsOf(c.var.db, c.var.user.id);
      return c.json({ items });
    },
  );

  // Spec 2.9: the other members of the user's mini-group (path not shown). Only one's own.
  r.get(
    "/users/:id/mini-group-members",
    op({
      summary: "The members of the user's mini-group with their primary unit (only yourself, or me)",
      response: miniGroupMembersSchema,
      notShown: true,
    }),
    validParams(userPathSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      if (id !== "me" && id !== c.var.user.id) throw notFound("user");
      return c.json({ items: await miniGroupMembers(c.var.db, c.var.user.id) });
    },
  );

  // Spec 7.6: POST users/{id}/timezone, body { timezone } — an idempotent command.
  r.post(
    "/users/:id/timezone",
    op({ summary: "Set the preferred time zone (an IANA name)", command: true }),
    validParams(userPathSchema),
    validJson(timezoneCommandSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      if (id !== "me" && id !== c.var.user.id) throw notFound("user");
      const body = c.req.valid("json");
      if (!isValidTimeZone(body.timezone)) {
        throw new ApiError(400, { timezone: [message("invalidTimezone", "Unknown time zone.")] });
      }
      const userId = c.var.user.id;
      return runCommand(c, { id: body.commandId ?? crypto.randomUUID(), type: "set-timezone", body }, async (tx) => {
        await tx.update(users).set({ timezone: body.timezone }).where(eq(users.id, userId));
        return { timezone: body.timezone };
      });
    },
  );

  return r;
}

function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

async function unitsOf(db: ApiEnv["Variables"]["db"], userId: string) {
  return db
    .select({ id: units.id, name: units.name, is_primary: userUnits.isPrimary })
    .from(userUnits)
    .innerJoin(units, eq(units.id, userUnits.unitId))
    .where(eq(userUnits.userId, userId))
    .orderBy(sql`${userUnits.isPrimary} desc`, units.name);
}

async function loadUser(db: ApiEnv["Variables"]["db"], userId: string): Promise<User> {
  const [rows, roleRows, unitRows] = await Promise.all([
    db
      .select({ user: users, tenantName: tenants.name })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(eq(users.id, userId))
      .limit(1),
    db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)),
    unitsOf(db, userId),
  ]);
  const row = rows[0];
  if (!row) throw notFound("user");
  const roles = roleRows
    .map((r) => r.role)
    .filter((r): r is Role => ROLE_ORDER.has(r as Role))
    .sort((a, b) => ROLE_ORDER.get(a)! - ROLE_ORDER.get(b)!);
  const u = row.user;
  return {
    id: u.id,
    name: [u.firstName, u.middleName, u.lastName].filter(Boolean).join(" "),
    first_name: u.firstName,
    middle_name: u.middleName,
    last_name: u.lastName,
    email: u.email,
    role: roles[0] ?? "Learner",
    roles: roles.length ? roles : ["Learner"],
    tenant: row.tenantName,
    tenant_id: u.tenantId,
    department: u.department,
    external_id: u.externalId,
    timezone: u.timezone,
    units: unitRows,
  };
}
