import { redirect } from "react-router";
import { safeTarget } from "~/services/auth.server";
import { appConfig } from "~/services/config.server";
import type { Route } from "./+types/learn.browser-alert";
import { BROWSER_ALERT_COOKIE } from "~/services/browser-support.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { INTENT } from "~/common/forms/intents";

/**
 * Spec 2.11: dismissing the browser-support alert — a form post that sets a cookie and goes back to
 * where the learner was, by the one redirect rule (a path of this origin, else /learn; issue 29 item 4).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (intentOf(form) !== INTENT.dismissBrowserAlert) badRequest();
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return redirect(safeTarget(form.get("returnTo"), appConfig(context)), {
    headers: {
      "Set-Cookie": `${BROWSER_ALERT_COOKIE}=dismissed; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure}`,
    },
  });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
