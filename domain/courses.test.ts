import { describe, expect, it } from "vitest";
import { ObjectiveWorkflowState, PRIORITY_VALUES, PROGRESS_VALUES } from "./vocabulary";
import {
  COVER_COLORS,
  clampProgress,
  countActiveFilters,
  courseCardFooter,
  courseCardLink,
  coursePriority,
  courseProgressFilter,
  coverFallbackColor,
  durationMinutes,
  filtersToSearchParams,
  formatFileSize,
  formatScore,
  isCertificateExpired,
  progressPercent,
  scoreColor,
  showPointsOnCertificate,
  validateCourseFilters,
  type CardAccess,
  type CourseCardFooter,
  type CourseFilters,
  type CourseFilterToast,
  type KnownFilterValues,
  type ScoreSummary,
} from "./courses";

type Workflow = NonNullable<CardAccess["lastObjectiveWorkflow"]>;

function access(overrides: Partial<CardAccess> = {}): CardAccess {
  return {
    id: "acc-1",
    objective: { id: "obj-1" },
    isMandatory: false,
    availabilityDate: null,
    dueDate: null,
    lastObjectiveWorkflow: null,
    lastObjectiveRecord: null,
    ...overrides,
  };
}

function workflow(state: ObjectiveWorkflowState, overrides: Partial<Workflow> = {}): Workflow {
  return {
    id: "wf-1",
    state,
    progress: 0.5,
    started: "2024-01-01T10:00:00Z",
    submitted: "2024-01-05T10:00:00Z",
    finished: "2024-01-09T10:00:00Z",
    ...overrides,
  };
}

const RECORD = { id: "rec-1", finished: "2024-02-02T00:00:00Z", progress: 1 };

describe("ObjectiveWorkflowState (spec 4.1)", () => {
  it.each([
    { description: "4.1: inProgress is 1", key: "inProgress", value: 1 },
    { description: "4.1: submitted is 2", key: "submitted", value: 2 },
    { description: "4.1: inGrading is 3", key: "inGrading", value: 3 },
    { description: "4.1: graded is 4", key: "graded", value: 4 },
    { description: "4.1: gradingApproved is 5", key: "gradingApproved", value: 5 },
    { description: "4.1: finished is 6", key: "finished", value: 6 },
  ] as const)("$description", ({ key, value }) => {
    expect(ObjectiveWorkflowState[key]).toBe(value);
  });
});

describe("courseCardLink (spec 4.11)", () => {
  it.each([
    {
      description: "4.11: inProgress links to content",
      a: access({ lastObjectiveWorkflow: workflow(1) }),
      href: "/learn/courses/obj-1/view/content",
    },
    {
      description: "4.11: finished links to the course details",
      a: access({ lastObjectiveWorkflow: workflow(6) }),
      href: "/learn/courses/obj-1",
    },
    { description: "4.11: not started links to the access", a: access(), href: "/learn/courses/obj-1/acc-1" },
    {
      description: "4.11: not started with a record links to the access",
      a: access({ lastObjectiveRecord: RECORD }),
      href: "/learn/courses/obj-1/acc-1",
    },
    {
      description: "4.11: submitted links to the access (otherwise)",
      a: access({ lastObjectiveWorkflow: workflow(2) }),
      href: "/learn/courses/obj-1/acc-1",
    },
    {
      description: "4.11: inGrading links to the access (otherwise)",
      a: access({ lastObjectiveWorkflow: workflow(3) }),
      href: "/learn/courses/obj-1/acc-1",
    },
    {
      description: "4.11: graded links to the access (otherwise)",
      a: access({ lastObjectiveWorkflow: workflow(4) }),
      href: "/learn/courses/obj-1/acc-1",
    },
    {
      description: "4.11: gradingApproved links to the access (otherwise)",
      a: access({ lastObjectiveWorkflow: workflow(5) }),
      href: "/learn/courses/obj-1/acc-1",
    },
    {
      description: "4.11: unknown state links to the access (otherwise)",
      a: access({
        lastObjectiveWorkflow: workflow(99 as ObjectiveWorkflowState) /* a value from outside the vocabulary */,
      }),
      href: "/learn/courses/obj-1/acc-1",
    },
    {
      description: "4.11: ids are URI-encoded so they cannot change the route",
      a: access({ objective: { id: "../x?y" }, id: "a/b" }),
      href: "/learn/courses/..%2Fx%3Fy/a%2Fb",
    },
  ])("$description", ({ a, href }) => {
    expect(courseCardLink(a)).toBe(href);
  });
});

