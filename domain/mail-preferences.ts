/**
 * E-mail the learner controls (issue 31 item 2, decision 042): the kinds of e-mail, what an unsubscribe
 * link of each kind turns off, when a due date is worth a reminder, and when a daily digest goes out.
 * Pure: "now" and the learner's time zone are passed in.
 */

/** The kinds of e-mail a learner can turn on and off (spec 2.8's questions, beyond-spec reminders and announcements). */
export const MAIL_KINDS = ["reinforcement", "dueReminders", "announcements", "grades"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** What an unsubscribe link names: one kind, or the daily digest (which carries every kind that is on). */
export const UNSUBSCRIBE_KINDS = [...MAIL_KINDS, "digest"] as const;
export type UnsubscribeKind = (typeof UNSUBSCRIBE_KINDS)[number];

export interface MailPreferences {
  reinforcement: boolean;
  dueReminders: boolean;
  announcements: boolean;
  /** Issue 49 (decision 058): "your assignment was graded", once per released grade. */
  grades: boolean;
  /** One message a day with everything that is on, instead of a message as each thing comes. */
  dailyDigest: boolean;
}

/** No choice made yet: every kind on, each sent as it comes. */
export const DEFAULT_MAIL_PREFERENCES: MailPreferences = {
  reinforcement: true,
  dueReminders: true,
  announcements: true,
  grades: true,
  dailyDigest: false,
};

/**
 * The preferences after the learner used an unsubscribe link (RFC 8058 one-click, or the link in the
 * message): that kind off; the digest's link turns off every kind the digest carried (and the digest),
 * so "unsubscribe" from a digest means no more of that e-mail at all.
 */
export function afterUnsubscribe(prefs: MailPreferences, kind: UnsubscribeKind): MailPreferences {
  if (kind === "digest")
    return { reinforcement: false, dueReminders: false, announcements: false, grades: false, dailyDigest: false };
  return { ...prefs, [kind]: false };
}

/** The kinds an unsubscribe turned off: what its undo turns on again. */
export function turnedOff(before: MailPreferences, after: MailPreferences): MailKind[] {
  return MAIL_KINDS.filter((k) => before[k] && !after[k]);
}

/**
 * The undo of an unsubscribe, from the page it landed on: the link's kind on again — for the digest's link,
 * the daily digest and the kinds it had turned off (`restore`, as its answer named them).
 */
export function afterResubscribe(
  prefs: MailPreferences,
  kind: UnsubscribeKind,
  restore: readonly MailKind[],
): MailPreferences {
  if (kind !== "digest") return { ...prefs, [kind]: true };
  const next = { ...prefs, dailyDigest: true };
  for (const k of restore) next[k] = true;
  return next;
}

/** Whether the learner still gets e-mail of the kind an unsubscribe link names. */
export function subscribedTo(prefs: MailPreferences, kind: UnsubscribeKind): boolean {
  if (kind === "digest") return prefs.dailyDigest && MAIL_KINDS.some((k) => prefs[k]);
  return prefs[kind];
}

/** A due date is worth a reminder within this long before it (and not once it has passed). */
export const DUE_REMINDER_WINDOW_MS = 24 * 3600_000;

export function dueSoon(due: Date | string | null | undefined, now: Date): boolean {
  if (!due) return false;
  const t = typeof due === "string" ? Date.parse(due) : due.getTime();
  if (Number.isNaN(t)) return false;
  return t > now.getTime() && t <= now.getTime() + DUE_REMINDER_WINDOW_MS;
}

/** The daily digest goes out at this hour of the learner's day (or at the first run after it). */
const DIGEST_HOUR = 8;

/**
 * The learner's calendar day and hour now, in their time zone (UTC for none or an unknown zone):
 * the digest of a day is sent once, keyed by that day, at DIGEST_HOUR or later.
 */
export function localDayAndHour(now: Date, timeZone: string | null | undefined): { day: string; hour: number } {
  let zone = timeZone || "UTC";
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
    }).formatToParts(now);
  } catch {
    zone = "UTC";
    parts = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
    }).formatToParts(now);
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return { day: `${get("year")}-${get("month")}-${get("day")}`, hour: Number(get("hour")) };
}

export function digestDue(now: Date, timeZone: string | null | undefined): string | null {
  const { day, hour } = localDayAndHour(now, timeZone);
  return hour >= DIGEST_HOUR ? day : null;
}

/** An address as a page shows it to someone holding an unsubscribe link: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "…";
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  return `${local.slice(0, Math.min(2, local.length))}…@${domain}`;
}
