/**
 * Analytics and error reporting (spec 1, 7.1, 9; issue 16 item 8; decision 029). Pure rules shared by the
 * server and the small browser client.
 */

/** The events the collector accepts (spec 7.1 names; page views and errors). */
export const ANALYTICS_EVENTS = [
  "page_view",
  "my_courses_search",
  "product_feedback",
  "course_start",
  "course_submit",
  "course_finish",
  "error",
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number];

/** The largest batch the beacon and the collector take (the front refuses more before reading it: 413). */
export const ANALYTICS_BATCH_MAX_BYTES = 64 * 1024;

/** Spec 9: a new analytics session after more than 7,200 s without activity. */
export const ANALYTICS_SESSION_SECONDS = 7200;
/** Spec 9 / setting `lms.datalake.sessionDuration`: the data-lake session, 30 minutes unless configured. */
export const DATALAKE_SESSION_MINUTES = 30;
/** Spec 9: activity (scroll, keydown, click) counted at most every 100 ms. */
export const ACTIVITY_THROTTLE_MS = 100;

/** Only in the test and production environments (never in development). */
export function analyticsEnabled(appEnv: string): boolean {
  return appEnv === "test" || appEnv === "prod";
}

/** Do-Not-Track (`DNT: 1`) or Global Privacy Control (`Sec-GPC: 1`): nothing is recorded. */
export function optedOut(dnt: string | null | undefined, gpc: string | null | undefined): boolean {
  return dnt === "1" || gpc === "1";
}

/**
 * The session an activity at `now` (ms) belongs to: the same one, or a new one after a pause longer than
 * `seconds` (the analytics session's 7,200 s by default; the data-lake session's own duration).
 */
export function sessionAt(
  current: { id: string; lastActivity: number } | null,
  now: number,
  newId: () => string,
  seconds = ANALYTICS_SESSION_SECONDS,
): { id: string; lastActivity: number } {
  if (current && now - current.lastActivity <= seconds * 1000) return { ...current, lastActivity: now };
  return { id: newId(), lastActivity: now };
}
