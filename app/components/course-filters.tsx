import { PRIORITY_VALUES, PROGRESS_VALUES } from "#domain/vocabulary";
import { useEffect, useRef } from "react";
import { Form, Link, useHref, useNavigation, useSubmit } from "react-router";
import { useDelegatedLinks } from "./delegated-links";
import { useTranslation } from "~/common/i18n";

export interface FilterSection {
  /** Query parameter name, e.g. "collection" or "category[<id>]". */
  param: string;
  label: string;
  options: { value: string; label: string }[];
  selected: string[];
}

type Named = { id: string; name: string };

/** What a loader gives of My courses' filters (spec 2.3): the options it read and the values chosen. */
export interface CourseFilterChoices {
  collection: { options: Named[]; selected: string[] };
  term: { options: Named[]; selected: string[] };
  courseProgress: { selected: string[] };
  coursePriority: { selected: string[] };
  categories: (Named & { attributes: Named[]; selected: string[] })[];
}

/** The filter drawer's sections of My courses, and of Grades, which filters the same way. */
export function myCoursesFilterSections(d: CourseFilterChoices, t: (key: string) => string): FilterSection[] {
  const sections: FilterSection[] = [
    {
      param: "collection",
      label: t("coursesFilterDrawer.collection"),
      options: d.collection.options.map((o) => ({ value: o.id, label: o.name })),
      selected: d.collection.selected,
    },
    {
      param: "term",
      label: t("coursesFilterDrawer.term"),
      options: d.term.options.map((o) => ({ value: o.id, label: o.name })),
      selected: d.term.selected,
    },
    {
      param: "courseProgress",
      label: t("coursesFilterDrawer.progress"),
      options: PROGRESS_VALUES.map((v) => ({ value: v, label: t(`coursesFilterDrawer.progressValues.${v}`) })),
      selected: d.courseProgress.selected,
    },
    {
      param: "coursePriority",
      label: t("coursesFilterDrawer.priority"),
      options: PRIORITY_VALUES.map((v) => ({ value: v, label: t(`coursesFilterDrawer.priorityValues.${v}`) })),
      selected: d.coursePriority.selected,
    },
    ...d.categories.map((c) => ({
      param: `category[${c.id}]`,
      label: c.name,
      options: c.attributes.map((a) => ({ value: a.id, label: a.name })),
      selected: c.selected,
    })),
  ];
  return sections.filter((s) => s.options.length > 0);
}

const SEARCH_DEBOUNCE_MS = 500;

/** Hidden inputs carrying the current filters through a GET form. */
function Carry({ params, skip }: { params: URLSearchParams; skip: (name: string) => boolean }) {
  return (
    <>
      {[...params.entries()]
        .filter(([k]) => !skip(k))
        .map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
    </>
  );
}

/**
 * Spec 2.3 / 5 search: a GET form with a submit button (no JavaScript); with JavaScript the text is
 * lowercased, left-trimmed and applied after a 500 ms pause, mirrored to `keyword`.
 */
export function SearchBox({ params, label }: { params: URLSearchParams; label: string }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const keyword = params.get("keyword") ?? "";
  return (
    <Form method="get" role="search" className="search-box" aria-label={label}>
      <Carry params={params} skip={(k) => k === "keyword" || k === "page"} />
      <label htmlFor="course-search" className="visually-hidden">
        {label}
      </label>
      <input
        id="course-search"
        type="search"
        name="keyword"
        defaultValue={keyword}
        key={keyword}
        maxLength={200}
        placeholder={t("courses.searchPlaceholder")}
        autoComplete="off"
        onChange={(e) => {
          const form = e.currentTarget.form;
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            if (!form) return;
            const data = new FormData(form);
            const text = String(data.get("keyword") ?? "")
              .toLowerCase()
              .replace(/^\s+/, "");
            data.set("keyword", text);
            if (!text) data.delete("keyword");
            submit(data, { method: "get", replace: true, preventScrollReset: true });
          }, SEARCH_DEBOUNCE_MS);
        }}
      />
      <button type="submit" className="button">
        {t("courses.searchButton")}
      </button>
    </Form>
  );
}

/**
 * Collection chips: links that toggle one collection in the URL. Plain links, navigated in the app by
 * the list's handlers (decision 045), keeping the scroll position.
 */
