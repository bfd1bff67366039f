/**
 * The browser's analytics client (issue 16 item 8, decision 029), loaded lazily after hydration and only
 * where APP_ENV is test or prod and the learner has not asked not to be tracked. It keeps the analytics
 * session (spec 9: a new one after 7,200 s without scroll, keydown or click, counted every 100 ms), sends
 * batches with `navigator.sendBeacon` to /learn/collect, and reports uncaught errors with their stack.
 * No third-party script.
 */
import {
  ACTIVITY_THROTTLE_MS,
  ANALYTICS_SESSION_SECONDS,
  DATALAKE_SESSION_MINUTES,
  sessionAt,
  type AnalyticsEventName,
} from "#domain/analytics";

type Event = {
  name: AnalyticsEventName;
  page: string;
  session: string;
  datalakeSession: string;
  props: Record<string, unknown>;
};
let queue: Event[] = [];

/** A session kept in localStorage under `key`, renewed after `seconds` without activity. */
function keptSession(key: string, seconds: () => number) {
  let session: { id: string; lastActivity: number } | null = null;
  return (now = Date.now()): string => {
    if (!session) {
      try {
        session = JSON.parse(localStorage.getItem(key) ?? "null");
      } catch {
        session = null;
      }
    }
    session = sessionAt(session, now, () => crypto.randomUUID(), seconds());
    try {
      localStorage.setItem(key, JSON.stringify(session));
    } catch {
      // storage full or denied: the session lives in memory
    }
    return session.id;
  };
}

let datalakeSeconds = DATALAKE_SESSION_MINUTES * 60;
const analyticsSession = keptSession("learn.analytics.session", () => ANALYTICS_SESSION_SECONDS);
/** Spec 9: the data-lake session lasts `lms.datalake.sessionDuration` minutes (30 by default). */
const datalakeSession = keptSession("learn.datalake.session", () => datalakeSeconds);

function flush() {
  if (queue.length === 0) return;
  const body = JSON.stringify({ events: queue.slice(0, 50) });
  queue = queue.slice(50);
  navigator.sendBeacon("/learn/collect", body);
}

/** Queues an event of the current page (sent within 5 s, or when the page is hidden). */
export function track(name: AnalyticsEventName, props: Record<string, unknown> = {}) {
  queue.push({ name, page: location.pathname, session: analyticsSession(), datalakeSession: datalakeSession(), props });
  if (queue.length >= 20) flush();
}

export function start(datalakeMinutes: number = DATALAKE_SESSION_MINUTES) {
  if (Number.isFinite(datalakeMinutes) && datalakeMinutes > 0) datalakeSeconds = datalakeMinutes * 60;
  let last = 0;
  const activity = () => {
    const now = Date.now();
    if (now - last < ACTIVITY_THROTTLE_MS) return;
    last = now;
    analyticsSession(now);
    datalakeSession(now);
  };
  for (const type of ["scroll", "keydown", "click"]) addEventListener(type, activity, { passive: true });
  addEventListener("error", (e) => track("error", { message: String(e.message), stack: String(e.error?.stack ?? "") }));
  addEventListener("unhandledrejection", (e) =>
    track("error", { message: String(e.reason?.message ?? e.reason), stack: String(e.reason?.stack ?? "") }),
  );
  addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && flush());
  setInterval(flush, 5000);
}
