/** Spec 2.2: breadcrumbs inside a course start with the list the learner came from. */
export type ListSlug = "catalog-list" | "courses-list";

export const LISTS: readonly ListSlug[] = ["catalog-list", "courses-list"];
