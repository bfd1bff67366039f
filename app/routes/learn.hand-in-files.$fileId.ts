import type { Route } from "./+types/learn.hand-in-files.$fileId";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { CHAT_FILE_TYPES, fileHeaders, readPrivateFile, signInFirst } from "~/services/files.server";

/**
 * /learn/hand-in-files/{fileId}: a hand-in's file or a grader's feedback file (decision 048), same-origin,
 * read with the session from the LMS storage API — which answers 404 to anyone but the learner and her
 * graders. PDF and images open in the browser's viewer, the rest downloads; HEAD gives the size, ranges
 * pass through. 401 without a session, 404 otherwise.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const notFound = () => new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (!params.fileId || !isUuid(params.fileId)) return notFound();
  const res = await readPrivateFile(request, context, endpoints.handInFile(params.fileId));
  if (!res) return signInFirst();
  if (!res.ok) {
    await res.body?.cancel();
    if (res.status === 416) return new Response(null, { status: 416, headers: fileHeaders(res.headers) });
    return res.status === 401 ? signInFirst() : notFound();
  }
  const headers = fileHeaders(res.headers, CHAT_FILE_TYPES);
  const type = (headers.get("content-type") ?? "").split(";")[0];
  // Chromium's PDF viewer refuses a sandboxed document; a PDF runs no script of this origin either way.
  headers.set(
    "Content-Security-Policy",
    type === "application/pdf" ? "default-src 'none'; img-src 'self'" : "default-src 'none'; img-src 'self'; sandbox",
  );
  return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers });
}
