import { describe, expect, it } from "vitest";
import {
  availabilityBlock,
  canReview,
  canStartObjectiveWorkflow,
  courseButtons,
  finishButton,
  gradeObjective,
  gradeVisibility,
  isUnresolved,
  previousAttemptScoresVisible,
  retakeOffered,
  startPlan,
  workflowStateLabelKey,
  type CourseButtonsInput,
  type GradeScale,
} from "./lifecycle";
import { ObjectiveState, ActivityKind, ObjectiveWorkflowState, type GradeRevealPolicy } from "./vocabulary";

const W = ObjectiveWorkflowState;
const K = ActivityKind;
const O = ObjectiveState;

const DATE = "2025-03-01T12:00:00.000Z";
const AT = new Date(DATE);
const BEFORE = new Date(AT.getTime() - 1);
const AFTER = new Date(AT.getTime() + 1);
const NOW = new Date("2025-06-01T00:00:00.000Z");

type Overrides = {
  objective?: Partial<CourseButtonsInput["objective"]>;
  access?: Partial<CourseButtonsInput["access"]>;
  workflow?: CourseButtonsInput["workflow"];
  record?: CourseButtonsInput["record"];
  importedResults?: boolean;
  proctorLocked?: boolean;
  flags?: Partial<CourseButtonsInput["flags"]>;
  starting?: boolean;
};

function input(o: Overrides = {}): CourseButtonsInput {
  return {
    objective: {
      state: O.ready,
      kind: K.video,
      supportReview: true,
      activityState: O.ready,
      ...o.objective,
    },
    access: {
      enrolled: true,
      retake: true,
      availabilityDate: null,
      availabilityEndDate: null,
      gradeRevealPolicy: "none",
      gradeRevealDate: null,
      ...o.access,
    },
    workflow: o.workflow === undefined ? null : o.workflow,
    record: o.record === undefined ? { id: "r1" } : o.record,
    importedResults: o.importedResults ?? false,
    proctorLocked: o.proctorLocked ?? false,
    flags: { compositeRetake: false, ...o.flags },
    starting: o.starting,
  };
}

const wf = (state: ObjectiveWorkflowState, protectResults = false) => ({
  state,
  protectResults,
});
const HIDDEN = { visible: false, enabled: false };
const ENABLED = { visible: true, enabled: true };
const disabled = (reason: string) => ({
  visible: true,
  enabled: false,
  reason,
});

const ALL_STATES: ObjectiveWorkflowState[] = [1, 2, 3, 4, 5, 6];

// ---------------------------------------------------------------------------
describe("4.1 workflow states", () => {
  it("4.1 ObjectiveWorkflowState values are in order 1..6", () => {
    expect(ObjectiveWorkflowState).toEqual({
      inProgress: 1,
      submitted: 2,
      inGrading: 3,
      graded: 4,
      gradingApproved: 5,
      finished: 6,
    });
    expect(ObjectiveState).toEqual({
      draft: 1,
      ready: 2,
      expired: 3,
      archived: 4,
    });
    expect(ActivityKind).toEqual({
      text: 1,
      lti: 2,
      composite: 3,
      event: 4,
      video: 5,
      discussion: 6,
    });
  });

  it.each([
    [null, "workflowState.notStarted"],
    [undefined, "workflowState.notStarted"],
    ["none", "workflowState.notStarted"],
    [1, "workflowState.inProgress"],
    [2, "workflowState.submitted"],
    [3, "workflowState.inGrading"],
    [4, "workflowState.graded"],
    [5, "workflowState.gradingApproved"],
    [6, "workflowState.finished"],
  ] as const)("4.1 workflowStateLabelKey(%s) = %s", (state, key) => {
    expect(workflowStateLabelKey(state)).toBe(key);
  });

  it.each([
    ["finished, passed null", wf(W.finished), { passed: null }, true],
    ["finished, passed undefined", wf(W.finished), {}, true],
    ["finished, passed true", wf(W.finished), { passed: true }, false],
    ["finished, passed false", wf(W.finished), { passed: false }, false],
    ["finished, no record", wf(W.finished), null, false],
    ["graded, passed null", wf(W.graded), { passed: null }, false],
    ["in progress, passed null", wf(W.inProgress), { passed: null }, false],
    ["no workflow", null, { passed: null }, false],
  ] as const)("4.1 isUnresolved: %s → %s", (_label, workflow, record, expected) => {
    expect(isUnresolved(workflow, record)).toBe(expected);
  });
});

