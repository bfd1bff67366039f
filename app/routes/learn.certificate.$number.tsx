import { createHash } from "node:crypto";
import { data, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.certificate.$number";
import { getLocale } from "~/services/i18n.server";
import { dateFormatter } from "~/services/format.server";
import { publicLms } from "~/services/user.server";
import {
  loadPublicCertificate,
  publicView,
  requireCertificateNumber,
  type PublicView,
} from "~/services/certificates.server";
import { CertificateDownloads, CertificateStatusBadge } from "~/components/certificate-parts";

/** Shown without the menu (spec 2.1 'Public certificate, no menu'); the root renders a bare page. */
export const handle = {
  bare: true,
  title: (d: { view?: PublicView } | undefined) => (d?.view ? `${d.view.templateName} — ${d.view.holder}` : null),
};

/**
 * Revocation shows within a minute: 30 s in the browser, at most 10 s in the HTTP front's memory of
 * the page and 20 s in the app's memory of the lookup (`loadPublicCertificate`).
 */
const CACHE = "public, max-age=30";

/**
 * /learn/certificate/{certificateNumber} (spec 2.1, 6): the public certificate — no sign-in, no user
 * fetch, the holder's name, the course, the dates, the grade where the results are revealed, and
 * whether it is valid, expired or revoked. Cacheable: an ETag of what it shows, a short max-age.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const number = requireCertificateNumber(params.number);
  const cert = await loadPublicCertificate(publicLms(context), number);
  const locale = getLocale(context);
  // A visitor has no zone of their own: the dates are UTC days.
  const view = publicView(cert, dateFormatter(locale, "UTC"), new Date());
  const etag = `W/"${createHash("sha1")
    .update(JSON.stringify([view, locale]))
    .digest("base64url")}"`;
  return data({ view }, { headers: { ETag: etag, "Cache-Control": CACHE, Vary: "Cookie, Accept-Language" } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function PublicCertificate() {
  const { view } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <article className="certificate certificate--public" aria-labelledby="certificate-title">
      <header className="certificate__header">
        <p className="certificate__eyebrow">{t("certificate.publicEyebrow")}</p>
        <h1 id="certificate-title">{view.templateName}</h1>
        <CertificateStatusBadge status={view.status} />
      </header>
      <p className="certificate__statement">
        {t("certificate.statement", { holder: view.holder, course: view.course.name })}
      </p>
      <dl className="certificate__facts">
        <div>
          <dt>{t("certificate.holder")}</dt>
          <dd>{view.holder}</dd>
        </div>
        <div>
          <dt>{t("certificate.courseName")}</dt>
          <dd>
            {view.course.name} <span className="certificate__code">({view.course.code})</span>
          </dd>
        </div>
        <div>
          <dt>{t("certificate.issued")}</dt>
          <dd>{view.issued}</dd>
        </div>
        <div>
          <dt>{t("certificate.expires")}</dt>
          <dd>
            {view.expires ?? t("certificates.neverExpires")}
            {view.status === "expired" ? (
              <>
                {" "}
                <span className="certificates__expired">{t("certificates.expired")}</span>
              </>
            ) : null}
          </dd>
        </div>
        {view.grade ? (
          <div>
            <dt>{t("course.grade")}</dt>
            <dd>{view.grade}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t("certificates.number")}</dt>
          <dd>
            <span className="certificate__number">{view.number}</span>
          </dd>
        </div>
      </dl>
      <CertificateDownloads downloads={view.downloads} credentialLabel="certificate.verify" />
    </article>
  );
}
