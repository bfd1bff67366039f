// Mappers turn table rows into the API's contract shapes; they run no SQL. This one: a learner's
// calendar items as an iCalendar document (RFC 5545) for their personal feed (decision 022),
// written by ical-generator: times in UTC, all-day items as dates, stable UIDs, SEQUENCE and DTSTAMP
// from what the feed last published, a reminder one day before each due date. Issue 32 item 5: no
// DTEND equal to DTSTART (an instant has none, an all-day item ends the next day, an event at its real
// end), the reminders after the event's properties, and a CRLF after the last line.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ical, { ICalAlarmType, ICalEventTransparency } from "ical-generator";
import { calendarItemHref } from "../../domain/calendar";
import { DUE_KINDS, type CalendarItem } from "../../domain/contract/calendar";
import { DEFAULT_LOCALE, isSupportedLocale } from "../../domain/locales";
import { reinforcementAnswerPath } from "../../domain/reinforcement";

// ---- Texts: the `calendar.feed` and `calendar.kinds` keys of locales/<locale>/calendar.json ----

type Tree = Record<string, unknown>;
const localesDir = fileURLToPath(new URL("../../locales", import.meta.url));
const texts = new Map<string, Tree>();

function load(locale: string): Tree {
  let tree = texts.get(locale);
  if (!tree) {
    const file = `${localesDir}/${locale}/calendar.json`;
    tree = existsSync(file) ? ((JSON.parse(readFileSync(file, "utf8")) as Tree).calendar as Tree) : {};
    texts.set(locale, tree ?? {});
  }
  return tree ?? {};
}

function lookup(tree: Tree, key: string): string | null {
  let node: unknown = tree;
  for (const part of key.split(".")) node = node && typeof node === "object" ? (node as Tree)[part] : undefined;
  return typeof node === "string" ? node : null;
}

function feedTranslator(locale: string) {
  const lng = isSupportedLocale(locale) ? locale : DEFAULT_LOCALE;
  const own = load(lng);
  const fallback = load(DEFAULT_LOCALE);
  return (key: string, vars: Record<string, string> = {}) =>
    (lookup(own, key) ?? lookup(fallback, key) ?? key).replace(/\{\{\s*(\w+)\s*\}\}/g, (m, n: string) => vars[n] ?? m);
}

// ---- Items ----

/** What the feed publishes of an item; a change of any of it raises the event's SEQUENCE. */
export function publishedHash(i: CalendarItem): string {
  return createHash("sha256")
    .update(
      JSON.stringify([
        i.kind,
        i.start,
        i.end,
        i.allDay,
        i.course.name,
        i.activity?.name ?? null,
        i.location,
        i.url,
        i.lock?.key ?? null,
        i.done,
        i.question?.text ?? null,
      ]),
    )
    .digest("base64url")
    .slice(0, 22);
}

export interface FeedItem {
  item: CalendarItem;
  sequence: number;
  /** When the feed first published the item as it is now (DTSTAMP, LAST-MODIFIED). */
  changed: Date;
}

export interface FeedDocument {
  body: string;
  etag: string;
}

const CRLF = "\r\n";
const DAY_MS = 86_400_000;

/**
 * RFC 5545 3.6.1: DTEND must be later than DTSTART. An item with a span ends at its end; an all-day
 * item (a DATE) ends on the next day (exclusive, as the RFC counts it — written out, since some
 * programs do not assume the one day); an instant (a due date, an opening) has no DTEND at all.
 */
function eventEnd(item: CalendarItem): Date | null {
  const start = Date.parse(item.start);
  if (item.allDay) return new Date(start + DAY_MS);
  const end = item.end ? Date.parse(item.end) : Number.NaN;
  return end > start ? new Date(end) : null;
}

/**
 * RFC 5545 3.6.1's grammar puts a VEVENT's properties before its alarms (`eventprop *alarmc`);
 * ical-generator writes URL and LAST-MODIFIED after them, which Outlook and strict parsers refuse.
 * Moves each VEVENT's VALARM blocks to just before its END (whole content lines, folding intact).
 */
function alarmsLast(body: string): string {
  const out: string[] = [];
  let alarms: string[] = [];
  let inAlarm = false;
  for (const line of body.split(CRLF)) {
    if (line === "BEGIN:VALARM") inAlarm = true;
    if (inAlarm) {
      alarms.push(line);
      if (line === "END:VALARM") inAlarm = false;
      continue;
    }
    if (line === "END:VEVENT") {
      out.push(...alarms);
      alarms = [];
    }
    out.push(line);
  }
  return out.join(CRLF);
}

/**
 * The document. `origin` makes each event's URL absolute (the app's page of the item). The ETag is a
 * hash of the body, which depends only on the items and what the feed last published of them, so a
 * client that asks again with If-None-Match gets 304 until something changes.
 */
export function toICalendar(items: FeedItem[], opts: { locale: string; origin: string; host: string }): FeedDocument {
  const t = feedTranslator(opts.locale);
  const calendar = ical({
    name: t("feed.name"),
    prodId: { company: "learner-app", product: "calendar", language: "EN" },
    ttl: 60 * 60,
  });
  for (const { item, sequence, changed } of items) {
    const what = t(`kinds.${item.kind}`);
    const title = item.activity ? `${item.activity.name} (${item.course.name})` : item.course.name;
    const lines = [
      `${what}: ${title}`,
      item.lock ? t("feed.locked") : null,
      item.done ? t(item.question ? "answered" : "done") : null,
      item.url ? item.url : null,
      // A reinforcement question not yet answered: the question and the e-mail's answer links.
      ...(item.question && !item.question.answer
        ? [
            item.question.text,
            ...item.question.options.map(
              (o) => `- ${o.text}: ${opts.origin}${reinforcementAnswerPath(item.question!.workflowId, o.id)}`,
            ),
          ]
        : []),
    ].filter(Boolean);
    const event = calendar.createEvent({
      id: `${item.id}@${opts.host}`,
      sequence,
      stamp: changed,
      lastModified: changed,
      start: new Date(item.start),
      end: eventEnd(item),
      allDay: item.allDay,
      summary: `${what}: ${title}`,
      description: lines.join("\n"),
      location: item.location ?? (item.url ? item.url : null),
      url: `${opts.origin}${calendarItemHref(item)}`,
      // Dates are reminders, not meetings: only events mark the learner busy.
      transparency: item.kind === "event" ? ICalEventTransparency.OPAQUE : ICalEventTransparency.TRANSPARENT,
    });
    // A question is asked on its date (the e-mail goes out then): nothing to be reminded of before.
    if (DUE_KINDS.includes(item.kind) && item.kind !== "reinforcementDue" && !item.done) {
      event.createAlarm({ type: ICalAlarmType.display, trigger: 24 * 60 * 60, description: `${what}: ${title}` });
    }
  }
  const body = alarmsLast(calendar.toString()) + CRLF;
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  return { body, etag };
}
