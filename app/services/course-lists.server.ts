/** The lists of courses — My courses, the catalog, the open catalog: their filters, cards and "Add to my courses". */
import { redirect } from "react-router";
import { isTooManyRequests, tooManyRequestsToast } from "./command-errors.server";
import { safeTarget } from "./auth.server";
import type { Aggregate, ObjectiveAccess, ObjectiveAccessDetail } from "#domain/contract/courses";
import {
  countActiveFilters,
  courseCardFooter,
  courseCardLink,
  type CourseCardFooter,
  validateCourseFilters,
  type CourseFilters,
  type KnownFilterValues,
} from "#domain/courses";
import type { FilterNode } from "#domain/filter-expression/fields";
import { formatFilter } from "#domain/filter-expression/format";
import { clampProgress } from "#domain/courses";
import { workflowStateLabelKey } from "#domain/lifecycle";
import type { LmsClient } from "./lms.server";
import { LmsError } from "./lms.server";
import type { DateFormatter } from "./format.server";
import type { AppConfig } from "./config.server";
import type { CardAggregate, Category, Named } from "#domain/contract/courses";
import type { CourseCardView } from "~/common/views/course-card";
import { redirectWithToast, type Toast } from "./toast.server";

import { PAGE_SIZE } from "~/common/constants";
import { endpoints } from "#domain/contract/endpoints";

/** Spec 2.4/5: unknown filter values are dropped with a toast and the URL rewritten (a redirect). */
export async function canonicalOrRedirect(
  url: URL,
  known: KnownFilterValues,
  config: AppConfig,
  extraToast?: Toast,
): Promise<{ filters: CourseFilters }> {
  const result = validateCourseFilters(url.searchParams, known);
  if (result.changed) {
    const toasts: Toast[] = result.toasts.map(
      (key) => ({ type: key === "accountCreated" ? "success" : "info", key }) as Toast,
    );
    if (extraToast) toasts.push(extraToast);
    const q = result.canonical.toString();
    const target = safeTarget(`${url.pathname}${q ? `?${q}` : ""}`, config);
    throw toasts.length ? await redirectWithToast(target, toasts, config, { status: 302 }) : redirect(target);
  }
  return { filters: result.filters };
}

/** The aggregates filter the app sends (spec 7.2): search, progress, priority and term. */
export function aggregatesFilter(filters: CourseFilters): string | undefined {
  const parts: FilterNode[] = [];
  if (filters.keyword)
    parts.push({ kind: "cmp", field: "objective.name", op: "contains", value: filters.keyword.trim() });
  const progress: FilterNode[] = [];
  for (const p of filters.courseProgress) {
    if (p === "notStarted")
      progress.push({
        kind: "and",
        children: [
          { kind: "null", field: "lastObjectiveWorkflow.state", negated: false },
          { kind: "null", field: "lastObjectiveRecord", negated: false },
        ],
      });
    if (p === "inProgress") progress.push({ kind: "in", field: "lastObjectiveWorkflow.state", values: [1, 3, 5] });
    if (p === "completed")
      progress.push({
        kind: "or",
        children: [
          { kind: "cmp", field: "lastObjectiveWorkflow.state", op: "eq", value: 6 },
          {
            kind: "and",
            children: [
              { kind: "null", field: "lastObjectiveWorkflow.state", negated: false },
              { kind: "null", field: "lastObjectiveRecord", negated: true },
            ],
          },
        ],
      });
  }
  if (progress.length === 1) parts.push(progress[0]);
  if (progress.length > 1) parts.push({ kind: "or", children: progress });
  if (filters.coursePriority.length === 1)
    parts.push({ kind: "cmp", field: "isMandatory", op: "eq", value: filters.coursePriority[0] === "mandatory" });
  if (filters.term.length) parts.push({ kind: "in", field: "termId", values: filters.term });
  if (parts.length === 0) return undefined;
  return formatFilter(parts.length === 1 ? parts[0] : { kind: "and", children: parts });
}

export function listQuery(filters: CourseFilters, extra: Record<string, string | undefined> = {}) {
  const showcase = filters.collection;
  const filterAttribute = Object.entries(filters.category).map(([cat, attrs]) => `${cat}:${attrs.join(",")}`);
  return {
    sort: "objective.name",
    skip: String((filters.page - 1) * PAGE_SIZE),
    take: String(PAGE_SIZE),
    requireTotalCount: "true",
    ...(showcase.length ? { showcase } : {}),
    ...(filterAttribute.length ? { filterAttribute } : {}),
    ...extra,
  };
}

/**
 * A My courses card as the page shows it. Its footer (spec 4.11) is the text itself, in the learner's
 * language: one string per card for the page's data rather than the footer's parts (decision 045).
 */
