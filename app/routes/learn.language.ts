import { redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/learn.language";
import { SUPPORTED_LOCALES } from "#domain/locales";
import { localeCookie } from "~/services/i18n.server";
import { safeTarget } from "~/services/auth.server";
import { appConfig } from "~/services/config.server";
import { readForm } from "~/services/forms.server";
import { parseSubmission } from "~/common/forms/parse";
import { state } from "~/services/request.server";
import { noteMailLanguage } from "~/services/user.server";

/** The language menu's choice (spec 9) and the page to return to. */
const languageSchema = z.object({ lng: z.enum(SUPPORTED_LOCALES), returnTo: z.string().max(2048).optional() });

/** The language menu posts here; the choice is kept in a cookie (spec 9) and the page reloads in it. */
export async function action({ request, context }: Route.ActionArgs) {
  const config = appConfig(context);
  const form = await readForm(request);
  const back = safeTarget(form.get("returnTo"), config);
  const submission = parseSubmission(form, languageSchema);
  // An unknown language (a stale or tampered menu) changes nothing: back to the page.
  if (submission.status !== "success") return redirect(back, 303);
  // A signed-in learner's e-mails follow the language they choose.
  const s = state(context);
  if (await s.session()) noteMailLanguage(await s.lms(), { locale: submission.value.lng });
  return redirect(back, { status: 303, headers: { "Set-Cookie": await localeCookie.serialize(submission.value.lng) } });
}

export async function loader() {
  return redirect("/learn");
}
