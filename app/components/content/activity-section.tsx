/** One activity on the content page: its name, state, lock reason, body, discussion or team panel, and its start/finish control. */
import { textLanguage } from "#domain/locales";
import { Form, Link } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { ActivityKind, ActivityType, ActivityWorkflowState, ObjectiveState } from "#domain/vocabulary";
import { CompletionRule, marksDoneByHand } from "#domain/completion";
import { INTENT } from "~/common/forms/intents";
import { useTranslation } from "~/common/i18n";
import type { ContentItem, ContentView } from "~/common/views/content";
import { ActivityView } from "../activity-view";
import { serverRenderedWidget } from "../lazy-widget";

/** Loaded with the discussion activity only (Conform, its schema): not in every course's first load. */
const Discussion = serverRenderedWidget(() => import("../discussion"), { loading: true });
/** Loaded with a team or mini-group activity only (decision 026). */
const TeamPanel = serverRenderedWidget(() => import("../team-panel"), { loading: true });

/** What the last post of the page's action answered (a refused discussion post, a team save that lost a race). */
export interface ContentActionResult {
  discussion?: { submission: SubmissionResult<string[]>; parentPostId: string | null } | null;
  team?: { conflict: { text: string; current: { text: string; version: number } } } | null;
}

/** Start / finish controls of one activity (hidden while read-only, locked, draft or a module). */
function ActivityActions({ d, item }: { d: ContentView; item: ContentItem }) {
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
  // Inside the proctored sitting's frame the answer comes back to the frame's own page.
  const back = `/learn/courses/${d.course.id}/view/content?activityPathId=${item.node.activityPathId}${d.framed ? "&inProctoringIframe" : ""}`;
  if (aw && aw.state !== ActivityWorkflowState.inProgress) return null;
  // A collaborative activity is started (mode chosen) and submitted for the group in its team panel.
  if (a.supportCollaborativeMode && (!aw || aw.groupActivityWorkflowId)) return null;
  // A SCORM package finishes itself (LMSFinish/Terminate with its result, issue 15): "Mark as done" never
  // shows on one, whatever its body is (issue 30 item 7; the API refuses it too).
  if (aw && (a.type === ActivityType.Scorm || d.bodies[item.node.activityPathId]?.kind === "scorm")) return null;
  // A QTI test or survey is done when its answers are submitted, on its own page.
  if (aw && d.bodies[item.node.activityPathId]?.kind === "assessment") return null;
  // The tool that grades the activity finishes it (its launch starts it): nothing to press here.
  if (a.gradedByTool) return null;
  // Decision 048: an assignment is handed in on its own page (the link above), never marked done.
  if (a.takesHandIn) return null;
  // A copy never runs a script: only the server renders its form (it is not in the page's JavaScript).
  if (import.meta.env.SSR && d.offlineCopy) return <OfflineFinish d={d} item={item} back={back} />;
  // Its completion rule decides: opening it, posting, a grade… finish it; "Mark as done" only where the
  // learner's word is the rule (manual, a hand-in, a video whose player cannot report its end).
  const rule = a.completionRule ?? CompletionRule.manual;
  // A SCORM package is started here; it finishes itself.
  const startOnly = rule === CompletionRule.package && !aw;
  if (!startOnly && !marksDoneByHand(rule, { playerCanTell: false })) return null;
  // Marked done by hand: one press, started and finished at once. A hand-in is started first (its time counts).
  const oneStep = !aw && rule !== CompletionRule.submit && !startOnly;
  const finishing = Boolean(aw) || oneStep;
  return (
    <div className="activity-panel__actions">
      <Form method="post">
        <input type="hidden" name="intent" value={finishing ? INTENT.finishActivity : INTENT.startActivity} />
        <input type="hidden" name="workflowId" value={d.workflow.id} />
        {aw ? (
          <input type="hidden" name="activityWorkflowId" value={aw.id} />
        ) : (
          <input type="hidden" name="activityPathId" value={item.node.activityPathId} />
        )}
        <input type="hidden" name="back" value={back} />
        <button type="submit" className="button button--primary">
          {finishing ? t("activity.finish") : t("activity.start")}
        </button>
      </Form>
    </div>
  );
}

/** What completes the activity, said before she starts (Moodle's and Canvas's completion requirements). */
function CompletionNote({ item }: { item: ContentItem }) {
  const { t } = useTranslation();
  const a = item.node.childActivity;
  const rule = a.completionRule;
  if (!rule || rule === CompletionRule.tool || a.kind === ActivityKind.composite) return null;
  const graded = a.maxScore !== null && rule === CompletionRule.submit;
  return (
    <p className="activity-panel__meta activity-panel__completion">
      {t(`content.completes.${rule}`)}
      {graded ? ` ${t("content.completes.gradedByPerson")}` : ""}
    </p>
  );
}

