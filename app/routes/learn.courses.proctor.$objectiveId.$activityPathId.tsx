import { data, Form, Link, redirect, redirectDocument, useLoaderData } from "react-router";
import { safeTarget } from "~/services/auth.server";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.courses.proctor.$objectiveId.$activityPathId";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { proctorLocked } from "#domain/proctoring";
import { ObjectiveWorkflowState, ProctoringSessionState } from "#domain/vocabulary";
import { state } from "~/services/request.server";
import { getLocale } from "~/services/i18n.server";
import { dateFormatter } from "~/services/format.server";
import { requireCourseId } from "~/services/course-id.server";
import { loadCourse } from "~/services/course-page.server";
import { commandErrorToast } from "~/services/command-errors.server";
import { intentOf, readForm, badRequest } from "~/services/forms.server";
import { LmsError, type LmsClient } from "~/services/lms.server";
import { redirectWithToast } from "~/services/toast.server";
import { INTENT } from "~/common/forms/intents";
import type { AppConfig } from "~/services/config.server";
import { ACTIVITY_NOT_FOUND } from "~/common/errors";

export const handle = {
  title: (d: { activity?: { name: string } } | undefined, t: (k: string) => string) =>
    d?.activity ? `${d.activity.name} · ${t("proctor.title")}` : t("proctor.title"),
  // Spec 2.1: inside the proctoring service's frame the sitting is the page — no menu, no header.
  bare: (d: { framed?: boolean } | undefined) => (d?.framed ? ("framed" as const) : false),
};

/** The attempt in progress and the proctored activity of `activityPathId` in it (404 when not there). */
async function sitting(lms: LmsClient, objectiveId: string, activityPathId: string, config: AppConfig) {
  if (!isUuid(activityPathId)) throw data(ACTIVITY_NOT_FOUND, { status: 404 });
  const course = await loadCourse(lms, objectiveId, { config });
  const agg = course.aggregate;
  const workflow = agg?.lastObjectiveWorkflow ?? null;
  if (!agg || !workflow) throw redirect(`/learn/courses/${objectiveId}`);
  const tree = await lms.get(endpoints.activityTree(workflow.id));
  const node = tree.nodes.find((n) => n.activityPathId === activityPathId);
  if (!node) throw data(ACTIVITY_NOT_FOUND, { status: 404 });
  // Not proctored: the activity opens in the course's content view as any other.
  if (!node.childActivity.proctored)
    throw redirect(`/learn/courses/${objectiveId}/view/content?activityPathId=${activityPathId}`);
  return {
    agg,
    workflow,
    node,
    activityWorkflow: node.childActivity.activityWorkflowAggregate?.lastActivityWorkflow ?? null,
  };
}

