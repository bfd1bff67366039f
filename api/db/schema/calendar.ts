import { integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./platform";

/**
 * A learner's personal calendar feed (decision 022). The secret of the link is never stored:
 * the token is an HMAC of the user id and `nonce` under the server's feed key, and only its SHA-256 is
 * kept to find the learner by it. A new link draws a new nonce, so the old token stops matching.
 */
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    nonce: text("nonce").notNull(),
    /** Hex SHA-256 of the token. */
    tokenHash: text("token_hash").notNull(),
    /** The learner's language when the link was made: the feed's texts are in it. */
    locale: text("locale").notNull(),
    created: timestamp("created", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("calendar_feeds_token_hash_idx").on(t.tokenHash)],
);

/**
 * What the feed last said about each item (RFC 5545 SEQUENCE and DTSTAMP): a hash of the item's
 * published fields, its revision number, raised when the hash changes, and when it changed.
 */
export const calendarFeedItems = pgTable(
  "calendar_feed_items",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    hash: text("hash").notNull(),
    sequence: integer("sequence").notNull().default(0),
    changed: timestamp("changed", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.itemId] })],
);
