/**
 * The learner calendar and dashboard (issue 13; spec 2.1 `/` and `/calendar/*`, 3, 4.6, 4.7, 4.11,
 * 4.12, 9): which dates of the learner's courses become calendar items, how weeks and months are laid
 * out per locale, and how instants fall on days in the learner's time zone (decision 022).
 *
 * Pure module: no I/O; `now` is a parameter. Civil dates are `YYYY-MM-DD` strings at the edges and
 * `CalendarDate`s of @internationalized/date inside, which also does the time-zone arithmetic (DST gaps
 * and overlaps included), so nothing here adds or subtracts hours by hand.
 */
import {
  CalendarDate,
  fromAbsolute,
  parseDate,
  toCalendarDate,
  toZoned,
  type ZonedDateTime,
} from "@internationalized/date";
import { activityDisableReason } from "./activity-access";
import { reinforcementAnswerPath } from "./reinforcement";
import type { CalendarItem, CalendarItemKind } from "./contract/calendar";
import { DUE_KINDS } from "./contract/calendar";
import type { TreeNode } from "./contract/lifecycle";
import { ActivityKind, ActivityWorkflowState, ObjectiveState, ObjectiveWorkflowState } from "./vocabulary";
import type { GradeRevealPolicy } from "./vocabulary";

const DAY_MS = 86_400_000;

/** The API lists at most this many days of items per call (longer ranges are a 400). */
const CALENDAR_MAX_RANGE_DAYS = 100;
/** Dashboard windows: due within 14 days, events within 7, results of the last 30. */
const DUE_SOON_DAYS = 14;
const UPCOMING_EVENT_DAYS = 7;
export const RECENT_RESULT_DAYS = 30;
/** The agenda view lists this many days from its first. */
export const AGENDA_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// Ranges
// ---------------------------------------------------------------------------------------------

export type RangeCheck = { ok: true; from: Date; to: Date } | { ok: false; error: "order" | "tooLong" };

/** `from` before `to`, and at most 100 days apart. */
export function checkCalendarRange(from: Date, to: Date): RangeCheck {
  if (!(from.getTime() < to.getTime())) return { ok: false, error: "order" };
  if (to.getTime() - from.getTime() > CALENDAR_MAX_RANGE_DAYS * DAY_MS) return { ok: false, error: "tooLong" };
  return { ok: true, from, to };
}

/** An item overlaps [from, to): it starts before `to` and has not ended before `from`. */
export function overlaps(item: Pick<CalendarItem, "start" | "end">, from: Date, to: Date): boolean {
  const start = Date.parse(item.start);
  const end = item.end ? Date.parse(item.end) : start;
  return start < to.getTime() && end >= from.getTime();
}

// ---------------------------------------------------------------------------------------------
// Dates of a course and of its activities → items
// ---------------------------------------------------------------------------------------------

function time(iso: string | null | undefined): number | null {
  if (iso === null || iso === undefined || iso === "") return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

/**
 * A date-only value: stored at exactly midnight UTC (how date pickers store a date), or written as a
 * bare `YYYY-MM-DD`. It is shown on that date in every zone, as iCalendar's all-day events are.
 */
export function isDateOnly(iso: string): boolean {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return true;
  const t = time(iso);
  return t !== null && t % DAY_MS === 0;
}

function instant(iso: string): string {
  return new Date(Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso)).toISOString();
}

export interface CourseRef {
  id: string;
  name: string;
  code: string;
  mandatory: boolean;
}

/** What the course-level items read of one enrolment (spec 3 'Course access'). */
export interface CourseDates {
  aggregateId: string;
  course: CourseRef;
  dueDate: string | null;
  availabilityDate: string | null;
  availabilityEndDate: string | null;
  gradeRevealPolicy: GradeRevealPolicy;
  gradeRevealDate: string | null;
  workflowState: ObjectiveWorkflowState | null;
  hasRecord: boolean;
}

function item(
  kind: CalendarItemKind,
  id: string,
  at: string,
  course: CourseRef,
  rest: Partial<Pick<CalendarItem, "end" | "activity" | "location" | "url" | "lock" | "done" | "question">> = {},
): CalendarItem {
  const allDay = rest.end ? false : isDateOnly(at);
  return {
    id,
    kind,
    start: instant(at),
    end: rest.end ? instant(rest.end) : null,
    allDay,
    course,
    activity: rest.activity ?? null,
    location: rest.location ?? null,
    url: rest.url ?? null,
    lock: rest.lock ?? null,
    done: rest.done ?? false,
    question: rest.question ?? null,
  };
}