/**
 * /learn/courses/proctor/{objectiveId}/{activityPathId}?inProctoringIframe (spec 2.1, 4.8, 7.5; issue 14
 * item 8, decision 024): a proctored activity's sitting. The learner starts it here (a plain form);
 * with a proctoring service configured (PROCTORING_URL) the start hands the sitting to it — its page
 * verifies the start token with the platform's keys and frames this page, which then embeds the
 * activity. Once the service ends the sitting the 4.8 lock holds: the page says so and the API refuses
 * the activity's writes.
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const objectiveId = requireCourseId(params.objectiveId);
  const { agg, workflow, node, activityWorkflow } = await sitting(lms, objectiveId, params.activityPathId, s.config);
  const session = activityWorkflow
    ? await lms.get(endpoints.lastProctoringSession(workflow.id, activityWorkflow.id)).catch((err) => {
        if (err instanceof LmsError && err.status === 404) return null;
        throw err;
      })
    : null;
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  const locked = proctorLocked({ workflow, session: agg.lastProctoringSession ?? session });
  return {
    objectiveId,
    activityPathId: node.activityPathId,
    activity: { name: node.childActivity.name },
    course: { name: agg.objective.name },
    inProgress: workflow.state === ObjectiveWorkflowState.inProgress,
    session: session
      ? {
          state: session.state,
          started: fmt.dateTime(session.created),
          ended: fmt.dateTime(session.completed),
        }
      : null,
    locked,
    framed: url.searchParams.has("inProctoringIframe"),
  };
}

export async function action({ params, request, url, context }: Route.ActionArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  const lms = await s.lms();
  const objectiveId = requireCourseId(params.objectiveId);
  const form = await readForm(request);
  if (intentOf(form) !== INTENT.startSitting) badRequest();
  const here = safeTarget(`${url.pathname}${url.search}`, s.config);
  const { workflow, node, activityWorkflow } = await sitting(lms, objectiveId, params.activityPathId, s.config);
  try {
    // The activity is started with its sitting (both idempotent: a second click changes nothing).
    const awId =
      activityWorkflow?.id ??
      (
        await lms.command(endpoints.startActivityWorkflows, {
          objectiveWorkflowId: workflow.id,
          activityPartIds: [node.activityPathId],
        })
      ).activityWorkflows.find((a) => a.activityPartId === node.activityPathId)?.id;
    if (!awId) throw new LmsError(409, {}, "command");
    const session = await lms.command(endpoints.startProctoringSession(workflow.id, awId), {});
    const service = s.config.proctoringUrl;
    if (!service) return redirect(here, 303);
    // Handed to the proctoring service: the token it verifies with the platform's JWKS, the session it
    // may end, and this page for it to frame.
    const start = await lms.get(endpoints.proctoringStartToken(workflow.id, awId, node.activityPathId));
    const target = new URL(service);
    target.searchParams.set("token", start.token);
    target.searchParams.set("session", session.id);
    target.searchParams.set("wrapper", `${url.pathname}?inProctoringIframe`);
    // A page outside the app: the browser loads it as a document, also after a script-driven submit.
    // eslint-disable-next-line local/redirect-targets -- the proctoring service of the operator's configuration (PROCTORING_URL)
    return redirectDocument(target.toString(), 303);
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    const fmt = dateFormatter(getLocale(context), shell.user.timezone);
    return redirectWithToast(here, commandErrorToast(err, fmt), s.config);
  }
}

export default function ProctoredSitting() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  // The activity alone (spec 2.1 `inProctoringIframe`): the content view renders it without the course around it.
  const content = `/learn/courses/${d.objectiveId}/view/content?activityPathId=${d.activityPathId}&inProctoringIframe`;
  const running = d.session?.state === ProctoringSessionState.inProgress && !d.locked;
  return (
    <section className="proctor" aria-labelledby="proctor-title">
      <p className="proctor__course">{d.course.name}</p>
      <h1 id="proctor-title">{d.activity.name}</h1>
      <p className="proctor__state" role="status">
        {d.locked
          ? t("proctor.ended", { time: d.session?.ended ?? "" })
          : running
            ? t("proctor.running", { time: d.session?.started ?? "" })
            : t("proctor.notStarted")}
      </p>
      {d.locked ? (
        <>
          <p className="notice" role="note">
            {t("proctoring.locked")}
          </p>
          <p>
            <Link to={`/learn/courses/${d.objectiveId}`} target={d.framed ? "_top" : undefined}>
              {t("proctor.back")}
            </Link>
          </p>
        </>
      ) : running ? (
        <iframe className="proctor__frame" title={d.activity.name} src={content} />
      ) : d.inProgress ? (
        <Form method="post" className="proctor__start">
          <p>{t("proctor.intro")}</p>
          <input type="hidden" name="intent" value={INTENT.startSitting} />
          <button type="submit" className="button button--primary">
            {t("proctor.start")}
          </button>
        </Form>
      ) : (
        <p>
          <Link to={`/learn/courses/${d.objectiveId}`}>{t("proctor.back")}</Link>
        </p>
      )}
    </section>
  );
}
