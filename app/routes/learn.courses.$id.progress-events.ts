import type { Route } from "./+types/learn.courses.$id.progress-events";
import { endpoints } from "#domain/contract/endpoints";
import type { DataChange } from "#domain/contract/changes";
import { appLoadContext } from "~/services/config.server";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/course-id.server";
import { LmsError, type LmsClient } from "~/services/lms.server";
import { log } from "~/services/logger.server";

/** A comment line every so often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** What the course pages show of the learner's standing: a change of any of it is worth a new render. */
async function standing(lms: LmsClient, courseId: string): Promise<string> {
  const a = await lms.get(endpoints.objectiveAggregate(courseId));
  const wf = a.lastObjectiveWorkflow;
  const rec = a.lastObjectiveRecord;
  return JSON.stringify([wf?.id, wf?.state, wf?.progress, rec?.id, rec?.score, rec?.passed]);
}

/** A stream that lives as long as its page: the front gives it a stream's place, not a page's (decision 050). */
export const handle = { stream: true };

/**
 * Issue 26 (the LTI lab): the learner's course tab learns that a tool's score arrived — in a frame on
 * this page or in a window of its own — without a reload. Server-sent events over the live channel the
 * chat uses (decision 027: LISTEN/NOTIFY, every node hears every node): a notice that the learner's
 * data changed ("user:<id>", written by the triggers of decision 019 when an activity workflow
 * changes) makes the stream read the course's standing once; only when what the page shows changed
 * does it send `changed`, and the page revalidates. The page's own writes (the content view's "the
 * learner is here") change nothing shown, so they never loop. Without a change feed (an external LMS
 * API) there is no stream (204: the browser does not retry); the page still refreshes when it becomes
 * visible again.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const feed = context.get(appLoadContext).changes;
  if (!feed) return new Response(null, { status: 204 });
  const lms = await s.lms();
  let last: string;
  try {
    last = await standing(lms, id);
  } catch (err) {
    if (err instanceof LmsError && [400, 403, 404].includes(err.status))
      throw new Response("Not found", { status: 404 });
    throw err;
  }
  const userId = shell.user.id.toLowerCase();
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      // One read at a time; a notice during a read asks for one more read after it.
      let reading = false;
      let again = false;
      const check = async () => {
        if (reading) return void (again = true);
        reading = true;
        try {
          do {
            again = false;
            const now = await standing(lms, id);
            if (now !== last) {
              last = now;
              write(`event: changed\ndata: {}\n\n`);
            }
          } while (again && !closed);
        } catch (err) {
          // A session that ended, a course left: the stream ends; the browser's reconnect gets the answer.
          if (!(err instanceof LmsError)) log().warn({ err }, "progress: live read failed");
          close();
        } finally {
          reading = false;
        }
      };
      const onChange = (change: DataChange) => {
        if (change.kind === "all" || (change.kind === "user" && change.userId === userId)) void check();
      };
      const unsubscribe = feed.subscribe(onChange);
      const heartbeat = setInterval(() => write(": ping\n\n"), HEARTBEAT_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      stop = close;
      request.signal.addEventListener("abort", close, { once: true });
      write("retry: 3000\n\n");
      // What committed between the first read and subscribing is read once more.
      void check();
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