/** Spec 4.11: handed in — submitted or later, or a result without a workflow (imported). */
function courseHandedIn(c: CourseDates): boolean {
  return (
    (c.workflowState !== null && c.workflowState >= ObjectiveWorkflowState.submitted) ||
    (!c.workflowState && c.hasRecord)
  );
}

/**
 * The course's own dates (spec 3 'Course access', 4.6, 4.7): due date, availability start and end,
 * and the grade reveal date. A reveal date is an item only under `afterDate`, once there is an attempt
 * handed in to reveal, and it carries the date alone: no score, no grade (4.7: nothing hidden leaks).
 */
export function courseCalendarItems(c: CourseDates): CalendarItem[] {
  const out: CalendarItem[] = [];
  const id = (kind: string) => `${kind}:${c.aggregateId}`;
  if (time(c.dueDate) !== null)
    out.push(item("courseDue", id("courseDue"), c.dueDate!, c.course, { done: courseHandedIn(c) }));
  if (time(c.availabilityDate) !== null)
    out.push(item("courseAvailableFrom", id("courseAvailableFrom"), c.availabilityDate!, c.course));
  if (time(c.availabilityEndDate) !== null)
    out.push(item("courseAvailableUntil", id("courseAvailableUntil"), c.availabilityEndDate!, c.course));
  if (c.gradeRevealPolicy === "afterDate" && time(c.gradeRevealDate) !== null && courseHandedIn(c))
    out.push(item("gradeReveal", id("gradeReveal"), c.gradeRevealDate!, c.course));
  return out;
}

/** The constraint fields that become items, and what each is called on the calendar. */
const CONSTRAINT_ITEMS: readonly [string, CalendarItemKind][] = [
  ["startFrom", "activityStartFrom"],
  ["startUntil", "activityStartUntil"],
  ["due", "activityDue"],
  ["accessibleUntil", "activityAccessibleUntil"],
  ["gracePeriodUntil", "activityGracePeriodUntil"],
  ["resultsDisclosureFrom", "activityResultsDisclosure"],
  ["revealResultsFrom", "activityResultsDisclosure"],
];

/** An event activity's time and place (its content: `startsAt`, `endsAt`, `location`, `url`). */
export interface EventDetails {
  startsAt: string | null;
  endsAt: string | null;
  location: string | null;
  url: string | null;
}

export function eventDetails(content: unknown): EventDetails | null {
  if (!content || typeof content !== "object") return null;
  const c = content as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);
  const startsAt = text(c.startsAt);
  if (time(startsAt) === null) return null;
  const endsAt = text(c.endsAt);
  const url = text(c.url);
  return {
    startsAt,
    endsAt: time(endsAt) !== null && time(endsAt)! >= time(startsAt)! ? endsAt : null,
    location: text(c.location),
    // Only a secure link is offered (as the content viewer does).
    url: url && /^https:\/\//i.test(url) ? url : null,
  };
}

export interface ActivityDatesInput {
  course: CourseRef;
  /** The node as the course's tree gives it (effective constraint, the attempt's activity workflow). */
  node: TreeNode;
  /** The part's own constraint: a module's dates become items once, on the module, not on each child. */
  ownConstraint: Record<string, unknown>;
  event: EventDetails | null;
  now: Date;
}

/**
 * The dates of one activity (spec 3 'Activity constraint', 4.12) and, for an event activity, the
 * event itself. Draft and archived activities have none (coming soon / gone). Each item says why the
 * activity is locked now (4.12 reasons, in the spec's order). A due date counts as done once the
 * activity is handed in (in grading or finished).
 */