export function toCourseCard(a: CardAggregate, fmt: DateFormatter, t: Translate): CourseCardView {
  return {
    id: a.objective.id,
    name: a.objective.name,
    language: a.objective.language ?? null,
    code: a.objective.code,
    imageUrl: a.objective.imageUrl,
    href: courseCardLink(a),
    progress: clampProgress(a.lastObjectiveWorkflow?.progress ?? a.lastObjectiveRecord?.progress ?? 0),
    mandatory: a.isMandatory,
    collections: a.objective.showcases.map((s) => s.name),
    footer: courseCardFooterText(courseCardFooter(a), a.lastObjectiveWorkflow?.state ?? null, fmt, t),
  };
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Spec 4.11: the footer's text, its date in the learner's time zone. */
export function courseCardFooterText(
  footer: CourseCardFooter,
  state: Parameters<typeof workflowStateLabelKey>[0],
  fmt: DateFormatter,
  t: Translate,
): string {
  const date = "date" in footer ? fmt.date(footer.date) : null;
  switch (footer.kind) {
    case "availableFrom":
      return t("courseCard.availableFrom", { date });
    case "notStarted":
      return t("courseCard.notStarted");
    case "submitted":
      return t("courseCard.submitted", { date, progress: Math.round(footer.progress * 100) });
    case "started":
      return t("courseCard.started", { date, progress: Math.round(footer.progress * 100) });
    case "completed":
      return date ? t("courseCard.completed", { date }) : t("workflowState.finished");
    case "due":
      return date ? t("courseCard.due", { date }) : t(workflowStateLabelKey(state));
  }
}

export function toCatalogCard(a: ObjectiveAccess): CourseCardView {
  return {
    id: a.objective.id,
    name: a.objective.name,
    language: a.objective.language ?? null,
    code: a.objective.code,
    imageUrl: a.objective.imageUrl,
    href: `/learn/catalog/${a.objective.id}`,
    enrolled: a.enrolled,
    collections: a.objective.showcases.map((s) => s.name),
    description: a.objective.description,
  };
}

const ENROL_WAIT_ATTEMPTS = 15;
const ENROL_WAIT_MS = 1500;

export type EnrolResult =
  | { ok: true; name: string; aggregate: Aggregate }
  | { ok: false; reason: "notFound" }
  | {
      ok: false;
      reason: "refused";
      message: { code: string; message: string; params?: Record<string, string | number> } | null;
    }
  | { ok: false; reason: "aggregateTimeout"; name: string };

/**
 * Spec 4.14 / 4.3 'Add to my courses': create the self-enrolment (respond-sync), then wait for the
 * aggregate (up to 15 attempts, 1500 ms apart). `commandId` makes a double submit one enrolment; a
 * function derives it from the course's access (the occflow link's stable id). An answer for another
 * course (a command id reused for a different enrolment) is refused at once, never waited for.
 */
export async function enrol(
  lms: LmsClient,
  objectiveId: string,
  commandId: string | ((objectiveAccessId: string) => Promise<string>),
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<EnrolResult> {
  let access: ObjectiveAccessDetail;
  try {
    access = await lms.get(endpoints.objectiveAccess(objectiveId));
  } catch (err) {
    if (err instanceof LmsError && err.status >= 400 && err.status < 500) return { ok: false, reason: "notFound" };
    throw err;
  }
  const id = typeof commandId === "string" ? commandId : await commandId(access.id);
  try {
    const created = await lms.command(endpoints.createSelfEnrollments, { id, objectiveAccessId: access.id });
    if (created.objectiveAccessId !== access.id || (created.objectiveId && created.objectiveId !== objectiveId))
      return { ok: false, reason: "refused", message: { code: "commandIdReused", message: "Command id reused." } };
  } catch (err) {
    if (err instanceof LmsError) {
      // Too many requests: the toast says when to try again (issue 29; its text has the seconds).
      const toast = isTooManyRequests(err) ? tooManyRequestsToast(err) : null;
      const message =
        toast?.values !== undefined
          ? { code: "tooManyRequestsIn", message: "Too many requests.", params: toast.values }
          : err.firstMessage();
      return { ok: false, reason: "refused", message };
    }
    throw err;
  }
  for (let attempt = 1; attempt <= ENROL_WAIT_ATTEMPTS; attempt++) {
    try {
      const aggregate = await lms.get(endpoints.objectiveAggregate(objectiveId));
      return { ok: true, name: access.objective.name, aggregate };
    } catch (err) {
      if (!(err instanceof LmsError)) throw err;
    }
    if (attempt < ENROL_WAIT_ATTEMPTS) await sleep(ENROL_WAIT_MS);
  }
  return { ok: false, reason: "aggregateTimeout", name: access.objective.name };
}

/**
 * A stable command id for one learner enrolling through one course access by an occflow link, so that
 * following the link twice is one enrolment. It is predictable, which is harmless: the API keeps command
 * ids per user (decision 018), so nobody else can claim it; and it names the access it enrols through,
 * so a changed access is a new command rather than a 409 for the old one's id.
 */
export async function occflowCommandId(
  userId: string,
  objectiveId: string,
  objectiveAccessId: string,
): Promise<string> {
  const key = `occflow:${userId}:${objectiveId}:${objectiveAccessId}`;
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))).slice(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The filter values a list page knows (spec 2.4: anything else in the URL is dropped). */
export function knownFilterValues(
  collections: Named[],
  categories: Category[],
  terms: Named[] = [],
): KnownFilterValues {
  return {
    collections: collections.map((c) => c.id),
    terms: terms.map((t) => t.id),
    categories: Object.fromEntries(categories.map((c) => [c.id, c.attributes.map((a) => a.id)])),
  };
}

/** What the catalog and the open catalog render around their cards. */
export function catalogListData(
  cards: CourseCardView[],
  totalCount: number,
  filters: CourseFilters,
  collections: Named[],
  categories: Category[],
) {
  return {
    cards,
    total: totalCount,
    page: filters.page,
    keyword: filters.keyword,
    activeCount: countActiveFilters(filters),
    collections,
    categories: categories.map((c) => ({ ...c, selected: filters.category[c.id] ?? [] })),
    selectedCollections: filters.collection,
  };
}
