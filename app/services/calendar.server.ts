import {
  AGENDA_DAYS,
  CalendarDate,
  calendarItemHref,
  daysOfWeek,
  daysRange,
  formatMonthId,
  formatWeekId,
  isOverdue,
  itemDays,
  monthGrid,
  segmentOn,
  startOfWeekOf,
  weekOf,
  weekStart,
  type WeekRule,
} from "#domain/calendar";
import type { CalendarItem } from "#domain/contract/calendar";
import { reinforcementAnswerPath } from "#domain/reinforcement";
import { type DayView, type ItemView } from "~/common/views/calendar";

/**
 * What the calendar and the dashboard render of items, in the learner's locale and time zone
 *. Formatted here, on the server, so the page is whole without JavaScript and the browser
 * never formats a date differently from the server.
 */

interface Formats {
  time: Intl.DateTimeFormat;
  dateTime: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
  dayTitle: Intl.DateTimeFormat;
  weekdayShort: Intl.DateTimeFormat;
  weekdayLong: Intl.DateTimeFormat;
  month: Intl.DateTimeFormat;
  dayNumber: Intl.DateTimeFormat;
  zone: Intl.DateTimeFormat;
}
const cache = new Map<string, Formats>();

/** Formatters per locale and zone, kept for the life of the process (each costs about a millisecond). */
export function formats(locale: string, timeZone: string): Formats {
  const key = `${locale}|${timeZone}`;
  let f = cache.get(key);
  if (!f) {
    const tz = { timeZone };
    // Civil dates (grid days) are formatted as UTC midnights, so no zone shifts them.
    const utc = { timeZone: "UTC" };
    f = {
      time: new Intl.DateTimeFormat(locale, { ...tz, timeStyle: "short" }),
      dateTime: new Intl.DateTimeFormat(locale, { ...tz, dateStyle: "medium", timeStyle: "short" }),
      date: new Intl.DateTimeFormat(locale, { ...utc, dateStyle: "medium" }),
      dayTitle: new Intl.DateTimeFormat(locale, { ...utc, weekday: "long", day: "numeric", month: "long" }),
      weekdayShort: new Intl.DateTimeFormat(locale, { ...utc, weekday: "short" }),
      weekdayLong: new Intl.DateTimeFormat(locale, { ...utc, weekday: "long" }),
      month: new Intl.DateTimeFormat(locale, { ...utc, month: "long", year: "numeric" }),
      dayNumber: new Intl.DateTimeFormat(locale, { ...utc, day: "numeric" }),
      zone: new Intl.DateTimeFormat(locale, { ...tz, timeZoneName: "longOffset" }),
    };
    if (cache.size < 500) cache.set(key, f);
  }
  return f;
}

/** Texts already formatted, per formatter (a bound, not a policy: past it they start over). */
const MAX_TEXTS = 5_000;
const texts = new WeakMap<Intl.DateTimeFormat, Map<number | string, string>>();

function remembered(format: Intl.DateTimeFormat, key: number | string, make: () => string): string {
  let known = texts.get(format);
  if (!known) texts.set(format, (known = new Map()));
  let text = known.get(key);
  if (text === undefined) {
    text = make();
    if (known.size >= MAX_TEXTS) known.clear();
    known.set(key, text);
  }
  return text;
}

/**
 * `format.format(date)`, worked out once per formatter and instant: the dashboard and the calendar
 * show the same due dates on every visit, and formatting through `Intl` is the costly part of an item
 * (decision 038, addendum 9).
 */
export function formatted(format: Intl.DateTimeFormat, date: Date): string {
  return remembered(format, date.getTime(), () => format.format(date));
}

/** `format.formatRange(start, end)`, once per formatter and pair of instants. */
export function formattedRange(format: Intl.DateTimeFormat, start: Date, end: Date): string {
  return remembered(format, `${start.getTime()}/${end.getTime()}`, () => format.formatRange(start, end));
}

const utcDate = (d: CalendarDate) => new Date(Date.UTC(d.year, d.month - 1, d.day));

/** "Europe/Berlin (GMT+01:00)": the zone the page's times are in. */
export function zoneLabel(f: Formats, timeZone: string, now: Date): string {
  // An offset changes on a whole minute at most: one lookup per formatter and minute.
  const offset = remembered(
    f.zone,
    Math.floor(now.getTime() / 60_000),
    () => f.zone.formatToParts(now).find((p) => p.type === "timeZoneName")?.value ?? "",
  );
  return offset && offset !== timeZone ? `${timeZone} (${offset})` : timeZone;
}

export function itemView(i: CalendarItem, ctx: { f: Formats; timeZone: string; now: Date; day?: string }): ItemView {
  const { f } = ctx;
  const start = new Date(i.start);
  const end = i.end ? new Date(i.end) : null;
  const when = i.allDay
    ? formatted(f.date, start)
    : end && end.getTime() !== start.getTime()
      ? formattedRange(f.dateTime, start, end)
      : formatted(f.dateTime, start);
  const segment = ctx.day ? segmentOn(i, ctx.day, ctx.timeZone) : { startsBefore: false, endsAfter: false };
  return {
    id: i.id,
    kind: i.kind,
    href: calendarItemHref(i),
    title: i.activity?.name ?? i.course.name,
    course: i.course.name,
    mandatory: i.course.mandatory,
    time: i.allDay || segment.startsBefore ? null : formatted(f.time, start),
    when,
    allDay: i.allDay,
    start: i.start,
    overdue: isOverdue(i, ctx.now),
    done: i.done,
    lock: i.lock ? { key: i.lock.key, date: i.lock.date ? formatted(f.dateTime, new Date(i.lock.date)) : null } : null,
    location: i.location,
    url: i.url,
    // Answered: the question alone (the item's link leads to the review).
    question: i.question
      ? {
          text: i.question.text,
          options: i.question.answer
            ? []
            : i.question.options.map((o) => ({
                text: o.text,
                href: reinforcementAnswerPath(i.question!.workflowId, o.id),
              })),
        }
      : null,
    continuesBefore: segment.startsBefore,
    continuesAfter: segment.endsAfter,
  };
}

