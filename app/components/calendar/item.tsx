import { useTranslation } from "~/common/i18n";
import type { ItemView } from "~/common/views/calendar";

/**
 * One calendar item: a link to its activity or course that says what it is and when, then what the
 * learner should know — overdue, handed in, locked and why (spec 4.12), where and how to join.
 * Its links are plain ones: the page around it navigates and prefetches for them (`useDelegatedLinks`,
 * decision 045) — a month lists each item twice, the dashboard a dozen.
 */
export function CalendarItemEntry({ item, variant }: { item: ItemView; variant: "cell" | "day" | "list" }) {
  const compact = variant === "cell";
  const { t } = useTranslation();
  const kind = t(`calendar.kinds.${item.kind}`);
  const time = item.time ?? (item.continuesBefore ? t("calendar.continued") : t("calendar.allDay"));
  return (
    <li
      className={`cal-item cal-item--${item.kind}${item.overdue ? " cal-item--overdue" : ""}${item.lock ? " cal-item--locked" : ""}`}
    >
      <a href={item.href} className="cal-item__link" data-discover="true">
        <span className="cal-item__time">{variant === "list" ? item.when : time}</span>{" "}
        <span className="cal-item__kind">{kind}:</span> <span className="cal-item__title">{item.title}</span>
        {item.title !== item.course ? <span className="cal-item__course"> · {item.course}</span> : null}
      </a>
      {compact ? null : (
        <span className="cal-item__meta">
          {item.overdue ? <span className="tag tag--overdue">{t("calendar.overdue")}</span> : null}
          {item.done ? (
            <span className="tag">{t(item.kind === "reinforcementDue" ? "calendar.answered" : "calendar.done")}</span>
          ) : null}
          {item.mandatory ? <span className="tag tag--mandatory">{t("courses.mandatory")}</span> : null}
          {item.continuesAfter ? <span className="cal-item__continues">{t("calendar.continues")}</span> : null}
          {item.lock ? (
            <span className="cal-item__lock">
              {t("calendar.locked", { reason: t(item.lock.key, { date: item.lock.date ?? "" }) })}
            </span>
          ) : null}
          {item.location ? <span className="cal-item__where">{item.location}</span> : null}
          {item.url ? (
            <a className="cal-item__join" href={item.url} target="_blank" rel="noopener noreferrer">
              {t("calendar.join")}
              <span className="visually-hidden"> ({item.title})</span>
            </a>
          ) : null}
        </span>
      )}
      {!compact && item.question ? (
        <div className="cal-item__question">
          <p className="cal-item__question-text">{item.question.text}</p>
          {item.question.options.length > 0 ? (
            <>
              <p className="cal-item__answer-label" id={`answers-${item.id.replace(/\W/g, "-")}`}>
                {t("calendar.answerOptions")}
              </p>
              <ul className="cal-item__options" aria-labelledby={`answers-${item.id.replace(/\W/g, "-")}`}>
                {item.question.options.map((o) => (
                  <li key={o.href}>
                    <a href={o.href} data-discover="true">
                      {o.text}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
      {compact && item.overdue ? <span className="visually-hidden">{t("calendar.overdue")}</span> : null}
    </li>
  );
}
