/**
 * The browser's analytics client (issue 16 item 8, decision 029), loaded lazily after hydration and only
 * where APP_ENV is test or prod and the learner has not asked not to be tracked. It keeps the analytics
 * session (spec 9: a new one after 7,200 s without scroll, keydown or click, counted every 100 ms), sends
 * batches with `navigator.sendBeacon` to /learn/collect, and reports uncaught errors with their stack.
 * No third-party script.
 */
import { ACTIVITY_THROTTLE_MS, sessionAt, type AnalyticsEventName } from "#domain/analytics";

const KEY = "learn.analytics.session";
type Event = { name: AnalyticsEventName; page: string; session: string; props: Record<string, unknown> };
let queue: Event[] = [];
let session: { id: string; lastActivity: number } | null = null;

function currentSession(now = Date.now()): string {
  if (!session) {
    try {
      session = JSON.parse(localStorage.getItem(KEY) ?? "null");
    } catch {
      session = null;
    }
  }
  session = sessionAt(session, now, () => crypto.randomUUID());
  try {
    localStorage.setItem(KEY, JSON.stringify(session));
  } catch {
    // storage full or denied: the session lives in memory
  }
  return session.id;
}

function flush() {
  if (queue.length === 0) return;
  const body = JSON.stringify({ events: queue.slice(0, 50) });
  queue = queue.slice(50);
  navigator.sendBeacon("/learn/collect", body);
}

/** Queues an event of the current page (sent within 5 s, or when the page is hidden). */
export function track(name: AnalyticsEventName, props: Record<string, unknown> = {}) {
  queue.push({ name, page: location.pathname, session: currentSession(), props });
  if (queue.length >= 20) flush();
}

export function start() {
  let last = 0;
  const activity = () => {
    const now = Date.now();
    if (now - last < ACTIVITY_THROTTLE_MS) return;
    last = now;
    currentSession(now);
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
