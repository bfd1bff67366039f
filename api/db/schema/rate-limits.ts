import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Counters of the shared rate limits (`api/rate-limit.ts`, rate-limiter-flexible's Drizzle store):
 * one row per key and window, upserted atomically, so every node of a cluster counts the same.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamp("expire", { withTimezone: true }),
});
