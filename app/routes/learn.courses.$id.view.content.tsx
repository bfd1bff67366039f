import { Form, Link, redirect, useLoaderData, useNavigation } from "react-router";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/learn.courses.$id.view.content";
import type { ActivityTree, TreeNode } from "#domain/contract/lifecycle";
import { canReview, type WorkflowState } from "#domain/lifecycle";
import { state } from "~/services/request.server";
import { requireCourseId } from "~/services/catalog.server";
import { loadCourse, submitCourse } from "~/services/course.server";
import { sanitizeCourseHtml } from "~/services/html.server";
import { LmsError } from "~/services/lms.server";
import { redirectWithToast } from "~/services/toast.server";
import { CourseLayers } from "~/components/course-parts";

export const handle = {
  title: (d: { course?: { name: string } } | undefined) => d?.course?.name ?? null,
  breadcrumb: (d: { course?: { id: string; name: string } } | undefined) => (d?.course ? { label: d.course.name, href: `/learn/courses/${d.course.id}` } : null),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Spec 4.13: the first available activity in progress or not started, else the first child. */
function defaultNode(nodes: TreeNode[]): TreeNode | undefined {
  const leaves = nodes.filter((n) => n.parentPathId !== null && n.childActivity.kind !== 3);
  const open = leaves.find((n) => n.available && n.childActivity.state === 2 && (!n.childActivity.activityWorkflowAggregate.lastActivityWorkflow || n.childActivity.activityWorkflowAggregate.lastActivityWorkflow.state === 1));
  return open ?? leaves[0] ?? nodes[0];
}

/**
 * /learn/courses/{id}/view/content[/{axis}] (spec 2.1, 2.5, 2.6): the course's activities with their
 * progress, starting and finishing activities, and submitting the course. `viewType=REVIEW` opens a
 * finished attempt read-only when spec 4.7 allows it.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  const url = new URL(request.url);
  const review = url.searchParams.get("viewType") === "REVIEW";
  const course = await loadCourse(lms, id);
  const agg = course.aggregate;
  const requestedWorkflow = params.workflowId && UUID.test(params.workflowId) ? params.workflowId : null;
  let workflow = agg?.lastObjectiveWorkflow ?? null;
  // Spec 2.5: no workflow yet leads to the details.
  if (!agg || !workflow) throw redirect(`/learn/courses/${id}`);
  if (requestedWorkflow && requestedWorkflow !== workflow.id) {
    const wf = await lms.get<typeof workflow>(`/api/lms/v1/objective-workflows/${requestedWorkflow}`).catch((err) => {
      if (err instanceof LmsError && err.status === 404) throw new Response("Not found", { status: 404 });
      throw err;
    });
    workflow = wf;
  }
  const reviewAllowed = canReview(
    { workflow: { state: workflow.state as WorkflowState }, supportReview: agg.objective.supportReview, gradeRevealPolicy: agg.gradeRevealPolicy, gradeRevealDate: agg.gradeRevealDate },
    new Date(),
  );
  if ((review || workflow.state !== 1) && !reviewAllowed) {
    if (workflow.state !== 1) throw await redirectWithToast(`/learn/courses/${id}`, { type: "info", key: "review.notAllowed" });
  }
  const tree = await lms.get<ActivityTree>(`/api/lms/v1/users/me/objective-workflows/${workflow.id}/activity`);
  const isComposite = agg.objective.activity.kind === 3;
  const wantedPath = url.searchParams.get("activityPathId");
  const wantedActivity = url.searchParams.get("activityId");
  const wantedAxis = params.axis ?? null;
  let selected: TreeNode | undefined;
  if (wantedPath || wantedActivity || wantedAxis) {
    selected = tree.nodes.find((n) => n.activityPathId === wantedPath || n.childActivity.id === wantedActivity || n.axis === wantedAxis);
    // Spec 2.5: an unknown activity goes back to the details.
    if (!selected || !isComposite) {
      if (!selected) throw await redirectWithToast(`/learn/courses/${id}`, { type: "critical", key: "messages.moduleNotFound" });
    }
  }
  selected ??= defaultNode(tree.nodes);
  const readOnly = review || workflow.state !== 1;
  const confirmSubmit = url.searchParams.get("confirm") === "submit" && !readOnly;
  const content = selected?.childActivity.kind === 1 ? await contentOf(lms, selected) : null;
  return {
    course: { id, name: agg.objective.name, showContent: true, hasAnnouncements: Boolean(agg.objective.announcementChannelId) },
    workflow: { id: workflow.id, state: workflow.state, progress: Math.round(workflow.progress * 100) },
    nodes: tree.nodes,
    selectedPath: selected?.activityPathId ?? null,
    content,
    readOnly,
    review,
    confirmSubmit,
  };
}

/** Text activities carry their HTML; it is sanitised before it reaches the page. */
async function contentOf(lms: Awaited<ReturnType<ReturnType<typeof state>["lms"]>>, node: TreeNode) {
  try {
    const body = await lms.get<{ content: { html?: string } }>(`/api/lms/v1/users/me/activities/${node.childActivity.id}/content`);
    return { html: sanitizeCourseHtml(body.content.html ?? "") };
  } catch {
    return null;
  }
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const id = requireCourseId(params.id);
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  const form = await request.formData();
  const intent = form.get("intent");
  const wf = String(form.get("workflowId") ?? "");
  if (!UUID.test(wf)) throw new Response("Bad request", { status: 400 });
  const back = String(form.get("back") ?? "");
  const here = back.startsWith(`/learn/courses/${id}/`) ? back : `/learn/courses/${id}/view/content`;
  try {
    if (intent === "submit") return submitCourse(lms, id, wf);
    if (intent === "startActivity") {
      const part = String(form.get("activityPathId") ?? "");
      if (!UUID.test(part)) throw new Response("Bad request", { status: 400 });
      await lms.command("/api/lms/v1/start-activity-workflows", { objectiveWorkflowId: wf, activityPartIds: [part] });
      return redirect(here, 303);
    }
    if (intent === "finishActivity") {
      const aw = String(form.get("activityWorkflowId") ?? "");
      if (!UUID.test(aw)) throw new Response("Bad request", { status: 400 });
      await lms.command("/api/lms/v1/finish-activity-workflows", { objectiveWorkflowId: wf, activityWorkflowIds: [aw] });
      return redirect(here, 303);
    }
  } catch (err) {
    if (err instanceof LmsError) {
      const m = err.firstMessage();
      return redirectWithToast(here, { type: "critical", key: m ? `apiErrors.${m.code}` : "messages.unknownError" });
    }
    throw err;
  }
  throw new Response("Unknown action", { status: 400 });
}

function statusKey(n: TreeNode): string {
  const a = n.childActivity;
  if (a.state === 1) return "activity.comingSoon";
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  if (!aw) return n.optional ? "activity.optional" : "activity.notStarted";
  if (aw.state === 1) return "activity.inProgress";
  if (aw.state === 2) return "activity.inGrading";
  return "activity.completed";
}

/** A module's children done out of all (a composite's own state is its children's). */
function moduleProgress(nodes: TreeNode[], module: TreeNode) {
  const children = nodes.filter((c) => c.parentPathId === module.activityPathId && c.childActivity.kind !== 3);
  const done = children.filter((c) => {
    const aw = c.childActivity.activityWorkflowAggregate.lastActivityWorkflow;
    return aw && aw.state !== 1;
  }).length;
  return { done, total: children.length };
}

function SubmitDialog({ workflowId, onCancel, titleId }: { workflowId: string; onCancel?: () => void; titleId: string }) {
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
          <button type="button" className="button" onClick={onCancel}>{t("course.cancel")}</button>
        ) : (
          <Link className="button" to="?">{t("course.cancel")}</Link>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>{busy ? t("app.loading") : t("course.submitConfirm")}</button>
      </Form>
    </div>
  );
}