export function activityCalendarItems(input: ActivityDatesInput): CalendarItem[] {
  const { node, course } = input;
  const a = node.childActivity;
  if (a.state === ObjectiveState.draft || a.state === ObjectiveState.archived) return [];
  const reason = activityDisableReason(node, { now: input.now, reviewing: false });
  const lock = reason ? { key: reason.key, date: reason.date ?? null } : null;
  const activity = { id: a.id, pathId: node.activityPathId, name: a.name, kind: a.kind };
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  const handedIn =
    aw !== null && (aw.state === ActivityWorkflowState.finished || aw.state === ActivityWorkflowState.inGrading);
  const out: CalendarItem[] = [];
  const seen = new Set<string>();
  for (const [field, kind] of CONSTRAINT_ITEMS) {
    const value = input.ownConstraint[field];
    if (typeof value !== "string" || time(value) === null) continue;
    // resultsDisclosureFrom and revealResultsFrom on the same instant are one event for the learner.
    const key = `${kind}@${time(value)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      item(kind, `${kind}:${node.activityPathId}:${field}`, value, course, {
        activity,
        lock,
        done: kind === "activityDue" ? handedIn : false,
      }),
    );
  }
  if (a.kind === ActivityKind.event && input.event?.startsAt) {
    const startsAt = input.event.startsAt;
    const end = input.event.endsAt ?? eventEndByDuration(startsAt, a.duration);
    out.push({
      ...item("event", `event:${node.activityPathId}`, startsAt, course, {
        // Issue 32 item 5: its real span — the end it was given, else its duration — or an instant.
        end,
        activity,
        location: input.event.location,
        url: input.event.url,
        lock,
      }),
      // An event at midnight UTC is a time like any other; only a bare date is a day.
      allDay: end === null && /^\d{4}-\d{2}-\d{2}$/.test(startsAt),
    });
  }
  return out;
}

/** An event without an end of its own lasts its activity's duration (seconds), if it has one. */
function eventEndByDuration(startsAt: string, seconds: number | null): string | null {
  const start = time(startsAt);
  if (start === null || !seconds || !Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(start + seconds * 1000).toISOString();
}

/** A reinforcement question asked of the learner (spec 2.8, 3 'Reinforcement workflow'). */
export interface ReinforcementDue {
  workflowId: string;
  course: CourseRef;
  /** The module the question is about; `pathId` null when the course no longer holds it. */
  module: { id: string; pathId: string | null; name: string; kind: ActivityKind };
  dueAt: string;
  question: string;
  options: { id: string; text: string }[];
  answer: string | null;
}

/**
 * Issue 13 item 6: a reinforcement question is an item on the instant it is due (when the e-mail goes
 * out; never all-day), about its module, done once answered. It carries the question and its options
 * so the calendar can offer the e-mail's answer links.
 */
export function reinforcementCalendarItem(r: ReinforcementDue): CalendarItem {
  const activity = r.module.pathId
    ? { id: r.module.id, pathId: r.module.pathId, name: r.module.name, kind: r.module.kind }
    : null;
  return {
    ...item("reinforcementDue", `reinforcementDue:${r.workflowId}`, r.dueAt, r.course, {
      activity,
      done: r.answer !== null,
      question: { workflowId: r.workflowId, text: r.question, options: r.options, answer: r.answer },
    }),
    allDay: false,
  };
}

/**
 * `items` in calendar order, sorted in place: by start; on the same instant all-day first, then by
 * course and activity name (and id, so the order is total). Each item's keys are worked out once, not
 * on each of the n·log n comparisons (a month of a learner with many courses sorts hundreds).
 */
export function sortItems<T extends CalendarItem>(items: T[]): T[] {
  const keyed = items.map((item) => ({
    item,
    at: Date.parse(item.start),
    names: `${item.course.name}\u0000${item.activity?.name ?? ""}\u0000${item.id}`,
  }));
  keyed.sort((a, b) => {
    if (a.at !== b.at) return a.at - b.at;
    if (a.item.allDay !== b.item.allDay) return a.item.allDay ? -1 : 1;
    return a.names < b.names ? -1 : a.names > b.names ? 1 : 0;
  });
  keyed.forEach((k, n) => (items[n] = k.item));
  return items;
}

/** A due item not handed in whose date has passed (issue 13: marked overdue). */
export function isOverdue(i: Pick<CalendarItem, "kind" | "start" | "done">, now: Date): boolean {
  return DUE_KINDS.includes(i.kind) && !i.done && Date.parse(i.start) < now.getTime();
}

/**
 * Dashboard 'Due soon and overdue': due items not handed in, overdue or due within 14 days; overdue
 * first (the oldest first), then the soonest.
 */
export function dueSoonAndOverdue(items: readonly CalendarItem[], now: Date): CalendarItem[] {
  const horizon = now.getTime() + DUE_SOON_DAYS * DAY_MS;
  return sortItems(items.filter((i) => DUE_KINDS.includes(i.kind) && !i.done && Date.parse(i.start) < horizon));
}

/** Dashboard 'Upcoming events': events under way or starting within 7 days. */
export function upcomingEvents(items: readonly CalendarItem[], now: Date): CalendarItem[] {
  const horizon = now.getTime() + UPCOMING_EVENT_DAYS * DAY_MS;
  return sortItems(
    items.filter(
      (i) => i.kind === "event" && Date.parse(i.end ?? i.start) >= now.getTime() && Date.parse(i.start) < horizon,
    ),
  );
}

/**
 * Where an item leads: its activity in the content viewer, or its course; an answered reinforcement
 * question, its review on the answer page (the options of an open one are links of their own).
 */
export function calendarItemHref(i: Pick<CalendarItem, "course" | "activity" | "question">): string {
  if (i.question?.answer) return reinforcementAnswerPath(i.question.workflowId, i.question.answer);
  return i.activity
    ? `/learn/courses/${i.course.id}/view/content?activityPathId=${i.activity.pathId}`
    : `/learn/courses/${i.course.id}`;
}

// ---------------------------------------------------------------------------------------------
// Weeks per locale
// ---------------------------------------------------------------------------------------------

/** ISO day numbers: 1 Monday … 7 Sunday (as `Intl.Locale#getWeekInfo` gives them). */
type IsoDay = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface WeekRule {
  /** The week's first day. */
  firstDay: IsoDay;
  /** Days of a year its first week must have (ISO 8601: 4 — the week with the year's first Thursday). */
  minimalDays: number;
}

/** ISO 8601 weeks: Monday first, week 1 holds January 4. */
export const ISO_WEEK: WeekRule = { firstDay: 1, minimalDays: 4 };

/**
 * CLDR week data for when the runtime has no `Intl.Locale#getWeekInfo` (or omits `minimalDays`, as
 * current engines do): regions whose week starts on another day than Monday, and regions whose first
 * week needs 4 days of the year. Everything else starts on Monday with 1 day.
 */
const FIRST_DAY_BY_REGION: Record<string, IsoDay> = {
  // Sunday
  ...Object.fromEntries(
    "AG AS BD BR BS BT BW BZ CA CN CO DM DO ET GT GU HK HN ID IL IN JM JP KE KH KR LA MH MM MO MT MX MZ NI NP PA PE PH PK PR PT PY SA SG SV TH TT TW UM US VE VI WS YE ZA ZW"
      .split(" ")
      .map((r) => [r, 7 as IsoDay]),
  ),
  // Saturday
  ...Object.fromEntries("AE AF BH DJ DZ EG IQ IR JO KW LY OM QA SD SY".split(" ").map((r) => [r, 6 as IsoDay])),
  // Friday
  MV: 5,
};
const FOUR_DAY_REGIONS = new Set(
  "AD AN AT AX BE BG CH CZ DE DK EE ES FI FJ FO FR GB GF GG GI GP GR HU IE IM IS IT JE LI LT LU MC MQ NL NO PL RE RU SE SJ SK SM VA".split(
    " ",
  ),
);

function regionOf(locale: string): string | null {
  try {
    return new Intl.Locale(locale).maximize().region ?? null;
  } catch {
    return null;
  }
}

const ruleCache = new Map<string, WeekRule>();

/**
 * The week of a locale: its first day from `Intl.Locale#getWeekInfo()` (or the older `weekInfo`
 * getter) where the engine has it, else from CLDR's table above; its first-week rule from the engine
 * when given, else the table.
 */
export function weekRuleFor(locale: string): WeekRule {
  const known = ruleCache.get(locale);
  if (known) return known;
  let info: { firstDay?: number; minimalDays?: number } | undefined;
  try {
    const l = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay?: number; minimalDays?: number };
      weekInfo?: { firstDay?: number; minimalDays?: number };
    };
    info = typeof l.getWeekInfo === "function" ? l.getWeekInfo() : l.weekInfo;
  } catch {
    info = undefined;
  }
  const region = regionOf(locale);
  const firstDay =
    info?.firstDay && info.firstDay >= 1 && info.firstDay <= 7
      ? (info.firstDay as IsoDay)
      : ((region ? FIRST_DAY_BY_REGION[region] : undefined) ?? 1);
  const minimalDays =
    info?.minimalDays && info.minimalDays >= 1 && info.minimalDays <= 7
      ? info.minimalDays
      : region && FOUR_DAY_REGIONS.has(region)
        ? 4
        : 1;
  const rule = { firstDay, minimalDays };
  if (ruleCache.size < 200) ruleCache.set(locale, rule);
  return rule;
}

