/** The content viewer (/learn/courses/{id}/view/content): the table of contents, the open activity, completion on view. */
import { redirect } from "react-router";
import type { TreeNode } from "#domain/contract/lifecycle";
import { endpoints } from "#domain/contract/endpoints";
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
import { ActivityKind, ActivityWorkflowState, ObjectiveState, ObjectiveWorkflowState } from "#domain/vocabulary";
import { isUuid } from "#domain/contract/common";
import { unfinishedActivities } from "#domain/submit-readiness";
import { CompletionRule } from "#domain/completion";
import { activityBody } from "./activity-body.server";
import { loadCourse } from "./course-page.server";
import { loadDiscussion } from "./discussion.server";
import { loadTeam } from "./group-work.server";
import { dateFormatter, type DateFormatter } from "./format.server";
import { LmsError, type LmsClient } from "./lms.server";
import { redirectWithToast } from "./toast.server";
import type { AppConfig } from "./config.server";
import type { ActivityBody } from "~/common/views/activity";
import { PRESENTATION_MODES, type ContentItem, type ContentView } from "~/common/views/content";

function statusKey(n: TreeNode): string {
  const a = n.childActivity;
  if (a.state === ObjectiveState.draft) return "activity.comingSoon";
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  if (!aw) return n.optional ? "activity.optional" : "activity.notStarted";
  if (aw.state === ActivityWorkflowState.inProgress) return "activity.inProgress";
  if (aw.state === ActivityWorkflowState.inGrading) return "activity.inGrading";
  return "activity.completed";
}

/** The `pdfPage` query parameter: a page number from 1 (the viewer clamps it to the document), else ignored. */
function pdfPageParam(raw: string | null): number | null {
  if (raw === null || !/^[1-9]\d{0,5}$/.test(raw)) return null;
  return Number(raw);
}

/** Resume: the in-progress activity the learner opened last. */
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
 * A workflow named beside a course id (in the URL or a form): the learner's own attempt of *that* course,
 * else 404 — `/courses/{A}/workflow/{an attempt of B}/view` must not show B under A's review rules, and an
 * action of A's pages must not act on B (decision 018).
 */
export async function workflowOfCourse(lms: LmsClient, courseId: string, workflowId: string) {
  if (!isUuid(workflowId)) throw new Response("Not found", { status: 404 });
  const workflow = await lms.get(endpoints.objectiveWorkflow(workflowId)).catch((err) => {
    if (err instanceof LmsError && [400, 403, 404].includes(err.status))
      throw new Response("Not found", { status: 404 });
    throw err;
  });
  if (workflow.objectiveId !== courseId) throw new Response("Not found", { status: 404 });
  return workflow;
}

export interface ContentViewInput {
  lms: LmsClient;
  config: AppConfig;
  courseId: string;
  /** `/workflow/{workflowId}/view`: an earlier attempt, read-only. */
  workflowId: string | null;
  /** `/view/content/{activityPartAxis}` (spec 2.1). */
  axis: string | null;
  url: URL;
  locale: string;
  timezone: string | null;
}

/**
 * What the content viewer shows (spec 2.5, 2.6, 4.7, 4.8, 4.12, 4.13): the attempt, the table of
 * contents with icons and locks, the selected activity (or every open one in the long-read modes) and
 * its discussion. Reads only. `openedActivity` names the in-progress activity the learner asked for,
 * so the route can remember it (`recordLearnerIsHere`).
 */
