/**
 * Decision 055: QTI response and outcome processing on the server. The standard templates
 * (match correct, map response) and the expressions real items use; NULL propagates as QTI says (an
 * operator over NULL is NULL, a condition that is NULL is false).
 */
import type { AreaMapping, AssessmentItem, Mapping, OutcomeDeclaration, ResponseDeclaration } from "./item";
import { inside, isShape, parseCoords, pointOf } from "./geometry";
import { interactionsOf } from "./item";
import { childrenNamed, elements, textOf, type XmlElement } from "./xml";
import { isNull, NULL, parseScalar, single, valuesMatch, type BaseType, type QtiValue, type Scalar } from "./values";

/** What an expression may read besides the variables: declarations, and at test level the items' results. */
export interface Env {
  vars: Map<string, QtiValue>;
  responses: Map<string, ResponseDeclaration>;
  outcomes: Map<string, OutcomeDeclaration>;
  /** Test level: the items' variables, for qti-test-variables and the like. */
  items?: TestItemResult[];
}

export interface TestItemResult {
  identifier: string;
  weights: Record<string, number>;
  categories: string[];
  /** The sections the item is in (outermost first). */
  sections: string[];
  vars: Map<string, QtiValue>;
  maxScore: number;
  presented: boolean;
  responded: boolean;
  correct: boolean | null;
}

class Exit extends Error {}

const numbers = (v: QtiValue) => v.values.filter((x): x is number => typeof x === "number");
const firstNumber = (v: QtiValue | null) => (v && !isNull(v) && typeof v.values[0] === "number" ? v.values[0] : null);
const bool = (b: boolean | null): QtiValue => (b === null ? NULL : single("boolean", b));
const truth = (v: QtiValue | null): boolean | null => (!v || isNull(v) ? null : v.values[0] === true);

/** map_response: the sum of the mapped values of the distinct values in the response, within the bounds. */
function mapResponse(mapping: Mapping, response: QtiValue | null): number {
  const seen = new Set<Scalar>();
  let sum = 0;
  const values = response && !isNull(response) ? response.values : [];
  for (const v of values) {
    if (seen.has(v)) continue;
    seen.add(v);
    const entry = mapping.entries.find((e) =>
      typeof v === "string" && typeof e.key === "string" && !e.caseSensitive
        ? e.key.toLowerCase() === v.toLowerCase()
        : e.key === v,
    );
    sum += entry ? entry.value : mapping.defaultValue;
  }
  if (mapping.lowerBound !== null) sum = Math.max(mapping.lowerBound, sum);
  if (mapping.upperBound !== null) sum = Math.min(mapping.upperBound, sum);
  return sum;
}

/**
 * map_response_point: each point counts the first area it is in (an area counted once, however many points
 * are in it); a point in no area counts the default value; the sum within the bounds.
 */
function mapResponsePoint(mapping: AreaMapping, response: QtiValue | null): number {
  const counted = new Set<number>();
  let sum = 0;
  for (const v of response && !isNull(response) ? response.values : []) {
    const p = pointOf(v);
    if (!p) continue;
    const at = mapping.entries.findIndex((a) => inside(a.shape, a.coords, p[0], p[1]));
    if (at < 0) sum += mapping.defaultValue;
    else if (!counted.has(at)) {
      counted.add(at);
      sum += mapping.entries[at]!.value;
    }
  }
  if (mapping.lowerBound !== null) sum = Math.max(mapping.lowerBound, sum);
  if (mapping.upperBound !== null) sum = Math.min(mapping.upperBound, sum);
  return sum;
}

/** The most an area mapping can give: its upper bound, else its best area (single) or its positive areas. */
function areaMappingMaximum(decl: ResponseDeclaration): number {
  const m = decl.areaMapping;
  if (!m) return 0;
  const values = m.entries.map((e) => e.value).sort((a, b) => b - a);
  let best =
    decl.cardinality === "single"
      ? Math.max(0, values[0] ?? 0, m.defaultValue)
      : values.filter((v) => v > 0).reduce((a, b) => a + b, 0);
  if (m.upperBound !== null) best = Math.min(best, m.upperBound);
  return best;
}

