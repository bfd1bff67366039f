import { z } from "zod";
import type { ActivityLockKey } from "../activity-access";
import { ActivityKind, enumValues, ObjectiveWorkflowState } from "../vocabulary";

/**
 * The learner's calendar, dashboard and personal calendar feed (decision 022): the shapes of
 * `GET users/me/calendar-items`, `GET users/me/dashboard` and the feed link. Paths not shown in the
 * spec; ours, in the style of 7.2.
 */

/**
 * What a calendar item is (spec 3 'Course access' and 'Activity constraint' dates, event activities).
 * The activity kinds are one per constraint field; `resultsDisclosure` stands for both
 * resultsDisclosureFrom and revealResultsFrom (the learner sees the same thing: results come out).
 */
const CALENDAR_ITEM_KINDS = [
  "courseDue",
  "courseAvailableFrom",
  "courseAvailableUntil",
  "gradeReveal",
  "activityStartFrom",
  "activityStartUntil",
  "activityDue",
  "activityAccessibleUntil",
  "activityGracePeriodUntil",
  "activityResultsDisclosure",
  "event",
  "reinforcementDue",
] as const;
export type CalendarItemKind = (typeof CALENDAR_ITEM_KINDS)[number];

/** Items that ask the learner to hand something in by a date: they can be overdue. */
export const DUE_KINDS: readonly CalendarItemKind[] = ["courseDue", "activityDue", "reinforcementDue"];

const calendarItemSchema = z.object({
  /** Stable across calls and changes of date: `{kind}:{source id}[:{field}]`; the feed's UID is built on it. */
  id: z.string(),
  kind: z.enum(CALENDAR_ITEM_KINDS),
  /** An instant (ISO 8601, UTC). For an all-day item: the UTC midnight that starts its date. */
  start: z.string(),
  /** Events only: when it ends. */
  end: z.string().nullable(),
  /** A date-only item (stored at UTC midnight): shown on its date in every time zone. */
  allDay: z.boolean(),
  course: z.object({ id: z.string(), name: z.string(), code: z.string(), mandatory: z.boolean() }),
  /** The activity (or module) the item belongs to; null for the course's own dates. */
  activity: z
    .object({ id: z.string(), pathId: z.string(), name: z.string(), kind: z.literal(enumValues(ActivityKind)) })
    .nullable(),
  /** Events: where it takes place. */
  location: z.string().nullable(),
  /** Events: the online link (https only). */
  url: z.string().nullable(),
  /** Spec 4.12: why the activity cannot be opened now, with the date the reason names. */
  lock: z.object({ key: z.string(), date: z.string().nullable() }).nullable(),
  /** The work the date asks for is handed in (a due item that can no longer be overdue). */
  done: z.boolean(),
  /**
   * Reinforcement questions due (issue 13 item 6, spec 2.8): the question and its options, each opening
   * the e-mail answer page with that option chosen; `answer` once the learner has answered. Null for
   * every other kind.
   */
  question: z
    .object({
      workflowId: z.string(),
      text: z.string(),
      options: z.array(z.object({ id: z.string(), text: z.string() })),
      answer: z.string().nullable(),
    })
    .nullable(),
});
export type CalendarItem = Omit<z.infer<typeof calendarItemSchema>, "lock"> & {
  lock: { key: ActivityLockKey; date: string | null } | null;
};

export const calendarItemListSchema = z.object({
  from: z.string(),
  to: z.string(),
  data: z.array(calendarItemSchema),
});
export type CalendarItemList = Omit<z.infer<typeof calendarItemListSchema>, "data"> & { data: CalendarItem[] };

/** Query of `GET users/me/calendar-items`: an interval of instants, at most 100 days (decision 022). */
export const calendarRangeQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
});

/** A course as a dashboard section lists it. */
const dashboardCourseSchema = z.object({
  id: z.string(),
  aggregateId: z.string(),
  name: z.string(),
  code: z.string(),
  imageUrl: z.string().nullable(),
  mandatory: z.boolean(),
  dueDate: z.string().nullable(),
  progress: z.number(),
  state: z.literal(enumValues(ObjectiveWorkflowState)).nullable(),
  started: z.string().nullable(),
  submitted: z.string().nullable(),
  /** Continue learning: when the learner last worked in it, and the activity they were in. */
  lastUsed: z.string().nullable(),
  resumePathId: z.string().nullable(),
  /** Locked by a proctored sitting that is over (spec 4.8); absent from an API that does not say. */
  locked: z.boolean().optional(),
});
export type DashboardCourse = z.infer<typeof dashboardCourseSchema>;

/** A result of the last 30 days; score and grade are null while spec 4.7 hides them. */
const dashboardResultSchema = z.object({
  course: z.object({ id: z.string(), name: z.string(), code: z.string() }),
  finished: z.string(),
  passed: z.boolean().nullable(),
  resultsHidden: z.boolean(),
  score: z.number().nullable(),
  maxScore: z.number().nullable(),
  normalizedScore: z.number().nullable(),
  grade: z.object({ name: z.string(), color: z.string() }).nullable(),
  certificate: z.object({ number: z.string(), expired: z.boolean() }).nullable(),
});

const section = <T extends z.ZodTypeAny>(item: T) => z.object({ total: z.number().int(), data: z.array(item) });

export const dashboardSchema = z.object({
  summary: z.object({
    enrolled: z.number().int(),
    notStarted: z.number().int(),
    inProgress: z.number().int(),
    completed: z.number().int(),
    /** Mean progress (0..1) over the courses in progress. */
    averageProgress: z.number(),
    overdue: z.number().int(),
    dueSoon: z.number().int(),
  }),
  continueLearning: section(dashboardCourseSchema),
  dueSoon: section(calendarItemSchema),
  mandatoryNotStarted: section(dashboardCourseSchema),
  waitingForResults: section(dashboardCourseSchema),
  recentResults: section(dashboardResultSchema),
  upcomingEvents: section(calendarItemSchema),
  /** Reinforcement questions due and not answered yet, the longest waiting first. */
  questionsToAnswer: section(calendarItemSchema),
});
export type Dashboard = Omit<z.infer<typeof dashboardSchema>, "dueSoon" | "upcomingEvents" | "questionsToAnswer"> & {
  dueSoon: { total: number; data: CalendarItem[] };
  upcomingEvents: { total: number; data: CalendarItem[] };
  questionsToAnswer: { total: number; data: CalendarItem[] };
};

/** The learner's feed link: a path under the API's origin, or null when they have none. */
export const calendarFeedSchema = z.object({
  feed: z
    .object({
      path: z.string(),
      created: z.string(),
    })
    .nullable(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** `POST create-calendar-feeds` (a new link; the old one stops working) and `delete-calendar-feeds`. */
export const calendarFeedCommandSchema = z.object({ id: z.uuid() });

/** The personal calendar feed's file: `<token>.ics` (the secret token of the learner's link). */
export const calendarFeedFilePathSchema = z.object({ file: z.string() });
