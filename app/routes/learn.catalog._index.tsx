import { data, redirect, useLoaderData } from "react-router";
import { safeTarget } from "~/services/auth.server";
import { rememberList } from "~/services/breadcrumbs.server";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.catalog._index";

import { state } from "~/services/request.server";
import { enforceLearnerArea, requireFeature } from "~/services/user.server";
import {
  canonicalOrRedirect,
  catalogListData,
  knownFilterValues,
  listQuery,
  toCatalogCard,
} from "~/services/course-lists.server";
import { stripNonCatalogParams } from "~/services/catalog.server";
import { CatalogList } from "~/components/course-list-page";
import { endpoints, type Endpoint } from "#domain/contract/endpoints";

export const handle = {
  title: (_: unknown, t: (k: string) => string) => t("catalog.title"),
  breadcrumb: (_: unknown, t: (k: string) => string) => ({
    slug: "catalog-list",
    label: t("breadcrumbs.catalog-list"),
    href: "/learn/catalog",
  }),
};

/** /learn/catalog (spec 2.1, 7.2): courses the learner can add, with search and filters. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.shell();
  // Spec 2.1: catalog paths are public paths; visitors see the open catalog instead.
  if (!shell) throw redirect(`/learn/open-catalog${url.search}`);
  // Spec 2.1: the catalog is a learner-only path — others leave as from every learner page.
  enforceLearnerArea(shell, s.config);
  requireFeature(shell, "catalog");
  const stripped = stripNonCatalogParams(url);
  if (stripped) throw redirect(safeTarget(stripped.pathname + stripped.search, s.config));
  const lms = await s.lms();
  const get = <T,>(endpoint: Endpoint<T>) => s.cachedGet(lms, endpoint);
  const [collections, categories] = await Promise.all([
    get(endpoints.catalogShowcases),
    get(endpoints.catalogFilterCategories),
  ]);
  const { filters } = await canonicalOrRedirect(url, knownFilterValues(collections.data, categories), s.config);
  const [list, remember] = await Promise.all([
    lms.get(endpoints.objectiveAccesses, listQuery(filters, { search: filters.keyword || undefined })),
    rememberList(request, "catalog-list", s.config),
  ]);
  return data(catalogListData(list.data.map(toCatalogCard), list.totalCount, filters, collections.data, categories), {
    headers: remember ? { "Set-Cookie": remember } : undefined,
  });
}

export default function Catalog() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return <CatalogList d={d} title={t("catalog.title")} clearHref="/learn/catalog" />;
}
