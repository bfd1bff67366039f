import { data } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.login-callback";
import { finishLogin } from "~/services/auth.server";
import { appConfig, sessionStore } from "~/services/config.server";
import { chosenLocale, getLocale } from "~/services/i18n.server";
import { signInLanguage } from "#domain/locale-negotiation";
import { lmsWithToken, noteMailLanguage } from "~/services/user.server";

export const handle = { title: (_: unknown, t: (k: string) => string) => t("errors.401.title") };

/**
 * /learn/login-callback?redirectUrl=…&provider=… — the sign-in return (spec 2.1). A finished sign-in
 * redirects; a cancelled or failed one (an `error` from the provider, an unknown or spent `state`, a
 * refused code) is the 401 page of spec 2.10 with a way to sign in again.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const chosen = await chosenLocale(request);
  const result = await finishLogin(request, appConfig(context), sessionStore(context), (accessToken) =>
    // A choice made on this browser is kept in her profile; otherwise the language she signs in
    // with is her e-mails' only, never her profile's (spec 9: the next browser's own language decides).
    noteMailLanguage(lmsWithToken(context, accessToken), signInLanguage({ chosen, negotiated: getLocale(context) })),
  );
  if (result instanceof Response) return result;
  return data({ reason: result.reason, retry: result.retry }, { status: 401, headers: result.headers });
}

export default function SignInFailed({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">{t("errors.statusCode", { status: 401 })}</p>
      <h1 id="error-title">{t("errors.401.title")}</h1>
      <p>{t(loaderData.reason === "cancelled" ? "signin.cancelled" : "signin.failed")}</p>
      <p>{t("errors.401.text")}</p>
      <a className="button button--primary" href={loaderData.retry}>
        {t("signin.tryAgain")}
      </a>
    </section>
  );
}
