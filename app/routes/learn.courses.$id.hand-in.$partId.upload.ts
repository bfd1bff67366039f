import type { Route } from "./+types/learn.courses.$id.hand-in.$partId.upload";
import { isUuid } from "#domain/contract/common";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/course-id.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { loadHandIn, saveHandInForm } from "~/services/hand-ins.server";
import { setToast } from "~/services/toast.server";
import { INTENT } from "~/common/forms/intents";
import { HAND_IN_UPLOAD_HEADER } from "~/common/constants";

/**
 * POST /learn/courses/{id}/hand-in/{partId}/upload (issue 49): the hand-in page's "Save draft" and
 * "Review and hand in" sent by its script, so the browser can show each file's progress (a fetch cannot).
 * The same save as the page's action; it answers where to go next (`{ location }`, the page's toast in its
 * cookie) instead of a redirect, which the script's request would follow and spend the toast on. A refusal
 * answers 400/413 and the script posts the form the plain way, so the page shows the errors as always.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  if (!isUuid(params.partId) || request.headers.get(HAND_IN_UPLOAD_HEADER) !== "1") badRequest();
  const partId = params.partId;
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  // Who may post here is known before the form — and its files — is read.
  await loadHandIn(lms, id, partId);
  const form = await readForm(request);
  const commandId = String(form.get("commandId") ?? "");
  const intent = intentOf(form);
  if (!isUuid(commandId) || (intent !== INTENT.handInSave && intent !== INTENT.handInReview)) badRequest();
  const saved = await saveHandInForm(lms, { id: commandId, objectiveId: id, activityPartId: partId }, form);
  const headers = { "Cache-Control": "no-store" };
  if (!saved.ok) return Response.json({ refused: true }, { status: saved.status, headers });
  const back = `/learn/courses/${id}/hand-in/${partId}`;
  if (intent === INTENT.handInReview) return Response.json({ location: `${back}?confirm=1#confirm` }, { headers });
  const cookie = await setToast({ type: "success", key: "handIn.saved" }, s.config);
  return Response.json({ location: back }, { headers: { ...headers, "Set-Cookie": cookie } });
}
