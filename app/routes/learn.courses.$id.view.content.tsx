import { Form, Link, redirect, useActionData, useLoaderData, useNavigation, useRevalidator } from "react-router";
import { Suspense, useEffect, useEffectEvent, useRef, useState } from "react";
import { data } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/i18n/lite";
import { listCrumb, type ListSlug } from "~/components/list-crumb";
import { listCameFrom } from "~/services/breadcrumbs.server";
import { pageDataAnswers, scheduleRefresh, TREE_RETRY_MS } from "~/components/scheduled-refresh";
import { lazyWidget } from "~/components/lazy-widget";
import type { Route } from "./+types/learn.courses.$id.view.content";
import { endpoints } from "#domain/contract/endpoints";
import { ActivityWorkflowState, ObjectiveState, ActivityKind } from "#domain/vocabulary";
import { safeRedirectWithin } from "#domain/redirect";
import { state } from "~/services/request.server";
import { courseEvents } from "~/services/analytics.server";
import { getLocale } from "~/services/i18n.server";
import { requireCourseId } from "~/services/catalog.server";
import { loadCourse, submitCourse } from "~/services/course.server";
import { loadContentView, recordLearnerIsHere, workflowOfCourse } from "~/services/content-view.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { dateFormatter } from "~/services/format.server";
import { discussionPage, postToDiscussion } from "~/services/discussion.server";
import { saveTeamWork } from "~/services/group-work.server";
import { GROUP_WORK_MAX } from "#domain/groups";
import { badRequest, intentOf, readForm } from "~/services/forms.server";
import { LmsError } from "~/services/lms.server";
import { redirectWithToast } from "~/services/toast.server";
import { discussionPostSchema } from "~/forms/discussion";
import { INTENT } from "~/forms/intents";
import { parseSubmission } from "~/forms/parse";
import { CourseLayers } from "~/components/course-parts";
import { ActivityView } from "~/components/activity-view";
import { TocIcon } from "~/components/toc-icon";
import { ProctoredMark } from "~/components/proctored-mark";
import { useNonce } from "~/components/nonce";
import { useHydrated } from "~/components/use-hydrated";

/** Loaded with the discussion activity only (Conform, its schema): not in every course's first load. */
const Discussion = lazyWidget(() => import("~/components/discussion"));
/** Loaded with a team or mini-group activity only (decision 026). */
const TeamPanel = lazyWidget(() => import("~/components/team-panel"));

/** Submit the course (spec 4.5), after the confirmation (spec 2.6). */
const submitSchema = z.object({ intent: z.literal(INTENT.submit), workflowId: z.uuid() });
/** Where the page goes back to after an activity command: one of this course's own pages. */
const back = z.string().max(2048).optional();
const startActivitySchema = z.object({
  intent: z.literal(INTENT.startActivity),
  workflowId: z.uuid(),
  activityPathId: z.uuid(),
  /** A collaborative activity: alone or with the group (decision 026). */
  mode: z.enum(["personal", "group"]).optional(),
  back,
});
/** A member saves the group's shared answer, naming the version it was written from (decision 026). */
const teamSaveSchema = z.object({
  intent: z.literal(INTENT.teamSave),
  aggregateId: z.uuid(),
  gawId: z.uuid(),
  version: z.number().int().min(0),
  text: z.string().max(GROUP_WORK_MAX).optional(),
  back,
});
const finishActivitySchema = z.object({
  intent: z.literal(INTENT.finishActivity),
  workflowId: z.uuid(),
  activityWorkflowId: z.uuid(),
  back,
});
/** The PDF viewer's page, saved in the background so the learner resumes there. */
const resumeSchema = z.object({
  intent: z.literal(INTENT.resume),
  activityWorkflowId: z.uuid(),
  workflowId: z.uuid().optional(),
  page: z.number().int().min(1).max(100_000),
});

