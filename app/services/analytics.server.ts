import type { RouterContextProvider } from "react-router";
import { analyticsEnabled, optedOut } from "#domain/analytics";
import type { AnalyticsBatch } from "#domain/contract/analytics";
import { endpoints } from "#domain/contract/endpoints";
import { appConfig } from "./config.server";
import { state } from "./request.server";
import { publicLms } from "./user.server";
import { LmsError } from "./lms.server";

/** Whether this request may be recorded: APP_ENV test or prod, and no Do-Not-Track / Global Privacy Control. */
function mayRecord(request: Request, context: Readonly<RouterContextProvider>): boolean {
  return (
    analyticsEnabled(appConfig(context).appEnv) && !optedOut(request.headers.get("DNT"), request.headers.get("Sec-GPC"))
  );
}

/** What became of a batch: sent, not sent (off, opted out, failed), or refused for too many (issue 29). */
export type RecordOutcome = { kind: "sent" } | { kind: "skipped" } | { kind: "tooMany"; retryAfterSeconds: number };

/**
 * Sends events to the collector (issue 16 item 8, decision 029) as the signed-in user, or anonymously;
 * never fails the page: a collector that cannot take them is logged, not shown. A refusal for too many
 * (the collector's limits, decision 039) is no failure: nothing is logged, the beacon hears a 429.
 */
export async function record(
  request: Request,
  context: Readonly<RouterContextProvider>,
  events: AnalyticsBatch["events"],
): Promise<RecordOutcome> {
  if (!mayRecord(request, context) || events.length === 0) return { kind: "skipped" };
  try {
    const s = state(context);
    const lms = (await s.session()) ? await s.lms() : publicLms(context);
    await lms.command(endpoints.analyticsEvents, { events });
    return { kind: "sent" };
  } catch (err) {
    if (err instanceof LmsError && err.status === 429)
      return { kind: "tooMany", retryAfterSeconds: err.retryAfterSeconds ?? 60 };
    console.warn("[analytics] events not recorded:", (err as Error).message);
    return { kind: "skipped" };
  }
}

/**
 * Issue 16 item 8: course start, submit and finish, recorded by the server when the command succeeded —
 * so they count without JavaScript too. Sent in the background: the learner's redirect does not wait.
 */
export function courseEvents(request: Request, context: Readonly<RouterContextProvider>, objectiveId: string) {
  return (name: "course_start" | "course_submit" | "course_finish") =>
    void record(request, context, [{ name, page: new URL(request.url).pathname, props: { objectiveId } }]);
}
