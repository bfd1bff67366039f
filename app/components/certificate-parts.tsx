import { useTranslation } from "~/i18n/lite";
import type { CertificateStatus } from "#domain/certificates";

/** Issue 12: whether a certificate is valid, expired or revoked — in words, not colour alone. */
export function CertificateStatusBadge({ status }: { status: CertificateStatus }) {
  const { t } = useTranslation();
  return (
    <p className={`certificate-status certificate-status--${status}`} role="status">
      {t(`certificate.status.${status}`)}
    </p>
  );
}