/** The most a mapping can give: its upper bound, else the best entries a response of this cardinality can take. */
function mappingMaximum(decl: ResponseDeclaration): number {
  const m = decl.mapping;
  if (!m) return 0;
  const values = m.entries.map((e) => e.value).sort((a, b) => b - a);
  let best =
    decl.cardinality === "single"
      ? Math.max(0, values[0] ?? 0, m.defaultValue)
      : values.filter((v) => v > 0).reduce((a, b) => a + b, 0);
  if (m.upperBound !== null) best = Math.min(best, m.upperBound);
  return best;
}

function toleranceEqual(e: XmlElement, a: number, b: number): boolean {
  const mode = e.attrs["tolerance-mode"] ?? "exact";
  if (mode === "exact") return a === b;
  const [t0, t1] = (e.attrs.tolerance ?? "0").split(/\s+/).map(Number);
  const lo = t0 ?? 0;
  const hi = t1 ?? lo;
  const incLo = e.attrs["include-lower-bound"] !== "false";
  const incHi = e.attrs["include-upper-bound"] !== "false";
  const [min, max] = mode === "absolute" ? [a - lo, a + hi] : [a * (1 - lo / 100), a * (1 + hi / 100)];
  return (incLo ? b >= min : b > min) && (incHi ? b <= max : b < max);
}

function testItems(env: Env, e: XmlElement) {
  const items = env.items ?? [];
  const section = e.attrs["section-identifier"];
  const include = e.attrs["include-category"]?.split(/\s+/).filter(Boolean);
  const exclude = e.attrs["exclude-category"]?.split(/\s+/).filter(Boolean);
  return items.filter(
    (i) =>
      (!section || i.sections.includes(section)) &&
      (!include || include.some((c) => i.categories.includes(c))) &&
      (!exclude || !exclude.some((c) => i.categories.includes(c))),
  );
}

