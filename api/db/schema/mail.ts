import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Issue 26: e-mail waiting to go out (decision 036). Whoever writes a message commits a row; the
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
  },
  (t) => [index("mail_outbox_pending_idx").on(t.sentAt, t.createdAt), index("mail_outbox_to_idx").on(t.to)],
);
