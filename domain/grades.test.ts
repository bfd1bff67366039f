import { describe, expect, it } from "vitest";
import { activityScoresVisible, GRADE_SORTS, gradeApiSort, pointsShown, validateGradesQuery } from "./grades";
import { ObjectiveWorkflowState, type GradeRevealPolicy } from "./vocabulary";
import type { KnownFilterValues } from "./courses";

const W = ObjectiveWorkflowState;
const NOW = new Date("2026-06-01T00:00:00.000Z");
const PAST = "2026-05-01T00:00:00.000Z";
const FUTURE = "2026-07-01T00:00:00.000Z";
const KNOWN: KnownFilterValues = { collections: ["c1"], terms: ["t1"], categories: { cat: ["a1", "a2"] } };

const q = (s: string) => validateGradesQuery(new URLSearchParams(s), KNOWN);

describe("validateGradesQuery (issue 31 item 1, spec 2.4 / 5 rules)", () => {
  it("has the default sort out of the URL", () => {
    expect(q("").canonical.toString()).toBe("");
    expect(q("").sort).toBe("name");
    expect(q("sort=name")).toMatchObject({ sort: "name", changed: true, toasts: [] });
    expect(q("sort=name").canonical.toString()).toBe("");
  });

  it.each(GRADE_SORTS.filter((s) => s !== "name"))("keeps sort=%s", (sort) => {
    const r = q(`sort=${encodeURIComponent(sort)}`);
    expect(r).toMatchObject({ sort, changed: false, toasts: [] });
  });

  it("drops an unknown sort with the filters-unavailable toast (spec 2.4)", () => {
    const r = q("sort=grade;drop");
    expect(r.sort).toBe("name");
    expect(r.changed).toBe(true);
    expect(r.toasts).toEqual(["coursesFilterDrawer.filtersUnavailable"]);
  });

  it("the first sort wins; a second is dropped silently", () => {
    const r = q("sort=-score&sort=progress");
    expect(r.sort).toBe("-score");
    expect(r.canonical.toString()).toBe("sort=-score");
    expect(r.toasts).toEqual([]);
  });

  it("applies My courses' rules to everything else, one toast for several unknown values", () => {
    const r = q("keyword=SQL&sort=-finished&collection=c1,zz&term=t9&courseProgress=completed&page=2&x=1");
    expect(r.filters).toMatchObject({ keyword: "sql", collection: ["c1"], term: [], courseProgress: ["completed"] });
    expect(r.canonical.toString()).toBe("keyword=sql&collection=c1&courseProgress=completed&sort=-finished&page=2");
    expect(r.toasts).toEqual(["coursesFilterDrawer.filtersUnavailable"]);
    const again = q(r.canonical.toString());
    expect(again.changed).toBe(false);
  });

  it("drops My courses' enrolment flow parameters", () => {
    const r = q("occflow=startTheCourse&objectiveId=x");
    expect(r.canonical.toString()).toBe("");
    expect(r.filters.occflow).toBeUndefined();
  });

  it("maps every URL sort to an API sort", () => {
    expect(GRADE_SORTS.map(gradeApiSort)).toEqual([
      "objective.name",
      "-objective.name",
      "-score",
      "score",
      "-finished",
      "finished",
      "-progress",
      "progress",
    ]);
  });
});

describe("activityScoresVisible (spec 4.7 everywhere a grade shows)", () => {
  const input = (
    policy: GradeRevealPolicy,
    state: ObjectiveWorkflowState | null,
    extra: { date?: string | null; protectResults?: boolean; supportReview?: boolean } = {},
  ) => ({
    gradeRevealPolicy: policy,
    gradeRevealDate: extra.date ?? null,
    workflow: state === null ? null : { state },
    protectResults: extra.protectResults ?? false,
    supportReview: extra.supportReview ?? true,
  });

  it.each([
    // policy, state, date, visible
    ["none", null, null, false],
    ["none", W.inProgress, null, true],
    ["none", W.finished, null, true],
    ["never", W.inProgress, null, false],
    ["never", W.graded, null, false],
    ["never", W.finished, null, false],
    ["afterFinish", W.inProgress, null, false],
    ["afterFinish", W.submitted, null, true],
    ["afterFinish", W.finished, null, true],
    ["afterDate", W.inProgress, FUTURE, false],
    ["afterDate", W.finished, FUTURE, false],
    ["afterDate", W.finished, PAST, true],
    ["afterDate", W.inProgress, PAST, true],
    ["afterDate", W.finished, null, false],
  ] as const)("policy %s, workflow %s, date %s → %s", (policy, state, date, visible) => {
    expect(activityScoresVisible(input(policy, state, { date }), NOW)).toBe(visible);
  });

  it("protected results hide every activity's score", () => {
    expect(activityScoresVisible(input("none", W.finished, { protectResults: true }), NOW)).toBe(false);
  });

  it("a finished attempt of a course without review hides them (the content view's rule)", () => {
    expect(activityScoresVisible(input("none", W.finished, { supportReview: false }), NOW)).toBe(false);
    expect(activityScoresVisible(input("none", W.inProgress, { supportReview: false }), NOW)).toBe(true);
  });
});

describe("pointsShown (spec 2.5 / 2.7 / 5)", () => {
  it.each([
    [1, false],
    [null, false],
    [undefined, false],
    [Number.NaN, false],
    [0, true],
    [10, true],
    [100, true],
  ])("max score %s → %s", (max, shown) => {
    expect(pointsShown(max)).toBe(shown);
  });
});
