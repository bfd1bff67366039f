import { useRef, useState, type KeyboardEvent } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "~/common/i18n";
import { useHydrated } from "../use-hydrated";
import { CalendarItemEntry } from "./item";
import type { DayView } from "~/common/views/calendar";

/** How many items a day cell lists before "N more". */
const CELL_ITEMS = 3;

export interface MonthGridData {
  title: string;
  headers: { short: string; long: string }[];
  weeks: { id: string; number: number; href: string; days: DayView[] }[];
  prevHref: string;
  nextHref: string;
}

/**
 * The month: without JavaScript a plain table of weeks with links; with it, the ARIA grid
 * pattern — one day cell in the tab order, arrow keys move by day and week (mirrored right-to-left),
 * Home/End to the week's ends, Page Up/Down to the previous/next month, Enter into the day's items and
 * Escape back to the day.
 */
export function MonthGrid({ data, rtl }: { data: MonthGridData; rtl: boolean }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const table = useRef<HTMLTableElement>(null);
  const days = data.weeks.flatMap((w) => w.days);
  const initial = days.find((d) => d.today)?.date ?? days.find((d) => d.inMonth)?.date ?? days[0].date;
  const [active, setActive] = useState(initial);

  const focusDay = (date: string) => {
    setActive(date);
    table.current?.querySelector<HTMLElement>(`td[data-date="${date}"]`)?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    const target = e.target as HTMLElement;
    const cell = target.closest<HTMLElement>("td[data-date]");
    if (!cell) return;
    if (target !== cell) {
      // Inside a day: Escape returns to it.
      if (e.key === "Escape") {
        e.preventDefault();
        focusDay(cell.dataset.date!);
      }
      return;
    }
    const index = days.findIndex((d) => d.date === cell.dataset.date);
    const column = index % 7;
    const forward = rtl ? -1 : 1;
    let next: number | null = null;
    switch (e.key) {
      case "ArrowRight":
        next = index + forward;
        break;
      case "ArrowLeft":
        next = index - forward;
        break;
      case "ArrowDown":
        next = index + 7;
        break;
      case "ArrowUp":
        next = index - 7;
        break;
      case "Home":
        next = e.ctrlKey ? 0 : index - column;
        break;
      case "End":
        next = e.ctrlKey ? days.length - 1 : index - column + 6;
        break;
      case "PageUp":
        e.preventDefault();
        void navigate(data.prevHref);
        return;
      case "PageDown":
        e.preventDefault();
        void navigate(data.nextHref);
        return;
      case "Enter":
      case "F2": {
        // The first link shown (on a phone the day's items are hidden and its mark leads to its list).
        const link = [...cell.querySelectorAll<HTMLElement>("a")].find((a) => a.getClientRects().length > 0);
        if (link) {
          e.preventDefault();
          link.focus();
        }
        return;
      }
      default:
        return;
    }
    e.preventDefault();
    if (next !== null && next >= 0 && next < days.length) focusDay(days[next].date);
  };

  return (
    <>
      {hydrated ? (
        <p id="month-grid-hint" className="visually-hidden">
          {t("calendar.gridHint")}
        </p>
      ) : null}
      <table
        ref={table}
        className="month-grid"
        role={hydrated ? "grid" : undefined}
        aria-describedby={hydrated ? "month-grid-hint" : undefined}
        onKeyDown={hydrated ? onKeyDown : undefined}
      >
        <caption className="visually-hidden">{data.title}</caption>
        <thead>
          <tr>
            <th scope="col" className="month-grid__week-col">
              <span className="visually-hidden">{t("calendar.weekColumn")}</span>
            </th>
            {data.headers.map((h) => (
              <th key={h.long} scope="col">
                <abbr title={h.long}>{h.short}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.weeks.map((week) => (
            <tr key={week.id}>
              <th scope="row" className="month-grid__week">
                <a href={week.href} aria-label={t("calendar.weekLink", { week: week.number })} data-discover="true">
                  {week.number}
                </a>
              </th>
              {week.days.map((day) => {
                const shown = day.items.slice(0, CELL_ITEMS);
                const more = day.items.length - shown.length;
                return (
                  <td
                    key={day.date}
                    data-date={day.date}
                    className={`month-grid__day${day.inMonth ? "" : " month-grid__day--outside"}${day.today ? " month-grid__day--today" : ""}`}
                    tabIndex={hydrated ? (day.date === active ? 0 : -1) : undefined}
                    aria-current={day.today ? "date" : undefined}
                    onFocus={hydrated ? () => setActive(day.date) : undefined}
                  >
                    <span className="month-grid__number">
                      {day.dayNumber}
                      <span className="visually-hidden">
                        {" "}
                        {day.title}
                        {day.items.length ? `, ${t("calendar.itemCount", { count: day.items.length })}` : ""}
                      </span>
                    </span>
                    {shown.length ? (
                      <ul className="month-grid__items">
                        {shown.map((item) => (
                          <CalendarItemEntry key={item.id} item={item} variant="cell" />
                        ))}
                      </ul>
                    ) : null}
                    {more > 0 ? (
                      <a className="month-grid__more" href={week.href} data-discover="true">
                        {t("calendar.more", { count: more })}
                      </a>
                    ) : null}
                    {day.items.length && day.inMonth ? (
                      // Issue 25 item 6: on a phone a day shows a mark, leading to its items listed below the month.
                      <a
                        className="month-grid__jump"
                        href={`#day-${day.date}`}
                        aria-label={`${day.title}, ${t("calendar.itemCount", { count: day.items.length })}`}
                      >
                        <span aria-hidden="true">{"•".repeat(Math.min(day.items.length, 3))}</span>
                      </a>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
