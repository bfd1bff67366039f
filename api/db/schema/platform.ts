/** Tenants, their settings and licensed features, users, roles, permissions, units and commands (spec 3, 7.7). */
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { CommandResult } from "../../../domain/vocabulary";

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  domain: text("domain").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Spec 3 'Settings read': one row per tenant and key; values are JSON. */
export const settings = pgTable(
  "settings",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: jsonb("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] })],
);

export const features = pgTable(
  "features",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    middleName: text("middle_name"),
    lastName: text("last_name").notNull(),
    department: text("department"),
    externalId: text("external_id"),
    timezone: text("timezone"),
    /** The language the learner chose (the language menu, the sign-in page's choice), or null: it wins everywhere. */
    locale: text("locale"),
    /**
     * The language her browser asked for at her last sign-in while she had chosen none: what her e-mails are
     * written in until she chooses. Never sent as the profile's language (the ID token's `locale` claim), so the
     * next browser's own Accept-Language decides there.
     */
    browserLocale: text("browser_locale"),
    passwordHash: text("password_hash"),
    /**
     * Access tokens issued before this second are refused (decision 050): set when the password is reset
     * and when an operator ends the account's sessions, so a token taken before keeps working nowhere.
     */
    tokensValidAfter: timestamp("tokens_valid_after", { withTimezone: true }),
    /** SCIM `active: false` (decision 059): she cannot sign in and is in no roster; nothing of hers is deleted. */
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    index("users_tenant_idx").on(t.tenantId),
    index("users_external_id_idx").on(t.externalId),
  ],
);

export const userRoles = pgTable(
  "user_roles",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

/** Permissions granted by role to everyone holding it (scope_id null = tenant-wide). */
export const rolePermissions = pgTable(
  "role_permissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    role: text("role").notNull(),
    permission: text("permission").notNull(),
    scopeId: uuid("scope_id"),
  },
  (t) => [index("role_permissions_role_idx").on(t.role)],
);

/** Permissions granted to one user, possibly scoped (spec 3 'Permission entry' with scope_id). */
export const userPermissions = pgTable(
  "user_permissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    permission: text("permission").notNull(),
    scopeId: uuid("scope_id"),
  },
  (t) => [index("user_permissions_user_idx").on(t.userId)],
);

export const licences = pgTable(
  "licences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    product: text("product").notNull(),
    validUntil: timestamp("valid_until", { withTimezone: true }),
  },
  (t) => [index("licences_user_idx").on(t.userId)],
);

export const units = pgTable(
  "units",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [index("units_tenant_idx").on(t.tenantId)],
);

export const userUnits = pgTable(
  "user_units",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    unitId: uuid("unit_id")
      .notNull()
      .references(() => units.id, { onDelete: "cascade" }),
    isPrimary: boolean("is_primary").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.unitId] }), index("user_units_unit_idx").on(t.unitId)],
);

/**
 * Spec 7.7: every command carries a client-generated id. The row is the idempotency key and the
 * status resource the 202 answer points at — per user (decision 018): another user's command with
 * the same id is another command, so nobody can claim an id before its owner.
 */
export const commands = pgTable(
  "commands",
  {
    id: uuid("id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** SHA-256 of the command's type and body: the same id sent with other input is refused (409). */
    fingerprint: text("fingerprint"),
    state: text("state").notNull(),
    result: integer("result").$type<CommandResult>(),
    data: jsonb("data"),
    errors: jsonb("errors"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
);
