/** E-mail preferences and one-click unsubscribe (issue 31 item 2; paths not shown by the spec). */
import { z } from "zod";
import { SUPPORTED_LOCALES } from "../locales";
import { MAIL_KINDS, UNSUBSCRIBE_KINDS } from "../mail-preferences";

export const emailPreferencesSchema = z.object({
  reinforcement: z.boolean(),
  dueReminders: z.boolean(),
  announcements: z.boolean(),
  grades: z.boolean(),
  dailyDigest: z.boolean(),
  /** The language the learner's e-mails are written in (null: not known yet, English). */
  locale: z.string().nullable(),
});
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;

/** PUT users/me/email-preferences: the kinds to change and/or the learner's language. */
export const saveEmailPreferencesSchema = z
  .object({
    reinforcement: z.boolean(),
    dueReminders: z.boolean(),
    announcements: z.boolean(),
    grades: z.boolean(),
    dailyDigest: z.boolean(),
    /** The learner's explicit choice of language (the menu): her profile's language. */
    locale: z.enum(SUPPORTED_LOCALES),
    /** The language her browser negotiated at sign-in, while she has chosen none: her e-mails' language only. */
    browserLocale: z.enum(SUPPORTED_LOCALES),
  })
  .partial()
  .strict();
export type SaveEmailPreferences = z.infer<typeof saveEmailPreferencesSchema>;

/** An unsubscribe link's parameters: the learner, the kind of e-mail, and the link's signature. */
export const unsubscribeSchema = z.object({
  user: z.uuid(),
  kind: z.enum(UNSUBSCRIBE_KINDS),
  token: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
});

/** The POST: unsubscribe (RFC 8058's one-click too), or undo it (`subscribe`, with what the unsubscribe turned off). */
export const unsubscribeCommandSchema = unsubscribeSchema.extend({
  subscribe: z.boolean().optional(),
  restore: z.array(z.enum(MAIL_KINDS)).max(MAIL_KINDS.length).optional(),
});
export type UnsubscribeRequest = z.infer<typeof unsubscribeCommandSchema>;

export const unsubscribeAnswerSchema = z.object({
  kind: z.enum(UNSUBSCRIBE_KINDS),
  /** The address, masked (who holds the link sees whose it is, not the whole address). */
  email: z.string(),
  subscribed: z.boolean(),
  /** After an unsubscribe: the kinds it turned off (what "Subscribe again" turns on). */
  restore: z.array(z.enum(MAIL_KINDS)).optional(),
});
export type UnsubscribeAnswer = z.infer<typeof unsubscribeAnswerSchema>;
