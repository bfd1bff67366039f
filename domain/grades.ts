import { canReview, gradeVisibility, type GradeRevealAccess } from "./lifecycle";
import {
  showPointsOnCertificate,
  validateCourseFilters,
  type CourseFilterValidation,
  type KnownFilterValues,
} from "./courses";
import { ObjectiveWorkflowState } from "./vocabulary";

/**
 * The learner's grades overview (issue 31 item 1): one page with every course's attempt, result and
 * graded activities, sortable and filterable like My courses (spec 2.3, 2.4), with the reveal rules of
 * spec 4.7 applied to every score it shows. Pure: "now" is always passed in.
 */

// ---------------------------------------------------------------------------------------------
// Sorting (URL parameter `sort`, spec 2.4's rules: an unknown value is dropped with the toast)
// ---------------------------------------------------------------------------------------------

/** The URL's sort values, in the order the sort menu offers them; the first is the default. */
export const GRADE_SORTS = [
  "name",
  "-name",
  "-score",
  "score",
  "-finished",
  "finished",
  "-progress",
  "progress",
] as const;
export type GradeSort = (typeof GRADE_SORTS)[number];
const DEFAULT_GRADE_SORT: GradeSort = "name";

/** What the API's grades query sorts by for each URL value (`-` first: descending). */
const API_SORT: Record<GradeSort, string> = {
  name: "objective.name",
  "-name": "-objective.name",
  score: "score",
  "-score": "-score",
  finished: "finished",
  "-finished": "-finished",
  progress: "progress",
  "-progress": "-progress",
};
/** The API's sort keys (the grades query refuses anything else). */
export const GRADE_API_SORTS = Object.values(API_SORT) as readonly string[];

export function gradeApiSort(sort: GradeSort): string {
  return API_SORT[sort];
}

export interface GradesQueryValidation extends CourseFilterValidation {
  sort: GradeSort;
}

/**
 * Spec 2.4 / 5 applied to the grades page: the My courses parameters and their rules
 * (`validateCourseFilters`), plus `sort`. An unknown sort value is removed with the toast
 * 'coursesFilterDrawer.filtersUnavailable'; the default sort is left out of the canonical URL; the
 * first `sort` wins. occflow/objectiveId belong to My courses only and are dropped.
 */
export function validateGradesQuery(search: URLSearchParams, known: KnownFilterValues): GradesQueryValidation {
  const rest = new URLSearchParams();
  let sort: GradeSort = DEFAULT_GRADE_SORT;
  let sawSort = false;
  let unavailable = false;
  for (const [name, value] of search) {
    if (name === "sort") {
      if (!sawSort) {
        if ((GRADE_SORTS as readonly string[]).includes(value)) sort = value as GradeSort;
        else unavailable = true;
      }
      sawSort = true;
      continue;
    }
    if (name === "occflow" || name === "objectiveId") continue;
    rest.append(name, value);
  }
  const base = validateCourseFilters(rest, known);
  const canonical = new URLSearchParams();
  // Sort first after the filters and before the page, so a link built from the page keeps one order.
  for (const [name, value] of base.canonical) if (name !== "page") canonical.append(name, value);
  if (sort !== DEFAULT_GRADE_SORT) canonical.append("sort", sort);
  if (base.filters.page > 1) canonical.append("page", String(base.filters.page));
  const toasts = [...base.toasts];
  if (unavailable && !toasts.includes("coursesFilterDrawer.filtersUnavailable"))
    toasts.unshift("coursesFilterDrawer.filtersUnavailable");
  return {
    filters: base.filters,
    sort,
    canonical,
    toasts,
    changed: canonical.toString() !== search.toString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Reveal (spec 4.7) for what the grades page shows
// ---------------------------------------------------------------------------------------------

/**
 * Whether the scores of a course's activities are shown (spec 4.7, everywhere a grade shows): only
 * when the course's own grade is shown — the policy allows it for the attempt's state, and the results
 * are not protected — and, for a finished attempt, only where review is allowed (the content view's
 * rule for activity scores). Stricter than the content view while an attempt is in progress: a score
 * the course hides ("never", "afterFinish" before submitting, "afterDate" before the date) is not shown
 * here through its activities either.
 */
export function activityScoresVisible(
  input: GradeRevealAccess & {
    workflow: { state: ObjectiveWorkflowState } | null;
    protectResults: boolean;
    supportReview: boolean;
  },
  now: Date,
): boolean {
  if (!input.workflow || input.protectResults) return false;
  if (!gradeVisibility(input, input.workflow, now).visible) return false;
  if (input.workflow.state !== ObjectiveWorkflowState.finished) return true;
  return canReview({ ...input, workflow: input.workflow }, now);
}

/**
 * Spec 2.5 / 2.7 / 5: points ("x out of y") are never shown where the max score is 1 (a pass/fail or a
 * fraction), nor without a max score — the percent says it all.
 */
export function pointsShown(maxScore: number | null | undefined): boolean {
  return showPointsOnCertificate(maxScore);
}
