/**
 * ADL's SCORM 2004 4th edition LMS conformance test (CTS), driven without its Java applet (issue 30
 * "Prove it", decision 040). The test packages' SCO pages ask the applet for the commands of the
 * current visit (`runCommands()`), call the LMS's API with them and hand back what it answered; the
 * applet's test driver compares that with the expected values. This module reads the packages' own
 * command lists (tests/fixtures/scorm-cts/testcases/*.properties, with the applet's abbreviations in
 * Commands.properties) exactly as the applet's LMSTestCaseGenerator, LMSParser and Command classes
 * read them, and evaluates each answer as its TestCaseEvaluator does. Both harnesses use it: the
 * API-level one (scorm-cts-api.test.ts) and the browser one (tests/e2e/scorm-cts.spec.ts).
 */
import { readFileSync } from "node:fs";

export const CTS_DIR = "tests/fixtures/scorm-cts";

/** One visit of a test case: the activity expected to be launched, its commands, the tester's next instruction. */
export interface Visit {
  /** "1" for activity_1. */
  activity: string;
  commands: string[];
  /** Current user instruction key (APIt2, DMIt3, DMBx, DMBxAct, Exit…), "" for none. */
  cui: string;
}

/** Java's java.util.Properties-style reader for the resource bundle (key=value, \ continuation). */
export function readBundle(path: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = readFileSync(path, "latin1").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (/^\s*#/.test(line) || !line.includes("=")) continue;
    while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i].trimStart();
    const at = line.indexOf("=");
    out.set(line.slice(0, at).trim(), line.slice(at + 1));
  }
  return out;
}

/** The test case's instructions to its tester (read before the activities, as the generator does). */
const INSTRUCTION_KEYS = new Set(["title", "UserInterAct", "start", "purpose", "RTDInit", "seqInfo", "TT", "end"]);

/** The test case file as LMSTestCaseGenerator.createTC reads it: visits in file order. */
export function readTestCase(path: string): Visit[] {
  const visits: Visit[] = [];
  const lines = readFileSync(path, "latin1").split(/\r?\n/);
  let current = "";
  let visit: Visit | null = null;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (!line) continue;
    while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i];
    if (line.includes("####")) continue;
    const at = line.indexOf("=");
    const key = line.slice(0, at);
    const value = line.slice(at + 1);
    if (INSTRUCTION_KEYS.has(key) || !key.includes("Act")) continue;
    const actInfo = key.slice(0, key.indexOf("."));
    if (actInfo !== current) {
      current = actInfo;
      visit = { activity: actInfo.slice(3, actInfo.indexOf("V")), commands: [], cui: "" };
      visits.push(visit);
    }
    if (key.includes("CUI")) visit!.cui = value;
    else if (key.includes("commands")) visit!.commands.push(unicode(value));
  }
  return visits;
}

