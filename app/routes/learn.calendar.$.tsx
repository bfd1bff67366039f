import { data, redirect, useLoaderData } from "react-router";
import { isTooManyRequests, tooManyRequestsToast } from "~/services/command-errors.server";
import { safeTarget } from "~/services/auth.server";
import { z } from "zod";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.calendar.$";
import {
  dateIn,
  formatWeekId,
  monthGrid,
  parseDay,
  parseMonthId,
  parseWeekId,
  weekRuleFor,
  zoneOrUtc,
  type WeekRule,
} from "#domain/calendar";
import { endpoints } from "#domain/contract/endpoints";
import { localeDirection } from "#domain/locales";
import { state } from "~/services/request.server";
import { requireFeature } from "~/services/user.server";
import { getLocale } from "~/services/i18n.server";
import {
  byDay,
  dateTitle,
  dayView,
  formats,
  monthTitle,
  navigation,
  otherViews,
  viewDays,
  viewPath,
  viewRange,
  weekdayHeaders,
  zoneLabel,
  type CalendarView,
} from "~/services/calendar.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { LmsError } from "~/services/lms.server";
import { redirectWithToast } from "~/services/toast.server";
import { parseSubmission } from "~/common/forms/parse";
import { INTENT } from "~/common/forms/intents";
import { DayList, type NowInfo } from "~/components/calendar/day-list";
import { MonthGrid, type MonthGridData } from "~/components/calendar/month-grid";
import { FeedLink } from "~/components/calendar/feed-link";
import { useDelegatedLinks } from "~/components/delegated-links";

/** A new personal feed link (the old one stops working); the id makes a double submit one link. */
const createFeedSchema = z.object({ intent: z.literal(INTENT.createFeed), id: z.uuid() });
const deleteFeedSchema = z.object({ intent: z.literal(INTENT.deleteFeed), id: z.uuid() });

export const handle = {
  title: (_: unknown, t: (k: string) => string) => t("calendar.title"),
  breadcrumb: (_: unknown, t: (k: string) => string) => ({ label: t("calendar.title"), href: "/learn/calendar" }),
};

/** `/learn/calendar/*` → the view it names; anything else is not found (spec 2.1 `/calendar/*`). */
function parseView(splat: string, url: URL, rule: WeekRule, today: ReturnType<typeof dateIn>): CalendarView {
  const [kind, id, ...rest] = splat.split("/").filter(Boolean);
  const notFound = () => data(null, { status: 404 });
  if (rest.length) throw notFound();
  if (!kind) throw redirect(viewPath({ kind: "month", year: today.year, month: today.month }));
  if (kind === "month" && id) {
    const m = parseMonthId(id);
    if (!m) throw notFound();
    return { kind: "month", ...m };
  }
  if (kind === "week" && id) {
    const w = parseWeekId(id, rule);
    if (!w) throw notFound();
    return { kind: "week", ...w };
  }
  if (kind === "agenda" && !id) {
    const from = url.searchParams.get("from");
    if (from === null) return { kind: "agenda", from: today };
    const day = parseDay(from);
    if (!day) throw redirect(viewPath({ kind: "agenda", from: today }));
    return { kind: "agenda", from: day };
  }
  throw notFound();
}

