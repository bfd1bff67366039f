import type { Route } from "./+types/learn.scorm.$activityId.$";
import { readPrivateFile, signInFirst } from "~/services/files.server";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { isSafeEntryName } from "#domain/scorm";

/**
 * /learn/scorm/{activityId}/{path}: the files of an activity's SCORM package (issue 15), served
 * same-origin so the SCO in the iframe reaches the player's `API`/`API_1484_11` in its parent window;
 * streamed from the LMS storage API with ranges and media types, to the learners it is open to.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const path = params["*"] ?? "";
  if (!params.activityId || !isUuid(params.activityId) || !isSafeEntryName(path))
    return new Response("Not found", { status: 404 });
  const res = await readPrivateFile(request, context, endpoints.scormFile(params.activityId, path));
  if (!res) return signInFirst();
  if (!res.ok && res.status !== 206)
    return new Response(res.status === 403 ? "Forbidden" : "Not found", {
      status: res.status === 416 ? 416 : res.status === 403 ? 403 : 404,
      headers: { "Cache-Control": "no-store" },
    });
  // Unlike an attachment (files.server.ts), a package's pages run as this origin: SCORM needs the
  // SCO and the player in one origin. Only authors and administrators import packages (decision 025).
  const headers = new Headers();
  for (const h of ["content-type", "content-length", "content-range", "accept-ranges", "cache-control"]) {
    const v = res.headers.get(h);
    if (v) headers.set(h, v);
  }
  headers.set("X-Frame-Options", "SAMEORIGIN");
  return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers });
}
