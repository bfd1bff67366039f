import { describe, expect, it } from "vitest";
import { type TreeNode } from "./contract/lifecycle";
import {
  activityDisableReason,
  activityLocks,
  initialSelection,
  isActivityLocked,
  isLockCode,
  lockCode,
  nextRefreshAt,
  reviewAllowed,
  tocIcon,
  visibleNodes,
} from "./activity-access";
import { ActivityContentType, ActivityKind, ActivityType, ActivityWorkflowState, ObjectiveState } from "./vocabulary";

const AW = ActivityWorkflowState;
const S = ObjectiveState;
const K = ActivityKind;

const NOW = new Date("2025-06-01T12:00:00.000Z");
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta).toISOString();
const PAST = ms(NOW, -86_400_000);
const FUTURE = ms(NOW, 86_400_000);
const AT = NOW.toISOString();
const JUST_BEFORE = ms(NOW, -1);
const JUST_AFTER = ms(NOW, 1);

interface NodeOpts {
  id?: string;
  parent?: string | null;
  axis?: string;
  state?: ObjectiveState;
  kind?: ActivityKind;
  optional?: boolean;
  proctored?: boolean;
  available?: boolean;
  contentAvailable?: boolean;
  /** Activity workflow state; null = not started. */
  wf?: ActivityWorkflowState | null;
  record?: {
    score: number | null;
    maxScore: number | null;
    passed: boolean | null;
  } | null;
  maxScore?: number | null;
  constraint?: Record<string, string | null>;
}

let seq = 0;
/** Test factory: a ready, available, not-started text leaf without constraints. */
function node(o: NodeOpts = {}): TreeNode {
  const id = o.id ?? `n${++seq}`;
  return {
    activityPathId: id,
    parentPathId: o.parent === undefined ? "root" : o.parent,
    axis: o.axis ?? "01",
    order: 1,
    optional: o.optional ?? false,
    scoreWeight: 1,
    constraint: o.constraint ?? {},
    available: o.available ?? true,
    contentAvailable: o.contentAvailable ?? true,
    childActivity: {
      id: `a-${id}`,
      name: id,
      code: id,
      kind: o.kind ?? K.text,
      contentType: ActivityContentType.Text,
      type: ActivityType.None,
      state: o.state ?? S.ready,
      proctored: o.proctored ?? false,
      duration: null,
      maxScore: o.maxScore === undefined ? 10 : o.maxScore,
      supportReview: true,
      supportCollaborativeMode: false,
      supportPersonalMode: true,
      activityWorkflowAggregate: {
        lastActivityWorkflow:
          o.wf === undefined || o.wf === null
            ? null
            : {
                id: `w-${id}`,
                state: o.wf,
                submitted: o.wf !== AW.inProgress,
                finished: o.wf === AW.finished ? PAST : null,
                started: PAST,
                resume: null,
                groupActivityWorkflowId: null,
              },
        bestActivityRecord: o.record ?? null,
      },
    },
  };
}

describe("spec 4.12: activity workflow states", () => {
  it("spec 4.12: local ActivityWorkflowState mirrors the contract's ActivityWorkflowState", () => {
    expect(AW).toEqual(ActivityWorkflowState);
  });
});

// ---------------------------------------------------------------------------
// 4.12 disable reasons
// ---------------------------------------------------------------------------

describe("spec 4.12: activityDisableReason order — first applicable reason wins", () => {
  // Every reason applies at once; step k removes reasons 1..k-1.
  const all = {
    state: S.draft as ObjectiveState,
    available: false,
    constraint: {
      gracePeriodUntil: PAST,
      accessibleUntil: JUST_BEFORE,
      startFrom: FUTURE,
      startUntil: ms(NOW, -2),
      reviewPolicy: "never",
    } as Record<string, string | null>,
    serverSideBlocked: true,
  };
  const drop = (k: number) => {
    const c = { ...all.constraint };
    if (k > 3) delete c.gracePeriodUntil;
    if (k > 4) delete c.accessibleUntil;
    if (k > 5) delete c.startFrom;
    if (k > 6) delete c.startUntil;
    if (k > 7) delete c.reviewPolicy;
    return {
      n: node({
        state: k > 1 ? S.ready : all.state,
        available: k > 2 ? true : all.available,
        constraint: c,
      }),
      serverSideBlocked: all.serverSideBlocked,
    };
  };
  const cases: [number, string, string | undefined][] = [
    [1, "activityLock.comingSoon", undefined],
    [2, "activityLock.completePreviousToPass", undefined],
    [3, "activityLock.afterGracePeriodUntil", PAST],
    [4, "activityLock.afterAccessibleUntil", JUST_BEFORE],
    [5, "activityLock.beforeStartFrom", FUTURE],
    [6, "activityLock.afterStartUntil", ms(NOW, -2)],
    [7, "activityLock.reviewPolicyNotAllowed", undefined],
    [8, "activityLock.serverSide", undefined],
  ];
  it.each(cases)("spec 4.12: with reasons %i..8 applying, %s wins", (k, key, date) => {
    const { n, serverSideBlocked } = drop(k);
    const r = activityDisableReason(n, {
      now: NOW,
      reviewing: true,
      serverSideBlocked,
    });
    expect(r).toEqual(date === undefined ? { key } : { key, date });
  });
  it("spec 4.12: nothing applies → null", () => {
    expect(activityDisableReason(node(), { now: NOW, reviewing: true })).toBeNull();
    expect(
      activityDisableReason(node(), {
        now: NOW,
        reviewing: false,
        serverSideBlocked: false,
      }),
    ).toBeNull();
  });
});

