import type { Route } from "./+types/learn.files.$activityId";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { fileHeaders, readPrivateFile, signInFirst } from "~/services/files.server";

/**
 * /learn/files/{activityId}: private activity files for the signed-in learner (spec 7.5), streamed
 * from the LMS storage API with range requests passed through. 401 without a session and 403 without
 * access, so the PDF viewer can say which (spec 8) — never a redirect to sign-in.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  if (!params.activityId || !isUuid(params.activityId)) return new Response("Not found", { status: 404 });
  const res = await readPrivateFile(request, context, endpoints.activityFile(params.activityId));
  if (!res) return signInFirst();
  const headers = fileHeaders(res.headers);
  if (!res.ok && res.status !== 206)
    return new Response(res.status === 403 ? "Forbidden" : res.status === 401 ? "Please sign in" : "Not found", {
      status: res.status === 416 ? 416 : res.status,
      headers: { "Cache-Control": "no-store" },
    });
  return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers });
}