export async function loadContentView(input: ContentViewInput): Promise<{
  openedActivity: { workflowId: string; activityWorkflowId: string } | null;
  view: ContentView;
}> {
  const { lms, courseId: id, url } = input;
  const review = url.searchParams.get("viewType") === "REVIEW";
  const course = await loadCourse(lms, id, { config: input.config });
  const agg = course.aggregate;
  let workflow = agg?.lastObjectiveWorkflow ?? null;
  // Spec 2.5: no workflow yet leads to the details.
  if (!agg || !workflow) throw redirect(`/learn/courses/${id}`);
  if (input.workflowId !== null && input.workflowId !== workflow.id)
    workflow = await workflowOfCourse(lms, id, input.workflowId);
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
    throw await redirectWithToast(`/learn/courses/${id}`, { type: "info", key: "review.notAllowed" }, input.config);
  const readOnly = review || workflow.state !== ObjectiveWorkflowState.inProgress;
  // Spec 4.8 (decision 010): a proctored sitting that is over cannot be continued here either; the
  // API refuses activity commands while it holds, so the page says so instead of offering them.
  const proctorLock =
    !readOnly &&
    workflow.id === agg.lastObjectiveWorkflow?.id &&
    proctorLocked({ workflow: { state: workflow.state }, session: agg.lastProctoringSession ?? null });

  const [tree, contents] = await Promise.all([
    lms.get(endpoints.activityTree(workflow.id)),
    lms.get(endpoints.activityContents(workflow.id)),
  ]);
  const nodes = visibleNodes(tree.nodes).sort((a, b) => (a.axis < b.axis ? -1 : a.axis > b.axis ? 1 : 0));
  const byContent = new Map(contents.data.map((c) => [c.id, c]));
  const fmt = dateFormatter(input.locale, input.timezone);
  const lockCtx = {
    now,
    courseFinished: workflow.state === ObjectiveWorkflowState.finished,
    accessNewContentAfterCompletion: agg.objective.accessNewContentAfterCompletion,
    reviewing: readOnly,
  };

  const wanted = url.searchParams.get("activityPathId") ?? url.searchParams.get("activityId") ?? input.axis;
  let selected: TreeNode | undefined;
  if (wanted) {
    selected = nodes.find((n) => n.activityPathId === wanted || n.childActivity.id === wanted || n.axis === wanted);
    // Spec 2.5: "an unknown activity goes back to details" — with spec 8's 'Module not found'.
    if (!selected)
      throw await redirectWithToast(
        `/learn/courses/${id}`,
        { type: "critical", key: "messages.moduleNotFound" },
        input.config,
      );
  }
  selected ??= (!readOnly ? lastOpened(nodes) : undefined) ?? initialSelection(nodes) ?? nodes[0];

  const mode = PRESENTATION_MODES[agg.objective.presentationMode] ?? "tree";
  const longRead = (mode === "longRead" || mode === "longReadWithoutNames") && !wanted;
  const rootId = tree.rootPathId;
  const items = nodes.map((n): ContentItem => {
    const locked = isActivityLocked(n, lockCtx);
    const reason = activityDisableReason(n, { now, reviewing: readOnly });
    return {
      node: n,
      depth: Math.max(0, n.axis.split(".").length - 1),
      locked,
      reason: reason ? { key: reason.key, date: fmt.dateTime(reason.date) } : null,
      icon: tocIcon(n, { locked }),
      statusKey: statusKey(n),
      due: fmt.dateTime(n.constraint.due ?? null),
    };
  });
  const childCount = (n: TreeNode) => nodes.filter((c) => c.parentPathId === n.activityPathId).length;
  // Spec 4.12: a locked activity's content never reaches the page (the API leaves it out as well).
  const shown = longRead
    ? items.filter((i) => i.node.activityPathId !== rootId && !i.locked)
    : items.filter((i) => i.node === selected && !i.locked);
  const selectedItem = items.find((i) => i.node === selected);
  const showDiscussion =
    !longRead && selected?.childActivity.kind === ActivityKind.discussion && selectedItem && !selectedItem.locked;
  // Decision 026: a collaborative activity shows the learner's group, its shared answer and members.
  const showTeam =
    !longRead && selected?.childActivity.supportCollaborativeMode && selectedItem && !selectedItem.locked;
  // Spec 2.1: framed by the proctored sitting — the selected activity alone.
  const framed = url.searchParams.has("inProctoringIframe");
  const [bodies, discussion, team, submitPreview] = await Promise.all([
    Promise.all(
      shown.map(
        async (i) =>
          [
            i.node.activityPathId,
            await activityBody(lms, i.node, byContent.get(i.node.childActivity.id), {
              fmt,
              now,
              childCount: childCount(i.node),
              workflowId: workflow.id,
              // A locked attempt launches no tool (the API would refuse the launch too).
              // Spec 4.8: a proctored activity launches inside its sitting only (the proctor's frame).
              launch:
                readOnly || proctorLock || (i.node.childActivity.proctored && !framed)
                  ? null
                  : { workflowId: workflow.id, displayMode: agg.objective.displayMode, autoLaunch: !longRead },
              contentOrigin: input.config.contentOrigin,
              writable: !readOnly && !proctorLock,
              courseId: input.courseId,
            }),
          ] as const,
      ),
    ).then((entries) => Object.fromEntries(entries) as Record<string, ActivityBody>),
    showDiscussion && selected ? loadDiscussion(lms, selected.activityPathId, url.searchParams.get("page"), fmt) : null,
    showTeam && selected
      ? loadTeam(lms, { node: selected, workflowId: workflow.id, aggregateId: agg.id, url, fmt })
      : null,
    // Spec 4.5: the confirmation says when submitting now would fail the course (an API without it: nothing).
    readOnly || proctorLock ? null : lms.get(endpoints.submitPreview(workflow.id)).catch(() => null),
  ]);
  // `pdfPage=N` (a tutor citation of a PDF's page) opens the selected PDF at that page, over the resume page.
  const pdfPage = pdfPageParam(url.searchParams.get("pdfPage"));
  const selectedBody = selected ? bodies[selected.activityPathId] : undefined;
  if (pdfPage !== null && selectedBody?.kind === "pdf") selectedBody.page = pdfPage;
  const openAw = selected?.childActivity.activityWorkflowAggregate.lastActivityWorkflow;
  const refresh = nextRefreshAt(nodes, now);
  return {
    openedActivity:
      !readOnly && wanted && openAw && openAw.state === ActivityWorkflowState.inProgress
        ? { workflowId: workflow.id, activityWorkflowId: openAw.id }
        : null,
    view: {
      course: {
        id,
        name: agg.objective.name,
        language: agg.objective.language ?? null,
        hasAnnouncements: Boolean(agg.objective.announcementChannelId),
        // Spec 3: a notice on mobile widths where the course does not support them; full screen where it does.
        supportMobileView: agg.objective.supportMobileView ?? true,
        supportFullscreenView: agg.objective.supportFullscreenView ?? true,
      },
      workflow: { id: workflow.id, state: workflow.state, progress: Math.round(workflow.progress * 100) },
      rootId,
      mode,
      longRead,
      items,
      selectedPath: selected?.activityPathId ?? null,
      bodies,
      discussion,
      team,
      readOnly,
      review,
      proctorLock,
      confirmSubmit: url.searchParams.get("confirm") === "submit" && !readOnly,
      // Spec 2.1: framed by the proctored sitting — the selected activity alone.
      framed,
      unfinished: unfinishedActivities(nodes, now),
      submitPreview,
      refreshAt: refresh ? refresh.toISOString() : null,
      reviewQuery: review ? "&viewType=REVIEW" : "",
    },
  };
}