describe("courseCardFooter (spec 4.11)", () => {
  const rows: { description: string; a: CardAccess; footer: CourseCardFooter }[] = [
    {
      description: "4.11: not started shows the availability date first",
      a: access({ availabilityDate: "2024-03-01", dueDate: "2024-04-01" }),
      footer: { kind: "availableFrom", date: "2024-03-01" },
    },
    {
      description: "4.11: not started without availability shows the due date",
      a: access({ dueDate: "2024-04-01" }),
      footer: { kind: "due", date: "2024-04-01" },
    },
    { description: "4.11: not started without dates shows 'not started'", a: access(), footer: { kind: "notStarted" } },
    {
      description: "4.11: in grading shows the submitted date and progress",
      a: access({ lastObjectiveWorkflow: workflow(3, { progress: 0.75 }), dueDate: "2024-04-01" }),
      footer: { kind: "submitted", date: "2024-01-05T10:00:00Z", progress: 0.75 },
    },
    {
      description: "4.11/5: in grading progress is clamped",
      a: access({ lastObjectiveWorkflow: workflow(3, { progress: 1.7, submitted: null }) }),
      footer: { kind: "submitted", date: null, progress: 1 },
    },
    {
      description: "4.11: in progress shows the start date and progress",
      a: access({ lastObjectiveWorkflow: workflow(1, { progress: 0.25 }) }),
      footer: { kind: "started", date: "2024-01-01T10:00:00Z", progress: 0.25 },
    },
    {
      description: "4.11/5: in progress with null progress shows 0",
      // An external LMS API that sends no progress (spec 5: null counts as 0).
      a: access({ lastObjectiveWorkflow: workflow(1, { progress: null as unknown as number }) }),
      footer: { kind: "started", date: "2024-01-01T10:00:00Z", progress: 0 },
    },
    {
      description: "4.11: finished shows the workflow completion date",
      a: access({ lastObjectiveWorkflow: workflow(6), lastObjectiveRecord: RECORD }),
      footer: { kind: "completed", date: "2024-01-09T10:00:00Z" },
    },
    {
      description: "4.11: finished falls back to the record's completion date",
      a: access({ lastObjectiveWorkflow: workflow(6, { finished: null }), lastObjectiveRecord: RECORD }),
      footer: { kind: "completed", date: "2024-02-02T00:00:00Z" },
    },
    {
      description: "4.11: finished without any completion date gives null",
      a: access({ lastObjectiveWorkflow: workflow(6, { finished: null }) }),
      footer: { kind: "completed", date: null },
    },
    {
      description: "4.11: submitted shows the due date (otherwise)",
      a: access({ lastObjectiveWorkflow: workflow(2), dueDate: "2024-04-01" }),
      footer: { kind: "due", date: "2024-04-01" },
    },
    {
      description: "4.11: graded shows the due date (otherwise)",
      a: access({ lastObjectiveWorkflow: workflow(4), dueDate: "2024-04-01" }),
      footer: { kind: "due", date: "2024-04-01" },
    },
    {
      description: "4.11: gradingApproved without a due date shows a null due date (otherwise)",
      a: access({ lastObjectiveWorkflow: workflow(5) }),
      footer: { kind: "due", date: null },
    },
  ];
  it.each(rows)("$description", ({ a, footer }) => {
    expect(courseCardFooter(a)).toEqual(footer);
  });
});

describe("courseProgressFilter (spec 4.11)", () => {
  it.each([
    { description: "4.11: no workflow and no record is notStarted", a: access(), expected: "notStarted" },
    {
      description: "4.11: no workflow but a record is completed",
      a: access({ lastObjectiveRecord: RECORD }),
      expected: "completed",
    },
    {
      description: "4.11: inProgress is inProgress",
      a: access({ lastObjectiveWorkflow: workflow(1) }),
      expected: "inProgress",
    },
    {
      description: "4.11: inGrading is inProgress",
      a: access({ lastObjectiveWorkflow: workflow(3) }),
      expected: "inProgress",
    },
    {
      description: "4.11: gradingApproved is inProgress",
      a: access({ lastObjectiveWorkflow: workflow(5) }),
      expected: "inProgress",
    },
    {
      description: "4.11: finished is completed",
      a: access({ lastObjectiveWorkflow: workflow(6) }),
      expected: "completed",
    },
    {
      description: "4.11: submitted matches no progress filter",
      a: access({ lastObjectiveWorkflow: workflow(2) }),
      expected: null,
    },
    {
      description: "4.11: graded matches no progress filter",
      a: access({ lastObjectiveWorkflow: workflow(4), lastObjectiveRecord: RECORD }),
      expected: null,
    },
  ])("$description", ({ a, expected }) => {
    expect(courseProgressFilter(a)).toBe(expected);
  });
});

describe("coursePriority (spec 2.4 / 3)", () => {
  it.each([
    {
      description: "3: mandatory access has priority mandatory",
      a: access({ isMandatory: true }),
      expected: "mandatory",
    },
    {
      description: "3: non-mandatory access has priority optional",
      a: access({ isMandatory: false }),
      expected: "optional",
    },
  ])("$description", ({ a, expected }) => {
    expect(coursePriority(a)).toBe(expected);
  });
});

