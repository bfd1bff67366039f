import { ObjectiveState, ActivityKind, ObjectiveWorkflowState, type GradeRevealPolicy } from "./vocabulary";
/**
 * Spec 4: course / objective lifecycle rules for the learner app.
 *
 * Pure module: no I/O, no imports from app/ or api/. Every time-dependent
 * rule takes `now` as a parameter.
 *
 * Conventions used throughout (documented product decisions):
 * - Dates are ISO-8601 strings. A date that is null or cannot be parsed is
 *   treated as "not set".
 * - Date boundaries: "before X" means `now < X`; "after X" means `now > X`;
 *   "hidden until X" means revealed when `now >= X`. So exactly at
 *   availabilityDate the course is startable, exactly at availabilityEndDate
 *   it is still startable, and exactly at gradeRevealDate grades are shown.
 * - Button visibility answers "does this action exist in this situation"
 *   (state-driven: workflow state, retake permission, kind, feature flag,
 *   review support). Blocking conditions (availability window, proctor lock,
 *   protected results, imported results, grade-reveal policy, a start already
 *   under way) keep the button visible but disabled with a translation-key
 *   `reason`.
 */

// ---------------------------------------------------------------------------
// 4.1 Enumerations
// ---------------------------------------------------------------------------

const WORKFLOW_LABEL_KEYS: Record<ObjectiveWorkflowState, string> = {
  1: "workflowState.inProgress",
  2: "workflowState.submitted",
  3: "workflowState.inGrading",
  4: "workflowState.graded",
  5: "workflowState.gradingApproved",
  6: "workflowState.finished",
};

/**
 * Spec 4.1: translation key for a workflow state label
 * (Not Started, In Progress, Submitted, In Grading, Graded, Grading Approved, Finished).
 * `null`, `undefined` and "none" mean not started.
 */
export function workflowStateLabelKey(state: ObjectiveWorkflowState | "none" | null | undefined): string {
  if (state === null || state === undefined || state === "none") return "workflowState.notStarted";
  return WORKFLOW_LABEL_KEYS[state] ?? "workflowState.notStarted";
}

/**
 * Spec 4.1: a workflow is unresolved when it is finished and `passed` is null.
 * `passed` lives on the (last) record; without a record there is no result to
 * be unresolved, so this returns false.
 */
export function isUnresolved(
  workflow: { state: ObjectiveWorkflowState } | null | undefined,
  record: { passed?: boolean | null } | null | undefined,
): boolean {
  if (!workflow || workflow.state !== ObjectiveWorkflowState.finished) return false;
  if (!record) return false;
  return record.passed === null || record.passed === undefined;
}

// ---------------------------------------------------------------------------
// Date helpers
// ---------------------------------------------------------------------------

function toTime(date: string | null | undefined): number | null {
  if (date === null || date === undefined || date === "") return null;
  const t = Date.parse(date);
  return Number.isNaN(t) ? null : t;
}

/** True when a reveal date is set and `now >= date` (inclusive boundary). */
function reached(date: string | null | undefined, now: Date): boolean {
  const t = toTime(date);
  return t !== null && now.getTime() >= t;
}

// ---------------------------------------------------------------------------
// 4.6 Availability
// ---------------------------------------------------------------------------

export type AvailabilityBlock =
  | {
      kind: "notYetAvailable";
      key: "availability.notYetAvailable";
      date: string;
    }
  | { kind: "ended"; key: "availability.ended"; date: string };

/**
 * Spec 4.6: why a *new* workflow (start or retake) cannot be started now, or
 * null when it can. Before availabilityDate (`now < date`) nothing can be
 * started; after availabilityEndDate (`now > date`) no new workflow can be
 * started (first start or retake). In-progress workflows and review are not
 * affected by this function.
 */
export function availabilityBlock(
  access: {
    availabilityDate: string | null;
    availabilityEndDate: string | null;
  },
  now: Date,
): AvailabilityBlock | null {
  const start = toTime(access.availabilityDate);
  if (start !== null && now.getTime() < start) {
    return {
      kind: "notYetAvailable",
      key: "availability.notYetAvailable",
      date: access.availabilityDate as string,
    };
  }
  const end = toTime(access.availabilityEndDate);
  if (end !== null && now.getTime() > end) {
    return {
      kind: "ended",
      key: "availability.ended",
      date: access.availabilityEndDate as string,
    };
  }
  return null;
}

// ---------------------------------------------------------------------------
// 4.7 Grade display and review
// ---------------------------------------------------------------------------

export interface GradeRevealAccess {
  gradeRevealPolicy: GradeRevealPolicy;
  gradeRevealDate: string | null;
}

