import type { Route } from "./+types/learn.login-callback";
import { finishLogin } from "~/services/auth.server";
import { appConfig } from "~/services/config.server";

/** /learn/login-callback?redirectUrl=…&provider=… — the sign-in return (spec 2.1). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return finishLogin(request, appConfig(context));
}
