import type { Route } from "./+types/oidc.login";
import { startLogin } from "~/services/auth.server";
import { appConfig } from "~/services/config.server";
import { getLocale } from "~/services/i18n.server";
import { reloginFramePage } from "~/services/relogin.server";

/** GET /oidc/login?redirectUrl=…&provider=… (spec 7.1). Inside an iframe, asks the parent to re-login (spec 8). */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.headers.get("sec-fetch-dest") === "iframe")
    return reloginFramePage(request, getLocale(context), appConfig(context));
  return startLogin(request, appConfig(context));
}
