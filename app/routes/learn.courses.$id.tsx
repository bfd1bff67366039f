import { Form, Link, useLoaderData, useNavigation } from "react-router";
import { useTranslation } from "~/common/i18n";
import { listCrumb } from "~/components/list-crumb";
import { listCameFrom } from "~/services/breadcrumbs.server";
import type { Route } from "./+types/learn.courses.$id";
import { state } from "~/services/request.server";
import { courseEvents } from "~/services/analytics.server";
import { getLocale } from "~/services/i18n.server";
import { dateFormatter } from "~/services/format.server";
import { requireCourseId } from "~/services/course-id.server";
import { courseView, finishAttempt, loadCourse, startCourse, type CourseView } from "~/services/course-page.server";
import { enrol } from "~/services/course-lists.server";
import { redirectWithToast } from "~/services/toast.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { parseSubmission } from "~/common/forms/parse";
import { INTENT } from "~/common/forms/intents";
import { z } from "zod";
import { ObjectiveWorkflowState } from "#domain/vocabulary";
import { AboutHtml, CollapsibleDescription, CourseCover, CourseHeader } from "~/components/course-summary";
import { LimitedActions, type Action } from "~/components/limited-actions";
import { ShareLink } from "~/components/share-link";
import { useLiveProgress } from "~/components/live-progress";
import { ScoreBadge, CourseLayers } from "~/components/course-parts";
import type { ListSlug } from "~/common/lists";
import { Suspense } from "react";
import { isOfflineCopyRequest } from "~/services/offline.server";
import { lazyWidget } from "~/components/lazy-widget";
import { useHydrated } from "~/components/use-hydrated";

/** "Make available offline" loads only where it can work (after hydration, with a service worker). */
const OfflineSave = lazyWidget(() => import("~/components/offline/offline-save"));

export const handle = {
  title: (d: { view?: CourseView } | undefined) => d?.view?.objective.name ?? null,
  breadcrumb: (d: { view?: CourseView; list?: ListSlug } | undefined, t: (k: string) => string) =>
    d?.view ? [listCrumb(d.list ?? "courses-list", t), { label: d.view.objective.name }] : listCrumb("courses-list", t),
};

/** Start or Start again (spec 4.3, 4.4): both ids make a double-clicked button one command each. */
const startSchema = z.object({ intent: z.literal(INTENT.start), workflowId: z.uuid(), enrolId: z.uuid() });
/** Finish the attempt (spec 4.5, 7.3; decision 030): the workflow and a command id per page view. */
const finishSchema = z.object({ intent: z.literal(INTENT.finish), workflowId: z.uuid(), commandId: z.uuid() });
/** Add to my courses (spec 4.3). */
const enrolSchema = z.object({ intent: z.literal(INTENT.enrol), enrolId: z.uuid() });

