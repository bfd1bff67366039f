import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./platform";

/**
 * E-mail waiting to go out (decision 036). Whoever writes a message commits a row; the
 * background jobs (decision 021) — and the writer itself, at once, in the background — claim rows with
 * SKIP LOCKED and send them through SMTP (or write .eml files to DATA_DIR/outbox without it), so two
 * nodes never send one twice and a failed send is tried again. Sent rows are deleted after a week.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What the message is (`signup`, `signupExisting`, `reset`…), for the log and the tests. */
    kind: text("kind").notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when a node claims the row; a claim older than a few minutes without `sentAt` is claimed again. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Headers of the message besides the usual ones (issue 31: List-Unsubscribe, List-Unsubscribe-Post). */
    headers: jsonb("headers").$type<Record<string, string>>(),
  },
  (t) => [index("mail_outbox_pending_idx").on(t.sentAt, t.createdAt), index("mail_outbox_to_idx").on(t.to)],
);

/**
 * What e-mail a learner wants (decision 042). No row: everything on, sent as it comes, in
 * English. `dailyDigest` gathers the kinds that are on into one message a day (08:00 in the learner's
 * time zone). Every e-mail is written in the learner's language: `users.locale`, the one place it is
 * kept (issue 25 item 3), noted when they sign in, choose a language or save these preferences.
 */
export const mailPreferences = pgTable("mail_preferences", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  reinforcement: boolean("reinforcement").notNull().default(true),
  dueReminders: boolean("due_reminders").notNull().default(true),
  announcements: boolean("announcements").notNull().default(true),
  /** Issue 49: "your assignment was graded" (decision 058). */
  grades: boolean("grades").notNull().default(true),
  dailyDigest: boolean("daily_digest").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What was mailed to whom — one row per learner, kind and item (a due date, an announcement,
 * a day's digest). The jobs claim an item by inserting its row (ON CONFLICT DO NOTHING) in the
 * transaction that queues the message, so however many nodes run the job, a learner hears of an item
 * once. Rows older than the items they stand for are deleted after 60 days.
 */
export const mailDeliveries = pgTable(
  "mail_deliveries",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    itemKey: text("item_key").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.itemKey] }), index("mail_deliveries_sent_idx").on(t.sentAt)],
);