describe("spec 4.12 / 4.2: activityDisableReason, each reason alone", () => {
  const cases: [
    string,
    NodeOpts,
    { reviewing?: boolean; serverSideBlocked?: boolean },
    { key: string; date?: string },
  ][] = [
    ["draft (4.2)", { state: S.draft }, {}, { key: "activityLock.comingSoon" }],
    ["archived (4.2)", { state: S.archived }, {}, { key: "activityLock.comingSoon" }],
    ["available false", { available: false }, {}, { key: "activityLock.completePreviousToPass" }],
    ["contentAvailable false", { contentAvailable: false }, {}, { key: "activityLock.completePreviousToPass" }],
    [
      "after gracePeriodUntil, not started",
      { constraint: { gracePeriodUntil: PAST } },
      {},
      { key: "activityLock.afterGracePeriodUntil", date: PAST },
    ],
    [
      "after gracePeriodUntil, in progress",
      { wf: AW.inProgress, constraint: { gracePeriodUntil: PAST } },
      {},
      { key: "activityLock.afterGracePeriodUntil", date: PAST },
    ],
    [
      "after gracePeriodUntil, in grading (not finished)",
      { wf: AW.inGrading, constraint: { gracePeriodUntil: PAST } },
      {},
      { key: "activityLock.afterGracePeriodUntil", date: PAST },
    ],
    [
      "after accessibleUntil",
      { constraint: { accessibleUntil: PAST } },
      {},
      { key: "activityLock.afterAccessibleUntil", date: PAST },
    ],
    [
      "after accessibleUntil, even finished",
      { wf: AW.finished, constraint: { accessibleUntil: PAST } },
      {},
      { key: "activityLock.afterAccessibleUntil", date: PAST },
    ],
    [
      "before startFrom",
      { constraint: { startFrom: FUTURE } },
      {},
      { key: "activityLock.beforeStartFrom", date: FUTURE },
    ],
    [
      "after startUntil, not started",
      { constraint: { startUntil: PAST } },
      {},
      { key: "activityLock.afterStartUntil", date: PAST },
    ],
    [
      "reviewing, policy never",
      { wf: AW.finished, constraint: { reviewPolicy: "never" } },
      { reviewing: true },
      { key: "activityLock.reviewPolicyNotAllowed" },
    ],
    [
      "reviewing, afterDate not reached (with date)",
      {
        wf: AW.finished,
        constraint: {
          reviewPolicy: "afterRevealingResults",
          resultsDisclosurePolicy: "afterDate",
          resultsDisclosureFrom: FUTURE,
        },
      },
      { reviewing: true },
      { key: "activityLock.afterRevealingDate", date: FUTURE },
    ],
    [
      "reviewing, afterScore below threshold",
      {
        kind: K.lti,
        wf: AW.finished,
        record: { score: 5, maxScore: 10, passed: false },
        constraint: {
          reviewPolicy: "afterRevealingResults",
          resultsDisclosurePolicy: "afterScore",
          resultsDisclosureAbove: "0.6",
        },
      },
      { reviewing: true },
      { key: "activityLock.afterScoreIsReached" },
    ],
    [
      "reviewing, in grading",
      { wf: AW.inGrading },
      { reviewing: true },
      { key: "activityLock.reviewPolicyNotAllowed" },
    ],
    ["server-side constraint", {}, { serverSideBlocked: true }, { key: "activityLock.serverSide" }],
  ];
  it.each(cases)("spec 4.12: %s", (_name, opts, ctx, expected) => {
    expect(
      activityDisableReason(node(opts), {
        now: NOW,
        reviewing: ctx.reviewing ?? false,
        serverSideBlocked: ctx.serverSideBlocked,
      }),
    ).toEqual(expected);
  });

  const allowed: [string, NodeOpts, boolean][] = [
    ["finished: grace period does not apply", { wf: AW.finished, constraint: { gracePeriodUntil: PAST } }, false],
    [
      "started: startUntil does not apply (in progress)",
      { wf: AW.inProgress, constraint: { startUntil: PAST } },
      false,
    ],
    ["started: startUntil does not apply (finished)", { wf: AW.finished, constraint: { startUntil: PAST } }, false],
    [
      "not reviewing: review policy never is ignored",
      { wf: AW.finished, constraint: { reviewPolicy: "never" } },
      false,
    ],
    ["not reviewing: in grading is not disabled", { wf: AW.inGrading }, false],
    ["reviewing: afterSubmission allows", { wf: AW.finished, constraint: { reviewPolicy: "afterSubmission" } }, true],
    [
      "future end dates do not apply",
      {
        constraint: {
          gracePeriodUntil: FUTURE,
          accessibleUntil: FUTURE,
          startUntil: FUTURE,
          startFrom: PAST,
        },
      },
      false,
    ],
    [
      "null constraint values are absent",
      {
        constraint: {
          gracePeriodUntil: null,
          accessibleUntil: null,
          startFrom: null,
          startUntil: null,
        },
      },
      false,
    ],
    [
      "unparsable dates are absent",
      {
        constraint: {
          gracePeriodUntil: "soon",
          accessibleUntil: "not a date",
          startFrom: "tomorrow-ish",
          startUntil: "",
        },
      },
      false,
    ],
    ["expired activity state is not draft/archived", { state: S.expired }, false],
  ];
  it.each(allowed)("spec 4.12: %s → null", (_name, opts, reviewing) => {
    expect(activityDisableReason(node(opts), { now: NOW, reviewing })).toBeNull();
  });
});

