import type { Route } from "./+types/learn.login-callback";
import { finishLogin } from "~/services/auth.server";

/** /learn/login-callback?redirectUrl=…&provider=… — the sign-in return (spec 2.1). */
export async function loader({ request }: Route.LoaderArgs) {
  return finishLogin(request);
}