function evaluate(env: Env, e: XmlElement): QtiValue {
  const args = () => elements(e).map((c) => evaluate(env, c));
  switch (e.name) {
    case "qti-base-value": {
      const bt = (e.attrs["base-type"] ?? "string") as BaseType;
      const v = parseScalar(bt, textOf(e));
      return v === null ? NULL : single(bt, v);
    }
    case "qti-variable": {
      const id = e.attrs.identifier ?? "";
      const found = env.vars.get(id);
      if (found) return found;
      // Test level: ITEM.VAR names an item's variable.
      const dot = id.lastIndexOf(".");
      if (dot > 0 && env.items) {
        const item = env.items.find((i) => i.identifier === id.slice(0, dot));
        const v = item?.vars.get(id.slice(dot + 1));
        const w = e.attrs["weight-identifier"];
        if (v && w && item?.weights[w] !== undefined && typeof v.values[0] === "number")
          return { ...v, baseType: "float", values: [(v.values[0] as number) * item.weights[w]!] };
        return v ?? NULL;
      }
      return NULL;
    }
    case "qti-correct": {
      const d = env.responses.get(e.attrs.identifier ?? "");
      return d && d.correct.length > 0 ? { cardinality: d.cardinality, baseType: d.baseType, values: d.correct } : NULL;
    }
    case "qti-default": {
      const d = env.outcomes.get(e.attrs.identifier ?? "");
      return d && d.defaultValue.length > 0
        ? { cardinality: d.cardinality, baseType: d.baseType, values: d.defaultValue }
        : NULL;
    }
    case "qti-null":
      return NULL;
    case "qti-multiple":
    case "qti-ordered": {
      const parts = args().filter((v) => !isNull(v));
      return {
        cardinality: e.name === "qti-multiple" ? "multiple" : "ordered",
        baseType: parts[0]?.baseType ?? null,
        values: parts.flatMap((v) => v.values),
      };
    }
    case "qti-is-null":
      return bool(isNull(args()[0]));
    case "qti-match": {
      const [a, b] = args();
      if (isNull(a) || isNull(b)) return NULL;
      return bool(valuesMatch(a!, b!));
    }
    case "qti-member": {
      const [a, b] = args();
      if (isNull(a) || isNull(b)) return NULL;
      return bool(b!.values.includes(a!.values[0]!));
    }
    case "qti-contains": {
      const [a, b] = args();
      if (isNull(a) || isNull(b)) return NULL;
      if (a!.cardinality === "ordered") {
        const s = a!.values;
        const sub = b!.values;
        for (let i = 0; i + sub.length <= s.length; i++) if (sub.every((v, j) => s[i + j] === v)) return bool(true);
        return bool(false);
      }
      const rest = [...a!.values];
      for (const v of b!.values) {
        const at = rest.indexOf(v);
        if (at < 0) return bool(false);
        rest.splice(at, 1);
      }
      return bool(true);
    }
    case "qti-delete": {
      const [a, b] = args();
      if (isNull(a) || isNull(b)) return NULL;
      return { ...b!, values: b!.values.filter((v) => v !== a!.values[0]) };
    }
    case "qti-container-size": {
      const [a] = args();
      return single("integer", isNull(a) ? 0 : a!.values.length);
    }
    case "qti-index": {
      const [a] = args();
      const n = Number(e.attrs.n ?? 1);
      const v = a?.values[n - 1];
      return v === undefined ? NULL : single(a!.baseType ?? "string", v);
    }
    case "qti-map-response": {
      const d = env.responses.get(e.attrs.identifier ?? "");
      if (!d?.mapping) return NULL;
      return single("float", mapResponse(d.mapping, env.vars.get(d.identifier) ?? null));
    }
    case "qti-map-response-point": {
      const d = env.responses.get(e.attrs.identifier ?? "");
      if (!d?.areaMapping) return NULL;
      return single("float", mapResponsePoint(d.areaMapping, env.vars.get(d.identifier) ?? null));
    }
    case "qti-inside": {
      const [a] = args();
      const shape = e.attrs.shape;
      if (isNull(a) || !isShape(shape)) return NULL;
      const coords = parseCoords(shape, e.attrs.coords);
      if (!coords) return NULL;
      return bool(
        a!.values.some((v) => {
          const p = pointOf(v);
          return !!p && inside(shape, coords, p[0], p[1]);
        }),
      );
    }
    case "qti-sum":
    case "qti-product": {
      const vs = args();
      if (vs.some(isNull)) return NULL;
      const ns = vs.flatMap(numbers);
      const isInt = vs.every((v) => v.baseType === "integer");
      const r = e.name === "qti-sum" ? ns.reduce((a, b) => a + b, 0) : ns.reduce((a, b) => a * b, 1);
      return single(isInt ? "integer" : "float", r);
    }
    case "qti-min":
    case "qti-max": {
      const vs = args();
      if (vs.some(isNull)) return NULL;
      const ns = vs.flatMap(numbers);
      if (ns.length === 0) return NULL;
      return single("float", e.name === "qti-min" ? Math.min(...ns) : Math.max(...ns));
    }
    case "qti-subtract":
    case "qti-divide":
    case "qti-integer-divide": {
      const [a, b] = args().map(firstNumber);
      if (a === null || b === null || a === undefined || b === undefined) return NULL;
      if (e.name === "qti-subtract") return single("float", a - b);
      if (b === 0) return NULL;
      return e.name === "qti-divide" ? single("float", a / b) : single("integer", Math.floor(a / b));
    }
    case "qti-round":
    case "qti-truncate": {
      const a = firstNumber(args()[0] ?? null);
      if (a === null) return NULL;
      return single("integer", e.name === "qti-round" ? Math.floor(a + 0.5) : Math.trunc(a));
    }
    case "qti-and":
    case "qti-or": {
      const vs = args().map(truth);
      if (vs.some((v) => v === null)) return NULL;
      return bool(e.name === "qti-and" ? vs.every(Boolean) : vs.some(Boolean));
    }
    case "qti-not": {
      const v = truth(args()[0] ?? null);
      return v === null ? NULL : bool(!v);
    }
    case "qti-gt":
    case "qti-gte":
    case "qti-lt":
    case "qti-lte": {
      const [a, b] = args().map(firstNumber);
      if (a === null || b === null || a === undefined || b === undefined) return NULL;
      const r = { "qti-gt": a > b, "qti-gte": a >= b, "qti-lt": a < b, "qti-lte": a <= b }[e.name]!;
      return bool(r);
    }
    case "qti-equal": {
      const [a, b] = args().map(firstNumber);
      if (a === null || b === null || a === undefined || b === undefined) return NULL;
      return bool(toleranceEqual(e, a, b));
    }
    case "qti-equal-rounded": {
      const [a, b] = args().map(firstNumber);
      if (a === null || b === null || a === undefined || b === undefined) return NULL;
      const figures = Number(e.attrs.figures ?? 1);
      const r = (x: number) =>
        e.attrs["rounding-mode"] === "decimalPlaces"
          ? Number(x.toFixed(figures))
          : Number(x.toPrecision(Math.max(1, figures)));
      return bool(r(a) === r(b));
    }
    case "qti-string-match": {
      const [a, b] = args();
      if (isNull(a) || isNull(b)) return NULL;
      let x = String(a!.values[0]);
      let y = String(b!.values[0]);
      if (e.attrs["case-sensitive"] === "false") {
        x = x.toLowerCase();
        y = y.toLowerCase();
      }
      return bool(e.attrs.substring === "true" ? x.includes(y) : x === y);
    }
    case "qti-pattern-match": {
      const [a] = args();
      if (isNull(a)) return NULL;
      try {
        return bool(new RegExp(`^(?:${e.attrs.pattern ?? ""})$`, "u").test(String(a!.values[0])));
      } catch {
        return NULL;
      }
    }
    case "qti-test-variables": {
      const id = e.attrs["variable-identifier"] ?? "SCORE";
      const w = e.attrs["weight-identifier"];
      let sum = 0;
      for (const i of testItems(env, e)) {
        const n = firstNumber(i.vars.get(id) ?? null);
        if (n === null) continue;
        sum += n * (w && i.weights[w] !== undefined ? i.weights[w]! : 1);
      }
      return single("float", sum);
    }
    case "qti-outcome-maximum": {
      const w = e.attrs["weight-identifier"];
      const sum = testItems(env, e).reduce(
        (a, i) => a + i.maxScore * (w && i.weights[w] !== undefined ? i.weights[w]! : 1),
        0,
      );
      return single("float", sum);
    }
    case "qti-outcome-minimum":
      return single("float", 0);
    case "qti-number-correct":
      return single("integer", testItems(env, e).filter((i) => i.correct === true).length);
    case "qti-number-incorrect":
      return single("integer", testItems(env, e).filter((i) => i.correct === false).length);
    case "qti-number-responded":
      return single("integer", testItems(env, e).filter((i) => i.responded).length);
    case "qti-number-presented":
    case "qti-number-selected":
      return single("integer", testItems(env, e).filter((i) => i.presented).length);
    default:
      return NULL;
  }
}

