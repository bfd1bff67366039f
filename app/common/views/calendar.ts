/** The calendar's items and days as the calendar components render them (`calendar.server.ts` makes them). */
import type { CalendarItem } from "#domain/contract/calendar";

export interface ItemView {
  id: string;
  kind: CalendarItem["kind"];
  href: string;
  /** The activity's name, or the course's for the course's own dates. */
  title: string;
  course: string;
  mandatory: boolean;
  /** Start time on its day (null for all-day items). */
  time: string | null;
  /** The full date (and time, and end) for lists and the dashboard. */
  when: string;
  allDay: boolean;
  /** The instant it starts (the "now" marker orders by it in the browser). */
  start: string;
  overdue: boolean;
  done: boolean;
  lock: { key: string; date: string | null } | null;
  location: string | null;
  url: string | null;
  /** A reinforcement question: its text and, until it is answered, the answer page's link per option. */
  question: { text: string; options: { text: string; href: string }[] } | null;
  /** On a day of a multi-day item: it began earlier / goes on later. */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

export interface DayView {
  date: string;
  /** "Monday, 23 November" */
  title: string;
  dayNumber: string;
  weekdayShort: string;
  inMonth: boolean;
  today: boolean;
  items: ItemView[];
}
