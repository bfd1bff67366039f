import { Link, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import { Suspense, useEffect, useRef } from "react";
import { data } from "react-router";
import { useTranslation } from "~/common/i18n";
import { listCrumb } from "~/components/list-crumb";
import { listCameFrom } from "~/services/breadcrumbs.server";
import { useScheduledRefresh } from "~/components/scheduled-refresh";
import { useLiveProgress } from "~/components/live-progress";
import type { Route } from "./+types/learn.courses.$id.view.content";
import { endpoints } from "#domain/contract/endpoints";
import { safeRedirectWithin } from "#domain/redirect";
import { state } from "~/services/request.server";
import { courseEvents } from "~/services/analytics.server";
import { getLocale } from "~/services/i18n.server";
import { requireCourseId } from "~/services/course-id.server";
import { loadCourse, submitCourse } from "~/services/course-page.server";
import {
  completeOnView,
  loadContentView,
  offlineCopyParts,
  recordLearnerIsHere,
  viewToComplete,
  workflowOfCourse,
} from "~/services/content-viewer.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { dateFormatter } from "~/services/format.server";
import { discussionPage, postToDiscussion } from "~/services/discussion.server";
import { saveTeamWork } from "~/services/group-work.server";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { LmsError } from "~/services/lms.server";
import { isOfflineCopyRequest, isOfflineReplay, isPrefetch } from "~/services/offline.server";
import { redirectWithToast, setToast } from "~/services/toast.server";
import { discussionPostSchema } from "~/common/forms/discussion";
import { INTENT } from "~/common/forms/intents";
import { parseSubmission } from "~/common/forms/parse";
import { CourseLayers } from "~/components/course-parts";
import { TocIcon } from "~/components/toc-icon";
import { useHydrated } from "~/components/use-hydrated";
import type { ListSlug } from "~/common/lists";
import type { ContentItem } from "~/common/views/content";
import {
  finishActivitySchema,
  resumeSchema,
  startActivitySchema,
  submitSchema,
  teamSaveSchema,
} from "~/common/forms/content";
import { ActivitySection, type ContentActionResult } from "~/components/content/activity-section";
import { lazyWidget } from "~/components/lazy-widget";
import { wouldFail, SubmitCourse, SubmitDialog } from "~/components/content/submit-course";
import { TableOfContents } from "~/components/content/table-of-contents";

/** Only with JavaScript and where the course allows it: its own chunk, not first-load JavaScript. */
const FullscreenToggle = lazyWidget(() => import("~/components/content/fullscreen-toggle"));

export const handle = {
  title: (d: { course?: { name: string } } | undefined) => d?.course?.name ?? null,
  // Spec 2.1: in the proctored sitting's frame the activity is the whole page.
  bare: (d: { framed?: boolean } | undefined) => (d?.framed ? ("framed" as const) : false),
  breadcrumb: (d: { course?: { id: string; name: string }; list?: ListSlug } | undefined, t: (k: string) => string) =>
    d?.course
      ? [listCrumb(d.list ?? "courses-list", t), { label: d.course.name, href: `/learn/courses/${d.course.id}` }]
      : null,
};

/**
 * /learn/courses/{id}/view/content[/{axis}] and /workflow/{workflowId}/view (spec 2.1, 2.5, 2.6):
 * the table of contents with icons and locks (4.12, 4.13), the activity kinds, the presentation
 * modes, starting/finishing activities, resume, and submitting the course. `viewType=REVIEW` shows a
 * finished attempt read-only when 4.7 allows it.
 */
export async function loader({ params, request, url, context }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const load = () =>
    loadContentView({
      lms,
      config: s.config,
      courseId: requireCourseId(params.id),
      workflowId: params.workflowId ?? null,
      axis: params.axis ?? null,
      url,
      locale: getLocale(context),
      timezone: shell.user.timezone,
    });
  let { view, openedActivity } = await load();
  // A page kept for offline reading is not the learner opening it (their place stays where it was),
  // nor is a prefetch (a pointer resting on a link), nor the submit confirmation shown over it.
  const keeping = isOfflineCopyRequest(request);
  const opening = !keeping && !isPrefetch(request) && !url.searchParams.has("confirm");
  // The activity shown completes when it is opened (a text, a PDF): done now, and the page shows it so.
  const toComplete = opening ? viewToComplete(view) : null;
  if (toComplete && (await completeOnView(lms, toComplete))) ({ view, openedActivity } = await load());
  if (openedActivity && opening) await recordLearnerIsHere(lms, openedActivity);
  return {
    ...view,
    list: await listCameFrom(request, s.config),
    offlineCopy: keeping ? offlineCopyParts(view, dateFormatter(getLocale(context), shell.user.timezone)) : null,
  };
}

export async function action({ params, request, url, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const form = await readForm(request);
  const coursePages = `/learn/courses/${id}`;
  const contentPage = `${coursePages}/view/content`;
  const backTo = (target: unknown) =>
    safeRedirectWithin(target, coursePages, { appOrigin: s.config.appUrl, fallback: contentPage });
  const commandFailed = async (err: unknown, here: string) => {
    if (!(err instanceof LmsError)) throw err;
    const fmt = dateFormatter(getLocale(context), shell.user.timezone);
    return redirectWithToast(backTo(here), commandErrorToast(err, fmt), s.config);
  };
  // The workflow a form names must be an attempt of this page's course (decision 018).
  const ofThisCourse = (workflowId: string) => workflowOfCourse(lms, id, workflowId);
  switch (intentOf(form)) {
    case INTENT.post: {
      const submission = parseSubmission(form, discussionPostSchema);
      const parentPostId =
        typeof form.get("parentPostId") === "string" ? String(form.get("parentPostId")) || null : null;
      if (submission.status !== "success")
        return data({ discussion: { submission: submission.reply(), parentPostId } }, { status: 400 });
      const input = submission.value;
      const page = discussionPage(url.searchParams.get("page"));
      const here = `${contentPage}?activityPathId=${input.activityPathId}${page > 1 ? `&page=${page}` : ""}`;
      const result = await postToDiscussion(lms, s.config, input, here);
      if (result.kind === "redirect") return result.response;
      const { "": formErrors = [], ...fieldErrors } = result.fieldErrors;
      return data(
        { discussion: { submission: submission.reply({ formErrors, fieldErrors }), parentPostId } },
        { status: 400 },
      );
    }
    case INTENT.resume: {
      const submission = parseSubmission(form, resumeSchema);
      if (submission.status !== "success") badRequest();
      const { activityWorkflowId, page } = submission.value;
      const workflowId =
        submission.value.workflowId ?? (await loadCourse(lms, id)).aggregate?.lastObjectiveWorkflow?.id;
      if (!workflowId) badRequest();
      if (submission.value.workflowId) await ofThisCourse(workflowId);
      try {
        await lms.put(endpoints.activityWorkflow(workflowId, activityWorkflowId), { resume: { page } });
      } catch (err) {
        return commandFailed(err, contentPage);
      }
      return data({ saved: true });
    }
    case INTENT.submit: {
      const submission = parseSubmission(form, submitSchema);
      if (submission.status !== "success") badRequest();
      await ofThisCourse(submission.value.workflowId);
      // Spec 4.5: submitting now would fail the course and she has not said yes to that: asked again.
      if (!submission.value.acceptFail) {
        const preview = await lms.get(endpoints.submitPreview(submission.value.workflowId)).catch(() => null);
        if (wouldFail(preview)) return redirect(`${contentPage}?confirm=submit`, 303);
      }
      return submitCourse(lms, s.config, id, submission.value.workflowId, courseEvents(request, context, id));
    }
    case INTENT.startActivity: {
      const submission = parseSubmission(form, startActivitySchema);
      if (submission.status !== "success") badRequest();
      const { workflowId, activityPathId, mode } = submission.value;
      const here = backTo(submission.value.back);
      await ofThisCourse(workflowId);
      try {
        await lms.command(endpoints.startActivityWorkflows, {
          objectiveWorkflowId: workflowId,
          activityPartIds: [activityPathId],
          ...(mode ? { mode } : {}),
        });
      } catch (err) {
        return commandFailed(err, here);
      }
      return redirect(here, 303);
    }
    case INTENT.finishActivity: {
      const submission = parseSubmission(form, finishActivitySchema);
      if (submission.status !== "success") badRequest();
      const { workflowId, activityPathId, commandId } = submission.value;
      const here = backTo(submission.value.back);
      // A write made offline, sent again by the service worker: its answer is a status.
      const replay = isOfflineReplay(request);
      await ofThisCourse(workflowId);
      try {
        let activityWorkflowId = submission.value.activityWorkflowId;
        if (!activityWorkflowId && activityPathId) {
          // A kept page's "Mark as done" of an activity not started yet: started here (idempotent), then finished.
          const started = await lms.command(endpoints.startActivityWorkflows, {
            objectiveWorkflowId: workflowId,
            activityPartIds: [activityPathId],
          });
          activityWorkflowId = started.activityWorkflows.find((aw) => aw.activityPartId === activityPathId)?.id;
          if (!activityWorkflowId) badRequest();
        }
        await lms.command(endpoints.finishActivityWorkflows, {
          objectiveWorkflowId: workflowId,
          activityWorkflowIds: [activityWorkflowId!],
          ...(commandId ? { id: commandId } : {}),
        });
      } catch (err) {
        // Refused for good: the answer says so, and the learner's next page says why (a toast).
        if (replay && err instanceof LmsError && err.status < 500 && err.status !== 429) {
          const fmt = dateFormatter(getLocale(context), shell.user.timezone);
          return data(
            { sent: false, code: err.firstMessage()?.code ?? null },
            { status: err.status, headers: { "Set-Cookie": await setToast(commandErrorToast(err, fmt), s.config) } },
          );
        }
        return commandFailed(err, here);
      }
      return replay ? data({ sent: true }) : redirect(here, 303);
    }
    case INTENT.teamSave: {
      const submission = parseSubmission(form, teamSaveSchema);
      if (submission.status !== "success") badRequest();
      const { aggregateId, gawId, version, text = "" } = submission.value;
      const here = backTo(submission.value.back);
      try {
        const saved = await saveTeamWork(lms, { aggregateId, gawId, version, text });
        // A teammate saved first: the page again, with what this learner wrote and the group's text.
        if (saved.kind === "conflict")
          return data({ team: { conflict: { text, current: saved.current } } }, { status: 409 });
      } catch (err) {
        return commandFailed(err, here);
      }
      return redirectWithToast(here, { type: "success", key: "team.saved" }, s.config);
    }
    default:
      badRequest();
  }
}

/**
 * After a client navigation to `#<prefix>…` (an activity chosen in the table of contents), focus moves to
 * that element (a heading with tabIndex −1), as a document navigation to a fragment starts focus there.
 */
function useFocusOnFragment(prefix: string) {
  const location = useLocation();
  useEffect(() => {
    if (!location.hash.startsWith(`#${prefix}`)) return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    target?.focus({ preventScroll: false });
  }, [location.key, location.hash, prefix]);
}

export default function CourseContent() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ContentActionResult | undefined;
  const { t } = useTranslation();
  const panel = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  useScheduledRefresh(d.refreshAt);
  // A tool launched from this page (in its frame or a window) sends its score: the page shows it.
  useLiveProgress(d.course.id, !d.readOnly && Object.values(d.bodies).some((b) => b.kind === "lti" && b.launch));
  const listed = d.items.filter((i) => i.node.activityPathId !== d.rootId);
  const selected = d.items.find((i) => i.node.activityPathId === d.selectedPath);
  const index = listed.findIndex((i) => i.node.activityPathId === d.selectedPath);
  const prev = index > 0 ? listed[index - 1] : null;
  const next = index >= 0 && index < listed.length - 1 ? listed[index + 1] : null;
  // The activity's heading as fragment: after a choice in the table of contents (or the pager) focus
  // starts at what was chosen, not 20-odd Tabs before it; with JavaScript `useFocusOnFragment` moves it there.
  const linkTo = (i: ContentItem) =>
    `?activityPathId=${i.node.activityPathId}${d.reviewQuery}#activity-${i.node.activityPathId}`;
  useFocusOnFragment("activity-");
  if (d.framed)
    return (
      <div className="content-view content-view--framed">
        <div className="activity-panel" ref={panel}>
          {d.proctorLock ? (
            <p className="notice" role="note">
              {t("proctoring.locked")} {t("proctoring.whoUnlocks")}
            </p>
          ) : null}
          {selected ? (
            <ActivitySection d={d} item={selected} headingLevel={1} actionData={actionData} />
          ) : (
            <p>{t("activity.empty")}</p>
          )}
        </div>
      </div>
    );
  return (
    <div className="course-page">
      <CourseLayers
        objectiveId={d.course.id}
        active="content"
        showContent
        hasAnnouncements={d.course.hasAnnouncements}
      />
      <div className={`content-view content-view--${d.mode}`}>
        <TableOfContents d={d} linkTo={linkTo} />
        <div className="activity-panel" ref={panel}>
          {/* Issue 31: the notice of a copy kept for offline reading, hidden until the service worker serves the copy
 offline. Only in a copy, which runs no script: the server alone renders it (not in the page's JavaScript). */}
          {import.meta.env.SSR && d.offlineCopy ? (
            <p className="offline-banner" data-offline-banner="" hidden role="status">
              <span aria-hidden="true" className="offline-banner__icon" />
              {t("offline.banner", { date: d.offlineCopy.savedAt })}
            </p>
          ) : null}
          {!d.course.supportMobileView ? (
            <p className="notice mobile-only-notice" role="note">
              {t("finish.mobileNotice")}
            </p>
          ) : null}
          {d.course.supportFullscreenView && hydrated ? (
            <Suspense fallback={null}>
              <FullscreenToggle target={panel} />
            </Suspense>
          ) : null}
          {d.review ? <p className="notice">{t("course.reviewMode")}</p> : null}
          {d.proctorLock ? (
            <p className="notice" role="note" id="proctor-lock">
              {t("proctoring.locked")} {t("proctoring.whoUnlocks")}
            </p>
          ) : null}
          {d.confirmSubmit && !d.proctorLock ? (
            <SubmitDialog
              workflowId={d.workflow.id}
              unfinished={d.unfinished}
              preview={d.submitPreview}
              titleId="confirm-page-title"
            />
          ) : null}
          {d.longRead ? (
            <>
              <h1>{d.course.name}</h1>
              {listed
                .filter((i) => d.bodies[i.node.activityPathId])
                .map((i) => (
                  <ActivitySection
                    key={i.node.activityPathId}
                    d={d}
                    item={i}
                    headingLevel={2}
                    hideName={d.mode === "longReadWithoutNames"}
                    actionData={actionData}
                  />
                ))}
            </>
          ) : selected ? (
            <>
              {d.mode === "tiles" ? (
                <ul className="tiles" aria-label={t("activity.toc")}>
                  {listed
                    .filter((i) => i.node.parentPathId === d.rootId)
                    .map((i) => (
                      <li
                        key={i.node.activityPathId}
                        className={i.node.activityPathId === d.selectedPath ? "tile tile--current" : "tile"}
                      >
                        {i.locked ? (
                          <span aria-disabled="true">{i.node.childActivity.name}</span>
                        ) : (
                          <Link
                            to={linkTo(i)}
                            aria-current={i.node.activityPathId === d.selectedPath ? "page" : undefined}
                          >
                            <TocIcon icon={i.icon.icon} tooltipKeys={i.icon.tooltipKeys} statusKey={i.statusKey} />
                            {i.node.childActivity.name}
                          </Link>
                        )}
                      </li>
                    ))}
                </ul>
              ) : null}
              <ActivitySection d={d} item={selected} headingLevel={1} actionData={actionData} />
              {selected.node.childActivity.proctored &&
              !d.readOnly &&
              !d.proctorLock &&
              !(import.meta.env.SSR && d.offlineCopy) ? (
                <Link
                  className="button"
                  prefetch="intent"
                  to={`/learn/courses/proctor/${d.course.id}/${selected.node.activityPathId}`}
                >
                  {t("proctor.open")}
                </Link>
              ) : null}
              <nav className="activity-nav" aria-label={t("content.pager")}>
                {prev && !prev.locked ? (
                  <Link rel="prev" to={linkTo(prev)}>
                    {t("content.previous")}
                  </Link>
                ) : (
                  <span />
                )}
                {next && !next.locked ? (
                  <Link rel="next" to={linkTo(next)}>
                    {t("content.next")}
                  </Link>
                ) : null}
              </nav>
            </>
          ) : (
            <p>{t("activity.empty")}</p>
          )}
          {/* Submitting needs the network: a page kept for offline reading does not offer it (issue 31). */}
          {!d.readOnly && !(import.meta.env.SSR && d.offlineCopy) ? (
            <SubmitCourse
              workflowId={d.workflow.id}
              unfinished={d.unfinished}
              preview={d.submitPreview}
              lockedBy={d.proctorLock ? "proctor-lock" : null}
            />
          ) : null}
        </div>
      </div>
    </div>
  );
}