export const handle = {
  title: (d: { course?: { name: string } } | undefined) => d?.course?.name ?? null,
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
  const { view, openedActivity } = await loadContentView({
    lms,
    config: s.config,
    courseId: requireCourseId(params.id),
    workflowId: params.workflowId ?? null,
    axis: params.axis ?? null,
    url,
    locale: getLocale(context),
    timezone: shell.user.timezone,
  });
  if (openedActivity) await recordLearnerIsHere(lms, openedActivity);
  return { ...view, list: await listCameFrom(request, s.config) };
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
    return redirectWithToast(here, commandErrorToast(err, fmt), s.config);
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
      const { workflowId, activityWorkflowId } = submission.value;
      const here = backTo(submission.value.back);
      await ofThisCourse(workflowId);
      try {
        await lms.command(endpoints.finishActivityWorkflows, {
          objectiveWorkflowId: workflowId,
          activityWorkflowIds: [activityWorkflowId],
        });
      } catch (err) {
        return commandFailed(err, here);
      }
      return redirect(here, 303);
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

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Item = Data["items"][number];

function SubmitDialog({
  workflowId,
  onCancel,
  titleId,
}: {
  workflowId: string;
  onCancel?: () => void;
  titleId: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === INTENT.submit;
  return (
    <div className="confirm">
      <h2 id={titleId}>{t("course.submitConfirmTitle")}</h2>
      <p>{t("course.submitConfirmText")}</p>
      <Form method="post" className="confirm__actions">
        <input type="hidden" name="intent" value={INTENT.submit} />
        <input type="hidden" name="workflowId" value={workflowId} />
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            {t("course.cancel")}
          </button>
        ) : (
          <Link className="button" to="?">
            {t("course.cancel")}
          </Link>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t("app.loading") : t("course.submitConfirm")}
        </button>
      </Form>
    </div>
  );
}

/** Start / finish controls of one activity (hidden while read-only, locked, draft or a module). */
function ActivityActions({ d, item }: { d: Data; item: Item }) {
  const { t } = useTranslation();
  const a = item.node.childActivity;
  if (
    d.readOnly ||
    d.proctorLock ||
    item.locked ||
    a.kind === ActivityKind.composite ||
    a.state !== ObjectiveState.ready
  )
    return null;
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  const back = `/learn/courses/${d.course.id}/view/content?activityPathId=${item.node.activityPathId}`;
  if (aw && aw.state !== ActivityWorkflowState.inProgress) return null;
  // A collaborative activity is started (mode chosen) and submitted for the group in its team panel.
  if (a.supportCollaborativeMode && (!aw || aw.groupActivityWorkflowId)) return null;
  // A SCORM package finishes itself (LMSFinish/Terminate with its result, issue 15).
  if (aw && d.bodies[item.node.activityPathId]?.kind === "scorm") return null;
  return (
    <div className="activity-panel__actions">
      <Form method="post">
        <input type="hidden" name="intent" value={aw ? INTENT.finishActivity : INTENT.startActivity} />
        <input type="hidden" name="workflowId" value={d.workflow.id} />
        {aw ? (
          <input type="hidden" name="activityWorkflowId" value={aw.id} />
        ) : (
          <input type="hidden" name="activityPathId" value={item.node.activityPathId} />
        )}
        <input type="hidden" name="back" value={back} />
        <button type="submit" className="button button--primary">
          {aw ? t("activity.finish") : t("activity.start")}
        </button>
      </Form>
    </div>
  );
}

function ActivitySection({
  d,
  item,
  headingLevel,
  hideName,
}: {
  d: Data;
  item: Item;
  headingLevel: 1 | 2;
  hideName?: boolean;
}) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const a = item.node.childActivity;
  const H = headingLevel === 1 ? "h1" : "h2";
  const body = d.bodies[item.node.activityPathId];
  return (
    <section className="activity" aria-labelledby={`activity-${item.node.activityPathId}`}>
      <H id={`activity-${item.node.activityPathId}`} className={hideName ? "visually-hidden" : undefined}>
        {a.name}
      </H>
      {!hideName ? (
        <p className="activity-panel__meta">
          {t(`activityKind.${a.kind}`)} · {t(item.statusKey)}
          {item.due ? ` · ${t("content.due", { date: item.due })}` : ""}
        </p>
      ) : null}
      {item.reason ? (
        <p className="notice" role="note">
          {t(item.reason.key, { date: item.reason.date ?? "" })}
        </p>
      ) : null}
      {body && !(item.locked && item.reason) ? <ActivityView body={body} title={a.name} /> : null}
      {d.discussion && item.node.activityPathId === d.selectedPath ? (
        <Suspense fallback={<p className="notice">{t("app.loading")}</p>}>
          <Discussion
            {...d.discussion}
            formAction={`?activityPathId=${item.node.activityPathId}${d.discussion.page > 1 ? `&page=${d.discussion.page}` : ""}`}
            lastResult={actionData && "discussion" in actionData ? actionData.discussion : null}
          />
        </Suspense>
      ) : null}
      {d.team && item.node.activityPathId === d.team.activityPathId ? (
        <Suspense fallback={<p className="notice">{t("app.loading")}</p>}>
          <TeamPanel
            team={d.team}
            workflowId={d.workflow.id}
            activityWorkflowId={a.activityWorkflowAggregate.lastActivityWorkflow?.id ?? null}
            back={`/learn/courses/${d.course.id}/view/content?activityPathId=${item.node.activityPathId}`}
            readOnly={d.readOnly || d.proctorLock}
            conflict={actionData && "team" in actionData ? actionData.team.conflict : null}
          />
        </Suspense>
      ) : null}
      <ActivityActions d={d} item={item} />
    </section>
  );
}

