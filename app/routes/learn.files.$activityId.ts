import type { Route } from "./+types/learn.files.$activityId";
import { createLmsClient } from "~/services/lms.server";
import { getLocale } from "~/services/i18n.server";
import { readSession } from "~/services/session.server";
import { appConfig, lmsTransport, sessionStore } from "~/services/config.server";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { fileHeaders } from "~/services/files.server";

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
  const headers = fileHeaders(res.headers);
  if (!res.ok && res.status !== 206)
    return new Response(res.status === 403 ? "Forbidden" : res.status === 401 ? "Please sign in" : "Not found", {
      status: res.status === 416 ? 416 : res.status,
      headers: { "Cache-Control": "no-store" },
    });
  return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers });
}