/** The ISO day number (1 Monday … 7 Sunday) of a civil date. */
function isoDayOf(date: CalendarDate): IsoDay {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return (d === 0 ? 7 : d) as IsoDay;
}

/** The first day of the week holding `date`. */
export function startOfWeekOf(date: CalendarDate, rule: WeekRule): CalendarDate {
  const back = (isoDayOf(date) - rule.firstDay + 7) % 7;
  return date.subtract({ days: back });
}

/** The first day of week 1 of `year` under the rule. */
function firstWeekStart(year: number, rule: WeekRule): CalendarDate {
  const jan1 = new CalendarDate(year, 1, 1);
  const start = startOfWeekOf(jan1, rule);
  // Days of the new year in the week holding January 1.
  const inYear = 7 - jan1.compare(start);
  return inYear >= rule.minimalDays ? start : start.add({ days: 7 });
}

/** Week-numbering year and week of `date` (ISO 8601 with `ISO_WEEK`; a locale's own with its rule). */
export function weekOf(date: CalendarDate, rule: WeekRule): { year: number; week: number } {
  const start = startOfWeekOf(date, rule);
  for (const year of [date.year + 1, date.year, date.year - 1]) {
    const first = firstWeekStart(year, rule);
    if (start.compare(first) >= 0) return { year, week: Math.floor(start.compare(first) / 7) + 1 };
  }
  /* c8 ignore next */
  return { year: date.year, week: 1 };
}