/** Spec 2.6: the panel is open on large screens and closed up to 1279 px (JavaScript decides on load). */
const TOC_WIDE = "(min-width: 1280px)";
const TOC_WIDTH_SCRIPT = `document.currentScript.previousElementSibling.open=matchMedia(${JSON.stringify(TOC_WIDE)}).matches`;

function useTocOpen(ref: React.RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const wide = window.matchMedia(TOC_WIDE).matches;
    el.open = wide;
  }, [ref]);
}

/**
 * Spec 4.13 / 9: refresh at the nearest future constraint time; a failed reload retries after 30 s
 * (the server is asked first: React Router would render a failed revalidation's error instead).
 */
function useScheduledRefresh(refreshAt: string | null) {
  const revalidator = useRevalidator();
  const revalidate = useEffectEvent(() => void revalidator.revalidate());
  const check = useEffectEvent(() => pageDataAnswers(window.location));
  useEffect(() => {
    if (!refreshAt) return;
    const delay = Math.min(Math.max(Date.parse(refreshAt) - Date.now(), 0) + 500, 24 * 3600_000);
    return scheduleRefresh({ delay, check: () => check(), reload: () => revalidate(), retryMs: TREE_RETRY_MS });
  }, [refreshAt]);
}

/** Spec 3 supportFullscreenView: the activity panel in full screen and back (the Fullscreen API needs JavaScript). */
function FullscreenToggle({ target }: { target: React.RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  const [on, setOn] = useState(false);
  useEffect(() => {
    const sync = () => setOn(document.fullscreenElement !== null && document.fullscreenElement === target.current);
    document.addEventListener("fullscreenchange", sync);
    return () => document.removeEventListener("fullscreenchange", sync);
  }, [target]);
  if (typeof document !== "undefined" && !document.fullscreenEnabled) return null;
  return (
    <button
      type="button"
      className="button fullscreen-toggle"
      aria-pressed={on}
      onClick={() => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void target.current?.requestFullscreen();
      }}
    >
      {on ? t("finish.exitFullscreen") : t("finish.fullscreen")}
    </button>
  );
}

