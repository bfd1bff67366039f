import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./platform";

/** Product feedback (spec 2.11, 3 Feedback; issue 16 item 7): a grade, the areas it is about, a comment. */
export const productFeedback = pgTable(
  "product_feedback",
  {
    /** The client's id, also the command's key: a double submit is one record. */
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    grade: integer("grade").notNull(),
    details: text("details").array().notNull(),
    comment: text("comment").notNull().default(""),
    /** The page the learner was on (a path of the app). */
    page: text("page"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("product_feedback_tenant_created_idx").on(t.tenantId, t.createdAt)],
);
