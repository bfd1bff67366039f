/**
 * The AI tutor's rules (spec 1, 2.11, 3 learner.tutor; issue 16 items 4–6; decision 028). Pure.
 */

/** Longest question, in characters after trimming. */
export const TUTOR_QUESTION_MAX = 1000;

/** Spec 3: the widget shows when the tenant allows the tutor and the course enables it. */
export function tutorAvailable(tenant: { enabled: boolean }, course: { enableAiTutor: boolean }): boolean {
  return tenant.enabled && course.enableAiTutor;
}

/** Spec 3 widgetSettings: whether the widget starts expanded on this course (collapsed by default). */
export function tutorInitiallyExpanded(
  widgetSettings: readonly { objectiveId: string; initialExpanded: boolean }[],
  objectiveId: string,
): boolean {
  return widgetSettings.find((w) => w.objectiveId === objectiveId)?.initialExpanded ?? false;
}

/** Spec 3 widgetSettings: one entry per course. */
export interface TutorWidgetSetting {
  objectiveId: string;
  initialExpanded: boolean;
}

/**
 * Spec 2.11 / 3, issue 16 item 4: the tutor widget on a course's pages — hidden unless the tenant's
 * `learner.tutor.enabled` and the course's `enableAiTutor` allow it for an enrolled learner; then expanded
 * as the learner last left it on this course (`remembered`), else as `widgetSettings` says (collapsed when
 * the course has no entry).
 */
export function tutorWidgetState(input: {
  tenant: { enabled: boolean; widgetSettings: readonly TutorWidgetSetting[] };
  course: { id: string; enableAiTutor: boolean };
  enrolled: boolean;
  remembered: boolean | undefined;
}): "hidden" | "collapsed" | "expanded" {
  if (!input.enrolled || !tutorAvailable(input.tenant, input.course)) return "hidden";
  const expanded = input.remembered ?? tutorInitiallyExpanded(input.tenant.widgetSettings, input.course.id);
  return expanded ? "expanded" : "collapsed";
}

/**
 * The cookie that remembers the learner's own expand / collapse of the widget per course (decision 028):
 * written by the page's script when the learner toggles, read by the server so the page comes back as it
 * was left, before any script runs. Value: `{objectiveId}.{1|0}` entries joined by `~`, newest last.
 */
export const TUTOR_WIDGET_COOKIE = "learn_tutor_widget";
/** Courses remembered at once (the oldest is dropped): 20 × 38 characters keeps the cookie under 800 bytes. */
const WIDGET_MEMORY_MAX = 20;
const WIDGET_ENTRY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([01])$/;

/** The remembered states in a cookie value; anything malformed is ignored. */
export function readTutorWidgetMemory(value: string | null | undefined): Map<string, boolean> {
  const memory = new Map<string, boolean>();
  for (const entry of (value ?? "").split("~")) {
    const m = WIDGET_ENTRY.exec(entry);
    if (!m) continue;
    memory.delete(m[1]);
    memory.set(m[1], m[2] === "1");
  }
  return memory;
}

/** The cookie value after the learner expanded (`true`) or collapsed the widget on a course. */
export function rememberTutorWidget(value: string | null | undefined, objectiveId: string, expanded: boolean): string {
  const memory = readTutorWidgetMemory(value);
  memory.delete(objectiveId.toLowerCase());
  memory.set(objectiveId.toLowerCase(), expanded);
  return [...memory]
    .slice(-WIDGET_MEMORY_MAX)
    .map(([id, open]) => `${id}.${open ? 1 : 0}`)
    .join("~");
}

/** PostgreSQL's text-search configurations per language (stemming, stop words); others use `simple`. */
const SEARCH_CONFIGS: Record<string, string> = {
  en: "english",
  de: "german",
  fr: "french",
  es: "spanish",
  it: "italian",
  nl: "dutch",
  pt: "portuguese",
  ru: "russian",
  sv: "swedish",
  nb: "norwegian",
  da: "danish",
  fi: "finnish",
  hu: "hungarian",
  ro: "romanian",
  tr: "turkish",
};

/** The text-search configuration for a locale ("de", "pt-BR" → its language's; unknown → "simple"). */
export function searchConfigFor(locale: string | null | undefined): string {
  const language = (locale ?? "").toLowerCase().split("-")[0];
  return SEARCH_CONFIGS[language] ?? "simple";
}

/**
 * Where a tutor citation opens (issue 16 item 5): the content viewer at the cited activity, and for a PDF's
 * page at that page (`pdfPage`, which the viewer honours with and without JavaScript).
 */
export function citationHref(objectiveId: string, citation: { activityPathId: string; page?: number }): string {
  const page = citation.page === undefined ? "" : `&pdfPage=${citation.page}`;
  return `/learn/courses/${objectiveId}/view/content?activityPathId=${citation.activityPathId}${page}`;
}
