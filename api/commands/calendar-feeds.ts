// Commands: what each command does, inside runCommand's transaction (spec 7.7). These: the learner's
// personal calendar feed link (decision 022) — a new link, which ends the old one, or none.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { calendarFeeds } from "../db/schema";

/** The public path of a feed, under the API's origin. */
const FEED_PATH = "/api/lms/v1/public/calendar-feeds";

/**
 * The link's secret: HMAC-SHA-256 of the user and the link's nonce under the server's feed key —
 * 256 bits, of which the nonce alone brings 128 random ones. The database keeps the nonce and the
 * token's hash only, so its contents alone open no feed, yet the page can show the link again.
 */
export function feedToken(key: string, userId: string, nonce: string): string {
  return createHmac("sha256", key).update(`${userId}:${nonce}`).digest("base64url");
}

export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function feedPath(token: string): string {
  return `${FEED_PATH}/${token}.ics`;
}

/** Tokens look like this (43 base64url characters); anything else is not looked up. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new link for the learner; the old one (if any) stops working at once. */
export async function createCalendarFeed(
  tx: Tx,
  input: { userId: string; key: string; locale: string; now: Date },
): Promise<{ created: string }> {
  const nonce = randomBytes(16).toString("base64url");
  const hash = tokenHash(feedToken(input.key, input.userId, nonce));
  await tx
    .insert(calendarFeeds)
    .values({ userId: input.userId, nonce, tokenHash: hash, locale: input.locale, created: input.now })
    .onConflictDoUpdate({
      target: calendarFeeds.userId,
      set: { nonce, tokenHash: hash, locale: input.locale, created: input.now },
    });
  return { created: input.now.toISOString() };
}

/** No link at all: the feed answers 404 from now on. */
export async function deleteCalendarFeed(tx: Tx | Db, userId: string): Promise<{ deleted: boolean }> {
  const rows = await tx
    .delete(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .returning({ id: calendarFeeds.userId });
  return { deleted: rows.length > 0 };
}
