/**
 * Certificate downloads through the app (issue 12): the stored PDF and PNG and the credential,
 * streamed from the LMS API with ranges passed through. The preview's are access-checked (the
 * holder's session); the public page's are public, limited per address by the API.
 */
import type { Endpoint } from "#domain/contract/endpoints";
import type { LmsClient } from "./lms.server";

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
  options: { cache: string; query?: string; filename?: string },
): Promise<Response> {
  const range = request.headers.get("range");
  const res = await lms.raw(
    request.method === "HEAD" ? "HEAD" : "GET",
    options.query ? { ...endpoint, path: `${endpoint.path}?${options.query}` } : endpoint,
    range ? { Range: range } : {},
  );
  if (!res.ok)
    return new Response(res.status === 429 ? "Too many requests" : "Not found", {
      status: res.status === 429 || res.status === 416 ? res.status : 404,
      headers: {
        "Cache-Control": "no-store",
        ...(res.headers.get("retry-after") ? { "Retry-After": res.headers.get("retry-after")! } : {}),
      },
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
