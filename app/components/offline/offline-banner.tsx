import { useTranslation } from "~/common/i18n";

/**
 * Issue 31: the notice of a page kept for offline reading. Rendered (hidden) only into the copy the
 * service worker keeps; the service worker shows it when it serves the copy offline (decision 044).
 */
export function OfflineCopyBanner({ savedAt }: { savedAt: string }) {
  const { t } = useTranslation();
  return (
    <p className="offline-banner" data-offline-banner="" hidden role="status">
      <span aria-hidden="true" className="offline-banner__icon" />
      {t("offline.banner", { date: savedAt })}
    </p>
  );
}
