import {
  ObjectiveWorkflowState,
  PROGRESS_VALUES,
  type CourseProgress,
  PRIORITY_VALUES,
  type CoursePriority,
} from "./vocabulary";
import { stripControlCharacters } from "./text";
import type { CardAggregate } from "./contract/courses";
/**
 * Pure domain rules for course cards, the My courses URL filters and result display
 * (spec 2.3, 2.4, 4.1, 4.11, 5). No I/O: dates and "now" are always passed in.
 */

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/**
 * Spec 3 / 4.11: the part of a listed course access that the card rules read — the contract's card
 * aggregate itself (`CARD_SELECT`), so the list's rows reach the rules as the API sent them.
 */
export type CardAccess = Pick<
  CardAggregate,
  "id" | "isMandatory" | "availabilityDate" | "dueDate" | "lastObjectiveWorkflow" | "lastObjectiveRecord"
> & { objective: Pick<CardAggregate["objective"], "id"> };

// ---------------------------------------------------------------------------------------------
// Spec 5: progress
// ---------------------------------------------------------------------------------------------

/** Spec 5 / 2.3: progress is clamped to 0..1; null, undefined and NaN count as 0. */
export function clampProgress(value: number | null | undefined): number {
  if (typeof value !== "number" || Number.isNaN(value)) return 0;
  if (value <= 0) return 0;
  if (value >= 1) return 1;
  return value;
}

/** Spec 5: progress "shown as a percent" — whole percent 0..100, rounded. */
export function progressPercent(value: number | null | undefined): number {
  return Math.round(clampProgress(value) * 100);
}

// ---------------------------------------------------------------------------------------------
// Spec 4.11: course card
// ---------------------------------------------------------------------------------------------

const LEARN_BASE = "/learn";

/**
 * Spec 4.11 "Link target: inProgress goes to /courses/{id}/view/content; finished goes to
 * /courses/{id}; otherwise /courses/{id}/{accessId}" (all under the /learn base path, spec 2.1).
 * Path segments are URI-encoded so an odd id can never change the route.
 */
export function courseCardLink(a: CardAccess): string {
  const id = encodeURIComponent(a.objective.id);
  const state = a.lastObjectiveWorkflow?.state;
  if (state === ObjectiveWorkflowState.inProgress) return `${LEARN_BASE}/courses/${id}/view/content`;
  if (state === ObjectiveWorkflowState.finished) return `${LEARN_BASE}/courses/${id}`;
  return `${LEARN_BASE}/courses/${id}/${encodeURIComponent(a.id)}`;
}

/** Spec 4.11: what the card footer shows; the UI turns it into localised text. */
export type CourseCardFooter =
  | { kind: "availableFrom"; date: string }
  | { kind: "due"; date: string | null }
  | { kind: "notStarted" }
  | { kind: "submitted"; date: string | null; progress: number }
  | { kind: "started"; date: string | null; progress: number }
  | { kind: "completed"; date: string | null };

/**
 * Spec 4.11 "Footer: not started shows the availability date, else the due date, else 'not
 * started'; in grading shows the submitted date and progress; in progress shows the start date and
 * progress; finished shows the completion date; otherwise the due date."
 * Not started = no workflow. Progress goes through {@link clampProgress}. The completion date is
 * the workflow's finished date, falling back to the record's.
 */
export function courseCardFooter(a: CardAccess): CourseCardFooter {
  const wf = a.lastObjectiveWorkflow;
  if (wf === null) {
    if (a.availabilityDate) return { kind: "availableFrom", date: a.availabilityDate };
    if (a.dueDate) return { kind: "due", date: a.dueDate };
    return { kind: "notStarted" };
  }
  switch (wf.state) {
    case ObjectiveWorkflowState.inGrading:
      return { kind: "submitted", date: wf.submitted, progress: clampProgress(wf.progress) };
    case ObjectiveWorkflowState.inProgress:
      return { kind: "started", date: wf.started, progress: clampProgress(wf.progress) };
    case ObjectiveWorkflowState.finished:
      return { kind: "completed", date: wf.finished ?? a.lastObjectiveRecord?.finished ?? null };
    default:
      return { kind: "due", date: a.dueDate };
  }
}

