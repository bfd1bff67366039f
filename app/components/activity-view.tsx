import { Link } from "react-router";
import { useTranslation } from "~/common/i18n";
import { Suspense } from "react";
import { Gallery, GalleryFromHtml } from "./viewer/gallery";
import { LazyIframe } from "./viewer/lazy-iframe";
import { lazyWidget, serverRenderedWidget } from "./lazy-widget";
import type { ActivityBody } from "~/common/views/activity";
import { textLanguage } from "#domain/locales";

/** The SCORM player and its runtime load with a SCORM activity only (issue 15: never in other activities' first load). */
const ScormPlayer = lazyWidget(() => import("./scorm/scorm-player"));

/** The LTI launch (frame, forms) loads lazily; without JavaScript it is rendered whole on the server. */
const LtiLaunch = serverRenderedWidget(() => import("./lti/lti-launch"));

/**
 * The PDF viewer loads with a PDF activity only: a text lesson's first load does without it. The
 * server renders it whole, so the browser's own viewer shows before its code arrives.
 */
const PdfWithResume = serverRenderedWidget(() => import("./viewer/pdf-with-resume"));

/** Spec 1/3: the activity kinds — text, files (PDF viewer, gallery), video, event, LTI, module. */
export function ActivityView({
  body,
  title,
  language = null,
}: {
  body: ActivityBody;
  title: string;
  /** The course's language: a text keeps its own direction (issue 25 item 2). */
  language?: string | null;
}) {
  const { t } = useTranslation();
  switch (body.kind) {
    case "text":
      return <GalleryFromHtml html={body.html} className="activity-text" {...textLanguage(language)} />;
    case "pdf":
      return <PdfWithResume body={body} title={title} />;
    case "images":
      return <Gallery images={body.images} label={title} />;
    case "file":
      return (
        <p className="activity-file">
          <a className="button" href={body.url} download>
            {t("content.download", { name: body.fileName })}
          </a>{" "}
          {body.size ? <span>{t("content.fileSize", { size: body.size })}</span> : null}
        </p>
      );
    case "video":
      return (
        <>
          <LazyIframe
            src={body.src}
            title={/^video\b/i.test(body.title) ? body.title : t("content.video", { title: body.title })}
            allow="autoplay; fullscreen; picture-in-picture"
          />
          {body.duration ? (
            <p className="activity-panel__meta">{t("content.duration", { count: body.duration })}</p>
          ) : null}
        </>
      );
    case "event":
      return (
        <div className="event">
          <p className={`event__status event__status--${body.status}`}>{t(`content.event.${body.status}`)}</p>
          <dl>
            <div>
              <dt>{t("content.event.when")}</dt>
              <dd>
                {body.when}
                {body.until ? ` – ${body.until}` : ""}
              </dd>
            </div>
            {body.location ? (
              <div>
                <dt>{t("content.event.where")}</dt>
                <dd>{body.location}</dd>
              </div>
            ) : null}
          </dl>
          {body.url && body.status !== "past" ? (
            <a className="button button--primary" href={body.url} target="_blank" rel="noopener noreferrer">
              {t("content.event.join")}
            </a>
          ) : null}
          {body.description ? <p>{body.description}</p> : null}
          <p className="activity-panel__meta">{t("content.event.timezone", { timezone: body.timezone })}</p>
        </div>
      );
    case "lti":
      if (body.launch) return <LtiLaunch {...body.launch} title={title} />;
      return body.toolUrl ? (
        <p>
          <a className="button button--primary" href={body.toolUrl} target="_blank" rel="noopener noreferrer">
            {t("content.openTool")}
          </a>{" "}
          <span className="activity-panel__meta">{t("content.toolNote")}</span>
        </p>
      ) : null;
    case "scorm":
      return (
        <Suspense fallback={<p className="notice">{t("scorm.loading")}</p>}>
          <ScormPlayer body={body} />
        </Suspense>
      );
    case "assessment":
      return (
        <div className="qti-summary">
          {body.state === "inGrading" ? <p>{t("assessment.inGrading")}</p> : null}
          {body.state === "done" && body.survey ? <p>{t("assessment.surveyDone")}</p> : null}
          {body.score ? (
            <p>
              {t("assessment.score", body.score)}
              {body.passed !== null ? ` · ${body.passed ? t("assessment.passed") : t("assessment.notPassed")}` : null}
            </p>
          ) : null}
          {body.href ? (
            <p>
              <Link
                className="button button--primary"
                to={
                  body.state === "done" || body.state === "inGrading"
                    ? body.reviewAllowed
                      ? `${body.href}?review`
                      : body.href
                    : body.href
                }
              >
                {body.state === "notStarted"
                  ? t(body.survey ? "assessment.openSurvey" : "assessment.open")
                  : body.state === "inProgress"
                    ? t("assessment.continue")
                    : body.reviewAllowed
                      ? t("assessment.review")
                      : t("assessment.result")}
              </Link>
            </p>
          ) : (
            <p className="activity-panel__meta">
              {t(body.survey ? "assessment.startSurveyFirst" : "assessment.startFirst")}
            </p>
          )}
        </div>
      );
    case "module":
      return <p>{t("content.moduleContains", { count: body.count })}</p>;
    default:
      return null;
  }
}