/**
 * A page kept for offline reading offers "Mark as done" for a text activity — started or not
 * (the form names the activity then) — with a command id, and a note the service worker shows instead
 * once the learner pressed it offline. Nothing else there needs the network less than this.
 */
function OfflineFinish({ d, item, back }: { d: ContentView; item: ContentItem; back: string }) {
  const { t } = useTranslation();
  const a = item.node.childActivity;
  const aw = a.activityWorkflowAggregate.lastActivityWorkflow;
  const path = item.node.activityPathId;
  const body = d.bodies[path];
  if (a.kind !== ActivityKind.text || (body && body.kind !== "text" && body.kind !== "pdf" && body.kind !== "images"))
    return null;
  return (
    <div className="activity-panel__actions">
      <Form method="post" data-offline-form={path}>
        <input type="hidden" name="intent" value={INTENT.finishActivity} />
        <input type="hidden" name="workflowId" value={d.workflow.id} />
        {aw ? (
          <input type="hidden" name="activityWorkflowId" value={aw.id} />
        ) : (
          <input type="hidden" name="activityPathId" value={path} />
        )}
        <input type="hidden" name="commandId" value={d.offlineCopy?.commandIds[path] ?? ""} />
        <input type="hidden" name="back" value={back} />
        <button type="submit" className="button button--primary">
          {t("activity.finish")}
        </button>
      </Form>
      <p className="notice" data-offline-queued={path} hidden role="status">
        {t("offline.queued")}
      </p>
    </div>
  );
}

export function ActivitySection({
  d,
  item,
  headingLevel,
  hideName,
  actionData,
}: {
  d: ContentView;
  item: ContentItem;
  headingLevel: 1 | 2;
  hideName?: boolean;
  actionData?: ContentActionResult | null;
}) {
  const { t } = useTranslation();
  const a = item.node.childActivity;
  const H = headingLevel === 1 ? "h1" : "h2";
  const body = d.bodies[item.node.activityPathId];
  return (
    <section className="activity" aria-labelledby={`activity-${item.node.activityPathId}`}>
      <H
        id={`activity-${item.node.activityPathId}`}
        tabIndex={-1}
        className={hideName ? "visually-hidden" : undefined}
        {...textLanguage(d.course.language)}
      >
        {a.name}
      </H>
      {!hideName ? (
        <p className="activity-panel__meta">
          {t(a.type === ActivityType.Scorm ? "activityKind.scorm" : `activityKind.${a.kind}`)} · {t(item.statusKey)}
          {item.due ? ` · ${t("content.due", { date: item.due })}` : ""}
        </p>
      ) : null}
      {!item.locked ? <CompletionNote item={item} /> : null}
      {item.reason ? (
        <p className="notice" role="note">
          {t(item.reason.key, { date: item.reason.date ?? "" })}
        </p>
      ) : null}
      {body && !(item.locked && item.reason) ? (
        <ActivityView body={body} title={a.name} language={d.course.language} />
      ) : null}
      {a.gradedByTool && body?.kind === "lti" && body.launch && !item.locked ? (
        <p className="activity-panel__meta">
          {t(
            a.activityWorkflowAggregate.lastActivityWorkflow?.state === ActivityWorkflowState.inProgress ||
              !a.activityWorkflowAggregate.lastActivityWorkflow
              ? "content.gradedByTool"
              : "content.gradedByToolDone",
          )}
        </p>
      ) : null}
      {d.discussion && item.node.activityPathId === d.selectedPath ? (
        <Discussion
          {...d.discussion}
          formAction={`?activityPathId=${item.node.activityPathId}${d.discussion.page > 1 ? `&page=${d.discussion.page}` : ""}`}
          lastResult={actionData?.discussion ?? null}
        />
      ) : null}
      {d.team && item.node.activityPathId === d.team.activityPathId ? (
        <TeamPanel
          team={d.team}
          workflowId={d.workflow.id}
          activityWorkflowId={a.activityWorkflowAggregate.lastActivityWorkflow?.id ?? null}
          back={`/learn/courses/${d.course.id}/view/content?activityPathId=${item.node.activityPathId}`}
          readOnly={d.readOnly || d.proctorLock}
          conflict={actionData?.team?.conflict ?? null}
        />
      ) : null}
      {a.takesHandIn && !item.locked && !d.offlineCopy ? (
        <p className="activity-panel__actions">
          <Link
            className="button button--primary"
            to={`/learn/courses/${d.course.id}/hand-in/${item.node.activityPathId}`}
          >
            {!a.activityWorkflowAggregate.lastActivityWorkflow ||
            a.activityWorkflowAggregate.lastActivityWorkflow.state === ActivityWorkflowState.inProgress
              ? t("handIn.open")
              : t("handIn.openSubmitted")}
          </Link>
        </p>
      ) : null}
      <ActivityActions d={d} item={item} />
    </section>
  );
}
