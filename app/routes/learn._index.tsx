import { redirect, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn._index";
import { zoneOrUtc } from "#domain/calendar";
import { progressPercent } from "#domain/courses";
import { dashboardAvailable } from "#domain/menu";
import { endpoints } from "#domain/contract/endpoints";
import type { DashboardCourse } from "#domain/contract/calendar";
import { state } from "~/services/request.server";
import { getLocale } from "~/services/i18n.server";
import { formats, formatted, itemView, zoneLabel } from "~/services/calendar.server";
import { CalendarItemEntry } from "~/components/calendar/item";
import { useDelegatedLinks } from "~/components/delegated-links";
import type { ItemView } from "~/common/views/calendar";

export const handle = {
  title: (_: unknown, t: (k: string) => string) => t("dashboard.title"),
};

/**
 * /learn (spec 2.1): the learner dashboard when it is available (the tenant's dashboard feature),
 * otherwise My courses, keeping the query (browsers keep the hash across a redirect). One API call
 * brings every section (decision 022); dates are formatted here, against the current time.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  if (!dashboardAvailable(shell.settings.features)) throw redirect(`/learn/courses${url.search}`);
  const lms = await s.lms();
  // The dashboard reads only the learner's own data: remembered for 30 s per learner and forgotten on
  // any write of theirs, like the shell and My courses' filter lists (decision 022).
  const d = await s.cachedGet(lms, endpoints.dashboard);
  const locale = getLocale(context);
  const timeZone = zoneOrUtc(shell.user.timezone);
  const f = formats(locale, timeZone);
  const now = new Date();
  const ctx = { f, timeZone, now };
  const date = (iso: string | null) => (iso ? formatted(f.date, new Date(iso)) : null);
  const course = (c: DashboardCourse, href: string) => ({
    id: c.id,
    name: c.name,
    code: c.code,
    href,
    mandatory: c.mandatory,
    progress: progressPercent(c.progress),
    due: date(c.dueDate),
    lastUsed: date(c.lastUsed),
    submitted: date(c.submitted),
    // A course a proctored sitting locked cannot be continued: marked, and it leads to its page.
    locked: c.locked ?? false,
  });
  const content = (c: DashboardCourse) =>
    `/learn/courses/${c.id}/view/content${c.resumePathId ? `?activityPathId=${c.resumePathId}` : ""}`;
  return {
    summary: { ...d.summary, averageProgress: progressPercent(d.summary.averageProgress) },
    calendar: shell.settings.features.calendar,
    zone: zoneLabel(f, timeZone, now),
    continueLearning: {
      total: d.continueLearning.total,
      data: d.continueLearning.data.map((c) => course(c, c.locked ? `/learn/courses/${c.id}` : content(c))),
    },
    mandatory: {
      total: d.mandatoryNotStarted.total,
      data: d.mandatoryNotStarted.data.map((c) => course(c, `/learn/courses/${c.id}`)),
    },
    waiting: {
      total: d.waitingForResults.total,
      data: d.waitingForResults.data.map((c) => course(c, `/learn/courses/${c.id}`)),
    },
    results: {
      total: d.recentResults.total,
      data: d.recentResults.data.map((r) => ({
        ...r,
        finished: formatted(f.date, new Date(r.finished)),
        percent: r.normalizedScore === null ? null : Math.round(r.normalizedScore * 100),
      })),
    },
    due: { total: d.dueSoon.total, data: d.dueSoon.data.map((i) => itemView(i, ctx)) },
    events: { total: d.upcomingEvents.total, data: d.upcomingEvents.data.map((i) => itemView(i, ctx)) },
    // The reinforcement questions waiting, each with the e-mail's answer links (one click to answer).
    questions: {
      total: d.questionsToAnswer.total,
      data: d.questionsToAnswer.data.map((i) => itemView(i, ctx)),
    },
  };
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

/** A section: a heading for screen readers to jump to, its items or an empty state, and its full list. */
function Section({
  id,
  title,
  total,
  shown,
  all,
  empty,
  children,
}: {
  id: string;
  title: string;
  total: number;
  shown: number;
  all: { href: string; label: string } | null;
  empty: string;
  children: React.ReactNode;
}) {
  return (
    <section className={`dash-section dash-section--${id}`} aria-labelledby={`dash-${id}`}>
      <h2 id={`dash-${id}`}>
        {title} <span className="dash-section__count">({total})</span>
      </h2>
      {total === 0 ? <p className="dash-section__empty">{empty}</p> : children}
      {all ? (
        <p className="dash-section__all">
          <a href={all.href} data-discover="true">
            {all.label}
            {total > shown ? ` (${total})` : ""}
          </a>
        </p>
      ) : null}
    </section>
  );
}

function CourseList({
  courses,
  line,
}: {
  courses: Data["mandatory"]["data"];
  line: (c: Data["mandatory"]["data"][number]) => string | null;
}) {
  const { t } = useTranslation();
  return (
    <ul className="dash-list">
      {courses.map((c) => (
        <li key={c.id} className="dash-course">
          <a href={c.href} className="dash-course__link" data-discover="true">
            {c.name}
          </a>
          <span className="dash-course__meta">
            <span className="dash-course__code">{c.code}</span>
            {c.mandatory ? <span className="tag tag--mandatory">{t("courses.mandatory")}</span> : null}
            {line(c) ? <span>{line(c)}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

function ItemList({ items }: { items: ItemView[] }) {
  return (
    <ul className="dash-list">
      {items.map((i) => (
        <CalendarItemEntry key={i.id} item={i} variant="list" />
      ))}
    </ul>
  );
}

export default function DashboardPage() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const s = d.summary;
  const stats = [
    ["enrolled", s.enrolled, "/learn/courses"],
    ["inProgress", s.inProgress, "/learn/courses?courseProgress=inProgress"],
    ["notStarted", s.notStarted, "/learn/courses?courseProgress=notStarted"],
    ["completed", s.completed, "/learn/courses?courseProgress=completed"],
    ["overdue", s.overdue, "#dash-due"],
    ["dueSoon", s.dueSoon, "#dash-due"],
  ] as const;
  const agenda = d.calendar ? { href: "/learn/calendar/agenda", label: t("dashboard.due.all") } : null;
  // The page's links are plain ones; this one set of handlers navigates in the app and prefetches on
  // intent for all of them, as a `<Link prefetch="intent">` each would (decision 045).
  const { handlers, prefetch } = useDelegatedLinks();
  return (
    <div className="dashboard" {...handlers}>
      <h1>{t("dashboard.title")}</h1>
      <section className="dash-summary" aria-labelledby="dash-summary">
        <h2 id="dash-summary" className="visually-hidden">
          {t("dashboard.summary.title")}
        </h2>
        <ul className="dash-stats">
          {stats.map(([key, value, href]) => (
            <li
              key={key}
              className={`dash-stat dash-stat--${key}${key === "overdue" && value > 0 ? " dash-stat--alert" : ""}`}
            >
              <a href={href}>
                <span className="dash-stat__value">{value}</span>{" "}
                <span className="dash-stat__label">{t(`dashboard.summary.${key}`)}</span>
              </a>
            </li>
          ))}
        </ul>
        <p className="dash-progress">
          <label htmlFor="dash-progress">
            {t("dashboard.summary.averageProgress", { percent: s.averageProgress })}
          </label>
          <progress id="dash-progress" className="progress" max={100} value={s.averageProgress} />
        </p>
        <p className="dash-zone">{t("calendar.timesIn", { zone: d.zone })}</p>
      </section>
      <div className="dash-grid">
        <Section
          id="continue"
          title={t("dashboard.continue.title")}
          total={d.continueLearning.total}
          shown={d.continueLearning.data.length}
          all={{ href: "/learn/courses?courseProgress=inProgress", label: t("dashboard.continue.all") }}
          empty={t("dashboard.continue.empty")}
        >
          <ul className="dash-list">
            {d.continueLearning.data.map((c) => (
              <li key={c.id} className="dash-course">
                <a href={c.href} className="dash-course__link" data-discover="true">
                  {c.name}
                </a>
                <progress
                  className="progress"
                  max={100}
                  value={c.progress}
                  aria-label={`${c.name}: ${t("dashboard.continue.done", { percent: c.progress })}`}
                />
                <span className="dash-course__meta">
                  {c.locked ? <span className="tag tag--locked">{t("dashboard.continue.locked")}</span> : null}
                  {t("dashboard.continue.done", { percent: c.progress })}
                  {c.lastUsed ? ` · ${t("dashboard.continue.lastUsed", { date: c.lastUsed })}` : ""}
                </span>
              </li>
            ))}
          </ul>
        </Section>
        <Section
          id="due"
          title={t("dashboard.due.title")}
          total={d.due.total}
          shown={d.due.data.length}
          all={agenda}
          empty={t("dashboard.due.empty")}
        >
          <ItemList items={d.due.data} />
        </Section>
        <Section
          id="questions"
          title={t("dashboard.questions.title")}
          total={d.questions.total}
          shown={d.questions.data.length}
          all={d.calendar ? { href: "/learn/calendar", label: t("dashboard.questions.all") } : null}
          empty={t("dashboard.questions.empty")}
        >
          <ItemList items={d.questions.data} />
        </Section>
        <Section
          id="mandatory"
          title={t("dashboard.mandatory.title")}
          total={d.mandatory.total}
          shown={d.mandatory.data.length}
          all={{
            href: "/learn/courses?courseProgress=notStarted&coursePriority=mandatory",
            label: t("dashboard.mandatory.all"),
          }}
          empty={t("dashboard.mandatory.empty")}
        >
          <CourseList courses={d.mandatory.data} line={(c) => (c.due ? t("courseCard.due", { date: c.due }) : null)} />
        </Section>
        <Section
          id="waiting"
          title={t("dashboard.waiting.title")}
          total={d.waiting.total}
          shown={d.waiting.data.length}
          all={{ href: "/learn/courses", label: t("dashboard.waiting.all") }}
          empty={t("dashboard.waiting.empty")}
        >
          <CourseList
            courses={d.waiting.data}
            line={(c) => (c.submitted ? t("dashboard.waiting.submitted", { date: c.submitted }) : null)}
          />
        </Section>
        <Section
          id="results"
          title={t("dashboard.results.title")}
          total={d.results.total}
          shown={d.results.data.length}
          all={{ href: "/learn/courses?courseProgress=completed", label: t("dashboard.results.all") }}
          empty={t("dashboard.results.empty")}
        >
          <ul className="dash-list">
            {d.results.data.map((r) => (
              <li key={r.course.id} className="dash-course">
                <a href={`/learn/courses/${r.course.id}`} data-discover="true" className="dash-course__link">
                  {r.course.name}
                </a>
                <span className="dash-course__meta">
                  <span>{r.finished}</span>
                  {r.resultsHidden ? (
                    <span>{t("dashboard.results.hidden")}</span>
                  ) : (
                    <>
                      {r.percent !== null ? <span>{t("dashboard.results.score", { percent: r.percent })}</span> : null}
                      {r.grade ? <span className="tag">{r.grade.name}</span> : null}
                      {r.passed === true ? <span>{t("dashboard.results.passed")}</span> : null}
                      {r.passed === false ? <span>{t("dashboard.results.failed")}</span> : null}
                    </>
                  )}
                </span>
                {r.certificate ? (
                  <a
                    className="dash-course__certificate"
                    href={`/learn/courses/${r.course.id}#certificates-title`}
                    data-discover="true"
                  >
                    {t("dashboard.results.certificate", { number: r.certificate.number })}
                    {r.certificate.expired ? ` ${t("dashboard.results.expired")}` : ""}
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        </Section>
        <Section
          id="events"
          title={t("dashboard.events.title")}
          total={d.events.total}
          shown={d.events.data.length}
          all={agenda}
          empty={t("dashboard.events.empty")}
        >
          <ItemList items={d.events.data} />
        </Section>
      </div>
      {prefetch}
    </div>
  );
}
