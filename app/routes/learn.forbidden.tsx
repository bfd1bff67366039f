import { data } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.forbidden";

export const handle = { title: (_: unknown, t: (k: string) => string) => t("forbidden.title") };

/** /learn/forbidden (spec 2.1, 2.10): 403 with no primary button. */
export async function loader() {
  return data(null, { status: 403 });
}

export default function Forbidden(_: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">{t("errors.statusCode", { status: 403 })}</p>
      <h1 id="error-title">{t("forbidden.title")}</h1>
      <p>{t("forbidden.text")}</p>
    </section>
  );
}
