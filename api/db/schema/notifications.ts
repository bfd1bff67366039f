/**
 * What the learner is told about her own work (issue 49 item 3, decision 058): today "your assignment was
 * graded", written by the release of a grade in the release's transaction. One row per learner, kind and
 * item key — the key of a released grade is the hand-in and the released score, so a release taken again
 * (a retried command) tells her nothing twice, and a grade that changed tells her again. Read by the hub
 * (its unread count and list) and mailed by the learner mail job (kind `grades`, decision 042).
 */
import { doublePrecision, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { activityParts, objectives } from "./courses";
import { users } from "./platform";

export const learnerNotifications = pgTable(
  "learner_notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `graded`: a grade of hers was released. */
    kind: text("kind").$type<"graded">().notNull(),
    itemKey: text("item_key").notNull(),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    activityPartId: uuid("activity_part_id")
      .notNull()
      .references(() => activityParts.id, { onDelete: "cascade" }),
    score: doublePrecision("score"),
    maxScore: doublePrecision("max_score"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("learner_notifications_item_idx").on(t.userId, t.kind, t.itemKey),
    index("learner_notifications_user_idx").on(t.userId, t.readAt),
  ],
);