/**
 * Spec 4.7: whether the grade of a workflow is shown.
 * - "none": always shown.
 * - "never": hidden.
 * - "afterFinish": shown once the workflow has been submitted — submitted,
 *   in grading, graded, and (interpretation) the later grading-approved and
 *   finished states; hidden while not started or in progress.
 * - "afterDate": hidden until gradeRevealDate (shown when `now >= date`).
 *   A missing/unparseable date keeps grades hidden (fail closed).
 *   `revealDate` is returned while hidden and a date is known.
 */
export function gradeVisibility(
  access: GradeRevealAccess,
  workflow: { state: ObjectiveWorkflowState } | null | undefined,
  now: Date,
): { visible: boolean; revealDate?: string } {
  switch (access.gradeRevealPolicy) {
    case "none":
      return { visible: true };
    case "never":
      return { visible: false };
    case "afterFinish":
      return {
        visible: !!workflow && workflow.state >= ObjectiveWorkflowState.submitted,
      };
    case "afterDate": {
      if (reached(access.gradeRevealDate, now)) return { visible: true };
      return toTime(access.gradeRevealDate) !== null
        ? { visible: false, revealDate: access.gradeRevealDate as string }
        : { visible: false };
    }
    default:
      return { visible: false };
  }
}

/** Policy part of 4.7 shared by review and previous-attempt scores: not "never", and for "afterDate" the date is reached. */
function policyAllowsResults(access: GradeRevealAccess, now: Date): boolean {
  if (access.gradeRevealPolicy === "never") return false;
  if (access.gradeRevealPolicy === "afterDate") return reached(access.gradeRevealDate, now);
  return true;
}

/**
 * Spec 4.7: previous-attempt scores are shown when records exist, the policy
 * is not "never" and the reveal date has passed (only "afterDate" has a date;
 * exactly at the date counts as passed).
 */
export function previousAttemptScoresVisible(input: { recordCount: number } & GradeRevealAccess, now: Date): boolean {
  return input.recordCount > 0 && policyAllowsResults(input, now);
}

/**
 * Spec 4.7: review is allowed only when the workflow is finished (state 6),
 * review is supported, the policy is not "never", and for "afterDate" the
 * reveal date is reached.
 */
export function canReview(
  input: {
    workflow: { state: ObjectiveWorkflowState } | null | undefined;
    supportReview: boolean;
  } & GradeRevealAccess,
  now: Date,
): boolean {
  return (
    !!input.workflow &&
    input.workflow.state === ObjectiveWorkflowState.finished &&
    input.supportReview &&
    policyAllowsResults(input, now)
  );
}

/** The 4.7 reason review is refused by the grade policy / workflow state, or null. */
function reviewPolicyReason(
  workflow: { state: ObjectiveWorkflowState },
  access: GradeRevealAccess,
  now: Date,
): string | null {
  if (workflow.state !== ObjectiveWorkflowState.finished) return "review.notFinished";
  if (access.gradeRevealPolicy === "never") return "review.gradesHidden";
  if (access.gradeRevealPolicy === "afterDate" && !reached(access.gradeRevealDate, now)) return "review.notYetRevealed";
  return null;
}

// ---------------------------------------------------------------------------
// 4.2 / 4.3 / 4.6 / 4.7 Buttons
// ---------------------------------------------------------------------------

export interface ButtonState {
  visible: boolean;
  enabled: boolean;
  /** Translation key explaining why a visible button is disabled. */
  reason?: string;
}

export interface CourseButtonsInput {
  objective: {
    state: ObjectiveState;
    /** Activity kind of the course's root activity. */
    kind: ActivityKind;
    supportReview: boolean;
    /** State of the root activity (same scale as objective states). */
    activityState: ObjectiveState;
  };
  access: {
    /** Has an access: self-enrolled, mandatory or assigned. */
    enrolled: boolean;
    /** Retake permitted. */
    retake: boolean;
    availabilityDate: string | null;
    availabilityEndDate: string | null;
    gradeRevealPolicy: GradeRevealPolicy;
    gradeRevealDate: string | null;
  };
  workflow: { state: ObjectiveWorkflowState; protectResults: boolean } | null;
  /** Last record. */
  record: { id: string | number } | null;
  importedResults: boolean;
  proctorLocked: boolean;
  flags: { compositeRetake: boolean };
  /** A start (or retake) is under way. */
  starting?: boolean;
}

export interface CourseButtons {
  start: ButtonState;
  continue: ButtonState;
  review: ButtonState;
  startAgain: ButtonState;
  addToMyCourses: ButtonState;
  share: true;
  message: null | { key: string; date?: string };
}

