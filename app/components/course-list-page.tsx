import { useLocation } from "react-router";
import { useTranslation } from "~/common/i18n";
import { PAGE_SIZE } from "~/common/constants";
import { CardGrid, CourseCard } from "./course-card";
import { CollectionChips, FilterDrawer, Pagination, SearchBox, type FilterSection } from "./course-filters";

export interface CatalogListData {
  cards: {
    id: string;
    name: string;
    language?: string | null;
    code: string;
    imageUrl: string | null;
    href: string;
    collections: string[];
    description: string;
    enrolled?: boolean;
  }[];
  total: number;
  page: number;
  keyword: string;
  activeCount: number;
  collections: { id: string; name: string }[];
  categories: { id: string; name: string; attributes: { id: string; name: string }[]; selected: string[] }[];
  selectedCollections: string[];
}

/** The catalog and the open catalog: search, collection chips, filter drawer (only if filters exist), cards. */
export function CatalogList({ d, title, clearHref }: { d: CatalogListData; title: string; clearHref: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
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
    <div className="course-list">
      <h1>{title}</h1>
      <div className="course-list__toolbar">
        <SearchBox params={params} label={t("catalog.searchLabel")} />
        <FilterDrawer params={params} sections={sections} activeCount={d.activeCount} clearHref={clearHref} />
      </div>
      <CollectionChips params={params} collections={d.collections} />
      <p className="course-list__count" role="status">
        {t("courses.count", { count: d.total })}
      </p>
      {d.cards.length === 0 ? (
        <div className="empty-state">
          <h2>{d.keyword || d.activeCount ? t("courses.emptySearchTitle") : t("catalog.emptyTitle")}</h2>
          <p>{d.keyword || d.activeCount ? t("courses.emptySearchText") : t("catalog.emptyText")}</p>
        </div>
      ) : (
        <CardGrid>
          {d.cards.map((card, i) => (
            <CourseCard
              key={card.id}
              index={(d.page - 1) * PAGE_SIZE + i}
              id={card.id}
              name={card.name}
              language={card.language}
              code={card.code}
              imageUrl={card.imageUrl}
              href={card.href}
              collections={card.collections}
              description={card.description}
              badge={card.enrolled ? <span className="cover-badge">{t("catalog.enrolled")}</span> : undefined}
            />
          ))}
        </CardGrid>
      )}
      <Pagination params={params} page={d.page} total={d.total} pageSize={PAGE_SIZE} />
    </div>
  );
}