export default function CourseContent() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const selected = d.nodes.find((n) => n.activityPathId === d.selectedPath);
  const aw = selected?.childActivity.activityWorkflowAggregate.lastActivityWorkflow ?? null;
  const depth = (axis: string) => axis.split(".").length - 1;
  return (
    <div className="course-page">
      <CourseLayers objectiveId={d.course.id} active="content" showContent hasAnnouncements={d.course.hasAnnouncements} />
      <div className="content-view">
        <nav className="toc" aria-label={t("activity.toc")}>
          <h2>{d.course.name}</h2>
          <p className="toc__progress">{t("activity.courseProgress", { progress: d.workflow.progress })}</p>
          <ol>
            {d.nodes
              .filter((n) => n.parentPathId !== null)
              .map((n) => (
                <li key={n.activityPathId} style={{ paddingInlineStart: `${(depth(n.axis) - 0) * 12}px` }}>
                  <Link
                    to={`?activityPathId=${n.activityPathId}${d.review ? "&viewType=REVIEW" : ""}`}
                    aria-current={n.activityPathId === d.selectedPath ? "page" : undefined}
                    className="toc__link"
                  >
                    {n.childActivity.kind === 3 ? (
                      <span className="toc__status">{t("activity.moduleProgress", moduleProgress(d.nodes, n))}</span>
                    ) : (
                      <span className={`toc__status toc__status--${statusKey(n).split(".")[1]}`}>{t(statusKey(n))}</span>
                    )}
                    <span className="toc__name">{n.childActivity.name}</span>
                  </Link>
                </li>
              ))}
          </ol>
        </nav>
        <section className="activity-panel" aria-labelledby="activity-title">
          {d.review ? <p className="notice">{t("course.reviewMode")}</p> : null}
          {d.confirmSubmit ? <SubmitDialog workflowId={d.workflow.id} titleId="confirm-page-title" /> : null}
          {selected ? (
            <>
              <h1 id="activity-title">{selected.childActivity.name}</h1>
              <p className="activity-panel__meta">
                {t(`activityKind.${selected.childActivity.kind}`)} · {t(statusKey(selected))}
              </p>
              {d.content ? <div className="activity-text" dangerouslySetInnerHTML={{ __html: d.content.html }} /> : null}
              {!d.readOnly && selected.childActivity.kind !== 3 && selected.childActivity.state === 2 ? (
                <div className="activity-panel__actions">
                  {!aw ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="startActivity" />
                      <input type="hidden" name="workflowId" value={d.workflow.id} />
                      <input type="hidden" name="activityPathId" value={selected.activityPathId} />
                      <input type="hidden" name="back" value={`/learn/courses/${d.course.id}/view/content?activityPathId=${selected.activityPathId}`} />
                      <button type="submit" className="button button--primary">{t("activity.start")}</button>
                    </Form>
                  ) : aw.state === 1 ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="finishActivity" />
                      <input type="hidden" name="workflowId" value={d.workflow.id} />
                      <input type="hidden" name="activityWorkflowId" value={aw.id} />
                      <input type="hidden" name="back" value={`/learn/courses/${d.course.id}/view/content?activityPathId=${selected.activityPathId}`} />
                      <button type="submit" className="button button--primary">{t("activity.finish")}</button>
                    </Form>
                  ) : null}
                </div>
              ) : null}
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
                <SubmitDialog workflowId={d.workflow.id} titleId="confirm-dialog-title" onCancel={() => dialog.current?.close()} />
              </dialog>
            </div>
          ) : null}
        </section>
      </div>
    </div>
  );
}
