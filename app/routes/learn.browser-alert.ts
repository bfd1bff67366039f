import { redirect } from "react-router";
import type { Route } from "./+types/learn.browser-alert";
import { BROWSER_ALERT_COOKIE } from "~/services/browser-support.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { INTENT } from "~/common/forms/intents";

/** Only a path of this site (never `//host` or a URL): where the learner was. */
const backTo = (raw: FormDataEntryValue | null) =>
  typeof raw === "string" && raw.startsWith("/") && !raw.startsWith("//") && !raw.startsWith("/\\") ? raw : "/learn";

/** Spec 2.11: dismissing the browser-support alert — a form post that sets a cookie and goes back. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (intentOf(form) !== INTENT.dismissBrowserAlert) badRequest();
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return redirect(backTo(form.get("returnTo")), {
    headers: {
      "Set-Cookie": `${BROWSER_ALERT_COOKIE}=dismissed; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure}`,
    },
  });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
