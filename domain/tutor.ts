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
