/** A course's page (/learn/courses/{id}): the course and its attempt, and the commands it offers (start, submit, finish). */
import { tutorAvailable } from "#domain/tutor";
import { data, redirect } from "react-router";

import type { CertificateRecord } from "#domain/contract/certificates";

import { isCertificateExpired } from "#domain/certificates";
import { proctorLocked } from "#domain/proctoring";
import { formatScore, progressPercent, scoreColor } from "#domain/courses";
import {
  canReview,
  courseButtons,
  finishButton,
  gradeVisibility,
  isUnresolved,
  startPlan,
  workflowStateLabelKey,
} from "#domain/lifecycle";
import type { DateFormatter } from "./format.server";
import { sanitizeCourseHtml } from "./html.server";
import { LmsError, type LmsClient } from "./lms.server";
import { enrol } from "./course-lists.server";
import { redirectWithToast } from "./toast.server";
import { commandErrorToast, isTooManyRequests, tooManyRequestsToast } from "./command-errors.server";
import { isLockCode } from "#domain/activity-access";
import type { AppConfig } from "./config.server";

import { ActivityKind, ObjectiveWorkflowState } from "#domain/vocabulary";
import { endpoints } from "#domain/contract/endpoints";

const COURSE_UNAVAILABLE = "course-unavailable";
const notFoundToNull = (err: unknown) => {
  if (err instanceof LmsError && [400, 403, 404].includes(err.status)) return null;
  throw err;
};

/**
 * Spec 2.5 / 8: the reads behind a course page, in parallel; no access at all → 'Course is not
 * available'. With `certificatesOf` (the learner's user id) the learner's certificates for the course
 * are read in the same batch (spec 7.6: by objectiveId and userId, newest first).
 */
export async function loadCourse(
  lms: LmsClient,
  objectiveId: string,
  options: { certificatesOf?: string; config?: AppConfig } = {},
) {
  try {
    return await readCourse(lms, objectiveId, options);
  } catch (err) {
    // Spec 8: any other failure (500, 409, 429…) is the unknown-error toast on My courses, not the
    // 500 page. A 401 stays what it is (sign-in again), and so does anything that is not the API's.
    if (options.config && err instanceof LmsError && err.status !== 401)
      throw await redirectWithToast(
        "/learn/courses",
        { type: "critical", key: "messages.unknownError" },
        options.config,
      );
    throw err;
  }
}

async function readCourse(lms: LmsClient, objectiveId: string, options: { certificatesOf?: string }) {
  const unavailable = (err: unknown) => {
    if (err instanceof LmsError && [400, 401, 403, 404].includes(err.status)) return null;
    throw err;
  };
  const [aggregate, access, records, certificates] = await Promise.all([
    lms.get(endpoints.objectiveAggregate(objectiveId)).catch(unavailable),
    lms.get(endpoints.objectiveAccess(objectiveId)).catch(unavailable),
    lms.get(endpoints.objectiveRecords, { objectiveId }).catch(notFoundToNull),
    options.certificatesOf
      ? lms
          .get(endpoints.certificateRecords, {
            objectiveId,
            userId: options.certificatesOf,
            sort: "-created",
          })
          .catch(notFoundToNull)
      : null,
  ]);
  if (!aggregate && !access) throw data(COURSE_UNAVAILABLE, { status: 404 });
  return { aggregate, access, records: records?.data ?? [], certificates: certificates?.data ?? [] };
}

/** The issued certificate preview (spec 2.1 /courses/{objectiveId}/certificate/{certificateNumber}). */
export function certificatePreviewUrl(objectiveId: string, certificateNumber: string) {
  return `/learn/courses/${objectiveId}/certificate/${encodeURIComponent(certificateNumber)}`;
}

/** Spec 2.5 certificates list: newest first, dates in the learner's zone, spec 5 '(expired)'. */
function certificateRows(certificates: CertificateRecord[], now: Date, fmt: DateFormatter) {
  return [...certificates]
    .sort((a, b) => Date.parse(b.created) - Date.parse(a.created))
    .map((c) => ({
      id: c.id,
      name: c.certificateTemplate.name,
      number: c.certificateNumber,
      issued: fmt.date(c.created),
      expires: fmt.date(c.expirationDate),
      expired: isCertificateExpired(c.expirationDate, now),
      revoked: c.revoked,
      // The preview, and the stored PDF through the app's access-checked download.
      previewUrl: certificatePreviewUrl(c.objectiveId, c.certificateNumber),
      pdfUrl: `${certificatePreviewUrl(c.objectiveId, c.certificateNumber)}/download/pdf`,
    }));
}

