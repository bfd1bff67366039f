/**
 * The literals of a filter expression checked against the field they are compared with: uuids
 * lower-cased, date-times normalised to ISO 8601 UTC, numbers within the field's range, enumerations
 * by their numbers.
 */
import { FILTER_FIELDS, type FieldSpec, type FilterField, type FilterValue } from "./fields";
import { isDigit, quoteForMessage } from "./tokens";

function hexDigit(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

function isUuid(s: string): boolean {
  if (s.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = s.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (!hexDigit(c)) {
      return false;
    }
  }
  return true;
}

/**
 * Parses an ISO-8601 date-time (`YYYY-MM-DDThh:mm[:ss[.fff…]](Z|±hh:mm)`) or a bare date
 * (`YYYY-MM-DD`, midnight UTC) and returns the normalised `toISOString()` form, or null.
 */
export function normaliseIsoDateTime(s: string): string | null {
  if (s.length > 40) return null;
  let i = 0;
  const num = (len: number): number | null => {
    if (i + len > s.length) return null;
    let v = 0;
    for (let k = 0; k < len; k++) {
      const c = s.charCodeAt(i + k);
      if (!isDigit(c)) return null;
      v = v * 10 + (c - 48);
    }
    i += len;
    return v;
  };
  const lit = (ch: string): boolean => {
    if (s[i] === ch) {
      i++;
      return true;
    }
    return false;
  };
  const year = num(4);
  if (year === null || !lit("-")) return null;
  const month = num(2);
  if (month === null || !lit("-")) return null;
  const day = num(2);
  if (day === null) return null;
  if (month < 1 || month > 12) return null;
  const daysInMonth = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day < 1 || day > daysInMonth) return null;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let ms = 0;
  let offsetMinutes = 0;
  if (i < s.length) {
    if (!lit("T") && !lit("t")) return null;
    const h = num(2);
    if (h === null || !lit(":")) return null;
    const m = num(2);
    if (m === null) return null;
    hour = h;
    minute = m;
    if (lit(":")) {
      const sec = num(2);
      if (sec === null) return null;
      second = sec;
      if (lit(".")) {
        let digits = 0;
        let frac = "";
        while (i < s.length && isDigit(s.charCodeAt(i))) {
          if (digits < 3) frac += s[i];
          digits++;
          i++;
        }
        if (digits === 0 || digits > 9) return null;
        ms = Number(frac.padEnd(3, "0"));
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return null;
    if (lit("Z") || lit("z")) {
      offsetMinutes = 0;
    } else {
      const sign = s[i] === "+" ? 1 : s[i] === "-" ? -1 : 0;
      if (sign === 0) return null;
      i++;
      const oh = num(2);
      if (oh === null || !lit(":")) return null;
      const om = num(2);
      if (om === null || oh > 23 || om > 59) return null;
      offsetMinutes = sign * (oh * 60 + om);
    }
    if (i !== s.length) return null;
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  const t = d.getTime() - offsetMinutes * 60_000;
  const result = new Date(t);
  const y = result.getUTCFullYear();
  if (Number.isNaN(t) || y < 0 || y > 9999) return null;
  return result.toISOString();
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export type RawValue =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number; raw: string }
  | { kind: "boolean"; value: boolean };

function describeRaw(v: RawValue): string {
  if (v.kind === "string") return quoteForMessage(v.value);
  if (v.kind === "number") return v.raw;
  return String(v.value);
}

/** Validates a literal against the field type; returns the typed, normalised value or an error message. */
export function validateValue(
  field: FilterField,
  v: RawValue,
): { ok: true; value: FilterValue } | { ok: false; error: string } {
  const spec: FieldSpec = FILTER_FIELDS[field];
  const bad = (what: string) => ({
    ok: false as const,
    error: `Value ${describeRaw(v)} is not a valid ${what} for field '${field}'`,
  });
  switch (spec.type) {
    case "string":
      return v.kind === "string" ? { ok: true, value: v.value } : bad("string (quote it with '...')");
    case "integer": {
      if (v.kind !== "number" || !Number.isSafeInteger(v.value)) return bad("integer");
      if (v.value < spec.min || v.value > spec.max) {
        return {
          ok: false,
          error: `Value ${describeRaw(v)} is out of range ${spec.min}..${spec.max} for field '${field}'`,
        };
      }
      return { ok: true, value: v.value === 0 ? 0 : v.value }; // no -0
    }
    case "boolean":
      return v.kind === "boolean" ? { ok: true, value: v.value } : bad("boolean (true or false)");
    case "uuid":
      return v.kind === "string" && isUuid(v.value) ? { ok: true, value: v.value.toLowerCase() } : bad("uuid");
    case "datetime": {
      const iso = v.kind === "string" ? normaliseIsoDateTime(v.value) : null;
      return iso !== null ? { ok: true, value: iso } : bad("ISO-8601 date-time");
    }
    case "enum":
      return v.kind === "string" && spec.values.includes(v.value)
        ? { ok: true, value: v.value }
        : bad(`value (one of ${spec.values.join(", ")})`);
    case "presence":
      return bad("value");
  }
}