/**
 * Spec 4.11 "Course progress filter: notStarted = no workflow and no record; inProgress = workflow
 * state inProgress, inGrading or gradingApproved; completed = state finished, or no workflow but a
 * record exists." Returns null when nothing matches (submitted, graded, unknown states).
 */
export function courseProgressFilter(a: CardAccess): CourseProgress | null {
  const wf = a.lastObjectiveWorkflow;
  if (wf === null) return a.lastObjectiveRecord === null ? "notStarted" : "completed";
  switch (wf.state) {
    case ObjectiveWorkflowState.inProgress:
    case ObjectiveWorkflowState.inGrading:
    case ObjectiveWorkflowState.gradingApproved:
      return "inProgress";
    case ObjectiveWorkflowState.finished:
      return "completed";
    default:
      return null;
  }
}

/** Spec 2.4 / 3: the coursePriority filter value of an access. */
export function coursePriority(a: CardAccess): CoursePriority {
  return a.isMandatory ? "mandatory" : "optional";
}

// ---------------------------------------------------------------------------------------------
// Spec 2.3: cover fallback colours
// ---------------------------------------------------------------------------------------------

/**
 * Spec 2.3 "cover image (fallback: seven fixed colours cycled by card index)". Each colour has a
 * contrast ratio of at least 4.5:1 against white text (WCAG AA), checked in the tests.
 */
export const COVER_COLORS = [
  "#1F5FA8", // blue
  "#2E7D32", // green
  "#8E24AA", // purple
  "#C62828", // red
  "#00695C", // teal
  "#A84B00", // burnt orange
  "#455A64", // blue grey
] as const;

/** Spec 2.3: fallback cover colour for the card at `index` (cycled; negative or odd input is safe). */
export function coverFallbackColor(index: number): string {
  const n = COVER_COLORS.length;
  const i = Number.isFinite(index) ? Math.trunc(index) : 0;
  return COVER_COLORS[((i % n) + n) % n];
}

// ---------------------------------------------------------------------------------------------
// Spec 2.4 / 5: My courses URL filters
// ---------------------------------------------------------------------------------------------

/** Spec 8 / 2.4 toast keys raised while validating the URL. */
export type CourseFilterToast = "coursesFilterDrawer.filtersUnavailable" | "accountCreated";

/** Spec 2.4: occflow values (self-enrolment flow, spec 4.14). */
const OCCFLOW_VALUES = ["addToMyCourses", "startTheCourse"] as const;
type Occflow = (typeof OCCFLOW_VALUES)[number];

/** Spec 2.4: the parsed, validated My courses filter state. */
export interface CourseFilters {
  keyword: string;
  collection: string[];
  term: string[];
  courseProgress: string[];
  coursePriority: string[];
  /** categoryId → selected attribute ids. */
  category: Record<string, string[]>;
  page: number;
  occflow?: Occflow;
  objectiveId?: string;
}

/** Spec 5: the values that "must exist among loaded collections, terms, categories/attributes". */
export interface KnownFilterValues {
  collections: string[];
  terms: string[];
  /** categoryId → attribute ids of that category. */
  categories: Record<string, string[]>;
}

export interface CourseFilterValidation {
  filters: CourseFilters;
  canonical: URLSearchParams;
  /** True whenever `canonical` differs from the input in content or order (the URL must be rewritten). */
  changed: boolean;
  toasts: CourseFilterToast[];
}

/** Keyword length cap (defensive; the spec sets none). */
const KEYWORD_MAX_LENGTH = 200;
/** Only the first this-many parameters are processed; the rest are dropped (defensive). */
const MAX_URL_PARAMETERS = 100;
/** objectiveId values longer than this are dropped (defensive; ids are UUIDs). */
const OBJECTIVE_ID_MAX_LENGTH = 200;

