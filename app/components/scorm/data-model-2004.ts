/**
 * The SCORM 2004 4th edition data model's rules that scorm-again does not keep (issue 30 item 5,
 * decision 040), checked before a call reaches it: the collections' index rules (301 beyond a
 * collection, 351 for a record that cannot be made, 408 for a dependency not established), the value
 * types it lets through (long identifiers, time(second,10,0), localized strings with their language
 * codes, every interaction type's patterns and responses with their delimiters), the records' unique
 * ids and the correct responses' limits. The rules follow RTE 4.1 and 4.2; where the book leaves a
 * detail open, ADL's reference data model (the LMS test suite's) decides.
 */
import { LANGUAGES_2, LANGUAGES_3, COUNTRIES, IANA_TAGS } from "./language-codes";

/** How the guard reads the live data model (scorm-again's answers, without the SCO seeing them). */
export interface ModelReader {
  get(element: string): string;
}

const INDEX = /^\d+$/;
const goodIndex = (s: string) => INDEX.test(s) && (s === "0" || !s.startsWith("0"));
const count = (m: ModelReader, collection: string) => Number(m.get(`${collection}._count`)) || 0;

/** RFC 3986 as java.net.URI reads it: no blank or illegal character, a scheme needs a scheme-specific part. */
function isUri(value: string): boolean {
  if (value.trim() === "" || /[\s"<>\\^`{|}[\]]/.test(value) || /[\u0000-\u001f\u007f]/.test(value)) return false;
  if (/%(?![0-9a-fA-F]{2})/.test(value)) return false;
  if ((value.match(/#/g) ?? []).length > 1) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s.exec(value);
  if (scheme && scheme[2] === "") return false;
  if (/^:/.test(value)) return false;
  return true;
}

/** time(second,10,0): YYYY[-MM[-DD[Thh[:mm[:ss[.s]]]]]][TZD], years 1970–2038 (RTE 4.1.1.6). */
function isTime(value: string): boolean {
  const m =
    /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,2}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/.exec(
      value,
    );
  if (!m) return false;
  const [, y, mo, d, h, mi, s, , tz] = m;
  const year = Number(y);
  if (year < 1970 || year > 2038) return false;
  if (mo !== undefined && (Number(mo) < 1 || Number(mo) > 12)) return false;
  if (d !== undefined) {
    const days = new Date(Date.UTC(year, Number(mo), 0)).getUTCDate();
    if (Number(d) < 1 || Number(d) > days) return false;
  }
  if (h !== undefined && Number(h) > 23) return false;
  if (mi !== undefined && Number(mi) > 59) return false;
  if (s !== undefined && Number(s) > 59) return false;
  if (tz && tz !== "Z") {
    const [th, tm] = [Number(tz.slice(1, 3)), Number(tz.replace(":", "").slice(3, 5) || 0)];
    if (th > 23 || tm > 59) return false;
  }
  return true;
}

/** A language tag as ISO 639 and 3166 have them (language_type, RTE 4.1.1.3). */
function isLanguage(value: string): boolean {
  if (value.trim() === "" || /[^\x21-\x7e]/.test(value)) return false;
  const tag = value.toLowerCase();
  const parts = tag.split("-");
  if (IANA_TAGS.has(parts.slice(0, 2).join("-")) || IANA_TAGS.has(tag)) return true;
  const [lang, country] = parts;
  if (lang === "x" || lang === "i") return parts.length > 1 && parts[1] !== "";
  if (lang.length === 2) {
    if (!LANGUAGES_2.has(lang)) return false;
  } else if (lang.length === 3) {
    if (!/^q[a-t][a-z]$/.test(lang) && !LANGUAGES_3.has(lang)) return false;
  } else return false;
  if (parts.length === 1) return true;
  if (country === "" || country === undefined) return false;
  if (country.length === 2) return COUNTRIES.has(country.toUpperCase());
  return false;
}

/** A localized string: an optional {lang=…} (a language tag), then any text. */
function isLocalized(value: string): boolean {
  const m = /^\{lang=([^}]*)\}/.exec(value);
  return !m || isLanguage(m[1]);
}

/** The leading {name=value} delimiters of a value, as the reference data model reads them. */
function delimiters(value: string): { list: { name: string; value: string; raw: string }[]; rest: string } {
  const list: { name: string; value: string; raw: string }[] = [];
  let rest = value;
  for (;;) {
    const m = /^\{([^={}]*)=([^{}]*)\}/.exec(rest);
    if (!m) break;
    list.push({ name: m[1], value: m[2], raw: m[0] });
    rest = rest.slice(m[0].length);
  }
  return { list, rest };
}

/**
 * Checks the leading delimiters a pattern or response may carry: each allowed one once, with a valid
 * value (406 otherwise); the first unknown one ends them and stays part of the value.
 */
function stripDelimiters(value: string, allowed: Record<string, (v: string) => boolean>): string | null {
  const { list } = delimiters(value);
  const seen = new Set<string>();
  let consumed = 0;
  for (const d of list) {
    const check = allowed[d.name.trim()];
    if (!check || seen.has(d.name.trim())) break;
    if (d.name !== d.name.trim() || !check(d.value)) return null;
    seen.add(d.name);
    consumed += d.raw.length;
  }
  return value.slice(consumed);
}

const BOOL = (v: string) => v === "true" || v === "false";
const REAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const isReal = (v: string) => REAL.test(v.trim()) && Number.isFinite(Number(v));
const shortId = (v: string) => isUri(v);
const split = (v: string, sep: string) => v.split(sep);
const endsWithSeparator = (v: string, sep: string) => v.trim().endsWith(sep);

/** One interaction value by its type: a correct response's pattern (`pattern`) or the learner's response. */
function interactionValueError(type: string, value: string, pattern: boolean): number | null {
  const ok = (b: boolean) => (b ? null : 406);
  switch (type) {
    case "true-false":
      return ok(BOOL(value));
    case "choice": {
      if (value === "") return null;
      if (endsWithSeparator(value, "[,]")) return 406;
      const choices = split(value, "[,]");
      return ok(choices.every((c) => c.trim() !== "" && shortId(c)) && new Set(choices).size === choices.length);
    }
    case "fill-in": {
      const body = pattern ? stripDelimiters(value, { case_matters: BOOL, order_matters: BOOL }) : value;
      if (body === null) return 406;
      return ok(split(body, "[,]").every((s) => isLocalized(s)));
    }
    case "long-fill-in": {
      const body = stripDelimiters(value, pattern ? { case_matters: BOOL, lang: isLanguage } : { lang: isLanguage });
      return ok(body !== null);
    }
    case "likert":
      return ok(shortId(value));
    case "matching": {
      if (value.trim() === "") return pattern ? 406 : null;
      if (endsWithSeparator(value, "[,]")) return 406;
      return ok(
        split(value, "[,]").every((pair) => {
          const parts = pair.split("[.]");
          return parts.length === 2 && parts[0] !== "" && parts[1] !== "" && shortId(parts[0]) && shortId(parts[1]);
        }),
      );
    }
    case "performance": {
      const body = pattern ? stripDelimiters(value, { order_matters: BOOL }) : value;
      if (body === null || endsWithSeparator(body, "[,]")) return 406;
      return ok(
        split(body, "[,]").every((step) => {
          const parts = step.split("[.]");
          if (step === "" || parts.length !== 2) return false;
          const [name, answer] = parts;
          if (name === "" && answer === "") return false;
          if (name !== "" && !shortId(name)) return false;
          const range = answer.split("[:]");
          if (range.length > 2) return false;
          if (range.length === 2) {
            const [min, max] = range.map((r) => r.trim());
            if ((min && !isReal(min)) || (max && !isReal(max))) return false;
            return !(min && max && Number(min) > Number(max));
          }
          return true;
        }),
      );
    }
    case "sequencing": {
      if (endsWithSeparator(value, "[,]")) return 406;
      const steps = split(value, "[,]");
      if (steps.length === 1 && steps[0] === "") return pattern ? 406 : null;
      return ok(steps.every((s) => shortId(s)));
    }
    case "numeric": {
      if (!pattern) return ok(isReal(value));
      const range = value.split("[:]");
      if (range.length !== 2) return 406;
      const [min, max] = range.map((r) => r.trim());
      if ((min && !isReal(min)) || (max && !isReal(max))) return 406;
      return ok(!(min && max && Number(min) > Number(max)));
    }
    case "other":
      return ok(value.length <= 4000);
    default:
      return 406;
  }
}

/** How many correct responses an interaction of a type may have at most (RTE table 4.2.9.2a: "exactly"). */
const MAX_RESPONSES: Record<string, number> = { "true-false": 1, likert: 1, numeric: 1, other: 1 };
/** Types whose correct responses must all differ. */
const UNIQUE_RESPONSES = new Set(["choice", "sequencing"]);

const OBJ = /^cmi\.objectives\.([^.]+)\.(.+)$/;
const INTR = /^cmi\.interactions\.([^.]+)\.(.+)$/;
const INTR_OBJ = /^objectives\.([^.]+)\.(.+)$/;
const INTR_CR = /^correct_responses\.([^.]+)\.(.+)$/;
const COMMENT = /^cmi\.comments_from_learner\.([^.]+)\.(.+)$/;
const DATA = /^adl\.data\.([^.]+)\.(.+)$/;

/**
 * The error a GetValue must answer before the library is asked (null: ask it): an index past a
 * collection's end is a general get failure (301).
 */
export function getError(element: string, m: ModelReader): number | null {
  const beyond = (collection: string, index: string) => !goodIndex(index) || Number(index) >= count(m, collection);
  let x: RegExpExecArray | null;
  if ((x = OBJ.exec(element)) && !x[1].startsWith("_")) return beyond("cmi.objectives", x[1]) ? 301 : null;
  if ((x = COMMENT.exec(element)) && !x[1].startsWith("_"))
    return beyond("cmi.comments_from_learner", x[1]) ? 301 : null;
  if ((x = DATA.exec(element)) && !x[1].startsWith("_")) return beyond("adl.data", x[1]) ? 301 : null;
  if ((x = INTR.exec(element)) && !x[1].startsWith("_")) {
    const base = `cmi.interactions.${x[1]}`;
    if (beyond("cmi.interactions", x[1])) return 301;
    let y: RegExpExecArray | null;
    if ((y = INTR_OBJ.exec(x[2])) && !y[1].startsWith("_")) return beyond(`${base}.objectives`, y[1]) ? 301 : null;
    if ((y = INTR_CR.exec(x[2])) && !y[1].startsWith("_"))
      return beyond(`${base}.correct_responses`, y[1]) ? 301 : null;
  }
  return null;
}

/**
 * The error a SetValue must answer before the library is asked (null: ask it): records made only by
 * their id and in order (408, 351), ids that are URIs and unique (406, 351), typed values (406),
 * interaction patterns and responses after the type (408) and within the type's limits (351).
 */
export function setError(element: string, value: string, m: ModelReader): number | null {
  let x: RegExpExecArray | null;
  if ((x = OBJ.exec(element)) && !x[1].startsWith("_")) {
    if (!goodIndex(x[1])) return 351;
    const n = Number(x[1]);
    const total = count(m, "cmi.objectives");
    if (n > total) return 351;
    if (n === total && x[2] !== "id") return 408;
    if (x[2] === "id") {
      if (!isUri(value)) return 406;
      for (let i = 0; i < total; i++) if (i !== n && m.get(`cmi.objectives.${i}.id`) === value) return 351;
    }
    if (x[2] === "description" && !isLocalized(value)) return 406;
    return null;
  }
  if ((x = COMMENT.exec(element)) && !x[1].startsWith("_")) {
    if (!goodIndex(x[1])) return 351;
    if (Number(x[1]) > count(m, "cmi.comments_from_learner")) return 351;
    if (x[2] === "timestamp" && !isTime(value)) return 406;
    if (x[2] === "comment" && !isLocalized(value)) return 406;
    return null;
  }
  if ((x = DATA.exec(element)) && !x[1].startsWith("_")) {
    if (!goodIndex(x[1]) || Number(x[1]) >= count(m, "adl.data")) return 351;
    return null;
  }
  if ((x = INTR.exec(element)) && !x[1].startsWith("_")) {
    if (!goodIndex(x[1])) return 351;
    const n = Number(x[1]);
    const total = count(m, "cmi.interactions");
    const base = `cmi.interactions.${n}`;
    if (n > total) return 351;
    if (n === total && x[2] !== "id") return 408;
    const field = x[2];
    if (field === "id") return isUri(value) ? null : 406;
    if (field === "timestamp") return isTime(value) ? null : 406;
    if (field === "description") return isLocalized(value) ? null : 406;
    let y: RegExpExecArray | null;
    if ((y = INTR_OBJ.exec(field)) && !y[1].startsWith("_")) {
      if (!goodIndex(y[1])) return 351;
      const k = Number(y[1]);
      const objectives = count(m, `${base}.objectives`);
      if (k > objectives) return 351;
      if (y[2] === "id") {
        if (!isUri(value)) return 406;
        for (let i = 0; i < objectives; i++) if (i !== k && m.get(`${base}.objectives.${i}.id`) === value) return 351;
      }
      return null;
    }
    const type = m.get(`${base}.type`);
    if ((y = INTR_CR.exec(field)) && !y[1].startsWith("_")) {
      if (!type) return 408;
      if (!goodIndex(y[1])) return 351;
      const k = Number(y[1]);
      const responses = count(m, `${base}.correct_responses`);
      if (k > responses || k >= (MAX_RESPONSES[type] ?? Infinity)) return 351;
      const error = interactionValueError(type, value, true);
      if (error) return error;
      if (UNIQUE_RESPONSES.has(type))
        for (let i = 0; i < responses; i++)
          if (i !== k && m.get(`${base}.correct_responses.${i}.pattern`) === value) return 351;
      return null;
    }
    if (field === "learner_response") {
      if (!type) return 408;
      return interactionValueError(type, value, false);
    }
  }
  return null;
}
