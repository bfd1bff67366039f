import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./platform";

/** The embedded analytics collector's events (issue 16 item 8, decision 029). */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").references(() => tenants.id, { onDelete: "cascade" }),
    /** Null for visitors. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    session: text("session"),
    datalakeSession: text("datalake_session"),
    name: text("name").notNull(),
    page: text("page"),
    props: jsonb("props").notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("analytics_events_name_created_idx").on(t.name, t.createdAt)],
);