describe("coverFallbackColor (spec 2.3)", () => {
  it.each([
    { description: "2.3: card 0 gets the first colour", index: 0, expected: COVER_COLORS[0] },
    { description: "2.3: card 6 gets the seventh colour", index: 6, expected: COVER_COLORS[6] },
    { description: "2.3: card 7 cycles back to the first colour", index: 7, expected: COVER_COLORS[0] },
    { description: "2.3: card 13 cycles to the seventh colour", index: 13, expected: COVER_COLORS[6] },
    { description: "2.3: a negative index still yields a colour", index: -1, expected: COVER_COLORS[6] },
    { description: "2.3: a fractional index is truncated", index: 2.7, expected: COVER_COLORS[2] },
    { description: "2.3: NaN falls back to the first colour", index: Number.NaN, expected: COVER_COLORS[0] },
  ])("$description", ({ index, expected }) => {
    expect(coverFallbackColor(index)).toBe(expected);
  });

  it("2.3: there are seven distinct hex colours", () => {
    expect(COVER_COLORS).toHaveLength(7);
    expect(new Set(COVER_COLORS.map((c) => c.toLowerCase())).size).toBe(7);
    for (const c of COVER_COLORS) expect(c).toMatch(/^#[0-9a-f]{6}$/i);
  });

  /** WCAG 2.x relative luminance and contrast ratio. */
  function luminance(hex: string): number {
    const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    const [r, g, b] = channels.map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const contrastWithWhite = (hex: string) => (1 + 0.05) / (luminance(hex) + 0.05);

  it.each(
    COVER_COLORS.map((color) => ({
      description: `2.3: ${color} has WCAG AA contrast (>= 4.5:1) with white text`,
      color,
    })),
  )("$description", ({ color }) => {
    expect(contrastWithWhite(color)).toBeGreaterThanOrEqual(4.5);
  });

  it("2.3: the contrast helper itself is calibrated (black on white is 21:1, white on white 1:1)", () => {
    expect(contrastWithWhite("#000000")).toBeCloseTo(21, 5);
    expect(contrastWithWhite("#FFFFFF")).toBeCloseTo(1, 5);
  });
});

describe("clampProgress / progressPercent (spec 5)", () => {
  it.each([
    { description: "5: progress inside 0..1 is kept", value: 0.42, clamped: 0.42, percent: 42 },
    { description: "5: progress 0 is 0%", value: 0, clamped: 0, percent: 0 },
    { description: "5: progress 1 is 100%", value: 1, clamped: 1, percent: 100 },
    { description: "5: progress above 1 is clamped to 1", value: 1.5, clamped: 1, percent: 100 },
    { description: "5: negative progress is clamped to 0", value: -0.3, clamped: 0, percent: 0 },
    { description: "5: null progress is 0", value: null, clamped: 0, percent: 0 },
    { description: "5: undefined progress is 0", value: undefined, clamped: 0, percent: 0 },
    { description: "5: NaN progress is 0", value: Number.NaN, clamped: 0, percent: 0 },
    { description: "5: Infinity progress is clamped to 1", value: Number.POSITIVE_INFINITY, clamped: 1, percent: 100 },
    { description: "5: -Infinity progress is clamped to 0", value: Number.NEGATIVE_INFINITY, clamped: 0, percent: 0 },
    { description: "5: percent is rounded half up (0.125 → 13)", value: 0.125, clamped: 0.125, percent: 13 },
    { description: "5: percent is rounded down (0.334 → 33)", value: 0.334, clamped: 0.334, percent: 33 },
    { description: "5: percent is rounded up (0.996 → 100)", value: 0.996, clamped: 0.996, percent: 100 },
  ])("$description", ({ value, clamped, percent }) => {
    expect(clampProgress(value)).toBe(clamped);
    expect(progressPercent(value)).toBe(percent);
  });
});

describe("validateCourseFilters (spec 2.4 / 5)", () => {
  const known: KnownFilterValues = {
    collections: ["c1", "c2", "c 3"],
    terms: ["t1", "t2"],
    categories: { cat1: ["a1", "a2"], cat2: ["b1"], "cat:9": ["z"] },
  };
  const UNAVAILABLE: CourseFilterToast = "coursesFilterDrawer.filtersUnavailable";
  const params = (s: string) => new URLSearchParams(s);
  const junk = (n: number) => Array.from({ length: n }, (_, i) => `x${i}=${i}`).join("&");

  interface Row {
    description: string;
    query: string | URLSearchParams;
    canonical: string;
    changed: boolean;
    toasts: CourseFilterToast[];
    filters?: Partial<CourseFilters>;
    knownOverride?: KnownFilterValues;
    /** Optional keys that must not be set on the parsed filters. */
    absent?: (keyof CourseFilters)[];
  }

  const rows: Row[] = [
    {
      description: "2.4: empty query is valid and unchanged",
      query: "",
      canonical: "",
      changed: false,
      toasts: [],
      filters: { keyword: "", collection: [], term: [], courseProgress: [], coursePriority: [], category: {}, page: 1 },
    },
    {
      description: "2.4: a fully canonical query is kept unchanged",
      query:
        "keyword=math&collection=c1,c2&term=t1&courseProgress=inProgress,completed&coursePriority=mandatory&category[cat1]=a1,a2&category[cat2]=b1&page=2&occflow=startTheCourse&objectiveId=o1",
      canonical:
        "keyword=math&collection=c1,c2&term=t1&courseProgress=inProgress,completed&coursePriority=mandatory&category[cat1]=a1,a2&category[cat2]=b1&page=2&occflow=startTheCourse&objectiveId=o1",
      changed: false,
      toasts: [],
      filters: {
        keyword: "math",
        collection: ["c1", "c2"],
        term: ["t1"],
        courseProgress: ["inProgress", "completed"],
        coursePriority: ["mandatory"],
        category: { cat1: ["a1", "a2"], cat2: ["b1"] },
        page: 2,
        occflow: "startTheCourse",
        objectiveId: "o1",
      },
    },
    {
      description: "2.4: unknown parameter name is dropped without a toast",
      query: "foo=bar&collection=c1",
      canonical: "collection=c1",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: parameter names are case-sensitive (Keyword is unknown)",
      query: "Keyword=x",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "5: unknown collection value is removed with the toast",
      query: "collection=c1,nope",
      canonical: "collection=c1",
      changed: true,
      toasts: [UNAVAILABLE],
      filters: { collection: ["c1"] },
    },
    {
      description: "5: collection values are matched exactly (case-sensitive)",
      query: "collection=C1",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
    },
    {
      description: "5: collection ids with spaces are matched after URL decoding",
      query: "collection=c+3",
      canonical: "collection=c+3",
      changed: false,
      toasts: [],
      filters: { collection: ["c 3"] },
    },
    {
      description: "5: unknown term value is removed with the toast",
      query: "term=t9",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
      filters: { term: [] },
    },
    {
      description: "5: unknown courseProgress value is removed with the toast",
      query: "courseProgress=notStarted,halfway",
      canonical: "courseProgress=notStarted",
      changed: true,
      toasts: [UNAVAILABLE],
    },
    {
      description: "5: unknown coursePriority value is removed with the toast",
      query: "coursePriority=urgent",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
    },
    {
      description: "5: unknown category id is removed with the toast",
      query: "category[nope]=a1",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
      filters: { category: {} },
    },
    {
      description: "5: unknown attribute id is removed with the toast",
      query: "category[cat1]=a1,b1",
      canonical: "category[cat1]=a1",
      changed: true,
      toasts: [UNAVAILABLE],
      filters: { category: { cat1: ["a1"] } },
    },
    {
      description: "5: a category whose attributes are all unknown disappears with the toast",
      query: "category[cat2]=zz",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
      filters: { category: {} },
    },
    {
      description: "5: an unknown category id with no values is dropped silently",
      query: "category[nope]=",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "5: category ids with special characters are kept when known",
      query: "category[cat:9]=z",
      canonical: "category[cat:9]=z",
      changed: false,
      toasts: [],
    },
    {
      description: "5: several unknown values give the toast only once",
      query: "collection=x&term=y&courseProgress=z&category[q]=1&occflow=bad",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
    },
    {
      description: "2.4: invalid occflow is removed with the toast",
      query: "occflow=jumpAround&objectiveId=o1",
      canonical: "objectiveId=o1",
      changed: true,
      toasts: [UNAVAILABLE],
      filters: { objectiveId: "o1" },
      absent: ["occflow"],
    },
    {
      description: "2.4: occflow addToMyCourses is kept",
      query: "occflow=addToMyCourses&objectiveId=o1",
      canonical: "occflow=addToMyCourses&objectiveId=o1",
      changed: false,
      toasts: [],
      filters: { occflow: "addToMyCourses", objectiveId: "o1" },
    },
    {
      description: "2.4: occflow values are case-sensitive",
      query: "occflow=starttheCourse",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
    },
    {
      description: "2.4: selfRegistered is removed with the toast 'accountCreated'",
      query: "selfRegistered=true&collection=c1",
      canonical: "collection=c1",
      changed: true,
      toasts: ["accountCreated"],
    },
    {
      description: "2.4: a bare selfRegistered also shows 'accountCreated'",
      query: "selfRegistered",
      canonical: "",
      changed: true,
      toasts: ["accountCreated"],
    },
    {
      description: "2.4: selfRegistered=false is removed without a toast",
      query: "selfRegistered=false",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: both toasts at once, filtersUnavailable first",
      query: "selfRegistered=true&term=zzz",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE, "accountCreated"],
    },
    {
      description: "5: keyword is lowercased and left-trimmed only",
      query: "keyword=%20%20Math%20Basics%20",
      canonical: "keyword=math+basics+",
      changed: true,
      toasts: [],
      filters: { keyword: "math basics " },
    },
    {
      description: "5: non-ASCII keyword is lowercased",
      query: "keyword=%C3%84RGER",
      canonical: "keyword=%C3%A4rger",
      changed: true,
      toasts: [],
      filters: { keyword: "ärger" },
    },
    {
      description: "5: whitespace-only keyword is omitted",
      query: "keyword=%20%20%20",
      canonical: "",
      changed: true,
      toasts: [],
      filters: { keyword: "" },
    },
    { description: "5: empty keyword is omitted", query: "keyword=", canonical: "", changed: true, toasts: [] },
    {
      description: "5: control characters leave the keyword (issue 17 item 6: keyword=a%01b gave 500)",
      query: "keyword=a%01b%00x%7Fy",
      canonical: "keyword=abxy",
      changed: true,
      toasts: [],
      filters: { keyword: "abxy" },
    },
    {
      description: "5: keyword is capped at 200 characters",
      query: `keyword=${"a".repeat(250)}`,
      canonical: `keyword=${"a".repeat(200)}`,
      changed: true,
      toasts: [],
      filters: { keyword: "a".repeat(200) },
    },
    {
      description: "5: keyword cap never splits a surrogate pair",
      query: params(`keyword=${"😀".repeat(201)}`),
      canonical: `keyword=${encodeURIComponent("😀".repeat(200))}`,
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: a repeated keyword keeps the first one",
      query: "keyword=one&keyword=two",
      canonical: "keyword=one",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: empty values after splitting are ignored silently",
      query: "collection=,c1,,&term=",
      canonical: "collection=c1",
      changed: true,
      toasts: [],
      filters: { collection: ["c1"], term: [] },
    },
    {
      description: "2.4: values are trimmed",
      query: "collection=%20c1%20,%20c2",
      canonical: "collection=c1,c2",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: duplicate values are de-duplicated",
      query: "collection=c1,c1,c2,c1",
      canonical: "collection=c1,c2",
      changed: true,
      toasts: [],
      filters: { collection: ["c1", "c2"] },
    },
    {
      description: "2.4: repeated list parameters are merged",
      query: "collection=c1&collection=c2,c1",
      canonical: "collection=c1,c2",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: repeated category parameters are merged",
      query: "category[cat1]=a2&category[cat1]=a1,a2",
      canonical: "category[cat1]=a2,a1",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: value order is kept as given",
      query: "collection=c2,c1",
      canonical: "collection=c2,c1",
      changed: false,
      toasts: [],
    },
    {
      description: "2.4: parameters are rewritten into the stable order",
      query: "objectiveId=o1&term=t1&keyword=k&collection=c1",
      canonical: "keyword=k&collection=c1&term=t1&objectiveId=o1",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: categories are sorted by id",
      query: "category[cat2]=b1&category[cat1]=a1",
      canonical: "category[cat1]=a1&category[cat2]=b1",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: page 1 is the default and omitted",
      query: "page=1",
      canonical: "",
      changed: true,
      toasts: [],
      filters: { page: 1 },
    },
    {
      description: "2.4: page 3 is kept",
      query: "page=3",
      canonical: "page=3",
      changed: false,
      toasts: [],
      filters: { page: 3 },
    },
    {
      description: "2.4: page 0 is dropped silently",
      query: "page=0",
      canonical: "",
      changed: true,
      toasts: [],
      filters: { page: 1 },
    },
    {
      description: "2.4: negative page is dropped silently",
      query: "page=-2",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: fractional page is dropped silently",
      query: "page=1.5",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: non-numeric page is dropped silently",
      query: "page=abc",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: zero-padded page is dropped silently",
      query: "page=02",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: page beyond the safe integer range is dropped silently",
      query: "page=99999999999999999999",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: page past PAGE_MAX is dropped silently (issue 17 item 6: page=50000 gave 500)",
      query: "page=50000",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: the last page allowed stays",
      query: "page=10000",
      canonical: "page=10000",
      changed: false,
      toasts: [],
    },
    {
      description: "2.4: empty objectiveId is dropped silently",
      query: "objectiveId=",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: oversized objectiveId is dropped silently",
      query: `objectiveId=${"o".repeat(500)}`,
      canonical: "",
      changed: true,
      toasts: [],
    },
    // Garbled input: never throws.
    {
      description: "2.4: garbled percent-encoding as a name is an unknown parameter",
      query: "%E0%A4%A=1&collection=c1",
      canonical: "collection=c1",
      changed: true,
      toasts: [],
    },
    {
      description: "5: garbled percent-encoding in the keyword is kept as (lowercased) text",
      query: "keyword=%E0%A4%A",
      canonical: `keyword=${encodeURIComponent("\uFFFD%a")}`,
      changed: true,
      toasts: [],
    },
    {
      description: "5: garbled percent-encoding as a value is an unknown value",
      query: "collection=%E0%A4%A,%ZZ",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
    },
    {
      description: "2.4: 'category[=1' is an unknown parameter name",
      query: "category[=1",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: 'category[]' (no id) is an unknown parameter name",
      query: "category[]=a1",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: 'category[cat1]]' is an unknown parameter name",
      query: "category[cat1]]=a1",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: 'category[[cat1]' is an unknown parameter name",
      query: "category[[cat1]=a1",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: a bare 'category' is an unknown parameter name",
      query: "category=a1",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: names with only separators are dropped",
      query: "&&=&==&,=,",
      canonical: "",
      changed: true,
      toasts: [],
    },
    {
      description: "5: category[__proto__] is an unknown category, not the prototype",
      query: "category[__proto__]=a1&category[constructor]=a1&category[toString]=x",
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
      filters: { category: {} },
    },
    {
      description: "5: a loaded category really named __proto__ stays a plain own key",
      query: "category[__proto__]=p1",
      knownOverride: {
        collections: [],
        terms: [],
        categories: JSON.parse('{"__proto__":["p1"]}') as Record<string, string[]>,
      },
      canonical: "category[__proto__]=p1",
      changed: false,
      toasts: [],
    },
    {
      description: "5: a huge value list keeps only the known values",
      query: `collection=c1,${"x,".repeat(100_000)}c2`,
      canonical: "collection=c1,c2",
      changed: true,
      toasts: [UNAVAILABLE],
    },
    {
      description: "5: a huge keyword is capped",
      query: `keyword=${"Q".repeat(1_000_000)}`,
      canonical: `keyword=${"q".repeat(200)}`,
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: 10,000 unknown parameters are dropped without a toast",
      query: `collection=c1&${junk(10_000)}`,
      canonical: "collection=c1",
      changed: true,
      toasts: [],
    },
    {
      description: "2.4: parameters beyond the first 100 are not processed",
      query: `${junk(100)}&collection=c1&occflow=bad`,
      canonical: "",
      changed: true,
      toasts: [],
      filters: { collection: [] },
    },
    {
      description: "2.4: the 100th parameter is still processed",
      query: `${junk(99)}&collection=c1`,
      canonical: "collection=c1",
      changed: true,
      toasts: [],
    },
    {
      description: "5: empty known lists reject every filter value",
      query: "collection=c1&category[cat1]=a1",
      knownOverride: { collections: [], terms: [], categories: {} },
      canonical: "",
      changed: true,
      toasts: [UNAVAILABLE],
    },
  ];

  it.each(rows)("$description", ({ query, canonical, changed, toasts, filters, knownOverride, absent }) => {
    const input = typeof query === "string" ? params(query) : query;
    const before = input.toString();
    const result = validateCourseFilters(input, knownOverride ?? known);
    expect(result.canonical.toString()).toBe(params(canonical).toString());
    expect(result.changed).toBe(changed);
    expect(result.toasts).toEqual(toasts);
    if (filters) expect(result.filters).toMatchObject(filters);
    for (const key of absent ?? []) expect(result.filters).not.toHaveProperty(key);
    // The input is never mutated.
    expect(input.toString()).toBe(before);
    // The canonical form is a fixed point: validating it again changes nothing and raises no toast.
    const again = validateCourseFilters(new URLSearchParams(result.canonical), knownOverride ?? known);
    expect(again.changed).toBe(false);
    expect(again.toasts).toEqual([]);
    expect(again.filters).toEqual(result.filters);
    // filtersToSearchParams is the inverse.
    expect(filtersToSearchParams(result.filters).toString()).toBe(result.canonical.toString());
  });

  it("2.4: garbled input never throws (deterministic fuzz)", () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = [
      "%",
      "E0",
      "A4",
      "[",
      "]",
      "=",
      "&",
      ",",
      "category",
      "collection",
      "keyword",
      "page",
      "c1",
      "a1",
      "cat1",
      "+",
      " ",
      "\uD800",
      "😀",
      "#",
      "?",
      "%ZZ",
      "__proto__",
    ];
    for (let i = 0; i < 500; i++) {
      const len = Math.floor(rand() * 40);
      let s = "";
      for (let j = 0; j < len; j++) s += alphabet[Math.floor(rand() * alphabet.length)];
      const input = new URLSearchParams(s);
      const result = validateCourseFilters(input, known);
      const again = validateCourseFilters(new URLSearchParams(result.canonical), known);
      expect(again.changed).toBe(false);
      expect(again.filters).toEqual(result.filters);
    }
  });

  it("5: the fixed progress and priority values are exported", () => {
    expect(PROGRESS_VALUES).toEqual(["notStarted", "inProgress", "completed"]);
    expect(PRIORITY_VALUES).toEqual(["mandatory", "optional"]);
  });
});

