import { data } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/oidc.logout";
import { logout } from "~/services/auth.server";
import { appConfig, providerSignOut, sessionStore } from "~/services/config.server";

export const handle = { title: (_: unknown, t: (k: string) => string) => t("signin.signOutTitle") };

/**
 * /oidc/logout (spec 7.1). Signing out is a same-origin POST (the user menu's button, the cross-tab
 * flag of spec 4.15): it revokes the session and ends the provider's. A GET — a link, or a page on
 * another site — changes nothing: it shows a page with the sign-out button.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return logout(request, appConfig(context), sessionStore(context), providerSignOut(context));
}

export async function loader() {
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

export default function SignOut() {
  const { t } = useTranslation();
  return (
    <section className="error-page" aria-labelledby="sign-out-title">
      <h1 id="sign-out-title">{t("signin.signOutTitle")}</h1>
      <p>{t("signin.signOutText")}</p>
      <form method="post" action="/oidc/logout">
        <button type="submit" className="button button--primary">
          {t("userMenu.signOut")}
        </button>
      </form>
    </section>
  );
}