/** /learn/courses/{id}, /view/details and /{accessId} (spec 2.1, 2.5): 'About the course'. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const course = await loadCourse(lms, id, { certificatesOf: shell.user.id, config: s.config });
  const view = courseView(course, new Date(), dateFormatter(getLocale(context), shell.user.timezone), {
    compositeRetake: shell.settings.features.compositeRetake,
    tutor: shell.settings["learner.tutor"],
  });
  return {
    view,
    list: await listCameFrom(request, s.config),
    shareUrl: `${s.config.appUrl}/learn/open-catalog/${id}/view/details`,
    ids: { workflow: crypto.randomUUID(), enrol: crypto.randomUUID(), finish: crypto.randomUUID() },
    // This page is being kept for offline reading (its notice says when).
    offlineCopy: isOfflineCopyRequest(request)
      ? { savedAt: dateFormatter(getLocale(context), shell.user.timezone).dateTime(new Date().toISOString())! }
      : null,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const form = await readForm(request);
  switch (intentOf(form)) {
    case INTENT.start: {
      const submission = parseSubmission(form, startSchema);
      if (submission.status !== "success") badRequest();
      const { workflowId, enrolId } = submission.value;
      const fmt = dateFormatter(getLocale(context), shell.user.timezone);
      return startCourse(lms, s.config, id, workflowId, enrolId, fmt, courseEvents(request, context, id));
    }
    case INTENT.finish: {
      const submission = parseSubmission(form, finishSchema);
      if (submission.status !== "success") badRequest();
      return finishAttempt(
        lms,
        s.config,
        id,
        submission.value.workflowId,
        submission.value.commandId,
        courseEvents(request, context, id),
      );
    }
    case INTENT.enrol: {
      const submission = parseSubmission(form, enrolSchema);
      if (submission.status !== "success") badRequest();
      const result = await enrol(lms, id, submission.value.enrolId);
      if (result.ok) {
        const toast = { type: "success", key: "publicCatalog.courseEnrolled", values: { name: result.name } } as const;
        return redirectWithToast(`/learn/courses/${id}`, toast, s.config);
      }
      if (result.reason === "refused" && result.message) {
        const toast = {
          type: "critical",
          key: `apiErrors.${result.message.code}`,
          values: result.message.params,
        } as const;
        return redirectWithToast(`/learn/courses/${id}`, toast, s.config);
      }
      return redirectWithToast("/learn/courses", { type: "critical", key: "messages.unknownError" }, s.config);
    }
    default:
      badRequest();
  }
}

/** Decision 030: 'Finish the attempt' once the results are in or graded; says what finishing does. */
function FinishForm({ workflowId, commandId, enabled }: { workflowId: string; commandId: string; enabled: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.finish;
  return (
    <Form method="post" className="course-actions__form">
      <input type="hidden" name="intent" value={INTENT.finish} />
      <input type="hidden" name="workflowId" value={workflowId} />
      <input type="hidden" name="commandId" value={commandId} />
      <button
        type="submit"
        className="button button--primary"
        disabled={!enabled || busy}
        aria-describedby="finish-hint"
      >
        {busy ? t("finish.finishing") : t("finish.action")}
      </button>
      <p id="finish-hint" className="course-actions__hint">
        {t("finish.hint")}
      </p>
    </Form>
  );
}

/** Spec 2.5: the learner's certificates for this course, newest first; nothing when there are none. */
function Certificates({ certificates }: { certificates: CourseView["certificates"] }) {
  const { t } = useTranslation();
  if (certificates.length === 0) return null;
  return (
    <section className="certificates" aria-labelledby="certificates-title">
      <h2 id="certificates-title">{t("certificates.title")}</h2>
      <div className="certificates__scroll">
        <table className="stack-on-phone">
          <caption className="visually-hidden">{t("certificates.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("certificates.name")}</th>
              <th scope="col">{t("certificates.number")}</th>
              <th scope="col">{t("certificates.issued")}</th>
              <th scope="col">{t("certificates.expires")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("certificates.download")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {certificates.map((c) => (
              <tr key={c.id} className={c.expired ? "certificates__row--expired" : undefined}>
                <th scope="row">{c.name}</th>
                <td id={`certificate-${c.id}`} data-label={t("certificates.number")}>
                  <Link className="certificates__number" to={c.previewUrl}>
                    {c.number}
                  </Link>
                </td>
                <td className="certificates__date" data-label={t("certificates.issued")}>
                  {c.issued}
                </td>
                <td className="certificates__date" data-label={t("certificates.expires")}>
                  {c.expires ?? t("certificates.neverExpires")}
                  {c.expired ? (
                    <>
                      {" "}
                      <span className="certificates__expired">{t("certificates.expired")}</span>
                    </>
                  ) : null}
                  {c.revoked ? (
                    <>
                      {" "}
                      <span className="certificates__expired">{t("certificate.status.revoked")}</span>
                    </>
                  ) : null}
                </td>
                <td className="certificates__download">
                  {c.pdfUrl ? (
                    <a href={c.pdfUrl} download aria-describedby={`certificate-${c.id}`}>
                      {t("certificates.download")}
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function StartForm({
  label,
  ids,
  disabled,
  reason,
  primary = true,
}: {
  label: string;
  ids: { workflow: string; enrol: string };
  disabled: boolean;
  reason?: string;
  /** After a pass, "Start again" steps back for the certificate. */
  primary?: boolean;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.start;
  return (
    <Form method="post" className="course-actions__form">
      <input type="hidden" name="intent" value={INTENT.start} />
      <input type="hidden" name="workflowId" value={ids.workflow} />
      <input type="hidden" name="enrolId" value={ids.enrol} />
      <button
        type="submit"
        className={primary ? "button button--primary" : "button"}
        disabled={disabled || busy}
        aria-describedby={reason ? "course-message" : undefined}
      >
        {busy ? t("course.starting") : label}
      </button>
    </Form>
  );
}

export default function CourseDetails() {
  const { view, shareUrl, ids, offlineCopy } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const { t } = useTranslation();
  const b = view.buttons;
  const o = view.objective;
  // After a pass, the certificate it earned (valid) is the next step, above everything else.
  const earned =
    view.workflow?.state === ObjectiveWorkflowState.finished && view.result?.passed
      ? view.certificates.find((c) => !c.expired && !c.revoked)
      : undefined;
  // An LTI course in progress learns of its tool's score without a reload.
  useLiveProgress(o.id, view.isLti && view.workflow?.state === ObjectiveWorkflowState.inProgress);
  // Most important first: past the limit (spec 9) they go into "More actions".
  const actions: Action[] = [];
  if (b.start.visible)
    actions.push({
      key: "start",
      node: <StartForm label={t("course.start")} ids={ids} disabled={!b.start.enabled} reason={b.start.reason} />,
    });
  if (b.continue.visible)
    actions.push({
      key: "continue",
      node: b.continue.enabled ? (
        <Link className="button button--primary" to={`/learn/courses/${o.id}/view/content`}>
          {t("course.continue")}
        </Link>
      ) : (
        <button
          type="button"
          className="button button--primary"
          disabled
          aria-describedby={view.message?.key === b.continue.reason ? "course-message" : undefined}
        >
          {t("course.continue")}
        </button>
      ),
    });
  if (view.finish.visible && view.workflow)
    actions.push({
      key: "finish",
      node: <FinishForm workflowId={view.workflow.id} commandId={ids.finish} enabled={view.finish.enabled} />,
    });
  if (b.startAgain.visible)
    actions.push({
      key: "startAgain",
      node: (
        <StartForm
          label={t("course.startAgain")}
          ids={ids}
          disabled={!b.startAgain.enabled}
          reason={b.startAgain.reason}
          primary={!earned}
        />
      ),
    });
  if (!view.enrolled && b.addToMyCourses.visible)
    actions.push({
      key: "enrol",
      node: (
        <Form method="post">
          <input type="hidden" name="intent" value={INTENT.enrol} />
          <input type="hidden" name="enrolId" value={ids.enrol} />
          <button type="submit" className="button">
            {t("catalog.addToMyCourses")}
          </button>
        </Form>
      ),
    });
  if (b.review.visible)
    actions.push({
      key: "review",
      node: b.review.enabled ? (
        <Link className="button" to={`/learn/courses/${o.id}/view/content?viewType=REVIEW`}>
          {t("course.review")}
        </Link>
      ) : (
        <button
          type="button"
          className="button"
          disabled
          title={b.review.reason ? t(b.review.reason) : undefined}
          aria-describedby={view.message?.key === b.review.reason ? "course-message" : undefined}
        >
          {t("course.review")}
        </button>
      ),
    });
  actions.push({ key: "share", node: <ShareLink url={shareUrl} /> });
  return (
    <div className="course-page">
      <CourseLayers
        objectiveId={o.id}
        active="details"
        showContent={view.showContentLayer}
        hasAnnouncements={view.hasAnnouncements}
        hasTutor={view.hasTutor}
      />
      <article className="course-details">
        {/* Issue 31: the notice of a copy kept for offline reading, hidden until the service worker serves the copy
 offline. Only in a copy, which runs no script: the server alone renders it (not in the page's JavaScript). */}
        {import.meta.env.SSR && offlineCopy ? (
          <p className="offline-banner" data-offline-banner="" hidden role="status">
            <span aria-hidden="true" className="offline-banner__icon" />
            {t("offline.banner", { date: offlineCopy.savedAt })}
          </p>
        ) : null}
        <CourseHeader name={o.name} code={o.code} collections={o.showcases} language={o.language} />
        <div className="course-details__grid">
          <div>
            <CollapsibleDescription text={o.description} language={o.language} />
            {earned ? (
              <section className="next-step" aria-labelledby="next-step-title">
                <h2 id="next-step-title">{t("course.certificateReady")}</h2>
                <p>{t("course.certificateReadyText")}</p>
                <Link className="button button--primary" to={earned.previewUrl}>
                  {t("course.viewYourCertificate")}
                </Link>
              </section>
            ) : null}
            {view.message ? (
              <p className="notice" id="course-message" role="note">
                {t(view.message.key, { date: view.message.date })}
                {/* Issue 26: a lock says who can lift it. */}
                {view.message.key === "proctoring.locked" ? ` ${t("proctoring.whoUnlocks")}` : null}
              </p>
            ) : null}
            <section className="results" aria-labelledby="results-title">
              <h2 id="results-title">{t("course.results")}</h2>
              <dl className="results__list">
                <div>
                  <dt>{t("course.status")}</dt>
                  <dd>{t(view.stateKey)}</dd>
                </div>
                <div>
                  <dt>{t("courses.progress")}</dt>
                  <dd>{view.progress}%</dd>
                </div>
                {view.workflow?.started ? (
                  <div>
                    <dt>{t("course.startedOn")}</dt>
                    <dd>{view.workflow.started}</dd>
                  </div>
                ) : null}
                {view.workflow?.submitted ? (
                  <div>
                    <dt>{t("course.submittedOn")}</dt>
                    <dd>{view.workflow.submitted}</dd>
                  </div>
                ) : null}
                {view.dueDate ? (
                  <div>
                    <dt>{t("course.dueOn")}</dt>
                    <dd>{view.dueDate}</dd>
                  </div>
                ) : null}
                {view.result?.score ? (
                  <div>
                    <dt>{t("course.score")}</dt>
                    <dd>
                      <ScoreBadge score={view.result.score} />
                    </dd>
                  </div>
                ) : null}
                {view.result?.grade ? (
                  <div>
                    <dt>{t("course.grade")}</dt>
                    <dd>{view.result.grade.name}</dd>
                  </div>
                ) : null}
                {view.result ? (
                  <div>
                    <dt>{t("course.outcome")}</dt>
                    <dd>
                      {view.result.unresolved || view.result.passed === null
                        ? t("course.awaitingGrading")
                        : view.result.passed
                          ? t("course.passed")
                          : t("course.failed")}
                    </dd>
                  </div>
                ) : null}
                {view.certificates[0] ? (
                  <div>
                    <dt>{t("certificates.title")}</dt>
                    <dd>
                      <Link to={view.certificates[0].previewUrl}>{t("certificate.view")}</Link>
                    </dd>
                  </div>
                ) : null}
                {view.resultHidden ? (
                  <div>
                    <dt>{t("course.score")}</dt>
                    <dd>
                      {view.resultHiddenUntil
                        ? t("course.resultsHiddenUntil", { date: view.resultHiddenUntil })
                        : t("course.resultsHidden")}
                    </dd>
                  </div>
                ) : null}
              </dl>
              {view.enrolled ? (
                // This course's part of the grades page (its graded activities).
                <p className="results__more">
                  <Link to={`/learn/grades/${o.id}`}>{t("grades.courseLink")}</Link>
                </p>
              ) : null}
            </section>
            {view.previousAttempts.length > 0 ? (
              <details className="attempts">
                <summary>{t("course.previousAttempts", { count: view.previousAttempts.length })}</summary>
                <table>
                  <caption className="visually-hidden">{t("course.previousAttemptsCaption")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("course.date")}</th>
                      <th scope="col">{t("course.score")}</th>
                      <th scope="col">
                        <span className="visually-hidden">{t("course.review")}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {view.previousAttempts.map((a) => (
                      <tr key={a.id}>
                        <td>{a.date ?? "—"}</td>
                        <td>{a.score ? <ScoreBadge score={a.score} /> : t("course.resultsHidden")}</td>
                        <td>
                          {a.reviewable && a.workflowId ? (
                            <Link to={`/learn/courses/${o.id}/workflow/${a.workflowId}/view?viewType=REVIEW`}>
                              {t("course.review")}
                            </Link>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            ) : null}
            <Certificates certificates={view.certificates} />
            <AboutHtml html={o.about} language={o.language} />
          </div>
          <aside className="course-details__side" aria-label={t("course.actions")}>
            <CourseCover imageUrl={o.imageUrl} name={o.name}>
              {view.result?.score ? <ScoreBadge score={view.result.score} className="cover-result" /> : null}
              <div
                className="progress progress--cover"
                role="progressbar"
                aria-label={t("courses.progress")}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={view.progress}
              >
                <div className="progress__bar" style={{ inlineSize: `${view.progress}%` }} />
              </div>
            </CourseCover>
            <div className="course-actions">
              <LimitedActions actions={actions} />
              {view.enrolled && !view.mandatory ? (
                // A state, not an action: it does not count towards the limit.
                <button type="button" className="button" disabled>
                  {t("catalog.enrolled")}
                </button>
              ) : null}
            </div>
            {/* Issue 31: keep the course for reading offline (JavaScript and a service worker needed; a copy never hydrates). */}
            {hydrated && view.showContentLayer ? (
              <Suspense fallback={null}>
                <OfflineSave courseId={o.id} />
              </Suspense>
            ) : null}
          </aside>
        </div>
      </article>
    </div>
  );
}
