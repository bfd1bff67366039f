import { data } from "react-router";
import { useTranslation } from "~/common/i18n";

/**
 * /learn/offline (issue 31 item 3): the page the service worker shows for a page never kept for
 * offline reading, in the learner's language (it fetches this page again when the language changes).
 * Nobody's: no menu, nothing of the learner's. The service worker fills in the courses kept on this
 * device and, after a write that could not be sent, says so.
 */
export const handle = { bare: true, title: (_: unknown, t: (k: string) => string) => t("offline.title") };

export async function loader() {
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

export default function Offline() {
  const { t } = useTranslation();
  return (
    <section className="offline-page" aria-labelledby="offline-title">
      <h1 id="offline-title">{t("offline.title")}</h1>
      <p className="notice notice--critical" data-offline-not-sent="" hidden role="alert">
        {t("offline.notSent")}
      </p>
      <p>{t("offline.text")}</p>
      <section className="offline-page__saved" data-offline-saved="" hidden aria-labelledby="offline-saved-title">
        <h2 id="offline-saved-title">{t("offline.saved")}</h2>
        <ul data-offline-saved=""></ul>
      </section>
      <p>
        {/* An empty href is the address this page was shown for: trying again is opening it again. */}
        <a className="button button--primary" href="">
          {t("offline.retry")}
        </a>
      </p>
    </section>
  );
}
