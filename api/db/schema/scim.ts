/** SCIM 2.0 provisioning (decision 059): the bearer tokens an identity provider provisions a tenant's people with. */
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./platform";

/**
 * One token per provisioning client (Entra ID, Okta, Keycloak…), made by `npm run ops -- scim token create`.
 * Only the SHA-256 of its secret part is kept; the token names its row (`scim_<id>_<secret>`), so the
 * secret is compared with one row's hash in constant time. A revoked token is kept for the audit.
 */
export const scimTokens = pgTable(
  "scim_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    secretHash: text("secret_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("scim_tokens_tenant_idx").on(t.tenantId)],
);