/** Spec 5: a score as the pages show it — colour, whole percent, and points where they are shown. */
export function scoreView(r: { score: number | null; maxScore: number | null; normalizedScore: number | null } | null) {
  if (!r || r.normalizedScore === null) return null;
  const s = { score: r.score, maxScore: r.maxScore, normalizedScore: r.normalizedScore };
  return { color: scoreColor(s), percent: formatScore(s, "percent"), points: formatScore(s, "points") };
}

/** Everything the course details page shows, decided by the domain rules (spec 2.5, 4.3, 4.6, 4.7, 5). */
export function courseView(
  course: Awaited<ReturnType<typeof loadCourse>>,
  now: Date,
  fmt: DateFormatter,
  flags: { compositeRetake: boolean; tutor?: { enabled: boolean } },
) {
  const { aggregate, access, records, certificates } = course;
  const objective = access?.objective ?? { ...aggregate!.objective, about: "" };
  const wf = aggregate?.lastObjectiveWorkflow ?? null;
  const record = aggregate?.lastObjectiveRecord ?? null;
  const policy = aggregate ?? { gradeRevealPolicy: "none" as const, gradeRevealDate: null };
  const locked = proctorLocked({
    workflow: wf ? { state: wf.state } : null,
    session: aggregate?.lastProctoringSession ?? null,
  });
  const buttons = courseButtons(
    {
      objective: {
        state: objective.state,
        kind: objective.activity.kind,
        supportReview: objective.supportReview,
        activityState: objective.activity.state,
      },
      access: {
        enrolled: Boolean(aggregate),
        retake: aggregate?.retake ?? access?.retake ?? false,
        availabilityDate: aggregate?.availabilityDate ?? access?.availabilityDate ?? null,
        availabilityEndDate: aggregate?.availabilityEndDate ?? null,
        gradeRevealPolicy: policy.gradeRevealPolicy,
        gradeRevealDate: policy.gradeRevealDate,
      },
      workflow: wf ? { state: wf.state, protectResults: wf.protectResults } : null,
      record: record ? { id: record.id } : null,
      importedResults: Boolean(record?.imported),
      proctorLocked: locked,
      flags,
    },
    now,
  );
  const visibility = gradeVisibility(policy, wf ? { state: wf.state } : record ? { state: 6 } : null, now);
  const resultShown = record && visibility.visible && !record.resultsHidden;
  return {
    objective: { ...objective, about: sanitizeCourseHtml(objective.about) },
    aggregateId: aggregate?.id ?? null,
    accessId: access?.id ?? aggregate?.objectiveAccess?.id ?? null,
    enrolled: Boolean(aggregate),
    mandatory: aggregate?.isMandatory ?? access?.isMandatory ?? false,
    dueDate: fmt.dateTime(aggregate?.dueDate ?? access?.dueDate),
    workflow: wf
      ? {
          id: wf.id,
          state: wf.state,
          stateKey: workflowStateLabelKey(wf.state),
          progress: progressPercent(wf.progress),
          started: fmt.dateTime(wf.started),
          submitted: fmt.dateTime(wf.submitted),
          finished: fmt.dateTime(wf.finished),
        }
      : null,
    stateKey: workflowStateLabelKey(wf?.state ?? null),
    progress: progressPercent(wf?.progress ?? record?.progress ?? 0),
    result: resultShown
      ? {
          score: scoreView(record),
          grade: record.grade,
          passed: record.passed,
          unresolved: isUnresolved(wf ? { state: wf.state } : { state: 6 }, {
            passed: record.passed,
          }),
          finished: fmt.dateTime(record.finished),
        }
      : null,
    resultHiddenUntil: record && !resultShown ? fmt.dateTime(visibility.revealDate) : null,
    resultHidden: Boolean(record && !resultShown),
    // Spec 2.5: previous attempts are the records of attempts other than the current one.
    previousAttempts: records
      .filter((r) => !wf || r.objectiveWorkflowId !== wf.id)
      .map((r) => ({
        id: r.id,
        attempt: r.attempt,
        date: fmt.dateTime(r.finished ?? r.started),
        score: r.resultsHidden ? null : scoreView(r),
        workflowId: r.objectiveWorkflowId,
        reviewable:
          r.workflowState === 6 &&
          !r.resultsHidden &&
          !r.protectResults &&
          canReview(
            {
              workflow: { state: 6 },
              supportReview: objective.supportReview,
              gradeRevealPolicy: policy.gradeRevealPolicy,
              gradeRevealDate: policy.gradeRevealDate,
            },
            now,
          ),
      })),
    certificates: certificateRows(certificates, now, fmt),
    scale: aggregate?.objectiveGradingScale ?? null,
    buttons,
    // Decision 030: the learner finishes a graded attempt here.
    finish: finishButton({ workflow: wf, proctorLocked: locked }),
    message: buttons.message ? { key: buttons.message.key, date: fmt.dateTime(buttons.message.date) } : null,
    isLti: objective.activity.kind === ActivityKind.lti,
    // Spec 2.5: the Content layer only when in progress or review is supported, never for LTI.
    showContentLayer:
      objective.activity.kind !== ActivityKind.lti &&
      (wf?.state === ObjectiveWorkflowState.inProgress || objective.supportReview) &&
      Boolean(wf),
    hasAnnouncements: Boolean(objective.announcementChannelId),
    // Spec 3 / issue 16 item 4: the tutor of an enrolled learner's course, where tenant and course allow it.
    hasTutor: Boolean(aggregate) && tutorAvailable(flags.tutor ?? { enabled: false }, objective),
  };
}
export type CourseView = ReturnType<typeof courseView>;