/**
 * The activity the learner opened, when opening it completes it (its completion rule is "view": a text,
 * a PDF, images) and it is not done yet: what `completeOnView` finishes. Null in review, under a proctor
 * lock, for a locked or draft activity, and on a page listing several activities (long read).
 */
export function viewToComplete(
  view: ContentView,
): { workflowId: string; activityPathId: string; activityWorkflowId: string | null } | null {
  if (view.readOnly || view.proctorLock || view.longRead || !view.selectedPath) return null;
  const item = view.items.find((i) => i.node.activityPathId === view.selectedPath);
  if (!item || item.locked) return null;
  const a = item.node.childActivity;
  if (a.completionRule !== CompletionRule.view || a.state !== ObjectiveState.ready || a.supportCollaborativeMode)
    return null;
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  if (aw && aw.state !== ActivityWorkflowState.inProgress) return null;
  return { workflowId: view.workflow.id, activityPathId: item.node.activityPathId, activityWorkflowId: aw?.id ?? null };
}

/**
 * Opening an activity whose rule is "view" completes it (started when needed, then finished; both
 * idempotent). Like `recordLearnerIsHere`, a write of the viewer's GET — made only when the learner opens
 * the page, never for a prefetch or an offline copy (the caller checks) — and a refusal (a lock the page
 * did not know of) leaves the page as it is. True when it finished the activity.
 */
export async function completeOnView(
  lms: LmsClient,
  target: NonNullable<ReturnType<typeof viewToComplete>>,
): Promise<boolean> {
  try {
    let id = target.activityWorkflowId;
    if (!id) {
      const started = await lms.command(endpoints.startActivityWorkflows, {
        objectiveWorkflowId: target.workflowId,
        activityPartIds: [target.activityPathId],
      });
      id = started.activityWorkflows.find((aw) => aw.activityPartId === target.activityPathId)?.id ?? null;
      if (!id) return false;
    }
    await lms.command(endpoints.finishActivityWorkflows, {
      objectiveWorkflowId: target.workflowId,
      activityWorkflowIds: [id],
    });
    return true;
  } catch (err) {
    if (err instanceof LmsError) return false;
    throw err;
  }
}

/**
 * Resume without JavaScript: opening an in-progress activity by its address records "the learner is
 * here" (the activity workflow's `openedAt`), so the next visit to the course opens it again. The one
 * write a GET of the content viewer makes; idempotent, and a failure never spoils the page.
 */
export async function recordLearnerIsHere(
  lms: LmsClient,
  opened: { workflowId: string; activityWorkflowId: string },
): Promise<void> {
  await lms
    .put(endpoints.activityWorkflow(opened.workflowId, opened.activityWorkflowId), { resume: {} })
    .catch(() => null);
}

/**
 * What a page kept for offline reading adds — its notice's date (when it was kept) and a
 * command id per activity for its "Mark as done", so the write made offline counts once however often
 * it is sent.
 */
export function offlineCopyParts(view: ContentView, fmt: DateFormatter): NonNullable<ContentView["offlineCopy"]> {
  return {
    savedAt: fmt.dateTime(new Date().toISOString())!,
    commandIds: Object.fromEntries(view.items.map((i) => [i.node.activityPathId, crypto.randomUUID()])),
  };
}