describe("countActiveFilters (spec 2.3)", () => {
  const base: CourseFilters = {
    keyword: "",
    collection: [],
    term: [],
    courseProgress: [],
    coursePriority: [],
    category: {},
    page: 1,
  };
  it.each([
    { description: "2.3: no filters gives badge 0", filters: base, count: 0 },
    { description: "2.3: the keyword is not counted", filters: { ...base, keyword: "math" }, count: 0 },
    {
      description: "2.3: page, occflow and objectiveId are not counted",
      filters: { ...base, page: 4, occflow: "startTheCourse" as const, objectiveId: "o1" },
      count: 0,
    },
    { description: "2.3: every selected collection counts", filters: { ...base, collection: ["c1", "c2"] }, count: 2 },
    {
      description: "2.3: term, progress and priority values count",
      filters: { ...base, term: ["t1"], courseProgress: ["completed"], coursePriority: ["mandatory", "optional"] },
      count: 4,
    },
    {
      description: "2.3: category attributes count across categories",
      filters: { ...base, category: { cat1: ["a1", "a2"], cat2: ["b1"] } },
      count: 3,
    },
    {
      description: "2.3: everything together",
      filters: {
        ...base,
        keyword: "k",
        collection: ["c1"],
        term: ["t1"],
        courseProgress: ["inProgress"],
        coursePriority: ["optional"],
        category: { cat1: ["a1"] },
      },
      count: 5,
    },
  ])("$description", ({ filters, count }) => {
    expect(countActiveFilters(filters)).toBe(count);
  });
});