const HIDDEN: ButtonState = { visible: false, enabled: false };
const ENABLED: ButtonState = { visible: true, enabled: true };
const disabled = (reason: string): ButtonState => ({
  visible: true,
  enabled: false,
  reason,
});

/**
 * Spec 4.5, 7.3 (decision 030): the states in which an attempt can be finished — its results are in
 * (submitted) or a person has graded them (graded, grading approved). The API refuses the finish
 * command in any other state, and the course page offers 'Finish the attempt' in exactly these.
 */
const FINISHABLE_WORKFLOW_STATES: readonly ObjectiveWorkflowState[] = [
  ObjectiveWorkflowState.submitted,
  ObjectiveWorkflowState.graded,
  ObjectiveWorkflowState.gradingApproved,
];

export function canFinishAttempt(workflow: { state: ObjectiveWorkflowState } | null | undefined): boolean {
  return Boolean(workflow && FINISHABLE_WORKFLOW_STATES.includes(workflow.state));
}

/**
 * Decision 030: 'Finish the attempt' on the course page once the results are in or graded; disabled
 * while a proctor lock holds (spec 4.8). Finishing issues the certificate and opens Start again.
 */
export function finishButton(input: {
  workflow: { state: ObjectiveWorkflowState } | null | undefined;
  proctorLocked: boolean;
}): ButtonState {
  if (!canFinishAttempt(input.workflow)) return HIDDEN;
  return input.proctorLocked ? disabled("proctoring.locked") : ENABLED;
}

/**
 * Spec 4.3 (start again): retake is offered when the workflow is finished,
 * retake is permitted and the kind is not text; LTI only when the root
 * activity is ready or expired; composite only with the compositeRetake flag.
 */
export function retakeOffered(input: {
  workflow: { state: ObjectiveWorkflowState } | null | undefined;
  retake: boolean;
  kind: ActivityKind;
  activityState: ObjectiveState;
  compositeRetake: boolean;
}): boolean {
  if (!input.workflow || input.workflow.state !== ObjectiveWorkflowState.finished) return false;
  if (!input.retake) return false;
  if (input.kind === ActivityKind.text) return false;
  if (
    input.kind === ActivityKind.lti &&
    input.activityState !== ObjectiveState.ready &&
    input.activityState !== ObjectiveState.expired
  ) {
    return false;
  }
  if (input.kind === ActivityKind.composite && !input.compositeRetake) return false;
  return true;
}

/**
 * Spec 4.2, 4.3, 4.6, 4.7: the learner's course action buttons.
 *
 * Behaviour:
 * - 4.2 draft / archived: every button hidden except share; message
 *   "courseState.comingSoon" (draft) or "courseState.notAvailable" (archived).
 *   Expired objectives behave like ready ones.
 * - `starting`: Start is shown disabled ("course.starting") as a busy state;
 *   Continue / Review / Start again are hidden until the start completes.
 * - Start: visible when there is no workflow. Not enrolled → Start enrols then
 *   starts (see `startPlan`). Disabled by 4.6 availability.
 * - Continue: visible when the workflow is in progress; disabled
 *   ("proctoring.locked") when proctor-locked. Never blocked by availability.
 * - Review: visible when a workflow exists, is not in progress, and review is
 *   supported. Disabled, first matching reason wins: imported results without
 *   records ("review.importedResults"), proctor lock ("proctoring.locked"),
 *   protected results ("review.resultsProtected"), not finished
 *   ("review.notFinished"), policy never ("review.gradesHidden"), afterDate
 *   not reached ("review.notYetRevealed"). Never blocked by availability.
 * - Start again: visible per `retakeOffered`; disabled by 4.6 availability.
 * - Add to my courses: visible; enabled when not enrolled, otherwise disabled
 *   with "course.enrolled".
 * - message (one at most, in priority order): course state; the availability
 *   block when it disables a visible Start / Start again (key + date);
 *   "review.importedResults" when it disables a visible Review;
 *   "proctoring.locked" when it disables a visible Continue or Review.
 */