// ---------------------------------------------------------------------------
describe("4.2 objective state", () => {
  it.each([
    [O.draft, "courseState.comingSoon"],
    [O.archived, "courseState.notAvailable"],
  ] as const)("4.2 state %s hides everything but share, message %s", (state, key) => {
    for (const workflow of [null, wf(W.inProgress), wf(W.finished)]) {
      for (const enrolled of [true, false]) {
        const b = courseButtons(input({ objective: { state }, workflow, access: { enrolled } }), NOW);
        expect(b).toEqual({
          start: HIDDEN,
          continue: HIDDEN,
          review: HIDDEN,
          startAgain: HIDDEN,
          addToMyCourses: HIDDEN,
          share: true,
          message: { key },
        });
      }
    }
  });

  it.each([O.ready, O.expired] as const)("4.2 state %s shows start controls", (state) => {
    const b = courseButtons(input({ objective: { state } }), NOW);
    expect(b.start).toEqual(ENABLED);
    expect(b.share).toBe(true);
    expect(b.message).toBeNull();
  });
});

// ---------------------------------------------------------------------------
describe("4.3 buttons per workflow state", () => {
  // Enrolled, retake allowed, video course, review supported, policy none.
  const rows: [string, ObjectiveWorkflowState | null, object][] = [
    ["none", null, { start: ENABLED, continue: HIDDEN, review: HIDDEN, startAgain: HIDDEN }],
    ["inProgress", W.inProgress, { start: HIDDEN, continue: ENABLED, review: HIDDEN, startAgain: HIDDEN }],
    [
      "submitted",
      W.submitted,
      {
        start: HIDDEN,
        continue: HIDDEN,
        review: disabled("review.notFinished"),
        startAgain: HIDDEN,
      },
    ],
    [
      "inGrading",
      W.inGrading,
      {
        start: HIDDEN,
        continue: HIDDEN,
        review: disabled("review.notFinished"),
        startAgain: HIDDEN,
      },
    ],
    [
      "graded",
      W.graded,
      {
        start: HIDDEN,
        continue: HIDDEN,
        review: disabled("review.notFinished"),
        startAgain: HIDDEN,
      },
    ],
    [
      "gradingApproved",
      W.gradingApproved,
      {
        start: HIDDEN,
        continue: HIDDEN,
        review: disabled("review.notFinished"),
        startAgain: HIDDEN,
      },
    ],
    ["finished", W.finished, { start: HIDDEN, continue: HIDDEN, review: ENABLED, startAgain: ENABLED }],
  ];
  it.each(rows)("4.3 workflow %s", (_label, state, expected) => {
    const b = courseButtons(input({ workflow: state === null ? null : wf(state) }), NOW);
    expect(b).toMatchObject(expected);
    expect(b.share).toBe(true);
    expect(b.message).toBeNull();
  });

  it("4.3 start in progress: Start busy, other workflow actions hidden", () => {
    for (const workflow of [null, wf(W.finished)]) {
      const b = courseButtons(input({ workflow, starting: true }), NOW);
      expect(b.start).toEqual(disabled("course.starting"));
      expect(b.continue).toEqual(HIDDEN);
      expect(b.review).toEqual(HIDDEN);
      expect(b.startAgain).toEqual(HIDDEN);
      expect(b.addToMyCourses).toEqual(disabled("course.enrolled"));
    }
  });

  it.each([
    [true, disabled("course.enrolled")],
    [false, ENABLED],
  ])("4.3 add to my courses: enrolled=%s", (enrolled, expected) => {
    const b = courseButtons(input({ access: { enrolled } }), NOW);
    expect(b.addToMyCourses).toEqual(expected);
    // Start remains available either way (not enrolled → start with self-enrolment).
    expect(b.start).toEqual(ENABLED);
  });

  it.each([
    [false, ENABLED, null],
    [true, disabled("proctoring.locked"), { key: "proctoring.locked" }],
  ])("4.3/4.8 continue with proctorLocked=%s (and the page message)", (proctorLocked, expected, message) => {
    const b = courseButtons(input({ workflow: wf(W.inProgress), proctorLocked }), NOW);
    expect(b.continue).toEqual(expected);
    expect(b.message).toEqual(message);
  });
});