describe("filtersToSearchParams (spec 2.4)", () => {
  const base: CourseFilters = {
    keyword: "",
    collection: [],
    term: [],
    courseProgress: [],
    coursePriority: [],
    category: {},
    page: 1,
  };
  it.each([
    { description: "2.4: default filters give empty params", filters: base, query: "" },
    {
      description: "2.4: all parameters in the stable order",
      filters: {
        ...base,
        objectiveId: "o1",
        occflow: "addToMyCourses" as const,
        page: 2,
        category: { b: ["2"], a: ["1"] },
        coursePriority: ["optional"],
        courseProgress: ["notStarted"],
        term: ["t1"],
        collection: ["c1"],
        keyword: "k",
      },
      query:
        "keyword=k&collection=c1&term=t1&courseProgress=notStarted&coursePriority=optional&category[a]=1&category[b]=2&page=2&occflow=addToMyCourses&objectiveId=o1",
    },
    {
      description: "2.4: empty lists and empty categories are omitted",
      filters: { ...base, collection: [], category: { a: [] } },
      query: "",
    },
    {
      description: "2.4: empty and duplicate values are removed",
      filters: { ...base, term: ["t1", "", "t1", "t2"] },
      query: "term=t1,t2",
    },
    { description: "2.4: page 1 is omitted", filters: { ...base, page: 1 }, query: "" },
    { description: "2.4: an invalid page is omitted", filters: { ...base, page: Number.NaN }, query: "" },
    {
      description: "5: the keyword is normalised (lowercase, left-trim)",
      filters: { ...base, keyword: "  Hello World " },
      query: "keyword=hello+world+",
    },
  ])("$description", ({ filters, query }) => {
    expect(filtersToSearchParams(filters).toString()).toBe(new URLSearchParams(query).toString());
  });
});