const LIST_PARAMS = ["collection", "term", "courseProgress", "coursePriority"] as const;
type ListParam = (typeof LIST_PARAMS)[number];
const CATEGORY_PARAM = /^category\[([^[\]]+)\]$/;

/**
 * Highest page a list URL names (defensive, issue 17 item 6): `page=50000` asked the API to skip 1.2
 * million rows, past its own bound, and gave a 500. A larger page reads as malformed (dropped).
 */
const PAGE_MAX = 10_000;

/**
 * Spec 5 "Search text is lowercased and left-trimmed" (plus a 200-code-point cap, and without control
 * characters, which no one types and the database refuses: `keyword=a%01b` gave a 500).
 */
function normalizeKeyword(value: string): string {
  const lowered = stripControlCharacters(value).trimStart().toLowerCase();
  if (lowered.length <= KEYWORD_MAX_LENGTH) return lowered;
  // Slice by code points so a surrogate pair is never cut in half.
  return Array.from(lowered.slice(0, KEYWORD_MAX_LENGTH * 2))
    .slice(0, KEYWORD_MAX_LENGTH)
    .join("");
}

/** Spec 2.4 "comma-separated lists of values": split, trim, drop empties. */
function splitList(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(",")) {
    const v = part.trim();
    if (v !== "") out.push(v);
  }
  return out;
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function emptyFilters(): CourseFilters {
  return { keyword: "", collection: [], term: [], courseProgress: [], coursePriority: [], category: {}, page: 1 };
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Spec 2.4 / 5: the canonical query parameters for a filter state (used for links and persistence).
 * Order: keyword, collection, term, courseProgress, coursePriority, category[id] sorted by id,
 * page (only when > 1), occflow, objectiveId. Empty lists and an empty keyword are omitted; list
 * values are de-duplicated and keep their order.
 */
export function filtersToSearchParams(filters: CourseFilters): URLSearchParams {
  const out = new URLSearchParams();
  const keyword = normalizeKeyword(filters.keyword ?? "");
  if (keyword !== "") out.append("keyword", keyword);
  for (const name of LIST_PARAMS) {
    const values = dedupe((filters[name] ?? []).filter((v) => v !== ""));
    if (values.length > 0) out.append(name, values.join(","));
  }
  const categoryIds = Object.keys(filters.category ?? {}).sort(compareIds);
  for (const id of categoryIds) {
    const values = dedupe((filters.category[id] ?? []).filter((v) => v !== ""));
    if (values.length > 0) out.append(`category[${id}]`, values.join(","));
  }
  if (Number.isSafeInteger(filters.page) && filters.page > 1) out.append("page", String(filters.page));
  if (filters.occflow) out.append("occflow", filters.occflow);
  if (filters.objectiveId) out.append("objectiveId", filters.objectiveId);
  return out;
}

/**
 * Spec 2.4 / 5: parse and validate the My courses query parameters.
 *
 * - Unknown parameter names are dropped silently (URL rewritten, no toast).
 * - Unknown values — a collection, term, progress or priority value, a category id or attribute id
 *   that is not loaded, or an invalid occflow — are removed with the toast
 *   'coursesFilterDrawer.filtersUnavailable' (once).
 * - selfRegistered is always removed; unless its value is "false" or "0" the toast 'accountCreated'
 *   is shown.
 * - Empty list items are ignored, duplicates de-duplicated, repeated list parameters merged; for
 *   single-valued parameters (keyword, page, occflow, objectiveId) the first occurrence wins.
 * - page must be a positive integer ("1", "2", …); otherwise it is dropped silently.
 * - Only the first {@link MAX_URL_PARAMETERS} parameters are processed; the rest are dropped.
 * Never throws.
 */
export function validateCourseFilters(search: URLSearchParams, known: KnownFilterValues): CourseFilterValidation {
  const filters = emptyFilters();
  let unavailable = false;
  let accountCreated = false;
  const seenSingle = new Set<string>();

  const allowed: Record<ListParam, ReadonlySet<string>> = {
    collection: new Set(known.collections ?? []),
    term: new Set(known.terms ?? []),
    courseProgress: new Set<string>(PROGRESS_VALUES),
    coursePriority: new Set<string>(PRIORITY_VALUES),
  };
  const knownCategories = known.categories ?? {};
  const categoryValues = new Map<string, string[]>();

  let processed = 0;
  for (const [name, value] of search) {
    if (processed >= MAX_URL_PARAMETERS) break;
    processed++;

    if ((LIST_PARAMS as readonly string[]).includes(name)) {
      const list = name as ListParam;
      for (const v of splitList(value)) {
        if (allowed[list].has(v)) filters[list].push(v);
        else unavailable = true;
      }
      continue;
    }

    const categoryMatch = CATEGORY_PARAM.exec(name);
    if (categoryMatch) {
      const id = categoryMatch[1];
      const attributes = Object.hasOwn(knownCategories, id) ? knownCategories[id] : undefined;
      const values = splitList(value);
      if (!Array.isArray(attributes)) {
        if (values.length > 0) unavailable = true;
        continue;
      }
      const bucket = categoryValues.get(id) ?? [];
      for (const v of values) {
        if (attributes.includes(v)) bucket.push(v);
        else unavailable = true;
      }
      categoryValues.set(id, bucket);
      continue;
    }

    switch (name) {
      case "keyword":
        if (!seenSingle.has(name)) filters.keyword = normalizeKeyword(value);
        seenSingle.add(name);
        break;
      case "page":
        if (!seenSingle.has(name) && /^[1-9][0-9]{0,15}$/.test(value)) {
          const page = Number(value);
          if (Number.isSafeInteger(page) && page <= PAGE_MAX) filters.page = page;
        }
        seenSingle.add(name);
        break;
      case "occflow":
        if (!seenSingle.has(name)) {
          if ((OCCFLOW_VALUES as readonly string[]).includes(value)) filters.occflow = value as Occflow;
          else unavailable = true;
        }
        seenSingle.add(name);
        break;
      case "objectiveId": {
        const id = value.trim();
        if (!seenSingle.has(name) && id !== "" && id.length <= OBJECTIVE_ID_MAX_LENGTH) filters.objectiveId = id;
        seenSingle.add(name);
        break;
      }
      case "selfRegistered":
        if (value !== "false" && value !== "0") accountCreated = true;
        break;
      default:
        // Unknown parameter name: dropped without a toast.
        break;
    }
  }

  for (const list of LIST_PARAMS) filters[list] = dedupe(filters[list]);
  const category: Record<string, string[]> = {};
  for (const [id, values] of categoryValues) {
    const unique = dedupe(values);
    // defineProperty, not assignment, so an id such as "__proto__" stays a plain own key.
    if (unique.length > 0) {
      Object.defineProperty(category, id, { value: unique, enumerable: true, writable: true, configurable: true });
    }
  }
  filters.category = category;

  const canonical = filtersToSearchParams(filters);
  const toasts: CourseFilterToast[] = [];
  if (unavailable) toasts.push("coursesFilterDrawer.filtersUnavailable");
  if (accountCreated) toasts.push("accountCreated");
  return { filters, canonical, changed: canonical.toString() !== search.toString(), toasts };
}

/**
 * Spec 2.3 "filter-drawer button with a badge counting active filters": the number of selected
 * values across collection, term, courseProgress, coursePriority and category attributes. The
 * keyword is not counted.
 */
export function countActiveFilters(filters: CourseFilters): number {
  let count = 0;
  for (const list of LIST_PARAMS) count += (filters[list] ?? []).length;
  for (const values of Object.values(filters.category ?? {})) count += values.length;
  return count;
}

// ---------------------------------------------------------------------------------------------
// Spec 5: score display
// ---------------------------------------------------------------------------------------------

export interface ScoreSummary {
  score: number | null;
  maxScore: number | null;
  normalizedScore: number | null;
}

export type ScoreColor = "success" | "accent" | "danger";

/** Normalised score, derived from score / maxScore when the server sent none. */
function normalized(s: ScoreSummary): number {
  if (typeof s.normalizedScore === "number" && !Number.isNaN(s.normalizedScore)) return s.normalizedScore;
  if (typeof s.score === "number" && typeof s.maxScore === "number" && s.maxScore > 0) return s.score / s.maxScore;
  return 0;
}

/**
 * Spec 5 "Score colour: success when score equals max or normalized score >= 0.8; accent at >= 0.4;
 * otherwise danger."
 */
export function scoreColor(s: ScoreSummary): ScoreColor {
  if (typeof s.score === "number" && typeof s.maxScore === "number" && s.score === s.maxScore) return "success";
  const n = normalized(s);
  if (n >= 0.8) return "success";
  if (n >= 0.4) return "accent";
  return "danger";
}

export type FormattedScore =
  { kind: "percent"; value: number } | { kind: "points"; score: number | null; maxScore: number | null };

/**
 * Spec 5 "Score shown as a whole percent, or 'x out of y points'"; spec 9 "Percent scores are
 * rounded to whole numbers."
 */
export function formatScore(s: ScoreSummary, mode: "percent" | "points"): FormattedScore {
  if (mode === "points") return { kind: "points", score: s.score, maxScore: s.maxScore };
  return { kind: "percent", value: Math.round(normalized(s) * 100) };
}

/**
 * Spec 2.7 / 5 "certificate hides points when max score is 1". Without a max score there are no
 * points to show either.
 */
export function showPointsOnCertificate(maxScore: number | null | undefined): boolean {
  return typeof maxScore === "number" && !Number.isNaN(maxScore) && maxScore !== 1;
}

// ---------------------------------------------------------------------------------------------
// Spec 5: durations and file sizes
// ---------------------------------------------------------------------------------------------

/** Spec 5 "Durations are shown in minutes rounded up from seconds." Invalid or negative → 0. */
export function durationMinutes(seconds: number | null | undefined): number {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.ceil(seconds / 60);
}

const SIZE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/**
 * Spec 5 "file sizes in B, KB, MB, GB, TB with 2 decimals above bytes" (base 1024): 512 → "512 B",
 * 1536 → "1.50 KB". A value that would round to 1024.00 moves to the next unit; TB is the largest.
 * Invalid, negative or infinite input → "0 B".
 */
export function formatFileSize(bytes: number | null | undefined): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes) || bytes <= 0) return "0 B";
  const whole = Math.round(bytes);
  if (whole < 1024) return `${whole} B`;
  let value = bytes;
  let unit = 0;
  while (unit < SIZE_UNITS.length - 1 && Number(value.toFixed(2)) >= 1024) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)} ${SIZE_UNITS[unit]}`;
}

// ---------------------------------------------------------------------------------------------
// Spec 5: certificates
// ---------------------------------------------------------------------------------------------

function toTime(value: string | Date | null | undefined): number {
  if (value === null || value === undefined) return Number.NaN;
  return (value instanceof Date ? value : new Date(value)).getTime();
}

/**
 * Spec 5 "Certificate is expired when the expiration date is now or past." No expiration date
 * means it never expires; an unparseable date is treated as not expired.
 */
export function isCertificateExpired(expirationDate: string | Date | null | undefined, now: string | Date): boolean {
  const exp = toTime(expirationDate);
  const current = toTime(now);
  if (Number.isNaN(exp) || Number.isNaN(current)) return false;
  return exp <= current;
}
