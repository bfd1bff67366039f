import { useTranslation } from "~/common/i18n";
import type { CertificateStatus } from "#domain/certificates";
import { linkedInAddToProfileUrl, type LinkedInCertification } from "#domain/linkedin";

/** Whether a certificate is valid, expired or revoked — in words, not colour alone. */
export function CertificateStatusBadge({ status }: { status: CertificateStatus }) {
  const { t } = useTranslation();
  return (
    <p className={`certificate-status certificate-status--${status}`} role="status">
      {t(`certificate.status.${status}`)}
    </p>
  );
}

/** The certificate's downloads: the PDF (primary where the page says so), the image and the credential. */
export function CertificateDownloads({
  downloads,
  primary = false,
  credentialLabel,
}: {
  downloads: { pdf: string; png: string; credential: string };
  primary?: boolean;
  credentialLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ul className="certificate__downloads">
        <li>
          <a className={primary ? "button button--primary" : "button"} href={downloads.pdf} download>
            {t("certificates.download")}
          </a>
        </li>
        <li>
          <a className="button" href={downloads.png} download>
            {t("certificate.downloadPng")}
          </a>
        </li>
        <li>
          <a className="button" href={downloads.credential} download>
            {t(credentialLabel)}
          </a>
        </li>
      </ul>
      <p className="certificate__hint">{t("certificate.credentialHint")}</p>
    </>
  );
}

/**
 * "Add to LinkedIn profile" — LinkedIn's own form, filled in with the certificate (a valid one
 * only: an expired or revoked certificate is nothing to add).
 */
export function AddToLinkedIn({
  certification,
  status,
}: {
  certification: LinkedInCertification;
  status: CertificateStatus;
}) {
  const { t } = useTranslation();
  if (status !== "valid") return null;
  return (
    <p className="certificate__linkedin">
      <a className="button" href={linkedInAddToProfileUrl(certification)} target="_blank" rel="noopener noreferrer">
        {t("certificate.addToLinkedIn")}
      </a>
    </p>
  );
}