export function courseButtons(input: CourseButtonsInput, now: Date): CourseButtons {
  const { objective, access, workflow } = input;
  const share = true as const;

  // 4.2 draft / archived: only sharing remains.
  if (objective.state === ObjectiveState.draft || objective.state === ObjectiveState.archived) {
    return {
      start: HIDDEN,
      continue: HIDDEN,
      review: HIDDEN,
      startAgain: HIDDEN,
      addToMyCourses: HIDDEN,
      share,
      message: {
        key: objective.state === ObjectiveState.draft ? "courseState.comingSoon" : "courseState.notAvailable",
      },
    };
  }

  const addToMyCourses: ButtonState = access.enrolled ? disabled("course.enrolled") : ENABLED;

  if (input.starting) {
    return {
      start: disabled("course.starting"),
      continue: HIDDEN,
      review: HIDDEN,
      startAgain: HIDDEN,
      addToMyCourses,
      share,
      message: null,
    };
  }

  const block = availabilityBlock(access, now);
  const inProgress = workflow?.state === ObjectiveWorkflowState.inProgress;

  // Start
  let start: ButtonState = HIDDEN;
  if (!workflow) start = block ? disabled(block.key) : ENABLED;

  // Continue
  let cont: ButtonState = HIDDEN;
  if (inProgress) cont = input.proctorLocked ? disabled("proctoring.locked") : ENABLED;

  // Review
  let review: ButtonState = HIDDEN;
  const importedWithoutRecords = input.importedResults && !input.record;
  if (workflow && !inProgress && objective.supportReview) {
    let reason: string | null = null;
    if (importedWithoutRecords) reason = "review.importedResults";
    else if (input.proctorLocked) reason = "proctoring.locked";
    else if (workflow.protectResults) reason = "review.resultsProtected";
    else reason = reviewPolicyReason(workflow, access, now);
    review = reason ? disabled(reason) : ENABLED;
  }

  // Start again
  let startAgain: ButtonState = HIDDEN;
  if (
    retakeOffered({
      workflow,
      retake: access.retake,
      kind: objective.kind,
      activityState: objective.activityState,
      compositeRetake: input.flags.compositeRetake,
    })
  ) {
    startAgain = block ? disabled(block.key) : ENABLED;
  }

  let message: CourseButtons["message"] = null;
  if (block && ((start.visible && !start.enabled) || (startAgain.visible && !startAgain.enabled))) {
    message = { key: block.key, date: block.date };
  } else if (review.visible && review.reason === "review.importedResults") {
    message = { key: "review.importedResults" };
  } else if (
    (cont.visible && cont.reason === "proctoring.locked") ||
    (review.visible && review.reason === "proctoring.locked")
  ) {
    message = { key: "proctoring.locked" };
  }

  return {
    start,
    continue: cont,
    review,
    startAgain,
    addToMyCourses,
    share,
    message,
  };
}

// ---------------------------------------------------------------------------
// 4.4 Start flow
// ---------------------------------------------------------------------------

/**
 * Spec 4.4: whether a new objective workflow is started.
 * - `forced`: always.
 * - no workflow: yes.
 * - a finished workflow: only when retake is allowed.
 * - an unfinished workflow (in progress … grading approved): no — the
 *   existing workflow is reused rather than duplicated.
 */
export function canStartObjectiveWorkflow(input: {
  workflow: { state: ObjectiveWorkflowState } | null | undefined;
  retakeAllowed: boolean;
  forced?: boolean;
}): boolean {
  if (input.forced) return true;
  if (!input.workflow) return true;
  if (input.workflow.state === ObjectiveWorkflowState.finished) return input.retakeAllowed;
  return false;
}

type StartStep = "selfEnroll" | "startObjectiveWorkflow" | "startActivityWorkflow" | "loadTree";

export interface StartPlan {
  steps: StartStep[];
  /**
   * Spec 4.4 has LTI courses "reload the course view page", where the learner had to press again
   *: every course now goes to its content, which for an LTI course is the tool's launch.
   */
  destination: "content";
}

/**
 * Spec 4.4 (and 4.3 "Start with self-enrollment enrols then starts"):
 * ordered steps of the start flow.
 * 1. "selfEnroll" when `enrolled === false` (default: enrolled).
 * 2. "startObjectiveWorkflow" when `canStartObjectiveWorkflow`.
 * 3. "startActivityWorkflow" for non-composite courses without an activity
 *    workflow. `hasActivityWorkflow` refers to the current objective
 *    workflow, so it is ignored when step 2 starts a new one.
 * 4. "loadTree" (full activity tree) always.
 * Destination: the content — for an LTI course the page that launches its tool.
 */
export function startPlan(input: {
  kind: ActivityKind;
  workflow: { state: ObjectiveWorkflowState } | null | undefined;
  hasActivityWorkflow: boolean;
  retakeAllowed: boolean;
  forced?: boolean;
  enrolled?: boolean;
}): StartPlan {
  const steps: StartStep[] = [];
  if (input.enrolled === false) steps.push("selfEnroll");
  const newObjective = canStartObjectiveWorkflow(input);
  if (newObjective) steps.push("startObjectiveWorkflow");
  if (input.kind !== ActivityKind.composite && (newObjective || !input.hasActivityWorkflow)) {
    steps.push("startActivityWorkflow");
  }
  steps.push("loadTree");
  return {
    steps,
    destination: "content",
  };
}

