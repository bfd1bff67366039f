/** Spec 2.2: breadcrumbs inside a course start with the list the learner came from. */
export type ListSlug = "catalog-list" | "courses-list";
export const LISTS: readonly ListSlug[] = ["catalog-list", "courses-list"];

/** The first crumb of a course page: the list, linked. */
export function listCrumb(slug: ListSlug, t: (k: string) => string) {
  return {
    slug,
    label: t(`breadcrumbs.${slug}`),
    href: slug === "catalog-list" ? "/learn/catalog" : "/learn/courses",
  };
}