export function CollectionChips({
  params,
  collections,
}: {
  params: URLSearchParams;
  collections: { id: string; name: string }[];
}) {
  const { t } = useTranslation();
  // This page's path, as a `<Link to="?…">` resolves it: once for all the chips.
  const here = useHref("");
  const { handlers } = useDelegatedLinks({ prefetch: false });
  if (collections.length === 0) return null;
  const selected = new Set((params.get("collection") ?? "").split(",").filter(Boolean));
  return (
    <nav aria-label={t("courses.collections")} className="chips" {...handlers}>
      <ul>
        {collections.map((c) => {
          const next = new URLSearchParams(params);
          const set = new Set(selected);
          if (set.has(c.id)) set.delete(c.id);
          else set.add(c.id);
          if (set.size) next.set("collection", [...set].join(","));
          else next.delete("collection");
          next.delete("page");
          const on = selected.has(c.id);
          return (
            <li key={c.id}>
              <a
                className={`chip ${on ? "chip--on" : ""}`}
                href={next.size ? `${here}?${next}` : here}
                aria-current={on ? "true" : undefined}
                data-prevent-scroll-reset=""
                data-discover="true"
              >
                {on ? <span aria-hidden="true">✓ </span> : null}
                {c.name}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * Spec 2.3 filter drawer: title, close, clear filters (disabled when none is set), sections sorted by
 * label, badge with the number of active filters. A popover opened declaratively (works without
 * JavaScript); with JavaScript keyboard focus is trapped inside while it is open.
 */
export function FilterDrawer({
  params,
  sections,
  activeCount,
  clearHref,
}: {
  params: URLSearchParams;
  sections: FilterSection[];
  activeCount: number;
  clearHref: string;
}) {
  const { t, i18n } = useTranslation();
  const panel = useRef<HTMLDivElement>(null);
  const navigation = useNavigation();
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const focusables = () => [
      ...el.querySelectorAll<HTMLElement>("button:not([disabled]), a[href], input, [tabindex]:not([tabindex='-1'])"),
    ];
    const onToggle = (e: Event) => {
      if ((e as ToggleEvent).newState === "open") focusables()[0]?.focus();
      else document.getElementById("filter-drawer-button")?.focus();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Tab") return;
      const list = focusables();
      if (list.length === 0) return;
      const first = list[0];
      const last = list[list.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    el.addEventListener("toggle", onToggle);
    el.addEventListener("keydown", onKey);
    return () => {
      el.removeEventListener("toggle", onToggle);
      el.removeEventListener("keydown", onKey);
    };
  }, []);
  useEffect(() => {
    if (navigation.state === "loading") {
      try {
        panel.current?.hidePopover();
      } catch {
        // not open
      }
    }
  }, [navigation.state]);
  if (sections.length === 0) return null;
  // Sorted in the page's language, not the runtime's: a browser set to Arabic sorted these otherwise than
  // the server and React threw away the server's page (hydration error #418; issue 25 item 3).
  const sorted = [...sections].sort((a, b) => a.label.localeCompare(b.label, i18n.language));
  return (
    <>
      <button
        type="button"
        id="filter-drawer-button"
        className="button filter-button"
        popoverTarget="filter-drawer"
        aria-haspopup="dialog"
      >
        {t("coursesFilterDrawer.open")}
        {activeCount > 0 ? (
          <span className="badge" aria-label={t("coursesFilterDrawer.activeCount", { count: activeCount })}>
            {activeCount}
          </span>
        ) : null}
      </button>
      <div
        id="filter-drawer"
        popover="auto"
        ref={panel}
        className="drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby="filter-drawer-title"
      >
        {/* Keyed by the query: the checkboxes are uncontrolled, so a client navigation (chips, Clear filters) must re-create them. */}
        <Form method="get" className="drawer__form" key={params.toString()}>
          <div className="drawer__header">
            <h2 id="filter-drawer-title">{t("coursesFilterDrawer.title")}</h2>
            <button
              type="button"
              className="drawer__close"
              popoverTarget="filter-drawer"
              popoverTargetAction="hide"
              aria-label={t("coursesFilterDrawer.close")}
            >
              ×
            </button>
          </div>
          {params.get("keyword") ? <input type="hidden" name="keyword" value={params.get("keyword") ?? ""} /> : null}
          <div className="drawer__sections">
            {sorted.map((s) => (
              <fieldset key={s.param} className="drawer__section">
                <legend>{s.label}</legend>
                {s.options.map((o) => (
                  <label key={o.value} className="checkbox">
                    <input
                      type="checkbox"
                      name={s.param}
                      value={o.value}
                      defaultChecked={s.selected.includes(o.value)}
                    />
                    <span>{o.label}</span>
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
          <div className="drawer__footer">
            {activeCount > 0 ? (
              <Link className="button" to={clearHref}>
                {t("coursesFilterDrawer.clear")}
              </Link>
            ) : (
              <button type="button" className="button" disabled>
                {t("coursesFilterDrawer.clear")}
              </button>
            )}
            <button type="submit" className="button button--primary">
              {t("coursesFilterDrawer.apply")}
            </button>
          </div>
        </Form>
      </div>
    </>
  );
}

/** Page links that work without JavaScript; with it the list's handlers navigate in the app (decision 045). */
export function Pagination({
  params,
  page,
  total,
  pageSize,
  param = "page",
}: {
  params: URLSearchParams;
  page: number;
  total: number;
  pageSize: number;
  /** The query parameter that holds the page (a second list on a page has its own). */
  param?: string;
}) {
  const { t } = useTranslation();
  // This page's path, as a `<Link to="?…">` resolves it: once for all the page links.
  const here = useHref("");
  const { handlers } = useDelegatedLinks({ prefetch: false });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (p: number) => {
    const next = new URLSearchParams(params);
    if (p > 1) next.set(param, String(p));
    else next.delete(param);
    return next.size ? `${here}?${next}` : here;
  };
  const window = [...new Set([1, page - 1, page, page + 1, pages].filter((p) => p >= 1 && p <= pages))].sort(
    (a, b) => a - b,
  );
  return (
    <nav aria-label={t("pagination.label")} className="pagination" {...handlers}>
      <ul>
        <li>
          {page > 1 ? (
            <a href={href(page - 1)} rel="prev" data-discover="true">
              {t("pagination.previous")}
            </a>
          ) : (
            <span aria-disabled="true">{t("pagination.previous")}</span>
          )}
        </li>
        {window.map((p, i) => (
          <li key={p}>
            {i > 0 && p - window[i - 1] > 1 ? <span aria-hidden="true">… </span> : null}
            {p === page ? (
              <span aria-current="page">{p}</span>
            ) : (
              <a href={href(p)} aria-label={t("pagination.page", { page: p })} data-discover="true">
                {p}
              </a>
            )}
          </li>
        ))}
        <li>
          {page < pages ? (
            <a href={href(page + 1)} rel="next" data-discover="true">
              {t("pagination.next")}
            </a>
          ) : (
            <span aria-disabled="true">{t("pagination.next")}</span>
          )}
        </li>
      </ul>
    </nav>
  );
}