// ---------------------------------------------------------------------------
describe("4.3 / 4.7 review", () => {
  it("4.3 review hidden when review is not supported", () => {
    for (const state of ALL_STATES) {
      const b = courseButtons(input({ workflow: wf(state), objective: { supportReview: false } }), NOW);
      expect(b.review).toEqual(HIDDEN);
    }
  });

  type Row = [string, Overrides, object, object | null];
  const finished = wf(W.finished);
  const rows: Row[] = [
    ["plain finished", { workflow: finished }, ENABLED, null],
    [
      "proctor locked",
      { workflow: finished, proctorLocked: true },
      disabled("proctoring.locked"),
      { key: "proctoring.locked" },
    ],
    ["protected results", { workflow: wf(W.finished, true) }, disabled("review.resultsProtected"), null],
    [
      "imported results without records",
      { workflow: finished, importedResults: true, record: null },
      disabled("review.importedResults"),
      { key: "review.importedResults" },
    ],
    ["imported results with records", { workflow: finished, importedResults: true }, ENABLED, null],
    ["no records, not imported", { workflow: finished, record: null }, ENABLED, null],
    [
      "imported wins over proctor lock and protection",
      {
        workflow: wf(W.finished, true),
        importedResults: true,
        record: null,
        proctorLocked: true,
      },
      disabled("review.importedResults"),
      { key: "review.importedResults" },
    ],
    [
      "proctor lock wins over protection",
      { workflow: wf(W.finished, true), proctorLocked: true },
      disabled("proctoring.locked"),
      { key: "proctoring.locked" },
    ],
    ["policy none", { workflow: finished, access: { gradeRevealPolicy: "none" } }, ENABLED, null],
    ["policy afterFinish", { workflow: finished, access: { gradeRevealPolicy: "afterFinish" } }, ENABLED, null],
    [
      "policy never",
      { workflow: finished, access: { gradeRevealPolicy: "never" } },
      disabled("review.gradesHidden"),
      null,
    ],
    [
      "policy afterDate, before date",
      {
        workflow: finished,
        access: {
          gradeRevealPolicy: "afterDate",
          gradeRevealDate: "2099-01-01T00:00:00Z",
        },
      },
      disabled("review.notYetRevealed"),
      null,
    ],
    [
      "policy afterDate, date passed",
      {
        workflow: finished,
        access: { gradeRevealPolicy: "afterDate", gradeRevealDate: DATE },
      },
      ENABLED,
      null,
    ],
    [
      "policy afterDate, no date",
      {
        workflow: finished,
        access: { gradeRevealPolicy: "afterDate", gradeRevealDate: null },
      },
      disabled("review.notYetRevealed"),
      null,
    ],
    [
      "review still allowed after availability end",
      { workflow: finished, access: { availabilityEndDate: DATE } },
      ENABLED,
      null,
    ],
  ];
  it.each(rows)("4.3/4.7 review: %s", (_label, o, expected, message) => {
    const b = courseButtons(input({ ...o, access: { retake: false, ...o.access } }), NOW);
    expect(b.review).toEqual(expected);
    expect(b.message).toEqual(message);
  });

  it.each([
    ["before", BEFORE, disabled("review.notYetRevealed")],
    ["exactly at", AT, ENABLED],
    ["after", AFTER, ENABLED],
  ] as const)("4.7 review %s gradeRevealDate", (_label, now, expected) => {
    const b = courseButtons(
      input({
        workflow: wf(W.finished),
        access: { gradeRevealPolicy: "afterDate", gradeRevealDate: DATE },
      }),
      now,
    );
    expect(b.review).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------
describe("4.3 start again (retake)", () => {
  type Row = [ActivityKind, boolean, ObjectiveState, boolean, boolean];
  const rows: Row[] = [
    // kind, retake, activityState, compositeRetake flag, offered
    [K.text, true, O.ready, true, false],
    [K.text, false, O.ready, true, false],
    [K.video, true, O.ready, false, true],
    [K.video, false, O.ready, false, false],
    [K.event, true, O.ready, false, true],
    [K.discussion, true, O.ready, false, true],
    [K.lti, true, O.ready, false, true],
    [K.lti, true, O.expired, false, true],
    [K.lti, true, O.draft, false, false],
    [K.lti, true, O.archived, false, false],
    [K.lti, false, O.ready, false, false],
    [K.composite, true, O.ready, true, true],
    [K.composite, true, O.ready, false, false],
    [K.composite, false, O.ready, true, false],
  ];
  it.each(rows)(
    "4.3 kind=%s retake=%s activityState=%s flag=%s → offered %s",
    (kind, retake, activityState, flag, offered) => {
      const b = courseButtons(
        input({
          workflow: wf(W.finished),
          objective: { kind, activityState },
          access: { retake },
          flags: { compositeRetake: flag },
        }),
        NOW,
      );
      expect(b.startAgain).toEqual(offered ? ENABLED : HIDDEN);
      expect(
        retakeOffered({
          workflow: wf(W.finished),
          retake,
          kind,
          activityState,
          compositeRetake: flag,
        }),
      ).toBe(offered);
    },
  );

  it.each(ALL_STATES.filter((s) => s !== W.finished))("4.3 no retake for unfinished workflow state %s", (state) => {
    expect(courseButtons(input({ workflow: wf(state) }), NOW).startAgain).toEqual(HIDDEN);
  });

  it("4.3 no retake without a workflow", () => {
    expect(
      retakeOffered({
        workflow: null,
        retake: true,
        kind: K.video,
        activityState: O.ready,
        compositeRetake: true,
      }),
    ).toBe(false);
  });

  it("4.3 retake is not blocked by the proctor lock (only continue/review are)", () => {
    const b = courseButtons(input({ workflow: wf(W.finished), proctorLocked: true }), NOW);
    expect(b.startAgain).toEqual(ENABLED);
    expect(b.review).toEqual(disabled("proctoring.locked"));
  });
});

// ---------------------------------------------------------------------------
describe("4.6 availability", () => {
  it.each([
    ["before start date", { availabilityDate: DATE }, BEFORE, { key: "availability.notYetAvailable", date: DATE }],
    ["exactly at start date", { availabilityDate: DATE }, AT, null],
    ["after start date", { availabilityDate: DATE }, AFTER, null],
    ["before end date", { availabilityEndDate: DATE }, BEFORE, null],
    ["exactly at end date", { availabilityEndDate: DATE }, AT, null],
    ["after end date", { availabilityEndDate: DATE }, AFTER, { key: "availability.ended", date: DATE }],
    ["no dates", {}, NOW, null],
    ["unparseable date ignored", { availabilityDate: "not a date" }, NOW, null],
  ] as const)("4.6 availabilityBlock %s", (_label, dates, now, expected) => {
    const block = availabilityBlock({ availabilityDate: null, availabilityEndDate: null, ...dates }, now);
    expect(block === null ? null : { key: block.key, date: block.date }).toEqual(expected);
  });

  type Row = [string, Overrides, Date, Record<string, object>, object | null];
  const notYet = { key: "availability.notYetAvailable", date: DATE };
  const ended = { key: "availability.ended", date: DATE };
  const rows: Row[] = [
    [
      "start before availabilityDate",
      { access: { availabilityDate: DATE } },
      BEFORE,
      { start: disabled("availability.notYetAvailable") },
      notYet,
    ],
    ["start exactly at availabilityDate", { access: { availabilityDate: DATE } }, AT, { start: ENABLED }, null],
    [
      "start (not enrolled) before availabilityDate",
      { access: { availabilityDate: DATE, enrolled: false } },
      BEFORE,
      {
        start: disabled("availability.notYetAvailable"),
        addToMyCourses: ENABLED,
      },
      notYet,
    ],
    ["start exactly at availabilityEndDate", { access: { availabilityEndDate: DATE } }, AT, { start: ENABLED }, null],
    [
      "start after availabilityEndDate",
      { access: { availabilityEndDate: DATE } },
      AFTER,
      { start: disabled("availability.ended") },
      ended,
    ],
    [
      "retake after availabilityEndDate (review still allowed)",
      { workflow: wf(W.finished), access: { availabilityEndDate: DATE } },
      AFTER,
      { startAgain: disabled("availability.ended"), review: ENABLED },
      ended,
    ],
    [
      "retake exactly at availabilityEndDate",
      { workflow: wf(W.finished), access: { availabilityEndDate: DATE } },
      AT,
      { startAgain: ENABLED },
      null,
    ],
    [
      "retake before availabilityDate",
      { workflow: wf(W.finished), access: { availabilityDate: DATE } },
      BEFORE,
      { startAgain: disabled("availability.notYetAvailable"), review: ENABLED },
      notYet,
    ],
    [
      "in progress after availabilityEndDate remains continuable",
      { workflow: wf(W.inProgress), access: { availabilityEndDate: DATE } },
      AFTER,
      { continue: ENABLED, start: HIDDEN },
      null,
    ],
    [
      "in progress before availabilityDate remains continuable",
      { workflow: wf(W.inProgress), access: { availabilityDate: DATE } },
      BEFORE,
      { continue: ENABLED },
      null,
    ],
    [
      "finished without retake after end: no message (nothing blocked)",
      {
        workflow: wf(W.finished),
        access: { availabilityEndDate: DATE, retake: false },
      },
      AFTER,
      { startAgain: HIDDEN, review: ENABLED },
      null,
    ],
    [
      "availability message wins over imported-results message",
      {
        workflow: wf(W.finished),
        access: { availabilityEndDate: DATE },
        importedResults: true,
        record: null,
      },
      AFTER,
      {
        startAgain: disabled("availability.ended"),
        review: disabled("review.importedResults"),
      },
      ended,
    ],
  ];
  it.each(rows)("4.6 %s", (_label, o, now, expected, message) => {
    const b = courseButtons(input(o), now);
    expect(b).toMatchObject(expected);
    expect(b.message).toEqual(message);
  });
});

// ---------------------------------------------------------------------------
describe("4.7 grade visibility", () => {
  const access = (gradeRevealPolicy: GradeRevealPolicy, gradeRevealDate: string | null = null) => ({
    gradeRevealPolicy,
    gradeRevealDate,
  });

  it.each([null, ...ALL_STATES])("4.7 policy none: shown (workflow %s)", (state) => {
    expect(gradeVisibility(access("none"), state === null ? null : { state }, NOW)).toEqual({ visible: true });
  });

  it.each([null, ...ALL_STATES])("4.7 policy never: hidden (workflow %s)", (state) => {
    expect(gradeVisibility(access("never"), state === null ? null : { state }, NOW)).toEqual({ visible: false });
  });

  it.each([
    [null, false],
    [W.inProgress, false],
    [W.submitted, true],
    [W.inGrading, true],
    [W.graded, true],
    [W.gradingApproved, true],
    [W.finished, true],
  ] as const)("4.7 policy afterFinish, workflow %s → visible %s", (state, visible) => {
    expect(gradeVisibility(access("afterFinish"), state === null ? null : { state }, NOW)).toEqual({ visible });
  });

  it.each([
    ["before", BEFORE, { visible: false, revealDate: DATE }],
    ["exactly at", AT, { visible: true }],
    ["after", AFTER, { visible: true }],
  ] as const)("4.7 policy afterDate %s gradeRevealDate", (_label, now, expected) => {
    expect(gradeVisibility(access("afterDate", DATE), { state: W.finished }, now)).toEqual(expected);
  });

  it("4.7 policy afterDate without a date stays hidden", () => {
    expect(gradeVisibility(access("afterDate", null), { state: W.finished }, NOW)).toEqual({ visible: false });
  });

  it.each([
    ["records, policy none", 2, "none", null, NOW, true],
    ["no records, policy none", 0, "none", null, NOW, false],
    ["records, policy never", 2, "never", null, NOW, false],
    ["records, policy afterFinish", 1, "afterFinish", null, NOW, true],
    ["records, afterDate before", 1, "afterDate", DATE, BEFORE, false],
    ["records, afterDate exactly at", 1, "afterDate", DATE, AT, true],
    ["records, afterDate after", 1, "afterDate", DATE, AFTER, true],
    ["records, afterDate no date", 1, "afterDate", null, NOW, false],
    ["no records, afterDate after", 0, "afterDate", DATE, AFTER, false],
  ] as const)("4.7 previousAttemptScoresVisible: %s → %s", (_l, recordCount, policy, date, now, expected) => {
    expect(previousAttemptScoresVisible({ recordCount, gradeRevealPolicy: policy, gradeRevealDate: date }, now)).toBe(
      expected,
    );
  });

  it.each([
    ["finished, supported, none", W.finished, true, "none", null, NOW, true],
    ["finished, supported, afterFinish", W.finished, true, "afterFinish", null, NOW, true],
    ["finished, not supported", W.finished, false, "none", null, NOW, false],
    ["finished, never", W.finished, true, "never", null, NOW, false],
    ["finished, afterDate before", W.finished, true, "afterDate", DATE, BEFORE, false],
    ["finished, afterDate exactly at", W.finished, true, "afterDate", DATE, AT, true],
    ["finished, afterDate after", W.finished, true, "afterDate", DATE, AFTER, true],
    ["in progress", W.inProgress, true, "none", null, NOW, false],
    ["submitted", W.submitted, true, "none", null, NOW, false],
    ["inGrading", W.inGrading, true, "none", null, NOW, false],
    ["graded", W.graded, true, "none", null, NOW, false],
    ["gradingApproved", W.gradingApproved, true, "none", null, NOW, false],
    ["no workflow", null, true, "none", null, NOW, false],
  ] as const)("4.7 canReview: %s → %s", (_l, state, supportReview, policy, date, now, expected) => {
    expect(
      canReview(
        {
          workflow: state === null ? null : { state },
          supportReview,
          gradeRevealPolicy: policy,
          gradeRevealDate: date,
        },
        now,
      ),
    ).toBe(expected);
  });
});

// ---------------------------------------------------------------------------
describe("4.4 start flow", () => {
  it.each([
    ["no workflow", null, false, false, true],
    ["finished, retake allowed", W.finished, true, false, true],
    ["finished, retake not allowed", W.finished, false, false, false],
    ["finished, forced", W.finished, false, true, true],
    ["in progress (reuse existing)", W.inProgress, true, false, false],
    ["submitted (reuse existing)", W.submitted, true, false, false],
    ["gradingApproved (reuse existing)", W.gradingApproved, true, false, false],
    ["in progress, forced", W.inProgress, false, true, true],
  ] as const)("4.4 canStartObjectiveWorkflow: %s → %s", (_l, state, retakeAllowed, forced, expected) => {
    expect(
      canStartObjectiveWorkflow({
        workflow: state === null ? null : { state },
        retakeAllowed,
        forced,
      }),
    ).toBe(expected);
  });

  type Row = [string, Parameters<typeof startPlan>[0], ReturnType<typeof startPlan>];
  const rows: Row[] = [
    [
      "first start, video",
      {
        kind: K.video,
        workflow: null,
        hasActivityWorkflow: false,
        retakeAllowed: false,
      },
      {
        steps: ["startObjectiveWorkflow", "startActivityWorkflow", "loadTree"],
        destination: "content",
      },
    ],
    [
      "first start, LTI goes to the content that launches its tool (issue 26: no second press)",
      {
        kind: K.lti,
        workflow: null,
        hasActivityWorkflow: false,
        retakeAllowed: false,
      },
      {
        steps: ["startObjectiveWorkflow", "startActivityWorkflow", "loadTree"],
        destination: "content",
      },
    ],
    [
      "first start, composite has no activity workflow step",
      {
        kind: K.composite,
        workflow: null,
        hasActivityWorkflow: false,
        retakeAllowed: false,
      },
      { steps: ["startObjectiveWorkflow", "loadTree"], destination: "content" },
    ],
    [
      "in progress with activity workflow: just load",
      {
        kind: K.video,
        workflow: { state: W.inProgress },
        hasActivityWorkflow: true,
        retakeAllowed: false,
      },
      { steps: ["loadTree"], destination: "content" },
    ],
    [
      "in progress without activity workflow",
      {
        kind: K.text,
        workflow: { state: W.inProgress },
        hasActivityWorkflow: false,
        retakeAllowed: false,
      },
      { steps: ["startActivityWorkflow", "loadTree"], destination: "content" },
    ],
    [
      "retake: new objective workflow gets a new activity workflow",
      {
        kind: K.lti,
        workflow: { state: W.finished },
        hasActivityWorkflow: true,
        retakeAllowed: true,
      },
      {
        steps: ["startObjectiveWorkflow", "startActivityWorkflow", "loadTree"],
        destination: "content",
      },
    ],
    [
      "finished, retake not allowed, not forced",
      {
        kind: K.video,
        workflow: { state: W.finished },
        hasActivityWorkflow: true,
        retakeAllowed: false,
      },
      { steps: ["loadTree"], destination: "content" },
    ],
    [
      "forced retake, composite",
      {
        kind: K.composite,
        workflow: { state: W.finished },
        hasActivityWorkflow: false,
        retakeAllowed: false,
        forced: true,
      },
      { steps: ["startObjectiveWorkflow", "loadTree"], destination: "content" },
    ],
    [
      "4.3 start with self-enrolment enrols first",
      {
        kind: K.video,
        workflow: null,
        hasActivityWorkflow: false,
        retakeAllowed: false,
        enrolled: false,
      },
      {
        steps: ["selfEnroll", "startObjectiveWorkflow", "startActivityWorkflow", "loadTree"],
        destination: "content",
      },
    ],
  ];
  it.each(rows)("4.4 startPlan: %s", (_l, args, expected) => {
    expect(startPlan(args)).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------
describe("grading maths (product rule)", () => {
  const act = (
    scoreWeight: number,
    score: number | null,
    maxScore: number | null,
    optional = false,
    finished = true,
  ) => ({
    scoreWeight,
    score,
    maxScore,
    optional,
    finished,
  });
  const scale: GradeScale = {
    maxScore: 20,
    normalizedPassingScore: 0.5,
    grades: [
      { id: "F", name: "Fail", color: "red", normalizedMinScore: 0 },
      { id: "C", name: "Pass", color: "yellow", normalizedMinScore: 0.5 },
      { id: "B", name: "Good", color: "green", normalizedMinScore: 0.7 },
      { id: "A", name: "Excellent", color: "blue", normalizedMinScore: 0.9 },
    ],
  };

  type Row = [string, Parameters<typeof gradeObjective>[0], Partial<ReturnType<typeof gradeObjective>>];
  const rows: Row[] = [
    [
      // (1×8/10 + 3×5/10) / 4 = (0.8 + 1.5) / 4 = 0.575 → 11.5 / 20, grade C, passed
      "weighted average with scale",
      { activities: [act(1, 8, 10), act(3, 5, 10)], scale },
      {
        normalizedScore: 0.575,
        score: 11.5,
        maxScore: 20,
        gradeId: "C",
        gradeName: "Pass",
        passed: true,
        pending: 0,
      },
    ],
    [
      // (2×45/50 + 1×1/1) / 3 = (1.8 + 1) / 3 = 0.93333… → 0.9333; 18.666 / 20, grade A
      "rounding to 4 decimals",
      { activities: [act(2, 45, 50), act(1, 1, 1)], scale },
      {
        normalizedScore: 0.9333,
        score: 18.666,
        gradeId: "A",
        gradeName: "Excellent",
        passed: true,
      },
    ],
    [
      // 1/3 = 0.3333 → fail, grade F
      "below passing score",
      { activities: [act(1, 1, 3)], scale },
      { normalizedScore: 0.3333, score: 6.666, gradeId: "F", passed: false },
    ],
    [
      // exactly 0.5 passes, grade C (boundary ≥)
      "exactly the passing score passes",
      { activities: [act(1, 5, 10)], scale },
      { normalizedScore: 0.5, score: 10, gradeId: "C", passed: true },
    ],
    [
      // exactly 0.7 → B (highest min ≤ score)
      "exactly a grade threshold",
      { activities: [act(1, 7, 10)], scale },
      { normalizedScore: 0.7, score: 14, gradeId: "B", passed: true },
    ],
    [
      // optional activity ignored: 6/10 → 0.6
      "optional activities are ignored",
      {
        activities: [act(1, 6, 10), act(5, 0, 10, true), act(1, null, 10, true)],
        scale,
      },
      { normalizedScore: 0.6, score: 12, passed: true, pending: 0 },
    ],
    [
      // pending graded activity: partial 9/10 = 0.9 but passed null
      "awaiting grading → passed null, partial score",
      { activities: [act(1, 9, 10), act(1, null, 10)], scale },
      {
        normalizedScore: 0.9,
        score: 18,
        gradeId: "A",
        passed: null,
        pending: 1,
      },
    ],
    [
      "unfinished unscored graded activity also leaves passed null",
      { activities: [act(1, 9, 10), act(1, null, 10, false, false)], scale },
      { normalizedScore: 0.9, passed: null, pending: 1 },
    ],
    [
      "nothing scored yet",
      { activities: [act(1, null, 10)], scale },
      {
        normalizedScore: null,
        score: null,
        gradeId: null,
        gradeName: null,
        passed: null,
        pending: 1,
        maxScore: 20,
      },
    ],
    [
      "all optional → no graded activities",
      { activities: [act(1, 10, 10, true), act(1, 5, 10, true)], scale },
      {
        normalizedScore: null,
        score: null,
        passed: null,
        pending: 0,
        maxScore: 20,
      },
    ],
    [
      "no activities at all",
      { activities: [], scale: null },
      {
        normalizedScore: null,
        score: null,
        maxScore: 0,
        passed: null,
        gradeId: null,
      },
    ],
    [
      // weight 0 ignored (even when unscored): only 4/10
      "weight 0 is ignored",
      { activities: [act(1, 4, 10), act(0, 10, 10), act(0, null, 10)], scale },
      {
        normalizedScore: 0.4,
        score: 8,
        gradeId: "F",
        passed: false,
        pending: 0,
      },
    ],
    [
      "all weights 0 → no graded activities",
      { activities: [act(0, 10, 10), act(0, 3, 10)], scale },
      { normalizedScore: null, score: null, passed: null },
    ],
    [
      // maxScore 0 / null not graded: only 3/4 = 0.75
      "maxScore 0 or null is not graded",
      { activities: [act(1, 3, 4), act(1, 5, 0), act(1, null, null)], scale },
      {
        normalizedScore: 0.75,
        score: 15,
        gradeId: "B",
        passed: true,
        pending: 0,
      },
    ],
    [
      // no scale: maxScore = 10 + 20 = 30; (1×5/10 + 1×20/20)/2 = 0.75 → 22.5; passes (no threshold)
      "no scale: sum of activity maxScores",
      {
        activities: [act(1, 5, 10), act(1, 20, 20), act(1, 1, 1, true)],
        scale: null,
      },
      {
        normalizedScore: 0.75,
        score: 22.5,
        maxScore: 30,
        gradeId: null,
        gradeName: null,
        passed: true,
      },
    ],
    [
      "no scale with pending activity",
      { activities: [act(1, 5, 10), act(1, null, 20)], scale: null },
      {
        normalizedScore: 0.5,
        score: 15,
        maxScore: 30,
        passed: null,
        pending: 1,
      },
    ],
    [
      // 15/10 clamped to 1, -2/10 clamped to 0 → (1 + 0)/2 = 0.5
      "ratios clamped to [0, 1]",
      { activities: [act(1, 15, 10), act(1, -2, 10)], scale },
      { normalizedScore: 0.5, score: 10, passed: true },
    ],
    [
      "score 0 is a score (not pending)",
      { activities: [act(1, 0, 10)], scale },
      { normalizedScore: 0, score: 0, gradeId: "F", passed: false, pending: 0 },
    ],
    [
      "no grade at or below score",
      {
        activities: [act(1, 2, 10)],
        scale: {
          ...scale,
          grades: [{ id: "P", name: "Pass", color: "g", normalizedMinScore: 0.5 }],
        },
      },
      { normalizedScore: 0.2, gradeId: null, gradeName: null, passed: false },
    ],
  ];
  it.each(rows)("grading: %s", (_l, args, expected) => {
    expect(gradeObjective(args)).toMatchObject(expected);
  });
});

describe("4.5 / 7.3 finishing an attempt (decision 030)", () => {
  const W = ObjectiveWorkflowState;
  it.each([
    ["no attempt", null, HIDDEN],
    ["in progress", W.inProgress, HIDDEN],
    ["submitted: the results are in", W.submitted, ENABLED],
    ["in grading: a person has not graded yet", W.inGrading, HIDDEN],
    ["graded", W.graded, ENABLED],
    ["grading approved", W.gradingApproved, ENABLED],
    ["finished already", W.finished, HIDDEN],
  ] as const)("%s", (_, state, expected) => {
    expect(finishButton({ workflow: state === null ? null : { state }, proctorLocked: false })).toEqual(expected);
  });

  it("4.8: a proctor lock disables it with the lock's reason", () => {
    expect(finishButton({ workflow: { state: W.graded }, proctorLocked: true })).toEqual(disabled("proctoring.locked"));
  });
});
