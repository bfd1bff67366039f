/**
 * Certificate downloads through the app: the stored PDF and PNG and the credential,
 * streamed from the LMS API with ranges passed through. The preview's are access-checked (the
 * holder's session); the public page's are public, limited per address by the API.
 */
import type { RouterContextProvider } from "react-router";
import type { Endpoint } from "#domain/contract/endpoints";
import { retryAfterOf, type LmsClient } from "./lms.server";
import { tooManyRequestsText } from "./command-errors.server";

const PASS_THROUGH = ["content-type", "content-length", "content-range", "accept-ranges", "content-disposition"];

export type CertificateDownload = "pdf" | "png" | "credential";

export function isDownloadKind(kind: string | undefined): kind is CertificateDownload {
  return kind === "pdf" || kind === "png" || kind === "credential";
}

/** Streams the API's answer as a download, or a plain 4xx (a file is never a page). */
export async function streamDownload(
  request: Request,
  lms: LmsClient,
  endpoint: Endpoint<unknown>,
  options: { cache: string; query?: string; filename?: string; context: Readonly<RouterContextProvider> },
): Promise<Response> {
  const range = request.headers.get("range");
  const res = await lms.raw(
    request.method === "HEAD" ? "HEAD" : "GET",
    options.query ? { ...endpoint, path: `${endpoint.path}?${options.query}` } : endpoint,
    range ? { Range: range } : {},
  );
  // The API's 429 is the app's, in the learner's language, with when to come back.
  if (res.status === 429) return tooManyRequestsText(options.context, retryAfterOf(res));
  if (!res.ok)
    return new Response("Not found", {
      status: res.status === 416 ? 416 : 404,
      headers: { "Cache-Control": "no-store" },
    });
  const headers = new Headers();
  for (const h of PASS_THROUGH) {
    const v = res.headers.get(h);
    if (v) headers.set(h, v);
  }
  if (options.filename) headers.set("Content-Disposition", `attachment; filename="${options.filename}"`);
  headers.set("Cache-Control", options.cache);
  headers.set("X-Content-Type-Options", "nosniff");
  return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers });
}
