import { data, redirect, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.courses._index";
import { countActiveFilters } from "#domain/courses";
import { state } from "~/services/request.server";
import { courseEvents, record } from "~/services/analytics.server";
import { getInstance, getLocale } from "~/services/i18n.server";
import { dateFormatter } from "~/services/format.server";
import {
  aggregatesFilter,
  canonicalOrRedirect,
  enrol,
  knownFilterValues,
  listQuery,
  occflowCommandId,
  toCourseCard,
} from "~/services/course-lists.server";
import { CARD_SELECT } from "#domain/contract/courses";
import { clearPersistedFilters, persistFilters, readPersistedFilters } from "~/services/preferences.server";
import { redirectWithToast } from "~/services/toast.server";
import { rememberList } from "~/services/breadcrumbs.server";
import { cameFromOwnPages } from "~/services/auth.server";
import { startCourse } from "~/services/course-page.server";
import { CourseListPage } from "~/components/course-list-page";
import { myCoursesFilterSections } from "~/components/course-filters";
import { endpoints, type Endpoint } from "#domain/contract/endpoints";

export const handle = {
  title: (_: unknown, t: (k: string) => string) => t("courses.title"),
  breadcrumb: (_: unknown, t: (k: string) => string) => ({
    slug: "courses-list",
    label: t("breadcrumbs.courses-list"),
    href: "/learn/courses",
  }),
};

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();

  if (url.searchParams.has("clear")) {
    throw redirect("/learn/courses", { headers: { "Set-Cookie": await clearPersistedFilters(s.config) } });
  }
  // Spec 9: restore the learner's last filters and search when they come back to the page.
  const savedFilters = readPersistedFilters(request, shell.user.id, s.config);
  // Awaited below unless a redirect comes first: no unhandled rejection meanwhile.
  savedFilters.catch(() => {});
  if ([...url.searchParams.keys()].length === 0) {
    const saved = await savedFilters;
    if (saved) throw redirect(`/learn/courses?${saved}`);
  }

  const get = <T,>(endpoint: Endpoint<T>) => s.cachedGet(lms, endpoint);
  const [collections, terms, termIds, categories] = await Promise.all([
    get(endpoints.enrolledShowcases),
    get(endpoints.terms),
    get(endpoints.termIds),
    get(endpoints.enrolledFilterCategories),
  ]);
  // Spec 2.3: the term filter lists only terms that have accessible courses.
  const usedTerms = new Set(termIds.data);
  const accessibleTerms = terms.data.filter((t) => usedTerms.has(t.id));
  const { filters } = await canonicalOrRedirect(
    url,
    knownFilterValues(collections.data, categories, accessibleTerms),
    s.config,
  );

  // Spec 4.14: occflow from the open catalog — enrol (and, with startTheCourse, start) once signed in.
  if (filters.occflow && filters.objectiveId) {
    const from = await cameFromOwnPages(request, url, s.config);
    const next = new URLSearchParams(url.searchParams);
    next.delete("occflow");
    next.delete("objectiveId");
    const back = `/learn/courses${next.size ? `?${next}` : ""}`;
    // Not from the app's own pages (a link on another site): no enrolment, just the list.
    if (!from.own) throw redirect(back);
    // The continued sign-in's note is spent.
    const done = (response: Response) => {
      if (from.setCookie) response.headers.append("Set-Cookie", from.setCookie);
      return response;
    };
    const objectiveId = filters.objectiveId;
    // Derived per access (decision 018): the same link enrols once, and nobody else can claim the id.
    const enrolId = (accessId: string) => occflowCommandId(shell.user.id, objectiveId, accessId);
    if (filters.occflow === "startTheCourse") {
      // Enrol when needed, start the workflow and land in the content (or the course's page for LTI).
      const fmt = dateFormatter(getLocale(context), shell.user.timezone);
      const track = courseEvents(request, context, filters.objectiveId);
      throw done(await startCourse(lms, s.config, filters.objectiveId, crypto.randomUUID(), enrolId, fmt, track));
    }
    const result = await enrol(lms, filters.objectiveId, enrolId);
    if (result.ok) {
      throw done(
        await redirectWithToast(
          back,
          {
            type: "success",
            key: "publicCatalog.courseEnrolled",
            values: { name: result.name },
          },
          s.config,
        ),
      );
    }
    if (result.reason === "refused" && result.message) {
      throw done(
        await redirectWithToast(
          back,
          {
            type: "critical",
            key: `apiErrors.${result.message.code}`,
            values: result.message.params,
          },
          s.config,
        ),
      );
    }
    throw done(await redirectWithToast(back, { type: "critical", key: "messages.unknownError" }, s.config));
  }

  const filter = aggregatesFilter(filters);
  const canonical = url.searchParams.toString();
  // The list and the two cookies (each a signature to check) at once: no waterfall.
  const [list, saved, remember] = await Promise.all([
    lms.get(endpoints.cardAggregates, listQuery(filters, { filter, select: CARD_SELECT })),
    savedFilters,
    rememberList(request, "courses-list", s.config),
  ]);
  // Issue 16 item 8: a search, as its length and result count (the words only where configured).
  if (filters.keyword && filters.page === 1)
    void record(request, context, [
      {
        name: "my_courses_search",
        page: url.pathname,
        props: {
          keywordLength: filters.keyword.length,
          resultCount: list.totalCount ?? list.data.length,
          ...(s.config.analyticsSearchText ? { keyword: filters.keyword } : {}),
        },
      },
    ]);
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  const { t } = getInstance(context);
  const headers = new Headers();
  if (saved !== canonical) headers.append("Set-Cookie", await persistFilters(shell.user.id, canonical, s.config));
  if (remember) headers.append("Set-Cookie", remember);
  return data(
    {
      cards: list.data.map((a) => toCourseCard(a, fmt, t)),
      total: list.totalCount,
      page: filters.page,
      keyword: filters.keyword,
      activeCount: countActiveFilters(filters),
      catalogEnabled: shell.settings.features.catalog,
      collections: collections.data,
      sections: {
        collection: { options: collections.data, selected: filters.collection },
        term: { options: accessibleTerms, selected: filters.term },
        courseProgress: { selected: filters.courseProgress },
        coursePriority: { selected: filters.coursePriority },
        categories: categories.map((c) => ({ ...c, selected: filters.category[c.id] ?? [] })),
      },
    },
    { headers },
  );
}

export default function MyCourses() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <CourseListPage
      d={d}
      title={t("courses.title")}
      searchLabel={t("courses.searchLabel")}
      sections={myCoursesFilterSections(d.sections, t)}
      clearHref="/learn/courses?clear"
      empty={
        <>
          <h2>{t("courses.emptyTitle")}</h2>
          {d.catalogEnabled ? (
            <p>
              {t("courses.emptyText")}{" "}
              <a className="button button--primary" href="/learn/catalog">
                {t("courses.goToCatalog")}
              </a>
            </p>
          ) : (
            <p>{t("courses.emptyCatalogDisabled")}</p>
          )}
        </>
      }
    />
  );
}
