import { Hono, type Context } from "hono";
import { eq } from "drizzle-orm";
import { afterUnsubscribe, maskEmail, subscribedTo } from "../../domain/mail-preferences";
import {
  saveEmailPreferencesSchema,
  unsubscribeSchema,
  type EmailPreferences,
  type UnsubscribeAnswer,
  type UnsubscribeRequest,
} from "../../domain/contract/mail";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { notFound } from "../errors";
import { limitWrites } from "../limit-writes";
import { countLookup, evenly } from "../public-lookups";
import { users } from "../db/schema";
import { mailKey, readPreferences, savePreferences, validUnsubscribeToken } from "../mail/preferences";
import { jsonBody, query } from "../validate";

/** The learner a valid link names (null for a wrong signature or an unknown learner: the same 404). */
async function linkedLearner(c: Context<ApiEnv>, link: UnsubscribeRequest) {
  if (!validUnsubscribeToken(mailKey(c.var.deps.mailLinkKey), link.user, link.kind, link.token)) return null;
  const [user] = await c.var.db.select({ email: users.email }).from(users).where(eq(users.id, link.user));
  return user ?? null;
}

/**
 * Issue 31 item 2 (paths not shown by the spec): the learner's e-mail preferences, and the public
 * unsubscribe of a signed link — no sign-in, limited per address like the public certificate lookups,
 * a wrong or foreign link a 404 after the same time as a right one.
 */
export function mailPreferenceRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/users/me/email-preferences", requireUser);
  r.use("/users/me/email-preferences", limitWrites("profile"));

  r.get("/users/me/email-preferences", async (c) =>
    c.json((await readPreferences(c.var.db, c.var.user.id)) satisfies EmailPreferences),
  );

  r.put("/users/me/email-preferences", async (c) => {
    const body = await jsonBody(c, saveEmailPreferencesSchema);
    await savePreferences(c.var.db, c.var.user.id, body, c.var.now);
    return c.json((await readPreferences(c.var.db, c.var.user.id)) satisfies EmailPreferences);
  });

  r.get("/public/email-unsubscribe", async (c) => {
    await countLookup(c);
    const link = query(c, unsubscribeSchema);
    const answer = await evenly(async () => {
      const user = await linkedLearner(c, link);
      if (!user) return null;
      const prefs = await readPreferences(c.var.db, link.user);
      return { kind: link.kind, email: maskEmail(user.email), subscribed: subscribedTo(prefs, link.kind) };
    });
    if (!answer) throw notFound("link");
    return c.json(answer satisfies UnsubscribeAnswer);
  });

  // RFC 8058: the one-click POST (through the app's page) turns that kind of e-mail off; again is the same.
  r.post("/public/email-unsubscribe", async (c) => {
    await countLookup(c);
    const link = await jsonBody(c, unsubscribeSchema);
    const answer = await evenly(async () => {
      const user = await linkedLearner(c, link);
      if (!user) return null;
      await c.var.db.transaction(async (tx) => {
        const prefs = await readPreferences(tx, link.user);
        const { reinforcement, dueReminders, announcements, dailyDigest } = afterUnsubscribe(prefs, link.kind);
        await savePreferences(tx, link.user, { reinforcement, dueReminders, announcements, dailyDigest }, c.var.now);
      });
      return { kind: link.kind, email: maskEmail(user.email), subscribed: false };
    });
    if (!answer) throw notFound("link");
    return c.json(answer satisfies UnsubscribeAnswer);
  });

  return r;
}