function setOutcome(env: Env, id: string, v: QtiValue) {
  const d = env.outcomes.get(id);
  if (d && d.baseType && !isNull(v)) {
    const values = v.values.map((x) =>
      d.baseType === "integer" && typeof x === "number"
        ? Math.round(x)
        : d.baseType === "float" && typeof x === "boolean"
          ? Number(x)
          : x,
    );
    env.vars.set(id, { cardinality: d.cardinality, baseType: d.baseType, values });
  } else env.vars.set(id, v);
}

function lookup(env: Env, e: XmlElement) {
  const id = e.attrs.identifier ?? "";
  const [expr] = elements(e).filter((c) => !c.name.endsWith("-table"));
  const table = elements(e).find((c) => c.name.endsWith("-table"));
  const n = expr ? firstNumber(evaluate(env, expr)) : null;
  if (!table) return;
  const d = env.outcomes.get(id);
  const bt = d?.baseType ?? "string";
  const target = (s: string | undefined) =>
    s === undefined ? NULL : ((v) => (v === null ? NULL : single(bt, v)))(parseScalar(bt, s));
  let result = target(table.attrs["default-value"]);
  if (n !== null) {
    if (table.name === "qti-match-table") {
      const hit = childrenNamed(table, "qti-match-table-entry").find((t) => Number(t.attrs["source-value"]) === n);
      if (hit) result = target(hit.attrs["target-value"]);
    } else {
      const hit = childrenNamed(table, "qti-interpolation-table-entry").find((t) =>
        t.attrs["include-boundary"] === "false"
          ? n > Number(t.attrs["source-value"])
          : n >= Number(t.attrs["source-value"]),
      );
      if (hit) result = target(hit.attrs["target-value"]);
    }
  }
  setOutcome(env, id, result);
}