/** The number of weeks of a week-numbering year. */
export function weeksInYear(year: number, rule: WeekRule): number {
  return firstWeekStart(year + 1, rule).compare(firstWeekStart(year, rule)) / 7;
}

/** The first day of week `week` of the week-numbering `year`. */
export function weekStart(year: number, week: number, rule: WeekRule): CalendarDate {
  return firstWeekStart(year, rule).add({ days: (week - 1) * 7 });
}

/** `2026-W48`, the week's address in calendar URLs. */
export function formatWeekId(w: { year: number; week: number }): string {
  return `${String(w.year).padStart(4, "0")}-W${String(w.week).padStart(2, "0")}`;
}

/** `2026-W48` → `{ year, week }` when the year has that week under the rule; null otherwise. */
export function parseWeekId(text: string, rule: WeekRule): { year: number; week: number } | null {
  const m = /^(\d{4})-W(\d{2})$/.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const week = Number(m[2]);
  if (year < 1900 || year > 2999 || week < 1 || week > weeksInYear(year, rule)) return null;
  return { year, week };
}

/** `2026-11` → `{ year, month }`; null for anything else. */
export function parseMonthId(text: string): { year: number; month: number } | null {
  const m = /^(\d{4})-(\d{2})$/.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  if (year < 1900 || year > 2999 || month < 1 || month > 12) return null;
  return { year, month };
}

export function formatMonthId(m: { year: number; month: number }): string {
  return `${String(m.year).padStart(4, "0")}-${String(m.month).padStart(2, "0")}`;
}

/** `2026-11-23` → a date; null for anything else (no exceptions for garbage in a URL). */
export function parseDay(text: string | null | undefined): CalendarDate | null {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  try {
    const d = parseDate(text);
    return d.year >= 1900 && d.year <= 2999 ? d : null;
  } catch {
    return null;
  }
}

/** The days of a week, first day first. */
export function daysOfWeek(first: CalendarDate): CalendarDate[] {
  return Array.from({ length: 7 }, (_, i) => first.add({ days: i }));
}

/**
 * The month grid: whole weeks from the week holding the 1st to the week holding the last day, each
 * with its number under the rule (4 to 6 rows).
 */
