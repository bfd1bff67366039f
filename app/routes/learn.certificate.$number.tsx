import { createHash } from "node:crypto";
import { data, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.certificate.$number";
import { getInstance, getLocale } from "~/services/i18n.server";
import { appConfig } from "~/services/config.server";
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
  const view = publicView(cert, dateFormatter(locale, "UTC"), new Date(), appConfig(context).appUrl);
  // The words of a shared link's preview card, in the visitor's language.
  const description = getInstance(context).t("certificate.statement", {
    holder: view.holder,
    course: view.course.name,
  });
  const etag = `W/"${createHash("sha1")
    .update(JSON.stringify([view, locale]))
    .digest("base64url")}"`;
  return data(
    { view, description },
    { headers: { ETag: etag, "Cache-Control": CACHE, Vary: "Cookie, Accept-Language" } },
  );
}

/** The certificate's PNG (api/files/certificate-render.ts: the page at twice its size in points). */
const IMAGE = { width: 1684, height: 1190 };

/**
 * Open Graph and Twitter card tags — a link to this page shared in a chat app, on LinkedIn or
 * elsewhere shows the certificate's image, its name and whose it is.
 */
export function meta({ loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { view, description } = loaderData;
  const site = (matches[0]?.loaderData as { portalName?: string } | undefined)?.portalName;
  const title = `${view.templateName} — ${view.holder}`;
  return [
    { property: "og:type", content: "website" },
    ...(site ? [{ property: "og:site_name", content: site }] : []),
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: view.shareUrl },
    { property: "og:image", content: view.imageUrl },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(IMAGE.width) },
    { property: "og:image:height", content: String(IMAGE.height) },
    { property: "og:image:alt", content: description },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: view.imageUrl },
    { name: "twitter:image:alt", content: description },
    { tagName: "link", rel: "canonical", href: view.shareUrl },
  ];
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