describe("scoreColor (spec 5)", () => {
  const s = (score: number | null, maxScore: number | null, normalizedScore: number | null): ScoreSummary => ({
    score,
    maxScore,
    normalizedScore,
  });
  it.each([
    { description: "5: score equal to max is success", input: s(10, 10, 0.5), color: "success" },
    { description: "5: score equal to max is success even at zero", input: s(0, 0, 0), color: "success" },
    { description: "5: normalized score 0.8 is success", input: s(8, 10, 0.8), color: "success" },
    { description: "5: normalized score 0.95 is success", input: s(9.5, 10, 0.95), color: "success" },
    { description: "5: normalized score just below 0.8 is accent", input: s(7.9, 10, 0.79), color: "accent" },
    { description: "5: normalized score 0.4 is accent", input: s(4, 10, 0.4), color: "accent" },
    { description: "5: normalized score just below 0.4 is danger", input: s(3.9, 10, 0.39), color: "danger" },
    { description: "5: normalized score 0 is danger", input: s(0, 10, 0), color: "danger" },
    { description: "5: missing normalized score is derived from score / max", input: s(9, 10, null), color: "success" },
    { description: "5: missing normalized score derived as accent", input: s(5, 10, null), color: "accent" },
    { description: "5: no score at all is danger", input: s(null, null, null), color: "danger" },
    { description: "5: null score and null max do not count as 'equal'", input: s(null, null, 0.5), color: "accent" },
  ])("$description", ({ input, color }) => {
    expect(scoreColor(input)).toBe(color);
  });
});

