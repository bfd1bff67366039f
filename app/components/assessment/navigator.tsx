import { useEffect, type MouseEvent } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { AssessmentAttempt } from "#domain/contract/assessment";

export interface ItemMark {
  answered: boolean;
  flagged: boolean;
}

/** Moves the focus to a question of the page (its section), as a link to it would for a keyboard user. */
function focusQuestion(id: string) {
  const el = document.getElementById(id);
  if (!el) return false;
  if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
  el.focus();
  return true;
}

/**
 * Decision 057: every question of the test by page, each with "Answered" / "Not answered" and "Flagged for
 * review" in words (a mark beside them is decoration). A question of the page shown is a link to it
 * (the focus moves to it); of another open page, a link to that page at the question; in a linear part the
 * other pages are not links. `live` are the marks of the page's questions as the learner changes them.
 */
export function QuestionNavigator({
  pages,
  current,
  base,
  linear,
  live,
}: {
  pages: AssessmentAttempt["pages"];
  current: number | null;
  base: string;
  linear: boolean;
  live?: Record<string, ItemMark>;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  // A link from another page lands on the question: the focus goes there too.
  useEffect(() => {
    if (location.hash.startsWith("#item-")) focusQuestion(decodeURIComponent(location.hash.slice(1)));
  }, [location.hash, location.search]);
  const onHere = (e: MouseEvent<HTMLAnchorElement>, id: string) => {
    if (focusQuestion(id)) {
      e.preventDefault();
      window.history.replaceState(window.history.state, "", `#${id}`);
    }
  };
  const firstOf = pages.map((_, k) => pages.slice(0, k).reduce((sum, q) => sum + q.items.length, 0));
  return (
    <nav aria-label={t("assessment.navigator")} className="qti-nav">
      <ol className="qti-nav__pages">
        {pages.map((p) => (
          <li key={p.index}>
            {pages.length > 1 ? (
              <span className="qti-nav__page">{t("assessment.pageN", { n: p.index + 1 })}</span>
            ) : null}
            <ol className="qti-nav__items">
              {p.items.map((i, k) => {
                const n = firstOf[p.index]! + k + 1;
                const mark = (p.index === current && live?.[i.ref]) || i;
                const id = `item-${i.ref}`;
                const text = (
                  <>
                    <span aria-hidden="true" className="qti-nav__mark">
                      {mark.answered ? "●" : "○"}
                    </span>{" "}
                    {t("assessment.question", { n })}
                    {" · "}
                    <span className="qti-nav__state">
                      {mark.answered ? t("assessment.answered") : t("assessment.notAnswered")}
                    </span>
                    {mark.flagged ? (
                      <>
                        {" · "}
                        <span className="qti-nav__flag">{t("assessment.flagged")}</span>
                      </>
                    ) : null}
                  </>
                );
                return (
                  <li key={i.ref} className={mark.flagged ? "qti-nav__item qti-nav__item--flagged" : "qti-nav__item"}>
                    {p.index === current ? (
                      <a href={`#${id}`} onClick={(e) => onHere(e, id)}>
                        {text}
                      </a>
                    ) : !linear ? (
                      <Link to={`${base}?page=${p.index}#${id}`}>{text}</Link>
                    ) : (
                      <span>{text}</span>
                    )}
                  </li>
                );
              })}
            </ol>
          </li>
        ))}
      </ol>
    </nav>
  );
}
