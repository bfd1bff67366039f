import type { Route } from "./+types/learn.chat-files.$attachmentId";
import { createLmsClient } from "~/services/lms.server";
import { getLocale } from "~/services/i18n.server";
import { readSession } from "~/services/session.server";
import { appConfig, lmsTransport, sessionStore } from "~/services/config.server";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { CHAT_FILE_TYPES, fileHeaders } from "~/services/files.server";

/**
 * /learn/chat-files/{attachmentId}: a chat message's file (issue 16 item 3), same-origin, read with the
 * learner's session from the LMS storage API — which answers 404 to anyone not in the course's hub and
 * for a deleted message's files. HEAD gives the size (spec 7.5); ranges pass through. 401 without a
 * session, 404 otherwise: nothing tells a stranger the file exists.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const notFound = () => new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (!params.attachmentId || !isUuid(params.attachmentId)) return notFound();
  const config = appConfig(context);
  const session = await readSession(request, config, sessionStore(context));
  if (!session) return new Response("Please sign in", { status: 401, headers: { "Cache-Control": "no-store" } });
  const lms = createLmsClient({
    accessToken: session.accessToken,
    locale: getLocale(context),
    transport: lmsTransport(context),
    baseUrl: config.lmsApiUrl,
  });
  const range = request.headers.get("range");
  const res = await lms.raw(
    request.method === "HEAD" ? "HEAD" : "GET",
    endpoints.chatAttachment(params.attachmentId),
    range ? { Range: range } : {},
  );
  if (!res.ok) {
    await res.body?.cancel();
    if (res.status === 416) return new Response(null, { status: 416, headers: fileHeaders(res.headers) });
    return res.status === 401 ? new Response("Please sign in", { status: 401 }) : notFound();
  }
  const headers = fileHeaders(res.headers, CHAT_FILE_TYPES);
  // Whatever it is, it runs nothing as this origin, even opened on its own.
  headers.set("Content-Security-Policy", "default-src 'none'; img-src 'self'; sandbox");
  return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers });
}