const SUBMIT_POLL_INTERVAL_MS = 2000;
const SUBMIT_POLL_DURATION_MS = 60_000;

function startErrorToast(err: unknown, objectiveId: string, config: AppConfig, fmt?: DateFormatter) {
  if (err instanceof LmsError) {
    const m = err.firstMessage();
    // Too many requests (spec 8), or the first activity is locked (spec 4.12): said as such.
    if (err.status === 429 || (m && isLockCode(m.code)))
      return redirectWithToast(`/learn/courses/${objectiveId}`, commandErrorToast(err, fmt), config);
    if (
      m &&
      [
        "notYetAvailable",
        "availabilityEnded",
        "retakeNotAllowed",
        "courseNotAvailable",
        "workflowInProgress",
        "selfEnrollmentNotAllowed",
      ].includes(m.code)
    ) {
      const values =
        m.params?.date && fmt ? { ...m.params, date: fmt.dateTime(String(m.params.date)) ?? "" } : m.params;
      return redirectWithToast(
        `/learn/courses/${objectiveId}`,
        {
          type: "critical",
          key: `apiErrors.${m.code}`,
          values,
        },
        config,
      );
    }
    return redirectWithToast(
      `/learn/courses/${objectiveId}`,
      { type: "critical", key: "messages.startFailed" },
      config,
    );
  }
  throw err;
}

/** Issue 16 item 8: told when a course is started, submitted or finished (analytics, from the server). */
type CourseEventTracker = (name: "course_start" | "course_submit" | "course_finish") => void;

/**
 * Spec 4.4 start flow (and 4.3 'Start with self-enrollment enrols then starts'): enrol when needed,
 * start the objective workflow (when allowed), start the activity workflow for non-composite courses,
 * load the tree, then go to the content (for an LTI course, where its tool launches: issue 26).
 */
