import { Link, data } from "react-router";
import { useTranslation } from "~/common/i18n";

export const handle = { title: (_: unknown, t: (k: string) => string) => t("signin.signedOutTitle") };

/**
 * /learn/signed-out: where signing out ends — the provider's end-session sends the browser
 * here (a registered post-logout address). It says so, and offers the open catalog (no account needed)
 * and signing in again. Public: no session is read, nothing is fetched.
 */
export async function loader() {
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

export default function SignedOut() {
  const { t } = useTranslation();
  return (
    <section className="error-page" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title">{t("signin.signedOutTitle")}</h1>
      <p role="status">{t("signin.signedOutText")}</p>
      <p className="error-page__actions">
        <Link className="button button--primary" to="/learn/open-catalog">
          {t("signin.browseCatalog")}
        </Link>{" "}
        <a className="button" href="/oidc/login">
          {t("signin.tryAgain")}
        </a>
      </p>
    </section>
  );
}
