import { data, redirect, useLoaderData, useLocation } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.grades._index";
import { countActiveFilters } from "#domain/courses";
import { GRADE_SORTS, gradeApiSort, validateGradesQuery } from "#domain/grades";
import { endpoints, type Endpoint } from "#domain/contract/endpoints";
import { state } from "~/services/request.server";
import { getLocale } from "~/services/i18n.server";
import { dateFormatter } from "~/services/format.server";
import { aggregatesFilter, knownFilterValues, listQuery } from "~/services/course-lists.server";
import { toGradeRow } from "~/services/grades.server";
import { clearPersistedFilters, persistFilters, readPersistedFilters } from "~/services/preferences.server";
import { redirectWithToast, type Toast } from "~/services/toast.server";
import { PAGE_SIZE } from "~/common/constants";
import {
  CollectionChips,
  FilterDrawer,
  myCoursesFilterSections,
  Pagination,
  SearchBox,
} from "~/components/course-filters";
import { GradeCourse, GradeSortForm } from "~/components/grades";

export const handle = {
  title: (_: unknown, t: (k: string) => string) => t("grades.title"),
  breadcrumb: (_: unknown, t: (k: string) => string) => ({ label: t("grades.title"), href: "/learn/grades" }),
};

/**
 * /learn/grades (issue 31 item 1): every course of the learner with its attempt's state, progress,
 * grade and score as spec 4.7 allows, and its graded activities; searched, filtered and paged like My
 * courses with the same URL rules (spec 2.4 / 5: unknown parameters dropped, unknown values removed
 * with the toast, the state kept per learner), plus a sort. One API call for the list, whatever the
 * number of courses.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  if (url.searchParams.has("clear"))
    throw redirect("/learn/grades", { headers: { "Set-Cookie": await clearPersistedFilters(s.config, "grades") } });
  if ([...url.searchParams.keys()].length === 0) {
    const saved = await readPersistedFilters(request, shell.user.id, s.config, "grades");
    if (saved) throw redirect(`/learn/grades?${saved}`);
  }
  const get = <T,>(endpoint: Endpoint<T>) => s.cachedGet(lms, endpoint);
  const [collections, terms, termIds, categories] = await Promise.all([
    get(endpoints.enrolledShowcases),
    get(endpoints.terms),
    get(endpoints.termIds),
    get(endpoints.enrolledFilterCategories),
  ]);
  const usedTerms = new Set(termIds.data);
  const accessibleTerms = terms.data.filter((t) => usedTerms.has(t.id));
  const checked = validateGradesQuery(
    url.searchParams,
    knownFilterValues(collections.data, categories, accessibleTerms),
  );
  if (checked.changed) {
    const q = checked.canonical.toString();
    const target = `/learn/grades${q ? `?${q}` : ""}`;
    const toasts: Toast[] = checked.toasts.map(
      (key) => ({ type: key === "accountCreated" ? "success" : "info", key }) as Toast,
    );
    throw toasts.length ? await redirectWithToast(target, toasts, s.config, { status: 302 }) : redirect(target);
  }
  const { filters, sort } = checked;
  const canonical = url.searchParams.toString();
  const [list, saved] = await Promise.all([
    lms.get(endpoints.grades, listQuery(filters, { filter: aggregatesFilter(filters), sort: gradeApiSort(sort) })),
    readPersistedFilters(request, shell.user.id, s.config, "grades"),
  ]);
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  const headers = new Headers();
  if (saved !== canonical)
    headers.append("Set-Cookie", await persistFilters(shell.user.id, canonical, s.config, "grades"));
  return data(
    {
      rows: list.data.map((c) => toGradeRow(c, fmt)),
      total: list.totalCount,
      page: filters.page,
      sort,
      keyword: filters.keyword,
      activeCount: countActiveFilters(filters),
      collections: collections.data,
      exportHref: `/learn/grades/export${canonical ? `?${canonical}` : ""}`,
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

export default function Grades() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const sections = myCoursesFilterSections(d.sections, t);
  const searching = d.keyword.length > 0 || d.activeCount > 0;
  return (
    <div className="course-list grades">
      <h1>{t("grades.title")}</h1>
      <div className="course-list__toolbar">
        <SearchBox params={params} label={t("grades.searchLabel")} />
        <FilterDrawer params={params} sections={sections} activeCount={d.activeCount} clearHref="/learn/grades?clear" />
      </div>
      <CollectionChips params={params} collections={d.collections} />
      <div className="grades__bar">
        <GradeSortForm params={params} sorts={GRADE_SORTS} current={d.sort} />
        {d.total > 0 ? (
          <a className="button" href={d.exportHref} download>
            {t("grades.export")}
          </a>
        ) : null}
      </div>
      <p className="course-list__count" role="status">
        {t("courses.count", { count: d.total })}
      </p>
      {d.rows.length === 0 ? (
        <div className="empty-state">
          <h2>{searching ? t("courses.emptySearchTitle") : t("grades.emptyTitle")}</h2>
          <p>{searching ? t("courses.emptySearchText") : t("grades.emptyText")}</p>
        </div>
      ) : (
        <div className="grades__list">
          {d.rows.map((row) => (
            <GradeCourse key={row.id} row={row} />
          ))}
        </div>
      )}
      <Pagination params={params} page={d.page} total={d.total} pageSize={PAGE_SIZE} />
    </div>
  );
}