/** The generator's doUnicode: \uXXXX escapes in a command. */
function unicode(value: string): string {
  return value.replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** One API call of a visit and what the test expects of it. */
export interface Call {
  /** The API method: Initialize, Terminate, Commit, GetValue, SetValue, GetLastError, GetErrorString, GetDiagnostic. */
  method: string;
  /** The call's argument: element (with &id& placeholders still in it) or parameter. */
  arg: string;
  /** SetValue's value. */
  value?: string;
  expected: { value: string; error: string; interactionType?: string };
  /** The command as written in the test case (for the report). */
  source: string;
}

const METHOD: Record<string, string> = {
  doInitialize: "Initialize",
  doTerminate: "Terminate",
  doCommit: "Commit",
  doGetValue: "GetValue",
  doSetValue: "SetValue",
  doGetErrorString: "GetErrorString",
  doGetLastError: "GetLastError",
  doGetDiagnostic: "GetDiagnostic",
};

/**
 * Reads the commands of a visit as LMSParser does; null for a line that is no command (DMI's
 * Act3V2.commands.47 lacks its "GET->": the applet's parser skips it, and so does this one).
 */
export function translate(
  command: string,
  bundle: Map<string, string>,
  learner: { id: string; name: string },
): Call | null {
  const get = (key: string, ...args: string[]) => {
    const v = bundle.get(key);
    if (v === undefined) return key;
    let n = 0;
    return v.replace(/%s/g, () => args[n++] ?? "");
  };
  const parts = command.split("->");
  const cmd = parts[0];
  const method = METHOD[get(cmd)] ?? cmd;
  const last = parts[parts.length - 1];
  const middle = parts.length > 3 ? parts[parts.length - 2] : "";
  if (cmd === "GET" || cmd === "I" || cmd === "C") {
    const [element, interactionType] = getElement(parts[1], get);
    let value = get(middle) === "" && middle !== "" ? middle : get(middle);
    if (parts[1].includes("LN") || parts[1].includes("LI")) value = parts[1].includes("LN") ? learner.name : learner.id;
    return { method, arg: element, expected: { value, error: last, interactionType }, source: command };
  }
  if (cmd === "SET") {
    const [element, value] = setElement(parts[1], get);
    return { method, arg: element, value, expected: { value: get(middle), error: last }, source: command };
  }
  if (cmd === "GES" || cmd === "GeDi")
    return { method, arg: parts[1] ?? "", expected: { value: parts[2] ?? "", error: last }, source: command };
  if (cmd === "GLE") return { method, arg: "", expected: { value: parts[2] ?? "", error: last }, source: command };
  return null;
}

type Get = (key: string, ...args: string[]) => string;

function getElement(key: string, get: Get): [string, string | undefined] {
  if (!key.includes("~")) return [key, undefined];
  const t = key.split("~");
  let type: string | undefined;
  if (t[1] === "INTR" && key.includes("!"))
    for (let j = 0; j < t.length; j++)
      if (t[j].includes("!")) {
        const [name, ty] = t[j].split("!");
        type = get(ty);
        t[j] = name;
      }
  if (t.length === 6 && key.includes("a~n~r"))
    return [`${get(t[0])}.${get(t[1])}.${get(t[2])}.${get(t[3])}.${get(t[4], t[5])}`, type];
  if (t.length === 4 && key.includes("a~n~r")) return [`${get(t[0])}.${get(t[1])}.${get(t[2])}.${get(t[3])}`, type];
  return [t.map((p) => get(p)).join("."), type];
}

function setElement(key: string, get: Get): [string, string] {
  const k = key.split("~");
  const finalSplit = (): [string, string] => {
    const lastPart = k[k.length - 1];
    const at = lastPart.indexOf("!");
    return at === lastPart.length - 1 ? [lastPart.slice(0, -1), ""] : [lastPart.slice(0, at), lastPart.slice(at + 1)];
  };
  let dm = get(k[0]);
  let value: string;
  if (k.length === 2) {
    const [a, v] = finalSplit();
    dm += `.${get(a)}`;
    value = get(v);
  } else if (k.length === 3) {
    const [a, v] = finalSplit();
    dm += `.${get(k[1])}.${get(a)}`;
    value = get(v);
  } else if (k.length === 4) {
    const [a, v] = finalSplit();
    dm += `.${get(k[1])}.${k[2]}.${get(a)}`;
    value = get(v);
  } else if (k.length === 5 && key.includes("a~n~r")) {
    const [a, v] = k[2].split("!");
    dm += `.${get(k[1])}.${get(a)}`;
    value = get(v, k[3]) + get(k[4]);
  } else if (k.length === 5) {
    const [a, v] = k[4].split("!");
    dm += `.${get(k[1])}.${get(k[2])}.${get(k[3])}.${get(a)}`;
    value = get(v);
  } else if (k.length === 6) {
    const [a, v] = finalSplit();
    dm += `.${get(k[1])}.${get(k[2])}.${get(k[3])}.${get(k[4])}.${get(a)}`;
    value = get(v);
  } else {
    const at = key.indexOf("!");
    return [get(key.slice(0, at)), key.slice(at + 1)];
  }
  // Command.evaluate splits the parameter at its first "!" again: a value holding "!" stays whole.
  return [dm, value];
}

/** What the LMS answered to one call: the return value and GetLastError right after. */
export interface Answer {
  value: string;
  error: string;
}

/** The synchronous API a harness drives (the SCO's API_1484_11). */
export type Api2004 = Record<string, (...args: string[]) => string>;

/**
 * Runs one call as the applet's Command.evaluate does: &id& placeholders found by asking the LMS
 * (adl.data._count / cmi.objectives._count and their ids), the call, then GetLastError. null: the
 * placeholder's id was not found (the applet's FailedResult).
 */
export function perform(api: Api2004, call: Call): Answer | null {
  let element = call.arg;
  if (element.includes("&")) {
    const [before, id, after] = element.split("&");
    const collection = before.includes("data") ? "adl.data" : before.includes("objective") ? "cmi.objectives" : null;
    if (collection) {
      const count = Number(api.GetValue(`${collection}._count`)) || 0;
      let index = -1;
      for (let i = 0; i < count; i++) if (api.GetValue(`${collection}.${i}.id`) === id) index = i;
      if (index < 0) return null;
      element = `${before}${index}${after}`;
    }
  }
  const fn = api[call.method];
  const value =
    call.method === "SetValue" ? fn(element, call.value ?? "") : call.method === "GetLastError" ? fn() : fn(element);
  return { value: String(value), error: String(api.GetLastError()) };
}

/** Seconds of a timeinterval as ADL's DurationValidator counts them (years 31,536,000 s, months 2,628,029 s). */
function intervalSeconds(v: string): number | null {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,2})?)S)?)?$/.exec(v);
  if (!m || v.endsWith("T") || v === "P") return null;
  const n = (x: string | undefined) => Number(x ?? 0);
  return n(m[1]) * 31_536_000 + n(m[2]) * 2_628_029 + n(m[3]) * 86_400 + n(m[4]) * 3600 + n(m[5]) * 60 + n(m[6]);
}