function runRules(env: Env, rules: XmlElement[]) {
  for (const r of rules) {
    switch (r.name) {
      case "qti-set-outcome-value": {
        const [expr] = elements(r);
        setOutcome(env, r.attrs.identifier ?? "", expr ? evaluate(env, expr) : NULL);
        break;
      }
      case "qti-lookup-outcome-value":
        lookup(env, r);
        break;
      case "qti-response-condition":
      case "qti-outcome-condition": {
        for (const branch of elements(r)) {
          if (branch.name.endsWith("-else")) {
            runRules(env, elements(branch));
            break;
          }
          const [cond, ...body] = elements(branch);
          if (cond && truth(evaluate(env, cond)) === true) {
            runRules(env, body);
            break;
          }
        }
        break;
      }
      case "qti-response-processing-fragment":
      case "qti-outcome-processing-fragment":
        runRules(env, elements(r));
        break;
      case "qti-exit-response":
      case "qti-exit-test":
        throw new Exit();
      default:
        break;
    }
  }
}

/** Runs rules; an exit rule ends them (QTI's exitResponse / exitTest). */
export function process(env: Env, rules: XmlElement[]) {
  try {
    runRules(env, rules);
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
  }
}

export interface ItemOutcome {
  /** Every outcome's value after processing (SCORE among them). */
  vars: Map<string, QtiValue>;
  score: number;
  maxScore: number;
  /** Every response with a correct response matched it (null when the item declares none). */
  correct: boolean | null;
  responded: boolean;
}

function initialVars(item: AssessmentItem, responses: Map<string, QtiValue>) {
  const vars = new Map<string, QtiValue>();
  for (const o of item.outcomes) {
    if (o.defaultValue.length > 0)
      vars.set(o.identifier, { cardinality: o.cardinality, baseType: o.baseType, values: o.defaultValue });
    else if (o.baseType === "integer" || o.baseType === "float")
      vars.set(o.identifier, {
        cardinality: o.cardinality,
        baseType: o.baseType,
        values: o.cardinality === "single" ? [0] : [],
      });
    else vars.set(o.identifier, { cardinality: o.cardinality, baseType: o.baseType, values: [] });
  }
  for (const r of item.responses)
    vars.set(
      r.identifier,
      responses.get(r.identifier) ?? { cardinality: r.cardinality, baseType: r.baseType, values: [] },
    );
  return vars;
}

function runTemplate(item: AssessmentItem, env: Env) {
  const r = item.responses.find((d) => d.identifier === "RESPONSE") ?? item.responses[0];
  if (!r) return;
  const response = env.vars.get(r.identifier)!;
  let score = 0;
  if (item.template === "match_correct")
    score =
      !isNull(response) &&
      r.correct.length > 0 &&
      valuesMatch(response, { cardinality: r.cardinality, baseType: r.baseType, values: r.correct })
        ? 1
        : 0;
  else if (item.template === "map_response")
    score = isNull(response) || !r.mapping ? 0 : mapResponse(r.mapping, response);
  else if (item.template === "map_response_point")
    score = isNull(response) || !r.areaMapping ? 0 : mapResponsePoint(r.areaMapping, response);
  setOutcome(env, "SCORE", single("float", score));
}

