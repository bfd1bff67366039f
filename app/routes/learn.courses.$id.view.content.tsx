import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation, useRevalidator } from "react-router";
import { useEffect, useEffectEvent, useRef } from "react";
import { useTranslation } from "~/i18n/lite";
import type { Route } from "./+types/learn.courses.$id.view.content";
import type { TreeNode } from "#domain/contract/lifecycle";
import { canReview } from "#domain/lifecycle";
import { proctorLocked } from "#domain/proctoring";
import {
  activityDisableReason,
  initialSelection,
  isActivityLocked,
  nextRefreshAt,
  tocIcon,
  visibleNodes,
} from "#domain/activity-access";
import { state } from "~/services/request.server";
import { getLocale } from "~/services/i18n.server";
import { dateFormatter } from "~/services/format.server";
import { requireCourseId } from "~/services/catalog.server";
import { loadCourse, submitCourse } from "~/services/course.server";
import { activityBody } from "~/services/content.server";
import { discussionInput, discussionPage, loadDiscussion, postToDiscussion } from "~/services/discussion.server";
import { LmsError } from "~/services/lms.server";
import { redirectWithToast } from "~/services/toast.server";
import { CourseLayers } from "~/components/course-parts";
import { ActivityView, type ActivityBody } from "~/components/activity-view";
import { TocIcon } from "~/components/toc-icon";
import { useHydrated } from "~/components/use-hydrated";
import { Discussion } from "~/components/discussion";
import { ACTIVITY_NOT_FOUND } from "~/components/error-page";
import { ObjectiveWorkflowState, ActivityWorkflowState, ObjectiveState, ActivityKind } from "#domain/vocabulary";
import { endpoints } from "#domain/contract/endpoints";