export async function startCourse(
  lms: LmsClient,
  config: AppConfig,
  objectiveId: string,
  workflowId: string,
  enrolCommandId: Parameters<typeof enrol>[2],
  fmt?: DateFormatter,
  track?: CourseEventTracker,
): Promise<Response> {
  try {
    let { aggregate } = await loadCourse(lms, objectiveId);
    if (!aggregate) {
      const enrolled = await enrol(lms, objectiveId, enrolCommandId);
      if (!enrolled.ok) {
        if (enrolled.reason === "refused" && enrolled.message) {
          return redirectWithToast(
            `/learn/courses/${objectiveId}`,
            {
              type: "critical",
              key: `apiErrors.${enrolled.message.code}`,
              values: enrolled.message.params,
            },
            config,
          );
        }
        return redirectWithToast("/learn/courses", { type: "critical", key: "messages.unknownError" }, config);
      }
      aggregate = await lms.get(endpoints.objectiveAggregate(objectiveId));
    }
    const kind = aggregate.objective.activity.kind;
    const wf = aggregate.lastObjectiveWorkflow;
    const plan = startPlan({
      kind,
      workflow: wf ? { state: wf.state } : null,
      hasActivityWorkflow: true,
      retakeAllowed: aggregate.retake,
    });
    let workflow = wf;
    if (plan.steps.includes("startObjectiveWorkflow")) {
      workflow = await lms.command(endpoints.startObjectiveWorkflows, {
        objectiveWorkflowAggregateId: aggregate.id,
        id: workflowId,
      });
      track?.("course_start");
    }
    if (!workflow)
      return redirectWithToast(
        `/learn/courses/${objectiveId}`,
        { type: "critical", key: "messages.startFailed" },
        config,
      );
    const tree = await lms.get(endpoints.activityTree(workflow.id));
    if (plan.steps.includes("startActivityWorkflow") && tree.rootPathId) {
      await lms.command(endpoints.startActivityWorkflows, {
        objectiveWorkflowId: workflow.id,
        activityPartIds: [tree.rootPathId],
      });
    }
    throw redirect(`/learn/courses/${objectiveId}/view/content`);
  } catch (err) {
    if (err instanceof Response) return err;
    return startErrorToast(err, objectiveId, config, fmt);
  }
}

/** Spec 4.5: submit, then poll the workflow every 2 s (up to 60 s) until its record appears. */
export async function submitCourse(
  lms: LmsClient,
  config: AppConfig,
  objectiveId: string,
  workflowId: string,
  track?: CourseEventTracker,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<Response> {
  try {
    await lms.command(endpoints.submitObjectiveWorkflows, { id: workflowId });
    track?.("course_submit");
    const started = Date.now();
    for (;;) {
      const wf = await lms.get(endpoints.objectiveWorkflow(workflowId));
      if (wf.objectiveRecordId) {
        return redirectWithToast(
          `/learn/courses/${objectiveId}`,
          {
            type: "success",
            key: wf.state === ObjectiveWorkflowState.inGrading ? "course.submittedInGrading" : "course.submitted",
          },
          config,
        );
      }
      if (Date.now() - started >= SUBMIT_POLL_DURATION_MS) break;
      await sleep(SUBMIT_POLL_INTERVAL_MS);
    }
    return redirectWithToast(`/learn/courses/${objectiveId}`, { type: "critical", key: "messages.timeOver" }, config);
  } catch (err) {
    if (err instanceof LmsError)
      return redirectWithToast(`/learn/courses/${objectiveId}`, commandErrorToast(err), config);
    throw err;
  }
}

/**
 * Spec 4.5, 7.3 (decision 030): finish a submitted or graded attempt (respond-sync). The answer
 * replaces the workflow; the certificate of a passed attempt comes with it, and Start again opens.
 * `commandId` makes a double submit one command.
 */
export async function finishAttempt(
  lms: LmsClient,
  config: AppConfig,
  objectiveId: string,
  workflowId: string,
  commandId: string,
  track?: CourseEventTracker,
): Promise<Response> {
  const back = `/learn/courses/${objectiveId}`;
  try {
    await lms.command(endpoints.finishObjectiveWorkflows, { id: commandId, objectiveWorkflowId: workflowId });
    track?.("course_finish");
    return redirectWithToast(back, { type: "success", key: "finish.finished" }, config);
  } catch (err) {
    if (!(err instanceof LmsError)) throw err;
    if (isTooManyRequests(err)) return redirectWithToast(back, tooManyRequestsToast(err), config);
    const m = err.firstMessage();
    return redirectWithToast(
      back,
      { type: "critical", key: m && m.code === "alreadyFinished" ? "finish.alreadyFinished" : "messages.unknownError" },
      config,
    );
  }
}
