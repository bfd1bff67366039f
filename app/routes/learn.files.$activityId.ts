import type { Route } from "./+types/learn.files.$activityId";
import { createLmsClient } from "~/services/lms.server";
import { getLocale } from "~/services/i18n.server";
import { readSession } from "~/services/session.server";
import { appConfig, lmsTransport, sessionStore } from "~/services/config.server";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";

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
 * /learn/files/{activityId}: private activity files for the signed-in learner (spec 7.5), streamed
 * from the LMS storage API with range requests passed through. 401 without a session and 403 without
 * access, so the PDF viewer can say which (spec 8) — never a redirect to sign-in.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  if (!params.activityId || !isUuid(params.activityId)) return new Response("Not found", { status: 404 });
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
    endpoints.activityFile(params.activityId),
    range ? { Range: range } : {},
  );
  const headers = new Headers();
  for (const h of PASS_THROUGH) {
    const v = res.headers.get(h);
    if (v) headers.set(h, v);
  }
  // A file's media type is set by an author. Only types a browser shows without running anything
  // are served inline; anything else (HTML, SVG, XML…) is a download that cannot run as this origin.
  const type = (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!INLINE_TYPES.test(type)) {
    headers.set("Content-Disposition", "attachment");
    headers.set("Content-Type", "application/octet-stream");
    // Even if a browser opened it anyway, it would run in an opaque origin with nothing allowed.
    headers.set("Content-Security-Policy", "default-src 'none'; sandbox");
  }
  headers.set("X-Content-Type-Options", "nosniff");
  if (!res.ok && res.status !== 206)
    return new Response(res.status === 403 ? "Forbidden" : res.status === 401 ? "Please sign in" : "Not found", {
      status: res.status === 416 ? 416 : res.status,
      headers: { "Cache-Control": "no-store" },
    });
  return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers });
}
