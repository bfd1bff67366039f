import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/platform";

export const handle = { title: (_: unknown, t: (k: string) => string) => t("platform.title") };

/**
 * Users whose licences are only research or knowledge-model platform licences are sent to the
 * platform app (spec 6, PLATFORM_URL). It is deployed separately; when PLATFORM_URL is left at its
 * default this page says so instead of a bare 404.
 */
export async function loader(_: Route.LoaderArgs) {
  return null;
}

export default function Platform() {
  const { t } = useTranslation();
  return (
    <section className="error-page" aria-labelledby="platform-title">
      <h1 id="platform-title">{t("platform.title")}</h1>
      <p>{t("platform.text")}</p>
    </section>
  );
}