const REAL = /(score\.(scaled|raw|min|max)|progress_measure|completion_threshold|scaled_passing_score|weighting)$/;
const DURATION = /(total_time|session_time|latency|max_time_allowed)$/;

/**
 * Compares a returned value with the expected one as the reference data model does (DMElement.equals
 * through the element's type validator): durations by their seconds, reals by their number; other
 * values as characterstrings.
 */
export function sameValue(element: string, expected: string, returned: string, interactionType?: string): boolean {
  if (expected === returned) return true;
  if (interactionType && /(correct_responses\.\d+\.pattern|learner_response)$/.test(element))
    return samePattern(interactionType, expected, returned, element.endsWith("pattern"));
  // A _children list names the same elements in any order.
  if (element.endsWith("._children")) return expected.split(",").sort().join() === returned.split(",").sort().join();
  if (DURATION.test(element)) {
    const a = intervalSeconds(expected);
    const b = intervalSeconds(returned);
    return a !== null && b !== null && a === b;
  }
  if (REAL.test(element)) return returned !== "" && Number(expected) === Number(returned);
  return false;
}

/** A pattern's leading delimiters with the type's defaults (the reference model's DMDelimiter). */
function patternParts(value: string, defaults: Record<string, string>) {
  const flags: Record<string, string> = { ...defaults };
  let rest = value;
  for (;;) {
    const m = /^\{([^={}]*)=([^{}]*)\}/.exec(rest);
    if (!m || !(m[1] in defaults)) break;
    flags[m[1]] = m[2];
    rest = rest.slice(m[0].length);
  }
  return { flags, rest };
}

