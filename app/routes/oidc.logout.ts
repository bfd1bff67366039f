import type { Route } from "./+types/oidc.logout";
import { logout } from "~/services/auth.server";
import { appConfig } from "~/services/config.server";

/** /oidc/logout: a POST from the user menu (or a GET link) ends the app session, then the provider's. */
export async function action({ request, context }: Route.ActionArgs) {
  return logout(request, appConfig(context));
}

export async function loader({ request, context }: Route.LoaderArgs) {
  return logout(request, appConfig(context));
}
