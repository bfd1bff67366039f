/**
 * Issue 31 item 3 (decision 044): the server's part in copies of courses kept for offline reading —
 * whose a page is (a response header the service worker reads), whether a request is the service
 * worker fetching a page to keep, or sending again a write made offline.
 */
import { createHash } from "node:crypto";
import type { MiddlewareFunction } from "react-router";
import { NO_USER, OFFLINE_COPY_HEADER, OFFLINE_REPLAY_HEADER, OFFLINE_USER_HEADER } from "~/common/offline";
import { getLocale } from "./i18n.server";
import { state } from "./request.server";

/**
 * An opaque key of the signed-in person: the name of their copies in the browser's caches. Not a
 * secret (the browser that holds the copies is theirs); it only has to differ between two people.
 */
export function offlineUserKey(sub: string): string {
  return createHash("sha256").update(`offline:${sub}`).digest("base64url").slice(0, 22);
}

/** The service worker is fetching this page to keep it (it asks for the offline copy's parts). */
export const isOfflineCopyRequest = (request: Request) => request.headers.get(OFFLINE_COPY_HEADER) === "1";

/** The service worker is sending again a write the learner made offline: answer with a status, not a page. */
export const isOfflineReplay = (request: Request) => request.headers.get(OFFLINE_REPLAY_HEADER) === "1";

/**
 * Every page says whose it is (or that nobody is signed in) and in which language: the service worker
 * keeps one person's copies at a time — another person's page, or a signed-out one, and it removes
 * them — and keeps its offline page in the learner's language. Documents only (never `.data`).
 */
export const offlineHeadersMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const response = await next();
  if (request.method !== "GET" || !(response.headers.get("Content-Type") ?? "").startsWith("text/html"))
    return response;
  const session = await state(context).session();
  try {
    response.headers.set(OFFLINE_USER_HEADER, session ? offlineUserKey(session.sub) : NO_USER);
    response.headers.set("Content-Language", getLocale(context));
  } catch {
    // An immutable response (a fetched one passed through): it says nothing, and nothing changes.
  }
  return response;
};

/**
 * A prefetch (the browser's `<link rel="prefetch">`, as React Router's intent prefetch makes): it says
 * `Sec-Purpose: prefetch` (Fetch Metadata; `Purpose` in older browsers). Not the learner opening the page.
 */
export const isPrefetch = (request: Request) =>
  /\bprefetch\b/.test(request.headers.get("Sec-Purpose") ?? request.headers.get("Purpose") ?? "");
