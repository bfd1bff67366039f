import { useEffect, useState } from "react";
import { useTranslation } from "~/common/i18n";
import { CLOCK_REFRESH_MS } from "#domain/clock";
import { CalendarItemEntry } from "./item";
import type { DayView } from "~/common/views/calendar";

export interface NowInfo {
  /** The instant the server rendered the page. */
  at: string;
  /** "14:05" as the server formatted it (the browser formats later ticks itself). */
  label: string;
  timeZone: string;
  locale: string;
}

/**
 * Spec 9 / The "now" marker — a line among today's items at the current time. The server
 * places it; with JavaScript it moves every 60 s (the clock refresh), without it stays where it was.
 */
function useNow(now: NowInfo): { at: number; label: string } {
  const [tick, setTick] = useState<{ at: number; label: string } | null>(null);
  useEffect(() => {
    const format = new Intl.DateTimeFormat(now.locale, { timeZone: now.timeZone, timeStyle: "short" });
    const timer = setInterval(() => {
      const at = Date.now();
      setTick({ at, label: format.format(at) });
    }, CLOCK_REFRESH_MS);
    return () => clearInterval(timer);
  }, [now.locale, now.timeZone]);
  return tick ?? { at: Date.parse(now.at), label: now.label };
}

function NowMarker({ label }: { label: string }) {
  const { t } = useTranslation();
  return (
    <li className="now-marker" aria-label={t("calendar.now", { time: label })}>
      <span className="now-marker__label" aria-hidden="true">
        {t("calendar.now", { time: label })}
      </span>
    </li>
  );
}

/** One day: its title and its items in time order; today's list carries the "now" marker. */
export function DayList({ day, now, headingLevel = 2 }: { day: DayView; now: NowInfo; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation();
  const clock = useNow(now);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // All-day items and those that began earlier come first; the marker goes before the first timed
  // item that has not started yet.
  const markerAt = day.today
    ? day.items.findIndex((i) => i.time !== null && !i.allDay && Date.parse(i.start) > clock.at)
    : -1;
  const position = day.today ? (markerAt === -1 ? day.items.length : markerAt) : -1;
  return (
    <section className={`day${day.today ? " day--today" : ""}`} aria-labelledby={`day-${day.date}`}>
      <Heading id={`day-${day.date}`} className="day__title">
        {day.title}
        {day.today ? <span className="day__today"> · {t("calendar.nav.today")}</span> : null}
      </Heading>
      {day.items.length === 0 && !day.today ? (
        <p className="day__empty">{t("calendar.emptyDay")}</p>
      ) : (
        <ol className="day__items">
          {day.items.map((item, n) => (
            <DayEntry key={item.id} item={item} marker={n === position ? clock.label : null} />
          ))}
          {position === day.items.length ? <NowMarker label={clock.label} /> : null}
        </ol>
      )}
    </section>
  );
}

function DayEntry({ item, marker }: { item: DayView["items"][number]; marker: string | null }) {
  return (
    <>
      {marker !== null ? <NowMarker label={marker} /> : null}
      <CalendarItemEntry item={item} variant="day" />
    </>
  );
}