export const handle = {
  title: (d: { course?: { name: string } } | undefined) => d?.course?.name ?? null,
  breadcrumb: (d: { course?: { id: string; name: string } } | undefined) =>
    d?.course ? { label: d.course.name, href: `/learn/courses/${d.course.id}` } : null,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MODES = ["tree", "tiles", "longRead", "longReadWithoutNames"] as const;
/** Spec 9: a failed tree reload is retried after 30 s. */
export const TREE_RETRY_MS = 30_000;

function statusKey(n: TreeNode): string {
  const a = n.childActivity;
  if (a.state === ObjectiveState.draft) return "activity.comingSoon";
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  if (!aw) return n.optional ? "activity.optional" : "activity.notStarted";
  if (aw.state === ActivityWorkflowState.inProgress) return "activity.inProgress";
  if (aw.state === ActivityWorkflowState.inGrading) return "activity.inGrading";
  return "activity.completed";
}

/** Resume (issue 5): the in-progress activity the learner opened last. */
function lastOpened(nodes: TreeNode[]): TreeNode | undefined {
  let best: TreeNode | undefined;
  let at = "";
  for (const n of nodes) {
    const aw = n.childActivity.activityWorkflowAggregate.lastActivityWorkflow;
    const opened = aw?.resume?.openedAt;
    if (aw && aw.state === ActivityWorkflowState.inProgress && opened && opened > at) {
      best = n;
      at = opened;
    }
  }
  return best;
}

/**
 * /learn/courses/{id}/view/content[/{axis}] and /workflow/{workflowId}/view (spec 2.1, 2.5, 2.6):
 * the table of contents with icons and locks (4.12, 4.13), the activity kinds, the presentation
 * modes, starting/finishing activities, resume, and submitting the course. `viewType=REVIEW` shows a
 * finished attempt read-only when 4.7 allows it.
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const review = url.searchParams.get("viewType") === "REVIEW";
  const course = await loadCourse(lms, id);
  const agg = course.aggregate;
  let workflow = agg?.lastObjectiveWorkflow ?? null;
  // Spec 2.5: no workflow yet leads to the details.
  if (!agg || !workflow) throw redirect(`/learn/courses/${id}`);
  const requestedWorkflow = params.workflowId ?? null;
  if (requestedWorkflow) {
    if (!UUID.test(requestedWorkflow)) throw new Response("Not found", { status: 404 });
    if (requestedWorkflow !== workflow.id) {
      workflow = await lms.get(endpoints.objectiveWorkflow(requestedWorkflow)).catch((err) => {
        if (err instanceof LmsError && err.status === 404) throw new Response("Not found", { status: 404 });
        throw err;
      });
    }
  }
  const now = new Date();
  const reviewAllowed = canReview(
    {
      workflow: { state: workflow.state },
      supportReview: agg.objective.supportReview,
      gradeRevealPolicy: agg.gradeRevealPolicy,
      gradeRevealDate: agg.gradeRevealDate,
    },
    now,
  );
  if (workflow.state !== ObjectiveWorkflowState.inProgress && !reviewAllowed)
    throw await redirectWithToast(`/learn/courses/${id}`, { type: "info", key: "review.notAllowed" }, s.config);
  const readOnly = review || workflow.state !== ObjectiveWorkflowState.inProgress;
  // Spec 4.8 (decision 010): a proctored sitting that is over cannot be continued here either; the
  // API refuses activity commands while it holds, so the page says so instead of offering them.
  const proctorLock =
    !readOnly &&
    workflow.id === agg.lastObjectiveWorkflow?.id &&
    proctorLocked({
      workflow: { state: workflow.state },
      session: agg.lastProctoringSession ?? null,
    });

  const [tree, contents] = await Promise.all([
    lms.get(endpoints.activityTree(workflow.id)),
    lms.get(endpoints.activityContents(workflow.id)),
  ]);
  const nodes = visibleNodes(tree.nodes).sort((a, b) => (a.axis < b.axis ? -1 : a.axis > b.axis ? 1 : 0));
  const byContent = new Map(contents.data.map((c) => [c.id, c]));
  const courseFinished = workflow.state === ObjectiveWorkflowState.finished;
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  const lockCtx = {
    now,
    courseFinished,
    accessNewContentAfterCompletion: agg.objective.accessNewContentAfterCompletion,
    reviewing: readOnly,
  };

  const wanted = url.searchParams.get("activityPathId") ?? url.searchParams.get("activityId") ?? params.axis ?? null;
  let selected: TreeNode | undefined;
  if (wanted) {
    selected = nodes.find((n) => n.activityPathId === wanted || n.childActivity.id === wanted || n.axis === wanted);
    // An unknown activity is the 'Activity not found' page (spec 2.10), with its way back.
    if (!selected) throw data(ACTIVITY_NOT_FOUND, { status: 404 });
  }
  selected ??= (!readOnly ? lastOpened(nodes) : undefined) ?? initialSelection(nodes) ?? nodes[0];

  const mode = MODES[agg.objective.presentationMode] ?? "tree";
  const longRead = (mode === "longRead" || mode === "longReadWithoutNames") && !wanted;
  const rootId = tree.rootPathId;
  const items = nodes.map((n) => {
    const locked = isActivityLocked(n, lockCtx);
    const reason = activityDisableReason(n, { now, reviewing: readOnly });
    const icon = tocIcon(n, { locked });
    return {
      node: n,
      depth: Math.max(0, n.axis.split(".").length - 1),
      locked,
      reason: reason ? { key: reason.key, date: fmt.dateTime(reason.date) } : null,
      icon,
      statusKey: statusKey(n),
      due: fmt.dateTime(n.constraint.due ?? null),
    };
  });
  const childCount = (n: TreeNode) => nodes.filter((c) => c.parentPathId === n.activityPathId).length;
  const shown = longRead
    ? items.filter((i) => i.node.activityPathId !== rootId && !i.locked)
    : items.filter((i) => i.node === selected);
  const bodies: Record<string, ActivityBody> = Object.fromEntries(
    await Promise.all(
      shown.map(
        async (i) =>
          [
            i.node.activityPathId,
            await activityBody(lms, i.node, byContent.get(i.node.childActivity.id), {
              fmt,
              now,
              childCount: childCount(i.node),
            }),
          ] as const,
      ),
    ),
  );
  // Remember where the learner is (resume); opening an in-progress activity is a tiny write.
  const openAw = selected?.childActivity.activityWorkflowAggregate.lastActivityWorkflow;
  if (!readOnly && wanted && openAw && openAw.state === ActivityWorkflowState.inProgress) {
    await lms.put(endpoints.activityWorkflow(workflow.id, openAw.id), { resume: {} }).catch(() => null);
  }
  const discussion =
    !longRead && selected?.childActivity.kind === 6 && !items.find((i) => i.node === selected)?.locked
      ? await loadDiscussion(lms, selected.activityPathId, url.searchParams.get("page"), fmt)
      : null;
  const refresh = nextRefreshAt(nodes, now);
  return {
    course: { id, name: agg.objective.name, hasAnnouncements: Boolean(agg.objective.announcementChannelId) },
    workflow: { id: workflow.id, state: workflow.state, progress: Math.round(workflow.progress * 100) },
    rootId,
    mode,
    longRead,
    items,
    selectedPath: selected?.activityPathId ?? null,
    bodies,
    discussion,
    readOnly,
    review,
    proctorLock,
    confirmSubmit: url.searchParams.get("confirm") === "submit" && !readOnly,
    refreshAt: refresh ? refresh.toISOString() : null,
    reviewQuery: review ? "&viewType=REVIEW" : "",
  };
}

export async function action({ params, request, url, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "post") {
    const input = discussionInput(form);
    const page = discussionPage(url.searchParams.get("page"));
    const back = `/learn/courses/${id}/view/content?activityPathId=${encodeURIComponent(input.activityPathId)}${page > 1 ? `&page=${page}` : ""}`;
    const result = await postToDiscussion(lms, s.config, input, back);
    if (result.kind === "redirect") return result.response;
    return data({ discussion: result.form }, { status: 400 });
  }
  const wf = String(form.get("workflowId") ?? "");
  const back = String(form.get("back") ?? "");
  const here = back.startsWith(`/learn/courses/${id}/`) ? back : `/learn/courses/${id}/view/content`;
  try {
    if (intent === "resume") {
      const aw = String(form.get("activityWorkflowId") ?? "");
      const page = Number(form.get("page"));
      const workflowId = String(form.get("workflowId") ?? "");
      if (!UUID.test(aw) || !Number.isInteger(page) || page < 1) throw new Response("Bad request", { status: 400 });
      const course = await loadCourse(lms, id);
      const current = workflowId || course.aggregate?.lastObjectiveWorkflow?.id;
      if (!current) throw new Response("Bad request", { status: 400 });
      await lms.put(endpoints.activityWorkflow(current, aw), {
        resume: { page },
      });
      return data({ saved: true });
    }
    if (!UUID.test(wf)) throw new Response("Bad request", { status: 400 });
    if (intent === "submit") return submitCourse(lms, s.config, id, wf);
    if (intent === "startActivity") {
      const part = String(form.get("activityPathId") ?? "");
      if (!UUID.test(part)) throw new Response("Bad request", { status: 400 });
      await lms.command(endpoints.startActivityWorkflows, { objectiveWorkflowId: wf, activityPartIds: [part] });
      return redirect(here, 303);
    }
    if (intent === "finishActivity") {
      const aw = String(form.get("activityWorkflowId") ?? "");
      if (!UUID.test(aw)) throw new Response("Bad request", { status: 400 });
      await lms.command(endpoints.finishActivityWorkflows, {
        objectiveWorkflowId: wf,
        activityWorkflowIds: [aw],
      });
      return redirect(here, 303);
    }
  } catch (err) {
    if (err instanceof LmsError) {
      const m = err.firstMessage();
      return redirectWithToast(
        here,
        { type: "critical", key: m ? `apiErrors.${m.code}` : "messages.unknownError" },
        s.config,
      );
    }
    throw err;
  }
  throw new Response("Unknown action", { status: 400 });
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
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "submit";
  return (
    <div className="confirm">
      <h2 id={titleId}>{t("course.submitConfirmTitle")}</h2>
      <p>{t("course.submitConfirmText")}</p>
      <Form method="post" className="confirm__actions">
        <input type="hidden" name="intent" value="submit" />
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
  return (
    <div className="activity-panel__actions">
      <Form method="post">
        <input type="hidden" name="intent" value={aw ? "finishActivity" : "startActivity"} />
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
        <Discussion
          {...d.discussion}
          formAction={`?activityPathId=${item.node.activityPathId}${d.discussion.page > 1 ? `&page=${d.discussion.page}` : ""}`}
          errors={actionData && "discussion" in actionData ? actionData.discussion?.errors : undefined}
          values={actionData && "discussion" in actionData ? actionData.discussion?.values : undefined}
        />
      ) : null}
      <ActivityActions d={d} item={item} />
    </section>
  );
}

/** Spec 2.6: the panel is open on large screens and closed up to 1279 px (JavaScript decides on load). */
function useTocOpen(ref: React.RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const wide = window.matchMedia("(min-width: 1280px)").matches;
    el.open = wide;
  }, [ref]);
}

/** Spec 4.13 / 9: refresh at the nearest future constraint time; a failed reload retries after 30 s. */
function useScheduledRefresh(refreshAt: string | null) {
  const revalidator = useRevalidator();
  const revalidate = useEffectEvent(() => revalidator.revalidate());
  useEffect(() => {
    if (!refreshAt) return;
    const delay = Math.min(Math.max(Date.parse(refreshAt) - Date.now(), 0) + 500, 24 * 3600_000);
    let retry: ReturnType<typeof setTimeout> | null = null;
    const timer = setTimeout(function reload() {
      Promise.resolve(revalidate()).catch(() => {
        retry = setTimeout(reload, TREE_RETRY_MS);
      });
    }, delay);
    return () => {
      clearTimeout(timer);
      if (retry) clearTimeout(retry);
    };
  }, [refreshAt]);
}

export default function CourseContent() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const toc = useRef<HTMLDetailsElement>(null);
  const hydrated = useHydrated();
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
        <details className="toc-panel" ref={toc} open>
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
        <div className="activity-panel">
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