export default function CourseContent() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const toc = useRef<HTMLDetailsElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  const nonce = useNonce();
  useTocOpen(toc);
  useScheduledRefresh(d.refreshAt);
  const listed = d.items.filter((i) => i.node.activityPathId !== d.rootId);
  const selected = d.items.find((i) => i.node.activityPathId === d.selectedPath);
  const index = listed.findIndex((i) => i.node.activityPathId === d.selectedPath);
  const prev = index > 0 ? listed[index - 1] : null;
  const next = index >= 0 && index < listed.length - 1 ? listed[index + 1] : null;
  const linkTo = (i: Item) => `?activityPathId=${i.node.activityPathId}${d.reviewQuery}`;
  return (
    <div className="course-page">
      <CourseLayers
        objectiveId={d.course.id}
        active="content"
        showContent
        hasAnnouncements={d.course.hasAnnouncements}
      />
      <div className={`content-view content-view--${d.mode}`}>
        {/* The server cannot know the width: the script below closes the table on narrow screens before the
            first paint, so the activity panel does not jump when React hydrates (CLS 0.49 on a phone). */}
        <details className="toc-panel" ref={toc} open suppressHydrationWarning>
          <summary className="toc-panel__toggle">{t("content.tocToggle")}</summary>
          <nav className="toc" aria-label={t("activity.toc")}>
            <h2>{d.course.name}</h2>
            <p className="toc__progress">{t("activity.courseProgress", { progress: d.workflow.progress })}</p>
            <ol>
              {listed.map((i) => (
                <li key={i.node.activityPathId} style={{ paddingInlineStart: `${i.depth * 16}px` }}>
                  {i.locked ? (
                    <span className="toc__link toc__link--locked" aria-disabled="true">
                      <TocIcon icon={i.icon.icon} tooltipKeys={i.icon.tooltipKeys} statusKey="activityIcon.locked" />
                      <span className="toc__name">{i.node.childActivity.name}</span>
                      {i.node.childActivity.proctored ? <ProctoredMark /> : null}
                      {i.reason ? (
                        <span className="toc__reason">{t(i.reason.key, { date: i.reason.date ?? "" })}</span>
                      ) : null}
                    </span>
                  ) : (
                    <Link
                      to={linkTo(i)}
                      aria-current={i.node.activityPathId === d.selectedPath ? "page" : undefined}
                      className="toc__link"
                    >
                      <TocIcon icon={i.icon.icon} tooltipKeys={i.icon.tooltipKeys} statusKey={i.statusKey} />
                      <span className="toc__name">{i.node.childActivity.name}</span>
                      {i.node.childActivity.proctored ? <ProctoredMark /> : null}
                      {i.node.childActivity.kind === ActivityKind.composite ? (
                        <span className="toc__status">{t("activity.moduleProgress", moduleProgress(d.items, i))}</span>
                      ) : (
                        <span className={`toc__status toc__status--${i.statusKey.split(".")[1]}`}>
                          {t(i.statusKey)}
                        </span>
                      )}
                    </Link>
                  )}
                </li>
              ))}
            </ol>
          </nav>
        </details>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: TOC_WIDTH_SCRIPT }} />
        <div className="activity-panel" ref={panel}>
          {!d.course.supportMobileView ? (
            <p className="notice mobile-only-notice" role="note">
              {t("finish.mobileNotice")}
            </p>
          ) : null}
          {d.course.supportFullscreenView && hydrated ? <FullscreenToggle target={panel} /> : null}
          {d.review ? <p className="notice">{t("course.reviewMode")}</p> : null}
          {d.proctorLock ? (
            <p className="notice" role="note">
              {t("proctoring.locked")}
            </p>
          ) : null}
          {d.confirmSubmit ? <SubmitDialog workflowId={d.workflow.id} titleId="confirm-page-title" /> : null}
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
              <ActivitySection d={d} item={selected} headingLevel={1} />
              {selected.node.childActivity.proctored && !d.readOnly && !d.proctorLock ? (
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
          {!d.readOnly ? (
            <div className="submit-course">
              <Link
                className="button"
                to="?confirm=submit"
                onClick={(e) => {
                  if (!hydrated || !dialog.current) return;
                  e.preventDefault();
                  dialog.current.showModal();
                }}
              >
                {t("course.submit")}
              </Link>
              <dialog ref={dialog} aria-labelledby="confirm-dialog-title" className="dialog">
                <SubmitDialog
                  workflowId={d.workflow.id}
                  titleId="confirm-dialog-title"
                  onCancel={() => dialog.current?.close()}
                />
              </dialog>
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** A module's children done out of all (a composite's own state is its children's). */
function moduleProgress(items: Item[], module: Item) {
  const children = items.filter(
    (c) => c.node.parentPathId === module.node.activityPathId && c.node.childActivity.kind !== ActivityKind.composite,
  );
  const done = children.filter((c) => {
    const aw = c.node.childActivity.activityWorkflowAggregate.lastActivityWorkflow;
    return aw && aw.state !== ActivityWorkflowState.inProgress;
  }).length;
  return { done, total: children.length };
}
