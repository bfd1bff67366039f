/** What a grading page shows of the work it grades: the learner and the activity. */
interface GradedWork {
  learner: { name: string };
  activity: { name: string };
}

const label = (w: GradedWork) => `${w.learner.name} · ${w.activity.name}`;

/** The title and breadcrumb of a page that grades one piece of work (a hand-in, a test's answers). */
export const gradingItemHandle = {
  title: (d: { item?: GradedWork } | undefined, t: (k: string) => string) =>
    d?.item ? `${label(d.item)} | ${t("grading.title")}` : t("grading.title"),
  breadcrumb: (d: { item?: GradedWork } | undefined, t: (k: string) => string) => [
    { label: t("grading.title"), href: "/learn/grading" },
    ...(d?.item ? [{ label: label(d.item) }] : []),
  ],
};