/** The items of each day (`YYYY-MM-DD`) they fall on in the zone. */
export function byDay(items: CalendarItem[], timeZone: string): Map<string, CalendarItem[]> {
  const days = new Map<string, CalendarItem[]>();
  for (const i of items) {
    for (const day of itemDays(i, timeZone)) {
      const list = days.get(day);
      if (list) list.push(i);
      else days.set(day, [i]);
    }
  }
  return days;
}

export type CalendarView =
  | { kind: "month"; year: number; month: number }
  | { kind: "week"; year: number; week: number }
  | { kind: "agenda"; from: CalendarDate };

/** The first and last day a view shows. */
export function viewDays(view: CalendarView, rule: WeekRule): { first: CalendarDate; last: CalendarDate } {
  if (view.kind === "month") {
    const rows = monthGrid(view.year, view.month, rule);
    return { first: rows[0].days[0], last: rows[rows.length - 1].days[6] };
  }
  if (view.kind === "week") {
    const first = weekStart(view.year, view.week, rule);
    return { first, last: first.add({ days: 6 }) };
  }
  return { first: view.from, last: view.from.add({ days: AGENDA_DAYS - 1 }) };
}

/** The instants to ask the API for: the view's days in the learner's zone. */
export function viewRange(view: CalendarView, rule: WeekRule, timeZone: string) {
  const { first, last } = viewDays(view, rule);
  return daysRange(first, last, timeZone);
}

export function viewPath(view: CalendarView): string {
  if (view.kind === "month") return `/learn/calendar/month/${formatMonthId(view)}`;
  if (view.kind === "week") return `/learn/calendar/week/${formatWeekId(view)}`;
  return `/learn/calendar/agenda?from=${view.from.toString()}`;
}

/** Previous, next and today's page of the same view. */
export function navigation(view: CalendarView, today: CalendarDate, rule: WeekRule) {
  if (view.kind === "month") {
    const first = new CalendarDate(view.year, view.month, 1);
    const prev = first.subtract({ months: 1 });
    const next = first.add({ months: 1 });
    return {
      prev: viewPath({ kind: "month", year: prev.year, month: prev.month }),
      next: viewPath({ kind: "month", year: next.year, month: next.month }),
      today: viewPath({ kind: "month", year: today.year, month: today.month }),
    };
  }
  if (view.kind === "week") {
    const start = weekStart(view.year, view.week, rule);
    const at = (d: CalendarDate) => viewPath({ kind: "week", ...weekOf(d, rule) });
    return { prev: at(start.subtract({ days: 7 })), next: at(start.add({ days: 7 })), today: at(today) };
  }
  const at = (d: CalendarDate) => viewPath({ kind: "agenda", from: d });
  return {
    prev: at(view.from.subtract({ days: AGENDA_DAYS })),
    next: at(view.from.add({ days: AGENDA_DAYS })),
    today: at(today),
  };
}

/** The same days in the other views (the view switcher). */
export function otherViews(view: CalendarView, today: CalendarDate, rule: WeekRule) {
  const { first } = viewDays(view, rule);
  // The day the learner is looking at: the 1st of a month, a week's first day, the agenda's start.
  const focus =
    view.kind === "month"
      ? today.year === view.year && today.month === view.month
        ? today
        : new CalendarDate(view.year, view.month, 1)
      : view.kind === "week"
        ? first
        : view.from;
  return {
    month: viewPath({ kind: "month", year: focus.year, month: focus.month }),
    week: viewPath({ kind: "week", ...weekOf(focus, rule) }),
    agenda: viewPath({ kind: "agenda", from: view.kind === "agenda" ? view.from : startOfWeekOf(focus, rule) }),
  };
}

export function dayView(
  date: CalendarDate,
  items: CalendarItem[],
  ctx: { f: Formats; timeZone: string; now: Date; today: CalendarDate; month?: number },
): DayView {
  const day = date.toString();
  const u = utcDate(date);
  return {
    date: day,
    title: ctx.f.dayTitle.format(u),
    dayNumber: ctx.f.dayNumber.format(u),
    weekdayShort: ctx.f.weekdayShort.format(u),
    inMonth: ctx.month === undefined || date.month === ctx.month,
    today: date.compare(ctx.today) === 0,
    items: items.map((i) => itemView(i, { ...ctx, day })),
  };
}

/** Weekday column headers from the locale's first day. */
export function weekdayHeaders(first: CalendarDate, f: Formats) {
  return daysOfWeek(first).map((d) => ({
    short: f.weekdayShort.format(utcDate(d)),
    long: f.weekdayLong.format(utcDate(d)),
  }));
}

export function monthTitle(year: number, month: number, f: Formats): string {
  return f.month.format(new Date(Date.UTC(year, month - 1, 1)));
}

export function dateTitle(d: CalendarDate, f: Formats): string {
  return f.date.format(utcDate(d));
}
