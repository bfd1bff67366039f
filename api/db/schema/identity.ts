import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./platform";

/**
 * Sign-in sessions of the web app (decision 017): the cookie carries only a random id; the row is
 * found by that id's SHA-256 (a copy of the table gives nobody a usable cookie). Tokens are sealed
 * with AES-256-GCM by the app before they get here. `subject` is the provider's `sub` (a user id
 * with the embedded provider, anything with an external one), so it is no foreign key.
 */
export const appSessions = pgTable(
  "app_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    subject: text("subject").notNull(),
    email: text("email"),
    /** The administrator's `sub` when this is an impersonation (RFC 8693 `act`). */
    impersonatedBy: text("impersonated_by"),
    /** AES-256-GCM sealed JSON: access token, ID token, their expiry. */
    tokens: text("tokens").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("app_sessions_subject_idx").on(t.subject),
    index("app_sessions_email_idx").on(t.email),
    index("app_sessions_expires_idx").on(t.expiresAt),
  ],
);

/**
 * The embedded provider's models (oidc-provider's adapter interface): Session, Grant,
 * AuthorizationCode, AccessToken, RefreshToken, Interaction… one row per model and id, the payload
 * as the provider wrote it, and the columns it looks rows up by.
 */
export const oidcModels = pgTable(
  "oidc_models",
  {
    model: text("model").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").notNull(),
    grantId: text("grant_id"),
    userCode: text("user_code"),
    uid: text("uid"),
    /** The account of a Session or Grant: an operator's revoke finds them by it. */
    accountId: text("account_id"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index("oidc_models_grant_idx").on(t.grantId),
    index("oidc_models_user_code_idx").on(t.model, t.userCode),
    index("oidc_models_uid_idx").on(t.model, t.uid),
    index("oidc_models_account_idx").on(t.accountId),
    index("oidc_models_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Registrations not yet greeted: written with the account by the provider's sign-up, consumed by
 * the first ID token issued for it (the app's callback then shows 'account created', spec 2.4).
 */
export const pendingRegistrations = pgTable("pending_registrations", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Impersonations an operator started (`npm run sessions -- impersonate`): the audit trail, and the
 * one-time ticket (its SHA-256) that opens the session. `grantId` ties the provider's grant to it,
 * so the access tokens of that grant carry `act: { sub: admin }` (RFC 8693).
 */
export const impersonations = pgTable(
  "impersonations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    adminUserId: uuid("admin_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    targetUserId: uuid("target_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ticketHash: text("ticket_hash").notNull().unique(),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    grantId: text("grant_id"),
  },
  (t) => [index("impersonations_grant_idx").on(t.grantId), index("impersonations_admin_idx").on(t.adminUserId)],
);

/**
 * The generated secrets of a deployment on PostgreSQL (decision 037): the provider's signing keys
 * (current and kept after a rotation), its cookie key, the session secret, the operator token — one
 * row per name, the value as JSON. Created once, by whichever node takes the advisory lock first, so
 * every node started on the database uses the same ones; rotated here by `npm run sessions --
 * rotate-signing-key`. The embedded PGlite keeps them in `DATA_DIR/secrets.json` instead.
 */
export const deploymentSecrets = pgTable("deployment_secrets", {
  name: text("name").primaryKey(),
  value: jsonb("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One-time links sent by e-mail (decision 036) — `signup` finishes a registration (the
 * account is made when the link is used, from `payload`: the names; the password is chosen then), `reset`
 * sets a new password for `userId`. Only the token's SHA-256 is kept; `usedAt` makes it one-time.
 */
export const emailTokens = pgTable(
  "email_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    purpose: text("purpose").$type<"signup" | "reset">().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    email: text("email").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    payload: jsonb("payload").$type<{ firstName: string; lastName: string } | null>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("email_tokens_user_idx").on(t.userId), index("email_tokens_expires_idx").on(t.expiresAt)],
);

/**
 * Decision 049: who a person signed in at an external OpenID provider is
 * here — only the token's issuer and subject identify her (OIDC Core §5.7), never her e-mail address.
 * Written on her first sign-in: `how` says whether the account was made then (`created`) or an existing
 * account was linked by a verified e-mail address the deployment allows linking by (`email`) — the audit
 * of every link, with the address the provider vouched for.
 */
export const identityLinks = pgTable(
  "identity_links",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    how: text("how").$type<"created" | "email">().notNull(),
    email: text("email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index("identity_links_user_idx").on(t.userId)],
);
