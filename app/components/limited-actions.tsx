import { useEffect, useRef } from "react";
import { useTranslation } from "~/common/i18n";

/** Spec 9: "Header actions limit default 2" — more actions than this go into a "More actions" menu. */
const HEADER_ACTIONS_LIMIT = 2;

export interface Action {
  key: string;
  node: React.ReactNode;
}

/**
 * A page's actions, the first `limit` shown and the rest in a "More actions" disclosure (a plain
 * <details>: it opens and its forms post without JavaScript). With JavaScript, Escape closes it and
 * gives the focus back to its button. Pass only the actions that are visible, most important first.
 */
export function LimitedActions({ actions, limit = HEADER_ACTIONS_LIMIT }: { actions: Action[]; limit?: number }) {
  const { t } = useTranslation();
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const el = menu.current;
    if (!el) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !el.open) return;
      el.open = false;
      el.querySelector("summary")?.focus();
    };
    el.addEventListener("keydown", onKey);
    return () => el.removeEventListener("keydown", onKey);
  }, []);
  const shown = actions.slice(0, limit);
  const more = actions.slice(limit);
  return (
    <>
      {shown.map((a) => (
        <div key={a.key} className="limited-actions__item">
          {a.node}
        </div>
      ))}
      {more.length ? (
        <details className="more-actions" ref={menu}>
          <summary className="button">{t("finish.moreActions")}</summary>
          <div className="more-actions__panel">
            {more.map((a) => (
              <div key={a.key} className="limited-actions__item">
                {a.node}
              </div>
            ))}
          </div>
        </details>
      ) : null}
    </>
  );
}