describe("spec 4.12: activityDisableReason date boundaries", () => {
  const cases: [string, string, string, string | null][] = [
    // field, value, expected key or null
    ["gracePeriodUntil exactly now is still open", "gracePeriodUntil", AT, null],
    [
      "gracePeriodUntil 1 ms before now is closed",
      "gracePeriodUntil",
      JUST_BEFORE,
      "activityLock.afterGracePeriodUntil",
    ],
    ["accessibleUntil exactly now is still open", "accessibleUntil", AT, null],
    ["accessibleUntil 1 ms before now is closed", "accessibleUntil", JUST_BEFORE, "activityLock.afterAccessibleUntil"],
    ["startFrom exactly now is open", "startFrom", AT, null],
    ["startFrom 1 ms after now is not yet open", "startFrom", JUST_AFTER, "activityLock.beforeStartFrom"],
    ["startUntil exactly now is still open", "startUntil", AT, null],
    ["startUntil 1 ms before now is closed", "startUntil", JUST_BEFORE, "activityLock.afterStartUntil"],
  ];
  it.each(cases)("spec 4.12: %s", (_name, field, value, key) => {
    const r = activityDisableReason(node({ constraint: { [field]: value } }), {
      now: NOW,
      reviewing: false,
    });
    expect(r).toEqual(key === null ? null : { key, date: value });
  });
  it("spec 4.12: resultsDisclosureFrom exactly now reveals review; 1 ms later does not", () => {
    const c = (from: string) =>
      node({
        wf: AW.finished,
        constraint: {
          reviewPolicy: "afterRevealingResults",
          resultsDisclosurePolicy: "afterDate",
          resultsDisclosureFrom: from,
        },
      });
    expect(activityDisableReason(c(AT), { now: NOW, reviewing: true })).toBeNull();
    expect(activityDisableReason(c(JUST_AFTER), { now: NOW, reviewing: true })).toEqual({
      key: "activityLock.afterRevealingDate",
      date: JUST_AFTER,
    });
  });
});

// ---------------------------------------------------------------------------
// 4.12 review policy matrix
// ---------------------------------------------------------------------------

