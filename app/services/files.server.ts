import type { RouterContextProvider } from "react-router";
import type { Endpoint } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { appConfig, lmsTransport, sessionStore } from "./config.server";
import { getLocale } from "./i18n.server";
import { createLmsClient } from "./lms.server";
import { readSession } from "./session.server";

const PASS_THROUGH = [
  "content-type",
  "content-length",
  "content-range",
  "accept-ranges",
  "content-disposition",
  "cache-control",
  "x-content-type-options",
];

/** Media types shown in the page (PDF viewer, images, video, audio, plain text); everything else downloads. */
const INLINE_TYPES =
  /^(application\/pdf|image\/(png|jpeg|gif|webp|avif)|video\/(mp4|webm|ogg)|audio\/(mpeg|ogg|wav|webm)|text\/plain)$/;

/**
 * A chat file's types (issue 16 item 3): checked by the API against its contents, so their own type
 * and disposition (images inline, the rest downloads) pass; still never anything that runs.
 */
export const CHAT_FILE_TYPES =
  /^(application\/(pdf|zip|vnd\.openxmlformats-officedocument\.(wordprocessingml\.document|spreadsheetml\.sheet|presentationml\.presentation))|image\/(png|jpeg|gif|webp)|text\/plain)$/;

/**
 * The headers of a private file's answer: the storage API's own, except that a
 * file's media type is set by an author. Only types a browser shows without running anything are
 * served inline; anything else (HTML, SVG, XML…) is a download that cannot run as this origin.
 * `types`: the media types whose own headers pass (by default those shown inline).
 */
export function fileHeaders(upstream: Headers, types: RegExp = INLINE_TYPES): Headers {
  const headers = new Headers();
  for (const h of PASS_THROUGH) {
    const v = upstream.get(h);
    if (v) headers.set(h, v);
  }
  const type = (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!types.test(type)) {
    headers.set("Content-Disposition", "attachment");
    headers.set("Content-Type", "application/octet-stream");
    // Even if a browser opened it anyway, it would run in an opaque origin with nothing allowed.
    headers.set("Content-Security-Policy", "default-src 'none'; sandbox");
  }
  headers.set("X-Content-Type-Options", "nosniff");
  return headers;
}

/**
 * A private file read from the LMS storage API with the learner's session (not a redirect to sign-in:
 * a viewer or a download must be told 401): GET or HEAD as the request asks, its Range passed on.
 * The API's answer as it is, or null without a session.
 */
export async function readPrivateFile(
  request: Request,
  context: Readonly<RouterContextProvider>,
  endpoint: Endpoint<unknown>,
): Promise<Response | null> {
  const config = appConfig(context);
  const session = await readSession(request, config, sessionStore(context));
  if (!session) return null;
  const lms = createLmsClient({
    accessToken: session.accessToken,
    locale: getLocale(context),
    transport: lmsTransport(context),
    baseUrl: config.lmsApiUrl,
  });
  const range = request.headers.get("range");
  return lms.raw(request.method === "HEAD" ? "HEAD" : "GET", endpoint, range ? { Range: range } : {});
}

/** The answer to a file request without a session. */
export const signInFirst = () =>
  new Response("Please sign in", { status: 401, headers: { "Cache-Control": "no-store" } });

/**
 * A learner's file served same-origin (a hand-in's, decision 048; a test's upload answer, decision 068): the
 * storage API's answer with its checked type; PDF and images open in the browser's viewer, the rest downloads.
 * 401 without a session, 404 for a bad id or anything the API does not give this reader.
 */
export async function learnerFileResponse(
  request: Request,
  context: Readonly<RouterContextProvider>,
  fileId: string | undefined,
  endpointOf: (fileId: string) => Endpoint<unknown>,
): Promise<Response> {
  const notFound = () => new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (!fileId || !isUuid(fileId)) return notFound();
  const res = await readPrivateFile(request, context, endpointOf(fileId));
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