export function monthGrid(
  year: number,
  month: number,
  rule: WeekRule,
): { week: { year: number; week: number }; days: CalendarDate[] }[] {
  const first = new CalendarDate(year, month, 1);
  const last = first.add({ months: 1 }).subtract({ days: 1 });
  const rows: { week: { year: number; week: number }; days: CalendarDate[] }[] = [];
  for (let start = startOfWeekOf(first, rule); start.compare(last) <= 0; start = start.add({ days: 7 })) {
    rows.push({ week: weekOf(start, rule), days: daysOfWeek(start) });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Instants and days in the learner's time zone
// ---------------------------------------------------------------------------------------------

/**
 * The zone to show times in: the learner's preferred one when the engine knows it, else UTC. Asking
 * the engine builds a formatter (a quarter of a millisecond, on every dashboard and calendar page),
 * so the zones it knows are remembered: only known ones, at most `KNOWN_ZONES_MAX`, so garbage from a
 * profile cannot grow the set.
 */
export function zoneOrUtc(timeZone: string | null | undefined): string {
  if (!timeZone) return "UTC";
  if (knownZones.has(timeZone)) return timeZone;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    return "UTC";
  }
  if (knownZones.size < KNOWN_ZONES_MAX) knownZones.add(timeZone);
  return timeZone;
}
const KNOWN_ZONES_MAX = 1_000;
const knownZones = new Set<string>();

/**
 * The civil date of an instant in a zone. Remembered per zone and instant: a month page asks it about
 * three times for each of its items (the days an item falls on, then how it sits on each), and the same
 * items come back on every page of a learner's calendar; each answer costs the zone's offset from `Intl`
 * (~10 µs). At most DATES_IN_MAX answers (about 2 MB), forgotten all at once when full.
 */
export function dateIn(at: Date, timeZone: string): CalendarDate {
  const ms = at.getTime();
  const key = `${timeZone}|${ms}`;
  let date = datesIn.get(key);
  if (date === undefined) {
    date = toCalendarDate(fromAbsolute(ms, timeZone));
    if (datesIn.size >= DATES_IN_MAX) datesIn.clear();
    datesIn.set(key, date);
  }
  return date;
}
const DATES_IN_MAX = 10_000;
const datesIn = new Map<string, CalendarDate>();

/** How many civil dates `dateIn` remembers (for its test). */
export const datesInRemembered = () => datesIn.size;

/**
 * The instant a civil date begins in a zone: its midnight, or — where a DST change skips midnight —
 * the first instant of the day that exists.
 */
export function startOfDayIn(date: CalendarDate, timeZone: string): Date {
  // "compatible": after a gap the first instant that exists, in an overlap the earlier midnight.
  const zoned: ZonedDateTime = toZoned(date, timeZone, "compatible");
  return zoned.toDate();
}

/** [start of `first`, start of the day after `last`) in the zone: 23 or 25 hours on DST days. */
export function daysRange(first: CalendarDate, last: CalendarDate, timeZone: string): { from: Date; to: Date } {
  return { from: startOfDayIn(first, timeZone), to: startOfDayIn(last.add({ days: 1 }), timeZone) };
}

/**
 * The days an item covers in the zone, as `YYYY-MM-DD`: an all-day item its own date whatever the
 * zone; a timed one every day from its start to its end (an end at midnight does not reach the next
 * day). At most `limit` days (a conference of a fortnight is listed on each of its days).
 */
export function itemDays(i: Pick<CalendarItem, "start" | "end" | "allDay">, timeZone: string, limit = 62): string[] {
  if (i.allDay) return [i.start.slice(0, 10)];
  const start = dateIn(new Date(i.start), timeZone);
  const endAt = i.end ? Math.max(Date.parse(i.start), Date.parse(i.end) - 1) : Date.parse(i.start);
  const end = dateIn(new Date(endAt), timeZone);
  const out: string[] = [];
  for (let d = start; d.compare(end) <= 0 && out.length < limit; d = d.add({ days: 1 })) out.push(d.toString());
  return out;
}

/**
 * How an item sits on one day of the zone: whether it began on an earlier day or goes on past this
 * one (an event from 22:00 to 02:00 shows "continues" on its first day and "from the day before" on
 * the second).
 */
export function segmentOn(
  i: Pick<CalendarItem, "start" | "end" | "allDay">,
  day: string,
  timeZone: string,
): { startsBefore: boolean; endsAfter: boolean } {
  const days = itemDays(i, timeZone);
  if (days.length <= 1) return { startsBefore: false, endsAfter: false };
  return { startsBefore: day > days[0], endsAfter: day < days[days.length - 1] };
}

/** Minutes since the zone's midnight of `at` (the "now" marker's place in a day). */
export function minuteOfDay(at: Date, timeZone: string): number {
  const z = fromAbsolute(at.getTime(), timeZone);
  return z.hour * 60 + z.minute;
}

export { CalendarDate };