describe("formatScore / showPointsOnCertificate (spec 5 / 2.7)", () => {
  it.each([
    {
      description: "5: percent is a whole number",
      input: { score: 7, maxScore: 9, normalizedScore: 7 / 9 },
      mode: "percent" as const,
      expected: { kind: "percent", value: 78 },
    },
    {
      description: "5/9: percent rounds half up",
      input: { score: 1, maxScore: 8, normalizedScore: 0.125 },
      mode: "percent" as const,
      expected: { kind: "percent", value: 13 },
    },
    {
      description: "5: full score is 100 percent",
      input: { score: 10, maxScore: 10, normalizedScore: 1 },
      mode: "percent" as const,
      expected: { kind: "percent", value: 100 },
    },
    {
      description: "5: percent derived from score / max when normalized is missing",
      input: { score: 1, maxScore: 3, normalizedScore: null },
      mode: "percent" as const,
      expected: { kind: "percent", value: 33 },
    },
    {
      description: "5: percent without any score is 0",
      input: { score: null, maxScore: null, normalizedScore: null },
      mode: "percent" as const,
      expected: { kind: "percent", value: 0 },
    },
    {
      description: "5: points mode shows 'x out of y points'",
      input: { score: 7, maxScore: 9, normalizedScore: 7 / 9 },
      mode: "points" as const,
      expected: { kind: "points", score: 7, maxScore: 9 },
    },
  ])("$description", ({ input, mode, expected }) => {
    expect(formatScore(input, mode)).toEqual(expected);
  });

  it.each([
    { description: "2.7/5: points hidden when max score is 1", maxScore: 1, expected: false },
    { description: "2.7/5: points shown when max score is 10", maxScore: 10, expected: true },
    { description: "2.7/5: points shown when max score is 0.5", maxScore: 0.5, expected: true },
    { description: "2.7/5: no points without a max score", maxScore: null, expected: false },
    { description: "2.7/5: no points when max score is NaN", maxScore: Number.NaN, expected: false },
  ])("$description", ({ maxScore, expected }) => {
    expect(showPointsOnCertificate(maxScore)).toBe(expected);
  });
});

