import type { Route } from "./+types/oidc.logout";
import { logout } from "~/services/auth.server";

/** /oidc/logout: a POST from the user menu (or a GET link) ends the app session, then the provider's. */
export async function action({ request }: Route.ActionArgs) {
  return logout(request);
}

export async function loader({ request }: Route.LoaderArgs) {
  return logout(request);
}
