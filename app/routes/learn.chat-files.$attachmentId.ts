import type { Route } from "./+types/learn.chat-files.$attachmentId";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { CHAT_FILE_TYPES, fileHeaders, readPrivateFile, signInFirst } from "~/services/files.server";

/**
 * /learn/chat-files/{attachmentId}: a chat message's file (issue 16 item 3), same-origin, read with the
 * learner's session from the LMS storage API — which answers 404 to anyone not in the course's hub and
 * for a deleted message's files. HEAD gives the size (spec 7.5); ranges pass through. 401 without a
 * session, 404 otherwise: nothing tells a stranger the file exists.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const notFound = () => new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (!params.attachmentId || !isUuid(params.attachmentId)) return notFound();
  const res = await readPrivateFile(request, context, endpoints.chatAttachment(params.attachmentId));
  if (!res) return signInFirst();
  if (!res.ok) {
    await res.body?.cancel();
    if (res.status === 416) return new Response(null, { status: 416, headers: fileHeaders(res.headers) });
    return res.status === 401 ? signInFirst() : notFound();
  }
  const headers = fileHeaders(res.headers, CHAT_FILE_TYPES);
  // Whatever it is, it runs nothing as this origin, even opened on its own.
  headers.set("Content-Security-Policy", "default-src 'none'; img-src 'self'; sandbox");
  return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers });
}
