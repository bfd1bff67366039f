import type { Route } from "./+types/learn.grades.export";
import { GRADES_TAKE_MAX, type GradeCourse } from "#domain/contract/grades";
import { gradeApiSort, validateGradesQuery } from "#domain/grades";
import { endpoints, type Endpoint } from "#domain/contract/endpoints";
import { state } from "~/services/request.server";
import { getInstance } from "~/services/i18n.server";
import { zoneOrUtc } from "#domain/calendar";
import { aggregatesFilter, knownFilterValues, listQuery } from "~/services/course-lists.server";
import { gradesCsv } from "~/services/grades.server";

/**
 * /learn/grades/export (issue 31 item 1): the learner's own grades as CSV — the courses the grades page
 * shows for the same search, filters and sort (all pages), with their graded activities, in the
 * learner's language. Filters the page would drop are ignored here. Pages of 1,000 courses: a
 * constant number of statements per thousand.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const get = <T>(endpoint: Endpoint<T>) => s.cachedGet(lms, endpoint);
  const [collections, terms, termIds, categories] = await Promise.all([
    get(endpoints.enrolledShowcases),
    get(endpoints.terms),
    get(endpoints.termIds),
    get(endpoints.enrolledFilterCategories),
  ]);
  const usedTerms = new Set(termIds.data);
  const { filters, sort } = validateGradesQuery(
    url.searchParams,
    knownFilterValues(
      collections.data,
      categories,
      terms.data.filter((t) => usedTerms.has(t.id)),
    ),
  );
  const courses: GradeCourse[] = [];
  for (let skip = 0; ; skip += GRADES_TAKE_MAX) {
    const page = await lms.get(endpoints.grades, {
      ...listQuery({ ...filters, page: 1 }, { filter: aggregatesFilter(filters), sort: gradeApiSort(sort) }),
      skip: String(skip),
      take: String(GRADES_TAKE_MAX),
    });
    courses.push(...page.data);
    if (page.data.length < GRADES_TAKE_MAX || courses.length >= page.totalCount) break;
  }
  const i18n = getInstance(context);
  const csv = gradesCsv(courses, (key) => i18n.t(key), zoneOrUtc(shell.user.timezone));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="grades-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