/** InteractionValidator.compare: equal patterns or responses of an interaction type. */
function samePattern(type: string, a: string, b: string, pattern: boolean): boolean {
  const items = (v: string) => v.split("[,]");
  const lang = (s: string) => {
    const m = /^\{lang=([^}]*)\}(.*)$/s.exec(s);
    return m ? { lang: m[1].toLowerCase().split("-")[0], text: m[2] } : { lang: "en", text: s };
  };
  switch (type) {
    case "choice":
      return new Set(items(a)).size === new Set(items(b)).size && items(a).every((x) => items(b).includes(x));
    case "fill-in": {
      const defaults: Record<string, string> = pattern ? { case_matters: "false", order_matters: "true" } : {};
      const [x, y] = [patternParts(a, defaults), patternParts(b, defaults)];
      if (JSON.stringify(x.flags) !== JSON.stringify(y.flags)) return false;
      const norm = (s: string) => {
        const l = lang(s);
        return `${l.lang}|${x.flags.case_matters === "true" ? l.text : l.text.toLowerCase()}`;
      };
      const [ia, ib] = [items(x.rest).map(norm), items(y.rest).map(norm)];
      if (ia.length !== ib.length) return false;
      return x.flags.order_matters === "false" ? ia.every((v) => ib.includes(v)) : ia.every((v, i) => v === ib[i]);
    }
    case "long-fill-in": {
      const defaults: Record<string, string> = pattern ? { case_matters: "false", lang: "en" } : { lang: "en" };
      const [x, y] = [patternParts(a, defaults), patternParts(b, defaults)];
      const sameLang = x.flags.lang.toLowerCase().split("-")[0] === y.flags.lang.toLowerCase().split("-")[0];
      const caseMatters = x.flags.case_matters === "true";
      return (
        sameLang &&
        x.flags.case_matters === y.flags.case_matters &&
        (caseMatters ? x.rest === y.rest : x.rest.toLowerCase() === y.rest.toLowerCase())
      );
    }
    case "performance": {
      const defaults: Record<string, string> = pattern ? { order_matters: "true" } : {};
      const [x, y] = [patternParts(a, defaults), patternParts(b, defaults)];
      if (x.flags.order_matters !== y.flags.order_matters) return false;
      const [ia, ib] = [items(x.rest), items(y.rest)];
      return (
        ia.length === ib.length &&
        (x.flags.order_matters === "false" ? ia.every((v) => ib.includes(v)) : ia.every((v, i) => v === ib[i]))
      );
    }
    case "numeric": {
      if (!pattern) return Number(a) === Number(b);
      const [ma, xa] = a.split("[:]");
      const [mb, xb] = b.split("[:]");
      const same = (p?: string, q?: string) => (p ?? "").trim() === (q ?? "").trim() || Number(p) === Number(q);
      return same(ma, mb) && same(xa, xb);
    }
    default:
      return a === b;
  }
}

/** TestCaseEvaluator.evaluateCurrentResult: whether one answer passes. */
export function passes(call: Call, answer: Answer | null): boolean {
  if (!answer) return false;
  const { expected } = call;
  const errorOk = expected.error === answer.error;
  const element = call.arg;
  if (call.method === "GetValue") {
    if (element.includes("learner_name")) return errorOk;
    if (element.includes("request_valid.choice") || element.includes("request_valid.jump"))
      return ["true", "false", "unknown"].includes(answer.value);
    if (!element.includes("_children") && element.includes("comments_from_lms"))
      return (
        ["0", "301", "122"].includes(answer.error) || (element === "cmi.comments_from_lms" && answer.error === "401")
      );
    if (expected.value !== "" && !element.includes("_count")) {
      if (element.includes("request_valid")) return ["true", "false", "unknown"].includes(answer.value);
      return sameValue(element, expected.value, answer.value, expected.interactionType) && errorOk;
    }
    if (answer.value.startsWith("{") && !element.includes("_count"))
      return sameValue(element, expected.value, answer.value, expected.interactionType) && errorOk;
  }
  if (call.method === "GetErrorString") {
    const ok =
      expected.value === "less255"
        ? answer.value.length < 255
        : expected.value === "emptyCS"
          ? answer.value === ""
          : answer.value === expected.value;
    return ok && errorOk;
  }
  if (call.method === "GetDiagnostic") return answer.value.length < 255 && errorOk;
  return answer.value === expected.value && errorOk;
}
