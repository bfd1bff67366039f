/**
 * Decision 055: a QTI 3.0 assessment test — parts, sections, item refs, navigation and
 * submission modes, selection and ordering (drawn once per attempt from its seed), item session control,
 * time limits — and its outcome: the test's outcome processing, or the weighted sum of the items' scores;
 * passed from the test's PASS outcome, or from the activity's cut value.
 */
import { outcomeDeclaration, validateRules, type OutcomeDeclaration } from "./item";
import { process, type Env, type TestItemResult } from "./processing";
import { rng, shuffleKeepingFixed } from "./random";
import { isNull, type QtiValue } from "./values";
import { childNamed, childrenNamed, elements, parseXml, QtiError, type XmlElement } from "./xml";

interface ItemSessionControl {
  /** 0: no limit. */
  maxAttempts: number;
  allowReview: boolean;
  showSolution: boolean;
  allowSkipping: boolean;
  showFeedback: boolean;
  validateResponses: boolean;
}
interface TimeLimits {
  /** Seconds, or null. */
  maxTime: number | null;
  allowLateSubmission: boolean;
}
export interface ItemRef {
  kind: "item";
  identifier: string;
  href: string;
  fixed: boolean;
  required: boolean;
  categories: string[];
  weights: Record<string, number>;
  control: Partial<ItemSessionControl>;
}
interface Section {
  kind: "section";
  identifier: string;
  title: string;
  visible: boolean;
  fixed: boolean;
  required: boolean;
  select: number | null;
  shuffle: boolean;
  control: Partial<ItemSessionControl>;
  timeLimits: TimeLimits | null;
  children: (Section | ItemRef)[];
}
interface TestPart {
  identifier: string;
  navigationMode: "linear" | "nonlinear";
  submissionMode: "individual" | "simultaneous";
  control: Partial<ItemSessionControl>;
  timeLimits: TimeLimits | null;
  sections: Section[];
}
export interface AssessmentTest {
  identifier: string;
  title: string;
  timeLimits: TimeLimits | null;
  parts: TestPart[];
  outcomes: OutcomeDeclaration[];
  outcomeProcessing: XmlElement | null;
}

const DEFAULT_CONTROL: ItemSessionControl = {
  maxAttempts: 1,
  allowReview: true,
  showSolution: false,
  allowSkipping: true,
  showFeedback: false,
  validateResponses: false,
};

