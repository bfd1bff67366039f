import { index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "../schema";

/** Spec 3 Group: learners working together (a mini-group for collaborative activities, spec 1, 2.9). */
export const groups = pgTable(
  "groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** "miniGroup" (the profile's members table) or "team". */
    kind: text("kind").notNull(),
  },
  (t) => [index("groups_tenant_idx").on(t.tenantId)],
);

export const groupMembers = pgTable(
  "group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("group_members_user_idx").on(t.userId)],
);
