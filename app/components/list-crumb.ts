import type { ListSlug } from "~/common/lists";

/** The first crumb of a course page: the list, linked. */
export function listCrumb(slug: ListSlug, t: (k: string) => string) {
  return {
    slug,
    label: t(`breadcrumbs.${slug}`),
    href: slug === "catalog-list" ? "/learn/catalog" : "/learn/courses",
  };
}
