import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * LTI one-time values (decision 023): the nonces of authentication requests a tool sent the platform
 * and the `jti` of the client assertions it sent the token endpoint. A second use of either is refused;
 * rows older than their token's lifetime may be deleted.
 */
export const ltiOneTimeValues = pgTable(
  "lti_one_time_values",
  {
    /** "nonce", "jti" or "oauth-nonce" (LTI 1.1). */
    kind: text("kind").notNull(),
    /** The tool's client id. */
    clientId: text("client_id").notNull(),
    value: text("value").notNull(),
    used: timestamp("used", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.clientId, t.value] }), index("lti_one_time_values_used_idx").on(t.used)],
);
