import { redirect, useLoaderData } from "react-router";
import { safeTarget } from "~/services/auth.server";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.open-catalog._index";

import { canonicalOrRedirect, catalogListData, knownFilterValues, listQuery } from "~/services/course-lists.server";
import { stripNonCatalogParams } from "~/services/catalog.server";
import { publicLms } from "~/services/user.server";
import { appConfig } from "~/services/config.server";
import { CatalogList } from "~/components/course-list-page";
import { endpoints } from "#domain/contract/endpoints";

export const handle = {
  title: (_: unknown, t: (k: string) => string) => t("openCatalog.title"),
  breadcrumb: (_: unknown, t: (k: string) => string) => ({
    slug: "catalog-list",
    label: t("breadcrumbs.catalog-list"),
    href: "/learn/open-catalog",
  }),
};

/** /learn/open-catalog (spec 2.1, 7.2): the public catalog; no sign-in and no user fetch (spec 6). */
export async function loader({ url, context }: Route.LoaderArgs) {
  const stripped = stripNonCatalogParams(url);
  if (stripped) throw redirect(safeTarget(stripped.pathname + stripped.search, appConfig(context)));
  const lms = publicLms(context);
  const [collections, categories] = await Promise.all([
    lms.get(endpoints.openCatalogShowcases),
    lms.get(endpoints.openCatalogFilterCategories),
  ]);
  const { filters } = await canonicalOrRedirect(
    url,
    knownFilterValues(collections.data, categories),
    appConfig(context),
  );
  const list = await lms.get(
    endpoints.openCatalogObjectives,
    listQuery(filters, { search: filters.keyword || undefined }),
  );
  return catalogListData(
    list.data.map((o) => ({
      id: o.id,
      name: o.name,
      language: o.language ?? null,
      code: o.code,
      imageUrl: o.imageUrl,
      href: `/learn/open-catalog/${o.id}/view/details`,
      collections: o.showcases.map((s) => s.name),
      description: o.description,
    })),
    list.totalCount,
    filters,
    collections.data,
    categories,
  );
}

export default function OpenCatalog() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return <CatalogList d={d} title={t("openCatalog.title")} clearHref="/learn/open-catalog" />;
}