function controlOf(e: XmlElement): Partial<ItemSessionControl> {
  const c = childNamed(e, "qti-item-session-control");
  if (!c) return {};
  const out: Partial<ItemSessionControl> = {};
  const b = (k: string) => (c.attrs[k] === undefined ? undefined : c.attrs[k] === "true");
  if (c.attrs["max-attempts"] !== undefined) out.maxAttempts = Number(c.attrs["max-attempts"]) || 0;
  for (const [k, name] of [
    ["allowReview", "allow-review"],
    ["showSolution", "show-solution"],
    ["allowSkipping", "allow-skipping"],
    ["showFeedback", "show-feedback"],
    ["validateResponses", "validate-responses"],
  ] as const) {
    const v = b(name);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function timeLimitsOf(e: XmlElement): TimeLimits | null {
  const t = childNamed(e, "qti-time-limits");
  if (!t) return null;
  const max = t.attrs["max-time"] !== undefined ? Number(t.attrs["max-time"]) : NaN;
  return {
    maxTime: Number.isFinite(max) && max > 0 ? max : null,
    allowLateSubmission: t.attrs["allow-late-submission"] === "true",
  };
}

function sectionOf(file: string, e: XmlElement): Section {
  const sel = childNamed(e, "qti-selection");
  const ord = childNamed(e, "qti-ordering");
  const children: (Section | ItemRef)[] = [];
  for (const c of elements(e)) {
    if (c.name === "qti-assessment-section") children.push(sectionOf(file, c));
    else if (c.name === "qti-assessment-item-ref") {
      if (!c.attrs.identifier || !c.attrs.href)
        throw new QtiError(
          "qtiInvalid",
          `an item ref of section "${e.attrs.identifier}" has no identifier or href.`,
          file,
        );
      const weights: Record<string, number> = {};
      for (const w of childrenNamed(c, "qti-weight"))
        if (w.attrs.identifier) weights[w.attrs.identifier] = Number(w.attrs.value) || 0;
      children.push({
        kind: "item",
        identifier: c.attrs.identifier,
        href: c.attrs.href,
        fixed: c.attrs.fixed === "true",
        required: c.attrs.required === "true",
        categories: (c.attrs.category ?? "").split(/\s+/).filter(Boolean),
        weights,
        control: controlOf(c),
      });
    } else if (c.name === "qti-assessment-section-ref")
      throw new QtiError(
        "qtiUnsupported",
        `section refs (<qti-assessment-section-ref>) are not read; write the section in the test.`,
        file,
      );
  }
  const select = sel?.attrs.select !== undefined ? Number(sel.attrs.select) : null;
  if (sel?.attrs["with-replacement"] === "true")
    throw new QtiError(
      "qtiUnsupported",
      `section "${e.attrs.identifier}": selection with replacement is not delivered.`,
      file,
    );
  return {
    kind: "section",
    identifier: e.attrs.identifier ?? "",
    title: e.attrs.title ?? "",
    visible: e.attrs.visible !== "false",
    fixed: e.attrs.fixed === "true",
    required: e.attrs.required === "true",
    select: select !== null && Number.isFinite(select) ? select : null,
    shuffle: ord?.attrs.shuffle === "true",
    control: controlOf(e),
    timeLimits: timeLimitsOf(e),
    children,
  };
}

export function parseTest(xml: string, file = "test.xml"): AssessmentTest {
  const root = parseXml(xml, file);
  if (root.name !== "qti-assessment-test")
    throw new QtiError("qtiNotTest", `is not an assessment test (its root is <${root.name}>).`, file);
  const ctx = { file, item: root.attrs.identifier ?? "?" };
  const parts = childrenNamed(root, "qti-test-part").map((p) => ({
    identifier: p.attrs.identifier ?? "",
    navigationMode: p.attrs["navigation-mode"] === "nonlinear" ? ("nonlinear" as const) : ("linear" as const),
    submissionMode: p.attrs["submission-mode"] === "simultaneous" ? ("simultaneous" as const) : ("individual" as const),
    control: controlOf(p),
    timeLimits: timeLimitsOf(p),
    sections: childrenNamed(p, "qti-assessment-section").map((s) => sectionOf(file, s)),
  }));
  if (parts.length === 0) throw new QtiError("qtiInvalid", "the test has no test part.", file);
  const op = childNamed(root, "qti-outcome-processing") ?? null;
  if (op) validateRules(ctx, op);
  return {
    identifier: root.attrs.identifier ?? "",
    title: root.attrs.title ?? root.attrs.identifier ?? "",
    timeLimits: timeLimitsOf(root),
    parts,
    outcomes: childrenNamed(root, "qti-outcome-declaration").map((o) => outcomeDeclaration(ctx, o)),
    outcomeProcessing: op,
  };
}

/** Every item ref the test names (before selection), for the import to resolve. */
export function allItemRefs(test: AssessmentTest): ItemRef[] {
  const out: ItemRef[] = [];
  const walk = (s: Section) => s.children.forEach((c) => (c.kind === "item" ? out.push(c) : walk(c)));
  test.parts.forEach((p) => p.sections.forEach(walk));
  return out;
}

interface PlannedItem {
  /** The item ref's identifier (unique in the test). */
  ref: string;
  href: string;
  sections: string[];
  categories: string[];
  weights: Record<string, number>;
  control: ItemSessionControl;
}
interface PlannedPage {
  part: string;
  /** The visible section's title the page shows (or the test's). */
  title: string;
  items: PlannedItem[];
}
export interface AttemptPlan {
  pages: PlannedPage[];
  /** Per part: its navigation and submission modes. */
  parts: {
    identifier: string;
    navigationMode: "linear" | "nonlinear";
    submissionMode: "individual" | "simultaneous";
    firstPage: number;
    pageCount: number;
  }[];
  /** The least of the test's and its parts' time limits, in seconds (the server's deadline), or null. */
  maxTime: number | null;
}

/** qti-selection then qti-ordering of one section's children, from the attempt's random source. */
function drawChildren(s: Section, random: () => number): (Section | ItemRef)[] {
  let chosen = s.children;
  if (s.select !== null && s.select < s.children.length) {
    const required = s.children.filter((c) => c.required);
    const optional = s.children.filter((c) => !c.required);
    const picked = shuffleKeepingFixed(optional, () => false, random).slice(0, Math.max(0, s.select - required.length));
    const keep = new Set<Section | ItemRef>([...required, ...picked]);
    chosen = s.children.filter((c) => keep.has(c));
  }
  return s.shuffle ? shuffleKeepingFixed(chosen, (c) => c.fixed, random) : chosen;
}

/**
 * The attempt's plan from its seed: which items, in which order, on which page. A page is one item in a
 * linear part with individual submission, otherwise one top-level section.
 */
export function planAttempt(test: AssessmentTest, seed: string): AttemptPlan {
  const random = rng(seed);
  const pages: PlannedPage[] = [];
  const parts: AttemptPlan["parts"] = [];
  for (const part of test.parts) {
    const firstPage = pages.length;
    const base = { ...DEFAULT_CONTROL, ...part.control };
    for (const top of part.sections) {
      const items: PlannedItem[] = [];
      const walk = (s: Section, path: string[], control: ItemSessionControl) => {
        const here = { ...control, ...s.control };
        for (const c of drawChildren(s, random)) {
          if (c.kind === "section") walk(c, [...path, c.identifier], here);
          else
            items.push({
              ref: c.identifier,
              href: c.href,
              sections: path,
              categories: c.categories,
              weights: c.weights,
              control: { ...here, ...c.control },
            });
        }
      };
      walk(top, [top.identifier], base);
      if (items.length === 0) continue;
      if (part.navigationMode === "linear" && part.submissionMode === "individual")
        for (const it of items) pages.push({ part: part.identifier, title: top.title || test.title, items: [it] });
      else pages.push({ part: part.identifier, title: top.title || test.title, items });
    }
    parts.push({
      identifier: part.identifier,
      navigationMode: part.navigationMode,
      submissionMode: part.submissionMode,
      firstPage,
      pageCount: pages.length - firstPage,
    });
  }
  const limits = [test.timeLimits?.maxTime, ...test.parts.map((p) => p.timeLimits?.maxTime)].filter(
    (t): t is number => typeof t === "number",
  );
  return { pages, parts, maxTime: limits.length > 0 ? Math.min(...limits) : null };
}

export interface TestOutcome {
  score: number;
  maxScore: number;
  /** score / maxScore in [0, 1] (null when nothing is scored). */
  normalized: number | null;
  passed: boolean | null;
  vars: Map<string, QtiValue>;
}

const num = (v: QtiValue | undefined) => (v && !isNull(v) && typeof v.values[0] === "number" ? v.values[0] : null);

/**
 * The test's outcome: its outcome processing when it has one (SCORE, and PASS when it sets it), otherwise
 * the weighted sum (weight "WEIGHT" when the item ref has it) of the item scores; passed from PASS, else
 * normalized ≥ cutValue when the activity has a cut value.
 */
export function scoreTest(test: AssessmentTest, items: TestItemResult[], cutValue: number | null): TestOutcome {
  const weight = (i: TestItemResult) => i.weights.WEIGHT ?? 1;
  const sum = items.reduce((a, i) => a + (num(i.vars.get("SCORE")) ?? 0) * weight(i), 0);
  const max = items.reduce((a, i) => a + i.maxScore * weight(i), 0);
  const vars = new Map<string, QtiValue>();
  for (const o of test.outcomes)
    vars.set(o.identifier, {
      cardinality: o.cardinality,
      baseType: o.baseType,
      values:
        o.defaultValue.length > 0 ? o.defaultValue : o.baseType === "float" || o.baseType === "integer" ? [0] : [],
    });
  let score = sum;
  let maxScore = max;
  let passed: boolean | null = null;
  if (test.outcomeProcessing) {
    const env: Env = {
      vars,
      responses: new Map(),
      outcomes: new Map(test.outcomes.map((o) => [o.identifier, o])),
      items,
    };
    process(env, elements(test.outcomeProcessing));
    score = num(vars.get("SCORE")) ?? sum;
    maxScore = num(vars.get("MAXSCORE")) ?? max;
    const pass = vars.get("PASS") ?? vars.get("PASSED");
    if (pass && !isNull(pass) && typeof pass.values[0] === "boolean") passed = pass.values[0];
  }
  const normalized = maxScore > 0 ? Math.min(1, Math.max(0, score / maxScore)) : null;
  if (passed === null && cutValue !== null && normalized !== null) passed = normalized >= cutValue;
  return { score, maxScore, normalized, passed, vars };
}