/**
 * /learn/calendar/* (spec 2.1, issue 13): the month, week and agenda views of the learner's dates, in
 * their time zone, with previous/next/today links, and their personal calendar feed link.
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  // Spec 2.2 / 6: the calendar is a tenant feature.
  requireFeature(shell, "calendar");
  const locale = getLocale(context);
  const timeZone = zoneOrUtc(shell.user.timezone);
  const rule = weekRuleFor(locale);
  const now = new Date();
  const today = dateIn(now, timeZone);
  const view = parseView(params["*"] ?? "", url, rule, today);
  const range = viewRange(view, rule, timeZone);
  const lms = await s.lms();
  const [list, feed] = await Promise.all([
    lms.get(endpoints.calendarItems, { from: range.from.toISOString(), to: range.to.toISOString() }),
    lms.get(endpoints.calendarFeed),
  ]);
  const f = formats(locale, timeZone);
  const days = byDay(list.data, timeZone);
  const ctx = { f, timeZone, now, today };
  const { first, last } = viewDays(view, rule);

  let title: string;
  let month: MonthGridData | null = null;
  let dayViews: ReturnType<typeof dayView>[] = [];
  const nav = navigation(view, today, rule);
  if (view.kind === "month") {
    title = monthTitle(view.year, view.month, f);
    month = {
      title,
      headers: weekdayHeaders(first, f),
      prevHref: nav.prev,
      nextHref: nav.next,
      weeks: monthGrid(view.year, view.month, rule).map((row) => ({
        id: formatWeekId(row.week),
        number: row.week.week,
        href: viewPath({ kind: "week", ...row.week }),
        days: row.days.map((d) => dayView(d, days.get(d.toString()) ?? [], { ...ctx, month: view.month })),
      })),
    };
  } else {
    const all = [];
    for (let d = first; d.compare(last) <= 0; d = d.add({ days: 1 })) all.push(d);
    dayViews = all
      .map((d) => dayView(d, days.get(d.toString()) ?? [], ctx))
      // The agenda lists only days with something on them (and today, for the "now" marker).
      .filter((d) => view.kind === "week" || d.items.length > 0 || d.today);
    title = `${dateTitle(first, f)} – ${dateTitle(last, f)}`;
  }
  const apiOrigin = s.config.lmsApiUrl ? new URL(s.config.lmsApiUrl).origin : s.config.appUrl;
  return {
    view: view.kind,
    week: view.kind === "week" ? { week: view.week, year: view.year } : null,
    title,
    nav,
    views: otherViews(view, today, rule),
    zone: zoneLabel(f, timeZone, now),
    month,
    days: dayViews,
    empty: list.data.length === 0,
    now: { at: now.toISOString(), label: f.time.format(now), timeZone, locale } satisfies NowInfo,
    rtl: localeDirection(locale) === "rtl",
    feed: feed.feed
      ? { url: `${apiOrigin}${feed.feed.path}`, created: f.date.format(new Date(feed.feed.created)) }
      : null,
    commandIds: { create: crypto.randomUUID(), delete: crypto.randomUUID() },
  };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  requireFeature(shell, "calendar");
  const lms = await s.lms();
  const form = await readForm(request);
  const back = safeTarget(`${url.pathname}${url.search}#calendar-feed`, s.config);
  try {
    switch (intentOf(form)) {
      case INTENT.createFeed: {
        const submission = parseSubmission(form, createFeedSchema);
        if (submission.status !== "success") badRequest();
        await lms.command(endpoints.createCalendarFeeds, { id: submission.value.id });
        return redirectWithToast(back, { type: "success", key: "calendar.feed.created" }, s.config);
      }
      case INTENT.deleteFeed: {
        const submission = parseSubmission(form, deleteFeedSchema);
        if (submission.status !== "success") badRequest();
        await lms.command(endpoints.deleteCalendarFeeds, { id: submission.value.id });
        return redirectWithToast(back, { type: "success", key: "calendar.feed.deleted" }, s.config);
      }
      default:
        badRequest();
    }
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    if (isTooManyRequests(err)) return redirectWithToast(back, tooManyRequestsToast(err), s.config);
    const m = err.firstMessage();
    return redirectWithToast(
      back,
      { type: "critical", key: m ? `apiErrors.${m.code}` : "messages.unknownError" },
      s.config,
    );
  }
}

export default function CalendarPage() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const heading =
    d.view === "week" && d.week
      ? t("calendar.weekTitle", { week: d.week.week, year: d.week.year })
      : d.view === "agenda"
        ? t("calendar.views.agenda")
        : d.title;
  // Plain links throughout (a month lists each item twice): one set of handlers navigates in the app
  // and prefetches on intent for all of them (decision 045).
  const { handlers, prefetch } = useDelegatedLinks();
  return (
    <div className="calendar" {...handlers}>
      <h1>{t("calendar.title")}</h1>
      <div className="calendar__toolbar">
        <nav aria-label={t("calendar.nav.label")} className="calendar__nav">
          <a className="button" href={d.nav.prev} rel="prev" data-discover="true">
            <span aria-hidden="true">‹</span> {t("calendar.nav.previous")}
          </a>
          <a className="button" href={d.nav.today} data-discover="true">
            {t("calendar.nav.today")}
          </a>
          <a className="button" href={d.nav.next} rel="next" data-discover="true">
            {t("calendar.nav.next")} <span aria-hidden="true">›</span>
          </a>
        </nav>
        {/* Issue 25 item 6: the feed's section, below the whole month, found from the top. */}
        <a className="calendar__to-feed" href="#calendar-feed">
          {t("calendar.feed.title")}
        </a>
        <nav aria-label={t("calendar.views.label")} className="calendar__views">
          {(["month", "week", "agenda"] as const).map((v) => (
            <a
              key={v}
              href={d.views[v]}
              data-discover="true"
              className={`chip${d.view === v ? " chip--on" : ""}`}
              aria-current={d.view === v ? "page" : undefined}
            >
              {t(`calendar.views.${v}`)}
            </a>
          ))}
        </nav>
      </div>
      <h2 className="calendar__period" aria-live="polite">
        {heading}
        {d.view !== "month" ? <span className="calendar__range"> ({d.title})</span> : null}
      </h2>
      <p className="calendar__zone">{t("calendar.timesIn", { zone: d.zone })}</p>
      {d.empty ? <p className="empty-state calendar__empty">{t("calendar.empty")}</p> : null}
      {d.month ? (
        <>
          <MonthGrid data={d.month} rtl={d.rtl} />
          {/* Issue 25 item 6: on a phone the month is marks; its days' items are listed here (CSS shows them). */}
          <div className="calendar__month-days">
            {d.month.weeks
              .flatMap((w) => w.days)
              .filter((day) => day.inMonth && day.items.length > 0)
              .map((day) => (
                <DayList key={day.date} day={day} now={d.now} headingLevel={3} />
              ))}
          </div>
        </>
      ) : (
        <div className={`calendar__days calendar__days--${d.view}`}>
          {d.days.map((day) => (
            <DayList key={day.date} day={day} now={d.now} headingLevel={3} />
          ))}
        </div>
      )}
      <FeedLink feed={d.feed} commandIds={d.commandIds} />
      {prefetch}
    </div>
  );
}
