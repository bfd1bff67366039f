import type { RouterContextProvider } from "react-router";
import { log } from "~/services/logger.server";
import { analyticsEnabled, optedOut } from "#domain/analytics";
import type { AnalyticsBatch } from "#domain/contract/analytics";
import { endpoints } from "#domain/contract/endpoints";
import { appConfig, clientIp } from "./config.server";
import { state } from "./request.server";
import { publicLms } from "./user.server";
import { LmsError, type LmsClient } from "./lms.server";

/** Whether this request may be recorded: APP_ENV test or prod, and no Do-Not-Track / Global Privacy Control. */
function mayRecord(request: Request, context: Readonly<RouterContextProvider>): boolean {
  return (
    analyticsEnabled(appConfig(context).appEnv) && !optedOut(request.headers.get("DNT"), request.headers.get("Sec-GPC"))
  );
}

type Events = AnalyticsBatch["events"];

/** What became of a batch: sent, not sent (off, opted out, failed), or refused for too many. */
export type RecordOutcome = { kind: "sent" } | { kind: "skipped" } | { kind: "tooMany"; retryAfterSeconds: number };

/** How long events wait for others of the same sender, and the collector's largest batch. */
const BATCH_MS = 250;
const BATCH_EVENTS = 50;

/**
 * Events on their way to the collector, per sender — a signed-in session's token, or a visitor's
 * address — sent together after `BATCH_MS` or at `BATCH_EVENTS` (decision 038): every document
 * request records a page view, and a write per page (an API call, an insert) cost more of the database
 * thread than the page's own reads. A learner's events go as that learner; none waits more than BATCH_MS.
 */
const waiting = new Map<string, { lms: LmsClient; events: Events; sent: ((outcome: RecordOutcome) => void)[] }>();

function send(key: string): Promise<void> {
  const batch = waiting.get(key);
  if (!batch) return Promise.resolve();
  waiting.delete(key);
  return (async () => {
    let outcome: RecordOutcome = { kind: "sent" };
    try {
      for (let i = 0; i < batch.events.length; i += BATCH_EVENTS)
        await batch.lms.command(endpoints.analyticsEvents, { events: batch.events.slice(i, i + BATCH_EVENTS) });
    } catch (err) {
      // A refusal for too many (the collector's limits, decision 039) is no failure: nothing is logged,
      // the beacon hears a 429.
      if (err instanceof LmsError && err.status === 429)
        outcome = { kind: "tooMany", retryAfterSeconds: err.retryAfterSeconds ?? 60 };
      else {
        log().warn({ err }, "analytics: events not recorded");
        outcome = { kind: "skipped" };
      }
    } finally {
      for (const done of batch.sent) done(outcome);
    }
  })();
}

/**
 * Sends every waiting batch now and resolves when all are through. The drain (decision 037) calls it,
 * through the build's entry module, before it closes the database: a page view of the last 250 ms
 * before SIGTERM is recorded, not logged as lost.
 */
export async function flushPendingEvents(): Promise<void> {
  await Promise.all([...waiting.keys()].map(send));
}

/**
 * Sends events to the collector (issue 16 item 8, decision 029) as the signed-in user, or anonymously,
 * batched with the same sender's others (at most 250 ms later); resolves once they were sent, with what
 * became of them. Never fails the page: a collector that cannot take them is logged, not shown.
 */
export async function record(
  request: Request,
  context: Readonly<RouterContextProvider>,
  events: Events,
): Promise<RecordOutcome> {
  if (!mayRecord(request, context) || events.length === 0) return { kind: "skipped" };
  let lms: LmsClient;
  let key: string;
  try {
    const s = state(context);
    const session = await s.session();
    lms = session ? await s.lms() : publicLms(context);
    key = session ? `session:${session.accessToken}` : `visitor:${clientIp(context) ?? ""}`;
  } catch (err) {
    log().warn({ err }, "analytics: events not recorded");
    return { kind: "skipped" };
  }
  let batch = waiting.get(key);
  if (!batch) {
    batch = { lms, events: [], sent: [] };
    waiting.set(key, batch);
    setTimeout(() => void send(key), BATCH_MS).unref();
  }
  batch.events.push(...events);
  const sent = new Promise<RecordOutcome>((resolve) => batch.sent.push(resolve));
  if (batch.events.length >= BATCH_EVENTS) void send(key);
  return sent;
}

/**
 * Issue 16 item 8: course start, submit and finish, recorded by the server when the command succeeded —
 * so they count without JavaScript too. Sent in the background: the learner's redirect does not wait.
 */
export function courseEvents(request: Request, context: Readonly<RouterContextProvider>, objectiveId: string) {
  return (name: "course_start" | "course_submit" | "course_finish") =>
    void record(request, context, [{ name, page: new URL(request.url).pathname, props: { objectiveId } }]);
}
