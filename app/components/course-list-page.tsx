import { useLocation } from "react-router";
import { useTranslation } from "~/common/i18n";
import { PAGE_SIZE } from "~/common/constants";
import type { CourseCardView } from "~/common/views/course-card";
import { CardGrid, CourseCard } from "./course-card";
import { CollectionChips, FilterDrawer, Pagination, SearchBox, type FilterSection } from "./course-filters";

/** What every list of courses shows around its cards (spec 2.3, 2.4). */
export interface CourseListData {
  cards: CourseCardView[];
  total: number;
  page: number;
  keyword: string;
  activeCount: number;
  collections: { id: string; name: string }[];
}

/**
 * A list of courses (My courses, the catalog, the open catalog): heading, search, the filter drawer
 * (only with filters to offer), collection chips, the count, the cards or `empty`, and pagination.
 */
export function CourseListPage({
  d,
  title,
  searchLabel,
  sections,
  clearHref,
  empty,
}: {
  d: CourseListData;
  title: string;
  searchLabel: string;
  sections: FilterSection[];
  clearHref: string;
  /** What an empty page says: the screen's own text, or the search's when one is active. */
  empty: React.ReactNode;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const searching = d.keyword.length > 0 || d.activeCount > 0;
  return (
    <div className="course-list">
      <h1>{title}</h1>
      <div className="course-list__toolbar">
        <SearchBox params={params} label={searchLabel} />
        <FilterDrawer params={params} sections={sections} activeCount={d.activeCount} clearHref={clearHref} />
      </div>
      <CollectionChips params={params} collections={d.collections} />
      <p className="course-list__count" role="status">
        {t("courses.count", { count: d.total })}
      </p>
      {d.cards.length === 0 ? (
        searching ? (
          <div className="empty-state">
            <h2>{t("courses.emptySearchTitle")}</h2>
            <p>{t("courses.emptySearchText")}</p>
          </div>
        ) : (
          <div className="empty-state">{empty}</div>
        )
      ) : (
        <CardGrid>
          {d.cards.map((card, i) => (
            <CourseCard key={card.id} card={card} index={(d.page - 1) * PAGE_SIZE + i} />
          ))}
        </CardGrid>
      )}
      <Pagination params={params} page={d.page} total={d.total} pageSize={PAGE_SIZE} />
    </div>
  );
}

export interface CatalogListData extends CourseListData {
  categories: { id: string; name: string; attributes: { id: string; name: string }[]; selected: string[] }[];
  selectedCollections: string[];
}

/** The catalog and the open catalog: filters by collection and by category. */
export function CatalogList({ d, title, clearHref }: { d: CatalogListData; title: string; clearHref: string }) {
  const { t } = useTranslation();
  const sections: FilterSection[] = [
    {
      param: "collection",
      label: t("coursesFilterDrawer.collection"),
      options: d.collections.map((o) => ({ value: o.id, label: o.name })),
      selected: d.selectedCollections,
    },
    ...d.categories.map((c) => ({
      param: `category[${c.id}]`,
      label: c.name,
      options: c.attributes.map((a) => ({ value: a.id, label: a.name })),
      selected: c.selected,
    })),
  ].filter((s) => s.options.length > 0);
  return (
    <CourseListPage
      d={d}
      title={title}
      searchLabel={t("catalog.searchLabel")}
      sections={sections}
      clearHref={clearHref}
      empty={
        <>
          <h2>{t("catalog.emptyTitle")}</h2>
          <p>{t("catalog.emptyText")}</p>
        </>
      }
    />
  );
}
