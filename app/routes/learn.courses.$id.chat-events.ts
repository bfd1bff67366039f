import type { Route } from "./+types/learn.courses.$id.chat-events";
import { log } from "~/services/logger.server";
import { endpoints } from "#domain/contract/endpoints";
import type { DataChange } from "#domain/contract/changes";
import { appLoadContext } from "~/services/config.server";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/course-id.server";
import { chatChannelOf, chatMessageView } from "~/services/chat.server";
import { dateFormatter } from "~/services/format.server";
import { getLocale } from "~/services/i18n.server";
import { LmsError } from "~/services/lms.server";

/** A comment line every so often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
/** Changes read per call (the API's most). */
const READ_LIMIT = 200;
/** Without a change feed (an external LMS API) the stream asks for news this often. */
const POLL_MS = 5_000;

/** The resume point: `Last-Event-ID` (the browser's reconnect) or `?after=` (the page's first connect). */
function resumeAfter(request: Request, url: URL): number {
  const raw = request.headers.get("Last-Event-ID") ?? url.searchParams.get("after") ?? "0";
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** A stream that lives as long as its page: the front gives it a stream's place, not a page's (decision 050). */
export const handle = { stream: true };

/**
 * The live chat of a course channel (issue 16 item 2, decision 027): server-sent events, one `message`
 * event per message posted, edited or deleted after the resume point, with the change number as the
 * event id — a reconnect with `Last-Event-ID` gets exactly what it missed, and the page replaces a
 * message by id, so nothing shows twice. The node wakes on the database's change notice "chat:<id>"
 * (LISTEN/NOTIFY: every node hears every node's messages) and reads the news through the API.
 */
export async function loader({ params, request, context, url }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const channel = chatChannelOf(url);
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  let after = resumeAfter(request, url);
  const read = () => lms.get(endpoints.chatMessages(id, channel), { after, limit: READ_LIMIT });
  let first;
  try {
    first = await read();
  } catch (err) {
    if (err instanceof LmsError && err.status === 404) throw new Response("Not found", { status: 404 });
    throw err;
  }
  let channelId = first.channelId;
  const { changes: feed, shutdown } = context.get(appLoadContext);
  const encoder = new TextEncoder();
  let stop = () => {};

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const send = (page: typeof first) => {
        channelId = page.channelId ?? channelId;
        for (const m of page.data) {
          write(`id: ${m.version}\nevent: message\ndata: ${JSON.stringify(chatMessageView(m, fmt))}\n\n`);
          after = Math.max(after, m.version);
        }
      };
      // One read at a time; a notice during a read asks for one more read after it.
      let reading = false;
      let again = false;
      const pull = async () => {
        if (reading) return void (again = true);
        reading = true;
        try {
          do {
            again = false;
            const page = await read();
            send(page);
            // A full page: there is more after it.
            if (page.data.length >= READ_LIMIT) again = true;
          } while (again && !closed);
        } catch (err) {
          // A session that ended, a course left: the stream ends; the browser's reconnect gets the answer.
          if (!(err instanceof LmsError)) log().error({ err }, "chat: live read failed");
          close();
        } finally {
          reading = false;
        }
      };
      const onChange = (change: DataChange) => {
        if (change.kind === "all" || (change.kind === "chat" && (!channelId || change.channelId === channelId)))
          void pull();
      };
      const unsubscribe = feed ? feed.subscribe(onChange) : () => {};
      const poll = feed ? null : setInterval(() => void pull(), POLL_MS);
      const heartbeat = setInterval(() => write(": ping\n\n"), HEARTBEAT_MS);
      // The node drains (SIGTERM, decision 037): the browser is told to come back soon — through the
      // proxy, to another node — and resumes from its last event id. Spread over 0.5–2.5 s.
      const onShutdown = () => {
        write(`retry: ${500 + Math.floor(Math.random() * 2000)}\n\n`);
        close();
      };
      const close = () => {
        if (closed) return;
        closed = true;
        shutdown?.removeEventListener("abort", onShutdown);
        unsubscribe();
        if (poll) clearInterval(poll);
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
      send(first);
      if (shutdown?.aborted) return onShutdown();
      shutdown?.addEventListener("abort", onShutdown, { once: true });
      // What committed between the first read and subscribing is read once more.
      void pull();
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