function runProcessing(item: AssessmentItem, responses: Map<string, QtiValue>): Map<string, QtiValue> {
  const env: Env = {
    vars: initialVars(item, responses),
    responses: new Map(item.responses.map((r) => [r.identifier, r])),
    outcomes: new Map(item.outcomes.map((o) => [o.identifier, o])),
  };
  if (!env.outcomes.has("SCORE") && (item.template || item.rules))
    env.outcomes.set("SCORE", {
      identifier: "SCORE",
      cardinality: "single",
      baseType: "float",
      defaultValue: [0],
      normalMaximum: null,
      externalScored: null,
    });
  if (item.template) runTemplate(item, env);
  else if (item.rules) process(env, elements(item.rules));
  return env.vars;
}

/** The correct responses as responses (what a learner who knows the answers gives). */
export function correctResponses(item: AssessmentItem): Map<string, QtiValue> {
  return new Map(
    item.responses
      .filter((r) => r.correct.length > 0)
      .map((r) => [r.identifier, { cardinality: r.cardinality, baseType: r.baseType, values: r.correct }]),
  );
}

/** The item's maximum: MAXSCORE, else SCORE's normal maximum, else what its template or rules give the best answer. */
export function itemMaxScore(item: AssessmentItem): number {
  const max = item.outcomes.find((o) => o.identifier === "MAXSCORE");
  if (max && typeof max.defaultValue[0] === "number") return max.defaultValue[0];
  const score = item.outcomes.find((o) => o.identifier === "SCORE");
  if (score?.normalMaximum != null) return score.normalMaximum;
  if (item.template === "match_correct") return item.responses.length > 0 ? 1 : 0;
  if (item.template === "map_response") {
    const r = item.responses.find((d) => d.identifier === "RESPONSE") ?? item.responses[0];
    return r ? mappingMaximum(r) : 0;
  }
  if (item.template === "map_response_point") {
    const r = item.responses.find((d) => d.identifier === "RESPONSE") ?? item.responses[0];
    return r ? areaMappingMaximum(r) : 0;
  }
  if (item.needsPerson) return 1;
  if (!item.rules) return 0;
  const best = new Map(correctResponses(item));
  // Mapped responses without a correct one: their best keys.
  for (const r of item.responses)
    if (!best.has(r.identifier) && r.mapping) {
      const keys = [...r.mapping.entries]
        .filter((e) => e.value > 0)
        .sort((a, b) => b.value - a.value)
        .map((e) => e.key);
      if (keys.length > 0)
        best.set(r.identifier, {
          cardinality: r.cardinality,
          baseType: r.baseType,
          values: r.cardinality === "single" ? [keys[0]!] : keys,
        });
    }
  return firstNumber(runProcessing(item, best).get("SCORE") ?? null) ?? 0;
}

/** Scores one item's responses on the server. */
export function scoreItem(item: AssessmentItem, responses: Map<string, QtiValue>): ItemOutcome {
  const vars = runProcessing(item, responses);
  const scored = item.responses.filter((r) => r.correct.length > 0);
  const correct =
    scored.length === 0
      ? null
      : scored.every((r) => {
          const v = responses.get(r.identifier);
          // A point is right when it is in the areas that give the most (an exact pixel is not asked for).
          if (r.baseType === "point" && r.areaMapping)
            return !!v && !isNull(v) && mapResponsePoint(r.areaMapping, v) >= Math.max(areaMappingMaximum(r), 1e-9);
          return (
            !!v && !isNull(v) && valuesMatch(v, { cardinality: r.cardinality, baseType: r.baseType, values: r.correct })
          );
        });
  const ids = new Set(interactionsOf(item).map((i) => i.response));
  return {
    vars,
    score: firstNumber(vars.get("SCORE") ?? null) ?? 0,
    maxScore: itemMaxScore(item),
    correct,
    responded: [...ids].some((id) => !isNull(responses.get(id))),
  };
}

/** Feedback shown after processing: modal, inline and block feedback whose outcome holds (or not) its identifier. */
export function feedbackShown(
  vars: Map<string, QtiValue>,
  f: { outcome: string; identifier: string; showHide: "show" | "hide" },
) {
  const v = vars.get(f.outcome);
  const has = !!v && v.values.includes(f.identifier);
  return f.showHide === "show" ? has : !has;
}
