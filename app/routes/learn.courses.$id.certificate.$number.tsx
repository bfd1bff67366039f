import { Link, useLoaderData, useRouteLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.courses.$id.certificate.$number";
import { endpoints } from "#domain/contract/endpoints";
import { state } from "~/services/request.server";
import { getLocale } from "~/services/i18n.server";
import { dateFormatter } from "~/services/format.server";
import { requireCourseId } from "~/services/course-id.server";
import { LmsError } from "~/services/lms.server";
import {
  loadOwnCertificate,
  previewView,
  requireCertificateNumber,
  type PreviewView,
} from "~/services/certificates.server";
import { ShareLink } from "~/components/share-link";
import { AddToLinkedIn, CertificateDownloads, CertificateStatusBadge } from "~/components/certificate-parts";

export const handle = {
  title: (d: { view?: PreviewView } | undefined) => d?.view?.templateName ?? null,
  breadcrumb: (d: { view?: PreviewView; courseUrl?: string } | undefined, t: (k: string) => string) =>
    d?.view
      ? { label: `${d.view.course.name} — ${t("certificates.name")}` }
      : { label: t("breadcrumbs.courses-list"), href: "/learn/courses" },
};

/**
 * /learn/courses/{objectiveId}/certificate/{certificateNumber} (spec 2.1, 2.7): the learner's own
 * issued certificate — another learner's number, or one of another course, is a 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const number = requireCertificateNumber(params.number);
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const [record, access] = await Promise.all([
    loadOwnCertificate(lms, id, number),
    lms.get(endpoints.objectiveAccess(id)).catch((err: unknown) => {
      if (err instanceof LmsError && err.status < 500) return null;
      throw err;
    }),
  ]);
  const course = access?.objective ?? { name: record.certificateTemplate.name, code: "", description: "" };
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  const view = previewView(
    record,
    { name: course.name, code: course.code, description: course.description },
    shell.user.name,
    fmt,
    new Date(),
    s.config.appUrl,
  );
  return { view, courseUrl: `/learn/courses/${id}` };
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export default function CertificatePreview() {
  const { view, courseUrl } = useLoaderData<typeof loader>();
  const portalName = useRouteLoaderData<{ portalName: string }>("root")?.portalName ?? "";
  const { t } = useTranslation();
  return (
    <article className="certificate" aria-labelledby="certificate-title">
      <header className="certificate__header">
        <p className="certificate__eyebrow">{t("certificate.eyebrow")}</p>
        <h1 id="certificate-title">{view.templateName}</h1>
        <CertificateStatusBadge status={view.status} />
      </header>
      <section className="certificate__about" aria-labelledby="certificate-about">
        <h2 id="certificate-about">{t("certificate.about")}</h2>
        <p>{t("certificate.aboutText", { student: view.student, course: view.course.name })}</p>
      </section>
      <div className="certificate__grid">
        <section aria-labelledby="certificate-details">
          <h2 id="certificate-details">{t("certificate.details")}</h2>
          <dl className="certificate__facts">
            <Row label={t("certificate.student")}>{view.student}</Row>
            <Row label={t("certificate.courseName")}>
              <Link to={courseUrl}>{view.course.name}</Link>
            </Row>
            {view.course.code ? <Row label={t("certificate.courseCode")}>{view.course.code}</Row> : null}
            <Row label={t("certificates.number")}>
              <span className="certificate__number">{view.number}</span>
            </Row>
          </dl>
        </section>
        <section aria-labelledby="certificate-results">
          <h2 id="certificate-results">{t("course.results")}</h2>
          <dl className="certificate__facts">
            <Row label={t("course.outcome")}>
              {view.passed ? t("course.passed") : view.passed === false ? t("course.failed") : "—"}
            </Row>
            {view.score ? (
              <Row label={t("course.score")}>
                {view.score.percent}%
                {view.score.points ? (
                  <>
                    {" "}
                    <span className="certificate__points">
                      ({t("course.points", { score: view.score.points.score, max: view.score.points.maxScore })})
                    </span>
                  </>
                ) : null}
              </Row>
            ) : null}
            {view.grade ? <Row label={t("course.grade")}>{view.grade.name}</Row> : null}
          </dl>
        </section>
        <section aria-labelledby="certificate-dates">
          <h2 id="certificate-dates">{t("certificate.validity")}</h2>
          <dl className="certificate__facts">
            <Row label={t("certificate.issued")}>{view.issued}</Row>
            {view.completed ? <Row label={t("certificate.completed")}>{view.completed}</Row> : null}
            <Row label={t("certificate.expires")}>
              {view.expires ?? t("certificates.neverExpires")}
              {view.status === "expired" ? (
                <>
                  {" "}
                  <span className="certificates__expired">{t("certificates.expired")}</span>
                </>
              ) : null}
            </Row>
          </dl>
        </section>
      </div>
      {view.course.description ? (
        <section className="certificate__description" aria-labelledby="certificate-description">
          <h2 id="certificate-description">{t("certificate.description")}</h2>
          <p>{view.course.description}</p>
        </section>
      ) : null}
      <section className="certificate__actions" aria-labelledby="certificate-download">
        <h2 id="certificate-download">{t("certificate.download")}</h2>
        <CertificateDownloads downloads={view.downloads} primary credentialLabel="certificate.downloadCredential" />
        <ShareLink
          url={view.shareUrl}
          labels={{ share: "certificate.share", field: "certificate.shareLabel" }}
          id="certificate-share-url"
        />
        <AddToLinkedIn
          status={view.status}
          certification={{
            name: view.templateName,
            organization: portalName,
            issued: view.issuedAt,
            expires: view.expiresAt,
            url: view.shareUrl,
            number: view.number,
          }}
        />
      </section>
    </article>
  );
}
