import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { eq } from "drizzle-orm";
import { afterResubscribe, afterUnsubscribe, maskEmail, subscribedTo, turnedOff } from "../../domain/mail-preferences";
import {
  emailPreferencesSchema,
  saveEmailPreferencesSchema,
  unsubscribeAnswerSchema,
  unsubscribeCommandSchema,
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
import { operations } from "../openapi";
import { validJson, validQuery } from "../validate";

const op = operations("email preferences");

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

  r.get(
    "/users/me/email-preferences",
    op({
      summary: "Issue 31: the learner's e-mail preferences (no choice yet: every kind on, no digest)",
      response: emailPreferencesSchema,
      notShown: true,
    }),
    async (c) => c.json((await readPreferences(c.var.db, c.var.user.id)) satisfies EmailPreferences),
  );

  r.put(
    "/users/me/email-preferences",
    op({
      summary: "Issue 31: change some e-mail preferences and/or the language e-mails are written in",
      response: emailPreferencesSchema,
      notShown: true,
    }),
    validJson(saveEmailPreferencesSchema),
    async (c) => {
      await savePreferences(c.var.db, c.var.user.id, c.req.valid("json"), c.var.now);
      return c.json((await readPreferences(c.var.db, c.var.user.id)) satisfies EmailPreferences);
    },
  );

  // The public lookups' limit per address comes before anything is read.
  const limited = createMiddleware<ApiEnv>(async (c, next) => {
    await countLookup(c);
    await next();
  });

  r.get(
    "/public/email-unsubscribe",
    op({
      summary: "Issue 31: what a signed unsubscribe link names (404 for a wrong or foreign link; limited per address)",
      auth: "none",
      response: unsubscribeAnswerSchema,
      errors: { 429: "Too many lookups from this address" },
      notShown: true,
    }),
    limited,
    validQuery(unsubscribeSchema),
    async (c) => {
      const link = c.req.valid("query");
      const answer = await evenly(async () => {
        const user = await linkedLearner(c, link);
        if (!user) return null;
        const prefs = await readPreferences(c.var.db, link.user);
        return { kind: link.kind, email: maskEmail(user.email), subscribed: subscribedTo(prefs, link.kind) };
      });
      if (!answer) throw notFound("link");
      return c.json(answer satisfies UnsubscribeAnswer);
    },
  );

  // RFC 8058: the one-click POST (through the app's page) turns that kind of e-mail off; again is the same.
  r.post(
    "/public/email-unsubscribe",
    op({
      summary:
        "Issue 31 (RFC 8058): turn off the kind of e-mail a signed link names (the kinds it turned off in `restore`); with `subscribe`, turn it on again (the digest: with the `restore` kinds); again answers the same",
      auth: "none",
      response: unsubscribeAnswerSchema,
      errors: { 429: "Too many lookups from this address" },
      notShown: true,
    }),
    limited,
    validJson(unsubscribeCommandSchema),
    async (c) => {
      const link = c.req.valid("json");
      const answer = await evenly(async () => {
        const user = await linkedLearner(c, link);
        if (!user) return null;
        const restore = await c.var.db.transaction(async (tx) => {
          const prefs = await readPreferences(tx, link.user);
          const after = link.subscribe
            ? afterResubscribe(prefs, link.kind, link.restore ?? [])
            : afterUnsubscribe(prefs, link.kind);
          const { reinforcement, dueReminders, announcements, grades, dailyDigest } = after;
          await savePreferences(
            tx,
            link.user,
            { reinforcement, dueReminders, announcements, grades, dailyDigest },
            c.var.now,
          );
          return turnedOff(prefs, after);
        });
        return {
          kind: link.kind,
          email: maskEmail(user.email),
          subscribed: Boolean(link.subscribe),
          ...(link.subscribe ? {} : { restore }),
        };
      });
      if (!answer) throw notFound("link");
      return c.json(answer satisfies UnsubscribeAnswer);
    },
  );

  return r;
}
