import { redirect } from "react-router";
import type { Route } from "./+types/learn.language";
import { isSupportedLocale } from "#domain/locales";
import { localeCookie } from "~/services/i18n.server";
import { safeTarget } from "~/services/auth.server";
import { appConfig } from "~/services/config.server";

/** The language menu posts here; the choice is kept in a cookie (spec 9) and the page reloads in it. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const lng = form.get("lng");
  const back = safeTarget(form.get("returnTo"), request, appConfig(context));
  if (!isSupportedLocale(lng)) return redirect(back, 303);
  return redirect(back, { status: 303, headers: { "Set-Cookie": await localeCookie.serialize(lng) } });
}

export async function loader() {
  return redirect("/learn");
}
