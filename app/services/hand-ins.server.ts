import { data } from "react-router";
import { endpoints } from "#domain/contract/endpoints";
import { formError } from "~/common/forms/errors";
import { chosenFiles } from "~/common/forms/chat";
import { LmsError, type LmsClient } from "~/services/lms.server";
import { HAND_IN_FILES } from "~/common/constants";

/** An assignment's hand-in as its learner sees it; anything but hers (or an activity without one) is a 404. */
export async function loadHandIn(lms: LmsClient, objectiveId: string, partId: string) {
  return lms.get(endpoints.handIn(objectiveId, partId)).catch((err: unknown) => {
    if (err instanceof LmsError && [400, 403, 404].includes(err.status))
      throw data("course-unavailable", { status: 404 });
    throw err;
  });
}

export type SavedHandIn =
  { ok: true } | { ok: false; status: number; fieldErrors: Record<string, string[]>; body: string };

/**
 * Saves the hand-in form's text, removals and files as a draft (the page's form, or its upload with progress);
 * the API's refusals of a field or a file come back as the form's field errors, the text as typed.
 */
export async function saveHandInForm(
  lms: LmsClient,
  target: { id: string; objectiveId: string; activityPartId: string },
  form: FormData,
): Promise<SavedHandIn> {
  const body = String(form.get("body") ?? "");
  const upload = new FormData();
  for (const [k, v] of Object.entries(target)) upload.set(k, v);
  upload.set("body", body);
  upload.set("removeFileIds", form.getAll("remove").map(String).join(","));
  for (const f of chosenFiles(form.getAll(HAND_IN_FILES))) upload.append(HAND_IN_FILES, f, f.name);
  try {
    await lms.command(endpoints.saveHandIns, upload);
    return { ok: true };
  } catch (err) {
    if (err instanceof LmsError && (err.status === 400 || err.status === 413)) {
      const fieldErrors: Record<string, string[]> = {};
      for (const [field, list] of Object.entries(err.messages)) {
        const into = field === "body" || field === HAND_IN_FILES ? field : "";
        (fieldErrors[into] ??= []).push(...list.map((m) => formError(m.code, m.params)));
      }
      return { ok: false, status: err.status, fieldErrors, body };
    }
    throw err;
  }
}