describe("durationMinutes (spec 5)", () => {
  it.each([
    { description: "5: 0 seconds is 0 minutes", seconds: 0, minutes: 0 },
    { description: "5: 1 second rounds up to 1 minute", seconds: 1, minutes: 1 },
    { description: "5: 60 seconds is exactly 1 minute", seconds: 60, minutes: 1 },
    { description: "5: 61 seconds rounds up to 2 minutes", seconds: 61, minutes: 2 },
    { description: "5: 3599 seconds rounds up to 60 minutes", seconds: 3599, minutes: 60 },
    { description: "5: 90.5 seconds rounds up to 2 minutes", seconds: 90.5, minutes: 2 },
    { description: "5: negative seconds give 0", seconds: -30, minutes: 0 },
    { description: "5: null gives 0", seconds: null, minutes: 0 },
    { description: "5: NaN gives 0", seconds: Number.NaN, minutes: 0 },
    { description: "5: Infinity gives 0", seconds: Number.POSITIVE_INFINITY, minutes: 0 },
  ])("$description", ({ seconds, minutes }) => {
    expect(durationMinutes(seconds)).toBe(minutes);
  });
});

describe("formatFileSize (spec 5)", () => {
  const KB = 1024;
  const MB = KB * 1024;
  const GB = MB * 1024;
  const TB = GB * 1024;
  it.each([
    { description: "5: 0 bytes", bytes: 0, text: "0 B" },
    { description: "5: bytes have no decimals", bytes: 512, text: "512 B" },
    { description: "5: 1023 bytes stay bytes", bytes: 1023, text: "1023 B" },
    { description: "5: 1024 bytes is 1.00 KB", bytes: KB, text: "1.00 KB" },
    { description: "5: 1536 bytes is 1.50 KB", bytes: 1536, text: "1.50 KB" },
    { description: "5: kilobytes have 2 decimals", bytes: 10_000, text: "9.77 KB" },
    { description: "5: just under 1 MB rounds to 1.00 MB, not 1024.00 KB", bytes: MB - 1, text: "1.00 MB" },
    { description: "5: 1.5 MB", bytes: 1.5 * MB, text: "1.50 MB" },
    { description: "5: 2 GB", bytes: 2 * GB, text: "2.00 GB" },
    { description: "5: 3.25 TB", bytes: 3.25 * TB, text: "3.25 TB" },
    { description: "5: TB is the largest unit", bytes: 2048 * TB, text: "2048.00 TB" },
    { description: "5: fractional bytes are rounded", bytes: 10.4, text: "10 B" },
    { description: "5: negative sizes show 0 B", bytes: -5, text: "0 B" },
    { description: "5: NaN shows 0 B", bytes: Number.NaN, text: "0 B" },
    { description: "5: null shows 0 B", bytes: null, text: "0 B" },
    { description: "5: Infinity shows 0 B", bytes: Number.POSITIVE_INFINITY, text: "0 B" },
  ])("$description", ({ bytes, text }) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe("isCertificateExpired (spec 5)", () => {
  const now = "2024-06-01T12:00:00.000Z";
  it.each([
    { description: "5: expiration in the past is expired", expiration: "2024-05-31T12:00:00Z", now, expired: true },
    { description: "5: expiration exactly now is expired", expiration: "2024-06-01T12:00:00Z", now, expired: true },
    {
      description: "5: expiration 1 ms in the future is not expired",
      expiration: "2024-06-01T12:00:00.001Z",
      now,
      expired: false,
    },
    { description: "5: expiration next year is not expired", expiration: "2025-06-01T12:00:00Z", now, expired: false },
    {
      description: "5: offsets are compared as instants (same instant is expired)",
      expiration: "2024-06-01T14:00:00+02:00",
      now,
      expired: true,
    },
    {
      description: "5: Date objects are accepted",
      expiration: new Date("2024-01-01T00:00:00Z"),
      now: new Date(now),
      expired: true,
    },
    { description: "5: mixed Date and string", expiration: "2030-01-01T00:00:00Z", now: new Date(now), expired: false },
    { description: "5: no expiration date never expires", expiration: null, now, expired: false },
    {
      description: "5: an unparseable expiration date is not treated as expired",
      expiration: "not a date",
      now,
      expired: false,
    },
    {
      description: "5: an unparseable 'now' does not expire anything",
      expiration: "2020-01-01T00:00:00Z",
      now: "garbage",
      expired: false,
    },
  ])("$description", ({ expiration, now: at, expired }) => {
    expect(isCertificateExpired(expiration, at)).toBe(expired);
  });
});