describe("spec 4.12: reviewAllowed policy matrix", () => {
  const rr = (policy: string, extra: Record<string, string | null> = {}) => ({
    reviewPolicy: "afterRevealingResults",
    resultsDisclosurePolicy: policy,
    ...extra,
  });
  const NA = { allowed: false, key: "activityLock.reviewPolicyNotAllowed" };
  const OK = { allowed: true };
  const SCORE = { allowed: false, key: "activityLock.afterScoreIsReached" };
  const rec = (score: number | null, maxScore: number | null = 10) => ({
    score,
    maxScore,
    passed: null,
  });
  const cases: [string, NodeOpts, object][] = [
    ["reviewPolicy undefined = afterSubmission → allowed", { wf: AW.finished }, OK],
    ["reviewPolicy null = afterSubmission → allowed", { wf: AW.finished, constraint: { reviewPolicy: null } }, OK],
    ["never → hidden", { wf: AW.finished, constraint: { reviewPolicy: "never" } }, NA],
    ["afterSubmission → allowed", { wf: AW.finished, constraint: { reviewPolicy: "afterSubmission" } }, OK],
    ["unknown reviewPolicy → hidden (fail closed)", { wf: AW.finished, constraint: { reviewPolicy: "sometimes" } }, NA],
    ["afterRevealingResults × never → hidden", { wf: AW.finished, constraint: rr("never") }, NA],
    [
      "afterRevealingResults × missing disclosure policy → hidden",
      {
        wf: AW.finished,
        constraint: { reviewPolicy: "afterRevealingResults" },
      },
      NA,
    ],
    [
      "afterRevealingResults × afterDate before date → afterRevealingDate + date",
      {
        wf: AW.finished,
        constraint: rr("afterDate", { resultsDisclosureFrom: FUTURE }),
      },
      { allowed: false, key: "activityLock.afterRevealingDate", date: FUTURE },
    ],
    [
      "afterRevealingResults × afterDate exactly at date → allowed",
      {
        wf: AW.finished,
        constraint: rr("afterDate", { resultsDisclosureFrom: AT }),
      },
      OK,
    ],
    [
      "afterRevealingResults × afterDate after date → allowed",
      {
        wf: AW.finished,
        constraint: rr("afterDate", { resultsDisclosureFrom: PAST }),
      },
      OK,
    ],
    ["afterRevealingResults × afterDate without date → hidden", { wf: AW.finished, constraint: rr("afterDate") }, NA],
    [
      "afterRevealingResults × afterDate unparsable date → hidden",
      {
        wf: AW.finished,
        constraint: rr("afterDate", { resultsDisclosureFrom: "later" }),
      },
      NA,
    ],
    [
      "afterRevealingResults × afterScore LTI above threshold → allowed",
      {
        kind: K.lti,
        wf: AW.finished,
        record: rec(7),
        constraint: rr("afterScore", { resultsDisclosureAbove: "0.6" }),
      },
      OK,
    ],
    [
      "afterRevealingResults × afterScore LTI exactly at threshold → allowed",
      {
        kind: K.lti,
        wf: AW.finished,
        record: rec(6),
        constraint: rr("afterScore", { resultsDisclosureAbove: "0.6" }),
      },
      OK,
    ],
    [
      "afterRevealingResults × afterScore LTI below threshold → afterScoreIsReached",
      {
        kind: K.lti,
        wf: AW.finished,
        record: rec(5),
        constraint: rr("afterScore", { resultsDisclosureAbove: "0.6" }),
      },
      SCORE,
    ],
    [
      "afterRevealingResults × afterScore LTI without record → afterScoreIsReached",
      {
        kind: K.lti,
        wf: AW.finished,
        constraint: rr("afterScore", { resultsDisclosureAbove: "0.6" }),
      },
      SCORE,
    ],
    [
      "afterRevealingResults × afterScore LTI score hidden (null) → afterScoreIsReached",
      {
        kind: K.lti,
        wf: AW.finished,
        record: rec(null, null),
        constraint: rr("afterScore", { resultsDisclosureAbove: "0" }),
      },
      SCORE,
    ],
    [
      "afterRevealingResults × afterScore LTI record maxScore null falls back to activity maxScore",
      {
        kind: K.lti,
        wf: AW.finished,
        maxScore: 20,
        record: rec(15, null),
        constraint: rr("afterScore", { resultsDisclosureAbove: "0.75" }),
      },
      OK,
    ],
    [
      "afterRevealingResults × afterScore LTI maxScore 0 → afterScoreIsReached",
      {
        kind: K.lti,
        wf: AW.finished,
        maxScore: null,
        record: rec(1, 0),
        constraint: rr("afterScore", { resultsDisclosureAbove: "0" }),
      },
      SCORE,
    ],
    [
      "afterRevealingResults × afterScore LTI unparsable threshold → hidden",
      {
        kind: K.lti,
        wf: AW.finished,
        record: rec(10),
        constraint: rr("afterScore", { resultsDisclosureAbove: "high" }),
      },
      NA,
    ],
    [
      "afterRevealingResults × afterScore LTI missing threshold → hidden",
      {
        kind: K.lti,
        wf: AW.finished,
        record: rec(10),
        constraint: rr("afterScore"),
      },
      NA,
    ],
    [
      "afterRevealingResults × afterScore non-LTI → hidden",
      {
        kind: K.text,
        wf: AW.finished,
        record: rec(10),
        constraint: rr("afterScore", { resultsDisclosureAbove: "0.1" }),
      },
      NA,
    ],
    ["afterRevealingResults × afterFinish finished → allowed", { wf: AW.finished, constraint: rr("afterFinish") }, OK],
    [
      "afterRevealingResults × afterFinish in progress → hidden",
      { wf: AW.inProgress, constraint: rr("afterFinish") },
      NA,
    ],
    ["afterRevealingResults × afterFinish not started → hidden", { constraint: rr("afterFinish") }, NA],
    [
      "in grading × afterSubmission → hidden",
      { wf: AW.inGrading, constraint: { reviewPolicy: "afterSubmission" } },
      NA,
    ],
    [
      "in grading × afterDate reached → hidden",
      {
        wf: AW.inGrading,
        constraint: rr("afterDate", { resultsDisclosureFrom: PAST }),
      },
      NA,
    ],
    [
      "in grading × afterDate not reached → generic hidden, no date",
      {
        wf: AW.inGrading,
        constraint: rr("afterDate", { resultsDisclosureFrom: FUTURE }),
      },
      NA,
    ],
    [
      "in grading × afterScore LTI above → hidden",
      {
        kind: K.lti,
        wf: AW.inGrading,
        record: rec(10),
        constraint: rr("afterScore", { resultsDisclosureAbove: "0.5" }),
      },
      NA,
    ],
  ];
  it.each(cases)("spec 4.12: %s", (_name, opts, expected) => {
    expect(reviewAllowed(node(opts), NOW)).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------
// 4.12 lock
// ---------------------------------------------------------------------------

describe("spec 4.12: isActivityLocked", () => {
  type Ctx = {
    courseFinished?: boolean;
    accessNewContentAfterCompletion?: boolean;
    reviewing?: boolean;
  };
  const cases: [string, NodeOpts, Ctx, boolean][] = [
    ["available, nothing applies → unlocked", {}, {}, false],
    ["not available → locked", { available: false }, {}, true],
    ["content not available → locked", { contentAvailable: false }, {}, true],
    ["disabled (before startFrom) → locked", { constraint: { startFrom: FUTURE } }, {}, true],
    ["disabled (after accessibleUntil) → locked", { constraint: { accessibleUntil: PAST } }, {}, true],
    [
      "disabled (review hidden while reviewing) → locked",
      { wf: AW.finished, constraint: { reviewPolicy: "never" } },
      { reviewing: true },
      true,
    ],
    [
      "review policy never, not reviewing → unlocked",
      { wf: AW.finished, constraint: { reviewPolicy: "never" } },
      {},
      false,
    ],
    ["draft → locked (disabled)", { state: S.draft }, {}, true],
    ["archived → not locked (hidden instead, 4.2)", { state: S.archived, available: false }, {}, false],
    ["course finished, no new-content access, no workflow → locked", {}, { courseFinished: true }, true],
    [
      "course finished, no new-content access, has workflow → unlocked",
      { wf: AW.finished },
      { courseFinished: true },
      false,
    ],
    [
      "course finished, new-content access, no workflow → unlocked",
      {},
      { courseFinished: true, accessNewContentAfterCompletion: true },
      false,
    ],
    ["course not finished, no workflow → unlocked", {}, { courseFinished: false }, false],
    [
      "composite, course finished without workflow → unlocked (own reasons only)",
      { kind: K.composite },
      { courseFinished: true },
      false,
    ],
    [
      "composite with its own startFrom in the future → locked",
      { kind: K.composite, constraint: { startFrom: FUTURE } },
      {},
      true,
    ],
    ["composite not available → locked", { kind: K.composite, available: false }, {}, true],
  ];
  it.each(cases)("spec 4.12: %s", (_name, opts, ctx, expected) => {
    expect(
      isActivityLocked(node(opts), {
        now: NOW,
        courseFinished: ctx.courseFinished ?? false,
        accessNewContentAfterCompletion: ctx.accessNewContentAfterCompletion ?? false,
        reviewing: ctx.reviewing ?? false,
      }),
    ).toBe(expected);
  });
});

describe("spec 4.12 on the server: activityLocks gives the API the page's locks with their reasons", () => {
  const ctx = { now: NOW, courseFinished: false, accessNewContentAfterCompletion: false, reviewing: false };
  const cases: [string, NodeOpts, Partial<typeof ctx>, { key: string; date?: string } | null][] = [
    ["open", {}, {}, null],
    ["draft (4.2)", { state: S.draft }, {}, { key: "activityLock.comingSoon" }],
    ["archived (4.2: hidden, so closed)", { state: S.archived }, {}, { key: "activityLock.comingSoon" }],
    ["behind an unfinished or draft module", { available: false }, {}, { key: "activityLock.completePreviousToPass" }],
    ["content not available", { contentAvailable: false }, {}, { key: "activityLock.completePreviousToPass" }],
    [
      "after the grace period, not finished",
      { wf: AW.inProgress, constraint: { gracePeriodUntil: PAST } },
      {},
      { key: "activityLock.afterGracePeriodUntil", date: PAST },
    ],
    [
      "after accessibleUntil",
      { constraint: { accessibleUntil: PAST } },
      {},
      { key: "activityLock.afterAccessibleUntil", date: PAST },
    ],
    [
      "before startFrom",
      { constraint: { startFrom: FUTURE } },
      {},
      { key: "activityLock.beforeStartFrom", date: FUTURE },
    ],
    [
      "after startUntil, not started",
      { constraint: { startUntil: PAST } },
      {},
      { key: "activityLock.afterStartUntil", date: PAST },
    ],
    ["after startUntil, started: open", { wf: AW.inProgress, constraint: { startUntil: PAST } }, {}, null],
    [
      "reviewing a finished attempt where review is never allowed",
      { wf: AW.finished, constraint: { reviewPolicy: "never" } },
      { reviewing: true, courseFinished: true },
      { key: "activityLock.reviewPolicyNotAllowed" },
    ],
    [
      "a finished course without new-content access, never started (no message of its own)",
      {},
      { courseFinished: true, reviewing: true },
      { key: "activityLock.serverSide" },
    ],
  ];
  it.each(cases)("spec 4.12: %s", (_name, opts, over, expected) => {
    const n = node(opts);
    expect(activityLocks([n], { ...ctx, ...over }).get(n.activityPathId)).toEqual(expected);
  });
  it("spec 4.2: everything inside an archived module is closed, whatever its own state", () => {
    const module = node({ id: "m", kind: K.composite, state: S.archived });
    const child = node({ id: "c", parent: "m" });
    const locks = activityLocks([module, child], ctx);
    expect(locks.get("c")).toEqual({ key: "activityLock.comingSoon" });
  });
  it("agrees with isActivityLocked on every visible node (the page's lock is the API's)", () => {
    const nodes = cases.map(([, opts]) => node(opts)).filter((n) => n.childActivity.state !== S.archived);
    for (const c of [ctx, { ...ctx, reviewing: true }, { ...ctx, courseFinished: true, reviewing: true }]) {
      const locks = activityLocks(nodes, c);
      for (const n of nodes) expect(locks.get(n.activityPathId) !== null).toBe(isActivityLocked(n, c));
    }
  });
  it("lock codes are the keys without their namespace, and only those are lock codes", () => {
    expect(lockCode({ key: "activityLock.beforeStartFrom", date: FUTURE })).toBe("beforeStartFrom");
    expect(isLockCode("beforeStartFrom")).toBe(true);
    expect(isLockCode("serverSide")).toBe(true);
    expect(isLockCode("notFound")).toBe(false);
    expect(isLockCode("activityLock.beforeStartFrom")).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// 4.13 icons
// ---------------------------------------------------------------------------

describe("spec 4.13: tocIcon", () => {
  const passed = (p: boolean | null) => ({ score: 1, maxScore: 1, passed: p });
  const cases: [string, NodeOpts, boolean, string | null, string[]][] = [
    ["draft → clock + comingSoon", { state: S.draft }, false, "clock", ["activityIcon.comingSoon"]],
    ["draft and locked → clock still shown", { state: S.draft }, true, "clock", ["activityIcon.comingSoon"]],
    ["finished and passed → check", { wf: AW.finished, record: passed(true) }, false, "check", []],
    ["finished and unknown (passed null) → check", { wf: AW.finished, record: passed(null) }, false, "check", []],
    ["finished without record (unknown) → check", { wf: AW.finished }, false, "check", []],
    [
      "finished and failed → warning + belowPassingScore",
      { wf: AW.finished, record: passed(false) },
      false,
      "warning",
      ["activityIcon.belowPassingScore"],
    ],
    ["optional, not started → dashed + optional", { optional: true }, false, "dashed", ["activityIcon.optional"]],
    [
      "optional and finished passed → check + optional",
      { optional: true, wf: AW.finished, record: passed(true) },
      false,
      "check",
      ["activityIcon.optional"],
    ],
    ["not started → empty", {}, false, "empty", []],
    ["in progress → empty", { wf: AW.inProgress }, false, "empty", []],
    ["in grading is not completed → empty", { wf: AW.inGrading, record: passed(null) }, false, "empty", []],
    [
      "in grading with an earlier failed record → empty, no belowPassingScore",
      { wf: AW.inGrading, record: passed(false) },
      false,
      "empty",
      [],
    ],
    ["optional in grading → dashed", { optional: true, wf: AW.inGrading }, false, "dashed", ["activityIcon.optional"]],
    ["proctored → empty + proctored", { proctored: true }, false, "empty", ["activityIcon.proctored"]],
    ["locked → no icon", {}, true, null, []],
    ["locked finished passed → no icon", { wf: AW.finished, record: passed(true) }, true, null, []],
    [
      "locked keeps its tooltips",
      { optional: true, proctored: true },
      true,
      null,
      ["activityIcon.optional", "activityIcon.proctored"],
    ],
    [
      "every tooltip, in order",
      {
        state: S.draft,
        wf: AW.finished,
        record: passed(false),
        optional: true,
        proctored: true,
      },
      false,
      "clock",
      ["activityIcon.comingSoon", "activityIcon.belowPassingScore", "activityIcon.optional", "activityIcon.proctored"],
    ],
    [
      "failed, optional, proctored → warning + tooltips in order",
      {
        wf: AW.finished,
        record: passed(false),
        optional: true,
        proctored: true,
      },
      false,
      "warning",
      ["activityIcon.belowPassingScore", "activityIcon.optional", "activityIcon.proctored"],
    ],
  ];
  it.each(cases)("spec 4.13: %s", (_name, opts, locked, icon, tooltipKeys) => {
    expect(tocIcon(node(opts), { locked })).toEqual({ icon, tooltipKeys });
  });
});

// ---------------------------------------------------------------------------
// 4.2 visible nodes
// ---------------------------------------------------------------------------

describe("spec 4.2: visibleNodes", () => {
  const ids = (ns: TreeNode[]) => ns.map((n) => n.activityPathId);
  it("spec 4.2: drops archived nodes and all their descendants, keeps input order", () => {
    const nodes = [
      node({ id: "root", parent: null, axis: "0", kind: K.composite }),
      node({ id: "s1", axis: "01", kind: K.composite, state: S.archived }),
      node({ id: "s1a", parent: "s1", axis: "01.01" }),
      node({ id: "s1b", parent: "s1", axis: "01.02", kind: K.composite }),
      node({ id: "s1b1", parent: "s1b", axis: "01.02.01" }),
      node({ id: "s2", axis: "02" }),
      node({ id: "s3", axis: "03", state: S.archived }),
      node({ id: "s4", axis: "04", state: S.draft }),
    ];
    expect(ids(visibleNodes(nodes))).toEqual(["root", "s2", "s4"]);
  });
  it("spec 4.2: descendants listed before their archived ancestor are dropped too", () => {
    const nodes = [
      node({ id: "deep", parent: "mid", axis: "01.01.01" }),
      node({ id: "mid", parent: "top", axis: "01.01", kind: K.composite }),
      node({ id: "top", axis: "01", kind: K.composite, state: S.archived }),
      node({ id: "root", parent: null, axis: "0", kind: K.composite }),
    ];
    expect(ids(visibleNodes(nodes))).toEqual(["root"]);
  });
  it("spec 4.2: nothing archived → everything kept; empty → empty", () => {
    const nodes = [node({ id: "root", parent: null, axis: "0", kind: K.composite }), node({ id: "a" })];
    expect(ids(visibleNodes(nodes))).toEqual(["root", "a"]);
    expect(visibleNodes([])).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// 4.13 initial selection
// ---------------------------------------------------------------------------

describe("spec 4.13: initialSelection", () => {
  const root = () => node({ id: "root", parent: null, axis: "0", kind: K.composite });
  const sel = (nodes: TreeNode[]) => initialSelection(nodes)?.activityPathId ?? null;

  it("spec 4.13: first available leaf in axis order that is not started, whatever the input order", () => {
    expect(
      sel([
        node({ id: "b", axis: "02" }),
        root(),
        node({ id: "a", axis: "01.01", parent: "s" }),
        node({ id: "s", axis: "01", kind: K.composite }),
      ]),
    ).toBe("a");
  });
  it("spec 4.13: skips finished and in-grading leaves, takes an in-progress one", () => {
    expect(
      sel([
        root(),
        node({ id: "a", axis: "01", wf: AW.finished }),
        node({ id: "b", axis: "02", wf: AW.inGrading }),
        node({ id: "c", axis: "03", wf: AW.inProgress }),
        node({ id: "d", axis: "04" }),
      ]),
    ).toBe("c");
  });
  it("spec 4.13: composites are never selected as the available activity", () => {
    expect(
      sel([root(), node({ id: "s", axis: "01", kind: K.composite }), node({ id: "x", axis: "01.01", parent: "s" })]),
    ).toBe("x");
  });
  const unavailable: [string, NodeOpts][] = [
    ["available false", { available: false }],
    ["contentAvailable false", { contentAvailable: false }],
    ["draft", { state: S.draft }],
    ["archived", { state: S.archived }],
  ];
  it.each(unavailable)("spec 4.13: a %s leaf is skipped", (_name, opts) => {
    expect(sel([root(), node({ id: "a", axis: "01", ...opts }), node({ id: "b", axis: "02" })])).toBe("b");
  });
  it("spec 4.13: an expired leaf is available", () => {
    expect(sel([root(), node({ id: "a", axis: "01", state: S.expired })])).toBe("a");
  });
  it("spec 4.13: none available → first child of the root (in axis order)", () => {
    expect(
      sel([
        root(),
        node({ id: "b", axis: "02", available: false }),
        node({ id: "a", axis: "01", kind: K.composite, available: false }),
        node({ id: "a1", parent: "a", axis: "01.01", available: false }),
      ]),
    ).toBe("a");
  });
  it("spec 4.13: all finished → first child of the root", () => {
    expect(
      sel([root(), node({ id: "a", axis: "01", wf: AW.finished }), node({ id: "b", axis: "02", wf: AW.finished })]),
    ).toBe("a");
  });
  it("spec 4.13 / 4.2: the fallback skips an archived first child", () => {
    expect(
      sel([root(), node({ id: "a", axis: "01", state: S.archived }), node({ id: "b", axis: "02", available: false })]),
    ).toBe("b");
  });
  it("spec 4.13: a single non-composite root leaf is selected itself", () => {
    expect(sel([node({ id: "only", parent: null, axis: "0", kind: K.lti })])).toBe("only");
  });
  it("spec 4.13: none available and no children → null; empty tree → null; no root → null", () => {
    expect(sel([root()])).toBeNull();
    expect(sel([])).toBeNull();
    expect(sel([node({ id: "orphan", parent: "missing", available: false })])).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// 4.13 refresh
// ---------------------------------------------------------------------------

describe("spec 4.13: nextRefreshAt", () => {
  const fields = [
    "startFrom",
    "startUntil",
    "accessibleUntil",
    "gracePeriodUntil",
    "due",
    "resultsDisclosureFrom",
    "revealResultsFrom",
  ];
  it.each(fields)("spec 4.13: %s counts as a constraint time", (field) => {
    const nodes = [node({ constraint: { [field]: ms(NOW, 5_000) } }), node({ constraint: { due: ms(NOW, 9_000) } })];
    expect(nextRefreshAt(nodes, NOW)).toEqual(new Date(NOW.getTime() + 5_000));
  });
  it("spec 4.13: picks the nearest future instant across nodes and fields", () => {
    const nodes = [
      node({
        constraint: { startFrom: ms(NOW, 60_000), due: ms(NOW, 30_000) },
      }),
      node({
        constraint: {
          accessibleUntil: ms(NOW, 10_000),
          gracePeriodUntil: PAST,
        },
      }),
      node({ constraint: { revealResultsFrom: ms(NOW, 20_000) } }),
    ];
    expect(nextRefreshAt(nodes, NOW)).toEqual(new Date(NOW.getTime() + 10_000));
  });
  it("spec 4.13: an instant exactly at now is not in the future; 1 ms later is", () => {
    expect(nextRefreshAt([node({ constraint: { startFrom: AT } })], NOW)).toBeNull();
    expect(nextRefreshAt([node({ constraint: { startFrom: AT, startUntil: JUST_AFTER } })], NOW)).toEqual(
      new Date(JUST_AFTER),
    );
  });
  it("spec 4.13: past-only dates → null", () => {
    expect(
      nextRefreshAt(
        [node({ constraint: { startFrom: PAST, due: JUST_BEFORE } }), node({ constraint: { accessibleUntil: PAST } })],
        NOW,
      ),
    ).toBeNull();
  });
  it("spec 4.13: ignores non-date fields, null and unparsable dates; no nodes → null", () => {
    expect(
      nextRefreshAt(
        [
          node({
            constraint: {
              reviewPolicy: "never",
              resultsDisclosureAbove: "0.5",
              due: null,
              startFrom: "someday",
            },
          }),
        ],
        NOW,
      ),
    ).toBeNull();
    expect(nextRefreshAt([], NOW)).toBeNull();
  });
});