// ---------------------------------------------------------------------------
// Grading maths (product rule)
// ---------------------------------------------------------------------------

export interface GradedActivityInput {
  scoreWeight: number;
  optional: boolean;
  score: number | null;
  maxScore: number | null;
  finished: boolean;
}

export interface GradeScale {
  maxScore: number;
  normalizedPassingScore: number;
  grades: {
    id: string;
    name: string;
    color: string;
    normalizedMinScore: number;
  }[];
}

export interface ObjectiveGrade {
  /** normalizedScore × maxScore, rounded to 4 decimals; null when nothing is scored. */
  score: number | null;
  /** scale.maxScore, or the sum of graded activities' maxScores without a scale. */
  maxScore: number;
  /** 0..1, rounded to 4 decimals; null when no graded activity has a score. */
  normalizedScore: number | null;
  gradeId: string | null;
  gradeName: string | null;
  /** null = unresolved (an activity awaits a score, or nothing is graded). */
  passed: boolean | null;
  /** Number of graded activities without a score yet. */
  pending: number;
}

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/**
 * Objective grading (product rule).
 *
 * - Graded activities: not optional, `maxScore > 0`, and a finite weight
 *   `> 0`. Weight-0 (or negative / non-finite) activities cannot change the
 *   result and are ignored entirely, so they never block `passed`.
 * - Each scored graded activity contributes `score / maxScore`, clamped to
 *   [0, 1]. `normalizedScore = Σ(weight × ratio) / Σ(weight)` over the graded
 *   activities that have a score (a partial score while others are pending),
 *   rounded to 4 decimals; null when none has a score.
 * - `maxScore` = scale.maxScore, or Σ maxScore of graded activities without a
 *   scale; `score = normalizedScore × maxScore` (rounded to 4 decimals).
 * - Grade: the scale grade with the highest normalizedMinScore ≤
 *   normalizedScore (first listed wins a tie); null without scale / match.
 * - `passed` = normalizedScore ≥ normalizedPassingScore (on the rounded
 *   value); without a scale there is no threshold, so a fully scored
 *   objective passes. `passed` is null when any graded activity has no score
 *   yet (awaiting grading, whether or not it is finished) or when there are
 *   no graded activities. `finished` does not change the maths.
 */
export function gradeObjective(input: { activities: GradedActivityInput[]; scale: GradeScale | null }): ObjectiveGrade {
  const graded = input.activities.filter(
    (a) =>
      !a.optional &&
      a.maxScore !== null &&
      Number.isFinite(a.maxScore) &&
      a.maxScore > 0 &&
      Number.isFinite(a.scoreWeight) &&
      a.scoreWeight > 0,
  );
  const scored = graded.filter((a) => a.score !== null && Number.isFinite(a.score));
  const pending = graded.length - scored.length;
  const maxScore = input.scale ? input.scale.maxScore : graded.reduce((s, a) => s + (a.maxScore as number), 0);

  let normalizedScore: number | null = null;
  const weightSum = scored.reduce((s, a) => s + a.scoreWeight, 0);
  if (weightSum > 0) {
    const weighted = scored.reduce((s, a) => {
      const ratio = Math.min(1, Math.max(0, (a.score as number) / (a.maxScore as number)));
      return s + a.scoreWeight * ratio;
    }, 0);
    normalizedScore = round4(weighted / weightSum);
  }

  let gradeId: string | null = null;
  let gradeName: string | null = null;
  if (input.scale && normalizedScore !== null) {
    let best: GradeScale["grades"][number] | null = null;
    for (const g of input.scale.grades) {
      if (g.normalizedMinScore <= normalizedScore && (!best || g.normalizedMinScore > best.normalizedMinScore))
        best = g;
    }
    if (best) {
      gradeId = best.id;
      gradeName = best.name;
    }
  }

  let passed: boolean | null = null;
  if (graded.length > 0 && pending === 0 && normalizedScore !== null) {
    passed = input.scale ? normalizedScore >= input.scale.normalizedPassingScore : true;
  }

  return {
    score: normalizedScore === null ? null : round4(normalizedScore * maxScore),
    maxScore,
    normalizedScore,
    gradeId,
    gradeName,
    passed,
    pending,
  };
}
