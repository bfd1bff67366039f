/**
 * The learner's e-mail preferences and the signed unsubscribe links (issue 31 item 2, decision 042).
 * A link names the learner and the kind of e-mail and carries an HMAC of both under the deployment's
 * mail-link key: it works without signing in, only for that learner and kind, and cannot be made for
 * anyone else. Every message of a kind the learner controls carries it twice — as RFC 8058's
 * `List-Unsubscribe` / `List-Unsubscribe-Post` headers (a mail client's one-click button) and as a
 * visible link in the text.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { DEFAULT_MAIL_PREFERENCES, type MailPreferences, type UnsubscribeKind } from "../../domain/mail-preferences";
import type { SaveEmailPreferences } from "../../domain/contract/mail";
import type { Db, Tx } from "../db/client";
import { mailPreferences, users } from "../db/schema";

/** Without a configured key (tests, one process), one for the life of the process. */
const processKey = randomBytes(32).toString("base64url");

export function mailKey(key: string | undefined): string {
  return key ?? processKey;
}

export function unsubscribeToken(key: string, userId: string, kind: UnsubscribeKind): string {
  return createHmac("sha256", key).update(`mail-unsubscribe:v1:${userId}:${kind}`).digest("base64url").slice(0, 22);
}

export function validUnsubscribeToken(key: string, userId: string, kind: UnsubscribeKind, token: string): boolean {
  const want = Buffer.from(unsubscribeToken(key, userId, kind));
  const got = Buffer.from(token);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The app's unsubscribe page for one learner and kind (a GET shows one button; a POST unsubscribes). */
export function unsubscribeUrl(appUrl: string, key: string, userId: string, kind: UnsubscribeKind): string {
  const q = new URLSearchParams({ u: userId, k: kind, t: unsubscribeToken(key, userId, kind) });
  return `${appUrl}/learn/unsubscribe?${q}`;
}

/** RFC 2369 / RFC 8058 headers: a mail client's one-click unsubscribe POSTs `List-Unsubscribe=One-Click` to the URL. */
export function listUnsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

export type StoredPreferences = MailPreferences & { locale: string | null };

/**
 * The learner's preferences (the defaults without a row) and the language her e-mails are written in — her
 * choice (`users.locale`), else her browser's at her last sign-in (`users.browser_locale`) — in one statement.
 */
export async function readPreferences(db: Db | Tx, userId: string): Promise<StoredPreferences> {
  const [row] = await db
    .select({ locale: users.locale, browserLocale: users.browserLocale, prefs: mailPreferences })
    .from(users)
    .leftJoin(mailPreferences, eq(mailPreferences.userId, users.id))
    .where(eq(users.id, userId));
  const prefs = row?.prefs;
  return {
    ...(prefs
      ? {
          reinforcement: prefs.reinforcement,
          dueReminders: prefs.dueReminders,
          announcements: prefs.announcements,
          grades: prefs.grades,
          dailyDigest: prefs.dailyDigest,
        }
      : DEFAULT_MAIL_PREFERENCES),
    locale: row?.locale ?? row?.browserLocale ?? null,
  };
}

/**
 * Saves what the patch names (the rest stays), creating the row with the defaults on first use; a
 * chosen language goes to the learner's profile (`users.locale`, sent at sign-in), a browser's to
 * `users.browser_locale` (her e-mails' language until she chooses).
 */
export async function savePreferences(db: Db | Tx, userId: string, patch: SaveEmailPreferences, now: Date) {
  const { locale, browserLocale, ...kinds } = patch;
  if (locale || browserLocale)
    await db
      .update(users)
      .set({ ...(locale ? { locale } : {}), ...(browserLocale ? { browserLocale } : {}) })
      .where(eq(users.id, userId));
  if (Object.keys(kinds).length === 0) return;
  const values = { ...kinds, updatedAt: now };
  await db
    .insert(mailPreferences)
    .values({ userId, ...DEFAULT_MAIL_PREFERENCES, ...values })
    .onConflictDoUpdate({ target: mailPreferences.userId, set: values });
}
