/**
 * Spec 7.2: the `filter` query-string parameter of `GET objective-workflow-aggregates/query`.
 *
 * A small, whitelisted boolean expression language over the fields of a learner's course access
 * ("objective-workflow aggregate"). This module only parses and validates it into a typed tree;
 * SQL is built elsewhere from the tree, with bound parameters only. The module is pure (no I/O)
 * and `parseFilter` never throws.
 *
 * Grammar (EBNF; keywords are case-insensitive, field names are case-sensitive):
 *
 *   expr       = orExpr ;
 *   orExpr     = andExpr , { "or" , andExpr } ;
 *   andExpr    = unary , { "and" , unary } ;
 *   unary      = "not" , unary | primary ;
 *   primary    = "(" , expr , ")" | comparison ;
 *   comparison = field , op , value
 *              | field , "in" , "(" , value , { "," , value } , ")"
 *              | field , "is" , "null"
 *              | field , "is" , "not" , "null" ;
 *   op         = "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "contains" | "startswith" ;
 *   value      = string | number | "true" | "false" | "null" ;
 *   field      = ident , { "." , ident } ;              (* must be a key of FILTER_FIELDS *)
 *   ident      = letter | "_" , { letter | digit | "_" } ;   (* ASCII only *)
 *   string     = "'" , { any char except "'" and control chars | "''" } , "'" ;
 *   number     = [ "-" ] , digit , { digit } , [ "." , digit , { digit } ] ;
 *
 * Whitespace (space, tab, CR, LF) separates tokens. Positions in errors are 0-based UTF-16 offsets
 * into the input.
 *
 * Semantics / normalisation:
 *  - `a and b and c` (one level) becomes a single "and" node with three children (same for "or");
 *    a parenthesised group stays its own node, so `(a and b) and c` is and[and[a, b], c].
 *  - `field eq null` / `field ne null` are accepted for nullable fields and become
 *    { kind: "null", negated: false | true } — the same as `is null` / `is not null`.
 *  - uuids are lower-cased; date-times become `Date.prototype.toISOString()` strings (UTC,
 *    millisecond precision; extra fraction digits are truncated). A date-time needs an offset
 *    ("Z" or "+hh:mm"); a bare date "YYYY-MM-DD" means midnight UTC.
 *  - Nesting depth counts both parentheses and "not"s.
 */

type CompareOp = "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "contains" | "startswith";
/** Operators a field may allow: the comparison operators plus the `in` list. */
type FieldOp = CompareOp | "in";
export type FilterValue = string | number | boolean;

type FieldSpec =
  | {
      readonly type: "string";
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "integer";
      readonly min: number;
      readonly max: number;
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "boolean";
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "uuid";
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "datetime";
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "enum";
      readonly values: readonly string[];
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  /** Only `is null` / `is not null`. */
  | {
      readonly type: "presence";
      readonly ops: readonly FieldOp[];
      readonly nullable: true;
    };

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const STRING_OPS = ["eq", "ne", "contains", "startswith"] as const;
const SET_OPS = ["eq", "ne", "in"] as const;
const ORDER_OPS = ["eq", "ne", "lt", "le", "gt", "ge"] as const;

/**
 * The whitelist: every field a client may filter on, its value type and the operators it allows.
 * `nullable: true` means `is null` / `is not null` (and `eq null` / `ne null`) are allowed.
 */
export const FILTER_FIELDS = {
  "objective.name": { type: "string", ops: STRING_OPS, nullable: false },
  "objective.code": { type: "string", ops: STRING_OPS, nullable: false },
  "objective.state": {
    type: "integer",
    min: 1,
    max: 4,
    ops: SET_OPS,
    nullable: false,
  },
  "objective.activity.state": {
    type: "integer",
    min: INT32_MIN,
    max: INT32_MAX,
    ops: SET_OPS,
    nullable: false,
  },
  "objective.presentationMode": {
    type: "integer",
    min: 0,
    max: 3,
    ops: SET_OPS,
    nullable: false,
  },
  isMandatory: { type: "boolean", ops: ["eq", "ne"], nullable: false },
  isSelfEnrolled: { type: "boolean", ops: ["eq", "ne"], nullable: false },
  retake: { type: "boolean", ops: ["eq", "ne"], nullable: false },
  termId: { type: "uuid", ops: SET_OPS, nullable: true },
  showcaseId: { type: "uuid", ops: SET_OPS, nullable: true },
  dueDate: { type: "datetime", ops: ORDER_OPS, nullable: true },
  availabilityDate: { type: "datetime", ops: ORDER_OPS, nullable: true },
  availabilityEndDate: { type: "datetime", ops: ORDER_OPS, nullable: true },
  /** null means the learner has no workflow yet. */
  "lastObjectiveWorkflow.state": {
    type: "integer",
    min: 1,
    max: 6,
    ops: ["eq", "ne", "in", "lt", "le", "gt", "ge"],
    nullable: true,
  },
  lastObjectiveRecord: { type: "presence", ops: [], nullable: true },
  gradeRevealPolicy: {
    type: "enum",
    values: ["none", "never", "afterFinish", "afterDate"],
    ops: SET_OPS,
    nullable: false,
  },
} as const satisfies Record<string, FieldSpec>;

export type FilterField = keyof typeof FILTER_FIELDS;

export type FilterNode =
  // "and" and "or" are separate members (rather than kind: "and" | "or") so that if-chains narrow.
  | { kind: "and"; children: FilterNode[] }
  | { kind: "or"; children: FilterNode[] }
  | { kind: "not"; child: FilterNode }
  | { kind: "cmp"; field: FilterField; op: CompareOp; value: FilterValue }
  | { kind: "in"; field: FilterField; values: FilterValue[] }
  | { kind: "null"; field: FilterField; negated: boolean };

export type ParseFilterResult = { ok: true; tree: FilterNode | null } | { ok: false; error: string; position: number };

/** Hostile-input limits. */
export const FILTER_LIMITS = {
  maxInputLength: 2000,
  maxComparisons: 50,
  maxDepth: 10,
  maxInListValues: 100,
  maxStringLength: 200,
} as const;

const COMPARE_OPS: readonly CompareOp[] = ["eq", "ne", "lt", "le", "gt", "ge", "contains", "startswith"];

// ---------------------------------------------------------------------------------------------
// Tokenizer (hand-written, linear time, no regular expressions)
// ---------------------------------------------------------------------------------------------

type Token =
  | { t: "ident"; text: string; pos: number }
  | { t: "string"; value: string; pos: number }
  | { t: "number"; value: number; raw: string; pos: number }
  | { t: "("; pos: number }
  | { t: ")"; pos: number }
  | { t: ","; pos: number }
  | { t: "eof"; pos: number }
  /** A lexical error; the parser reports it when (and if) it reaches this token. */
  | { t: "error"; message: string; pos: number };

class FilterError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
function isControl(c: number): boolean {
  return c < 32 || c === 127;
}

/** Renders a character for an error message without echoing invisible or odd characters raw. */
function showChar(input: string, i: number): string {
  const cp = input.codePointAt(i) ?? 0;
  if (cp >= 33 && cp <= 126) return `'${String.fromCharCode(cp)}'`;
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Echoes user text in an error message, shortened. */
function quoteForMessage(s: string): string {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    out += isControl(cp) ? "?" : ch;
    if (out.length >= 40) {
      out += "…";
      break;
    }
  }
  return `'${out}'`;
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  const n = input.length;
  let i = 0;
  while (true) {
    while (i < n && isSpace(input.charCodeAt(i))) i++;
    if (i >= n) {
      tokens.push({ t: "eof", pos: n });
      return tokens;
    }
    const start = i;
    const c = input.charCodeAt(i);
    if (c === 40 /* ( */ || c === 41 /* ) */ || c === 44 /* , */) {
      tokens.push({ t: c === 40 ? "(" : c === 41 ? ")" : ",", pos: start });
      i++;
    } else if (c === 39 /* ' */) {
      i++;
      let value = "";
      let codePoints = 0;
      let closed = false;
      let error: string | null = null;
      let errorPos = start;
      while (i < n) {
        const d = input.charCodeAt(i);
        if (d === 39) {
          if (input.charCodeAt(i + 1) === 39) {
            value += "'";
            codePoints++;
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        if (isControl(d)) {
          error = `Control character ${showChar(input, i)} is not allowed in a string at ${i}`;
          errorPos = i;
          break;
        }
        value += input[i];
        // A surrogate pair counts as one character.
        if (!(d >= 0xdc00 && d <= 0xdfff && i > 0 && isHighSurrogate(input.charCodeAt(i - 1)))) codePoints++;
        i++;
        if (codePoints > FILTER_LIMITS.maxStringLength) {
          error = `String literal is too long (max ${FILTER_LIMITS.maxStringLength} characters) at ${start}`;
          break;
        }
      }
      if (error === null && !closed) error = `Unterminated string at ${start}`;
      if (error !== null) {
        tokens.push({ t: "error", message: error, pos: errorPos });
        return tokens;
      }
      tokens.push({ t: "string", value, pos: start });
    } else if (isDigit(c) || (c === 45 /* - */ && isDigit(input.charCodeAt(i + 1)))) {
      i++;
      while (i < n && isDigit(input.charCodeAt(i))) i++;
      if (input.charCodeAt(i) === 46 /* . */ && isDigit(input.charCodeAt(i + 1))) {
        i++;
        while (i < n && isDigit(input.charCodeAt(i))) i++;
      }
      if (i < n && (isIdentPart(input.charCodeAt(i)) || input.charCodeAt(i) === 46)) {
        tokens.push({
          t: "error",
          message: `Invalid number at ${start}`,
          pos: start,
        });
        return tokens;
      }
      const raw = input.slice(start, i);
      tokens.push({ t: "number", value: Number(raw), raw, pos: start });
    } else if (isIdentStart(c)) {
      i++;
      while (i < n) {
        const d = input.charCodeAt(i);
        if (isIdentPart(d)) {
          i++;
        } else if (d === 46 /* . */) {
          if (!isIdentStart(input.charCodeAt(i + 1))) {
            tokens.push({
              t: "error",
              message: `Unexpected character '.' at ${i}`,
              pos: i,
            });
            return tokens;
          }
          i++;
        } else {
          break;
        }
      }
      tokens.push({ t: "ident", text: input.slice(start, i), pos: start });
    } else {
      tokens.push({
        t: "error",
        message: `Unexpected character ${showChar(input, i)} at ${i}`,
        pos: i,
      });
      return tokens;
    }
  }
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

// ---------------------------------------------------------------------------------------------
// Value validation
// ---------------------------------------------------------------------------------------------

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

type RawValue =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number; raw: string }
  | { kind: "boolean"; value: boolean };

function describeRaw(v: RawValue): string {
  if (v.kind === "string") return quoteForMessage(v.value);
  if (v.kind === "number") return v.raw;
  return String(v.value);
}

/** Validates a literal against the field type; returns the typed, normalised value or an error message. */
function validateValue(
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

function isFilterField(name: string): name is FilterField {
  return Object.prototype.hasOwnProperty.call(FILTER_FIELDS, name);
}

function fieldAllows(field: FilterField, op: FieldOp): boolean {
  return (FILTER_FIELDS[field].ops as readonly FieldOp[]).includes(op);
}

// ---------------------------------------------------------------------------------------------
// Parser (recursive descent with explicit depth limit)
// ---------------------------------------------------------------------------------------------

class Parser {
  private i = 0;
  private comparisons = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    const tok = this.tokens[Math.min(this.i, this.tokens.length - 1)];
    if (tok.t === "error") throw new FilterError(tok.message, tok.pos);
    return tok;
  }

  private next(): Token {
    const tok = this.peek();
    if (tok.t !== "eof") this.i++;
    return tok;
  }

  private isKeyword(tok: Token, kw: string): boolean {
    return tok.t === "ident" && tok.text.toLowerCase() === kw;
  }

  private expect(type: "(" | ")", tok: Token = this.peek()): void {
    if (tok.t !== type) throw new FilterError(`Expected '${type}' at ${tok.pos}`, tok.pos);
    this.i++;
  }

  parseAll(): FilterNode {
    const tree = this.parseOr(0);
    const tok = this.peek();
    if (tok.t !== "eof") {
      if (tok.t === ")") throw new FilterError(`Unexpected ')' at ${tok.pos}`, tok.pos);
      throw new FilterError(`Expected 'and', 'or' or end of input at ${tok.pos}`, tok.pos);
    }
    return tree;
  }

  private parseOr(depth: number): FilterNode {
    const first = this.parseAnd(depth);
    const children = [first];
    while (this.isKeyword(this.peek(), "or")) {
      this.i++;
      children.push(this.parseAnd(depth));
    }
    return children.length === 1 ? first : { kind: "or", children };
  }

  private parseAnd(depth: number): FilterNode {
    const first = this.parseUnary(depth);
    const children = [first];
    while (this.isKeyword(this.peek(), "and")) {
      this.i++;
      children.push(this.parseUnary(depth));
    }
    return children.length === 1 ? first : { kind: "and", children };
  }

  private enter(depth: number, pos: number): number {
    if (depth + 1 > FILTER_LIMITS.maxDepth) {
      throw new FilterError(`Nesting is too deep (max ${FILTER_LIMITS.maxDepth}) at ${pos}`, pos);
    }
    return depth + 1;
  }

  private parseUnary(depth: number): FilterNode {
    const tok = this.peek();
    if (this.isKeyword(tok, "not")) {
      const inner = this.enter(depth, tok.pos);
      this.i++;
      return { kind: "not", child: this.parseUnary(inner) };
    }
    if (tok.t === "(") {
      const inner = this.enter(depth, tok.pos);
      this.i++;
      const node = this.parseOr(inner);
      this.expect(")");
      return node;
    }
    return this.parseComparison();
  }

  private parseComparison(): FilterNode {
    const fieldTok = this.peek();
    if (fieldTok.t !== "ident") {
      const what = fieldTok.t === "eof" ? "end of input" : `'${tokenText(fieldTok)}'`;
      throw new FilterError(`Expected field name but found ${what} at ${fieldTok.pos}`, fieldTok.pos);
    }
    if (!isFilterField(fieldTok.text)) {
      throw new FilterError(`Unknown field ${quoteForMessage(fieldTok.text)} at ${fieldTok.pos}`, fieldTok.pos);
    }
    const field = fieldTok.text;
    this.comparisons++;
    if (this.comparisons > FILTER_LIMITS.maxComparisons) {
      throw new FilterError(
        `Too many comparisons (max ${FILTER_LIMITS.maxComparisons}) at ${fieldTok.pos}`,
        fieldTok.pos,
      );
    }
    this.i++;

    const opTok = this.peek();
    if (opTok.t !== "ident") {
      throw new FilterError(`Expected operator after field '${field}' at ${opTok.pos}`, opTok.pos);
    }
    const opName = opTok.text.toLowerCase();
    const notAllowed = (op: string) =>
      new FilterError(`Operator '${op}' is not allowed for field '${field}' at ${opTok.pos}`, opTok.pos);

    if (opName === "is") {
      this.i++;
      let negated = false;
      if (this.isKeyword(this.peek(), "not")) {
        negated = true;
        this.i++;
      }
      const nullTok = this.peek();
      if (!this.isKeyword(nullTok, "null")) throw new FilterError(`Expected 'null' at ${nullTok.pos}`, nullTok.pos);
      if (!FILTER_FIELDS[field].nullable) throw notAllowed(negated ? "is not null" : "is null");
      this.i++;
      return { kind: "null", field, negated };
    }

    if (opName === "in") {
      if (!fieldAllows(field, "in")) throw notAllowed("in");
      this.i++;
      this.expect("(");
      const values: FilterValue[] = [];
      while (true) {
        const valueTok = this.peek();
        if (values.length >= FILTER_LIMITS.maxInListValues) {
          throw new FilterError(
            `Too many values in 'in' list (max ${FILTER_LIMITS.maxInListValues}) at ${valueTok.pos}`,
            valueTok.pos,
          );
        }
        const raw = this.parseValue();
        if (raw === null) {
          throw new FilterError(`null is not allowed in an 'in' list (use 'is null') at ${valueTok.pos}`, valueTok.pos);
        }
        values.push(this.check(field, raw, valueTok.pos));
        const sep = this.peek();
        if (sep.t === ",") {
          this.i++;
          continue;
        }
        this.expect(")", sep);
        return { kind: "in", field, values };
      }
    }

    if (!(COMPARE_OPS as readonly string[]).includes(opName)) {
      throw new FilterError(`Unknown operator ${quoteForMessage(opTok.text)} at ${opTok.pos}`, opTok.pos);
    }
    const op = opName as CompareOp;
    this.i++;
    const valueTok = this.peek();
    // `eq null` / `ne null` are checked below; everything else must be an allowed operator.
    if (!this.isKeyword(valueTok, "null") && !fieldAllows(field, op)) throw notAllowed(op);
    const raw = this.parseValue();
    if (raw === null) {
      // `eq null` / `ne null` are spellings of `is null` / `is not null`.
      if (op !== "eq" && op !== "ne") {
        throw new FilterError(`Value null can only be compared with 'eq' or 'ne' at ${valueTok.pos}`, valueTok.pos);
      }
      if (!FILTER_FIELDS[field].nullable) {
        throw new FilterError(`Value null is not allowed for field '${field}' at ${valueTok.pos}`, valueTok.pos);
      }
      return { kind: "null", field, negated: op === "ne" };
    }
    return {
      kind: "cmp",
      field,
      op,
      value: this.check(field, raw, valueTok.pos),
    };
  }

  private check(field: FilterField, raw: RawValue, pos: number): FilterValue {
    const result = validateValue(field, raw);
    if (!result.ok) throw new FilterError(`${result.error} at ${pos}`, pos);
    return result.value;
  }

  /** Reads one literal; null stands for the `null` keyword. */
  private parseValue(): RawValue | null {
    const tok = this.peek();
    if (tok.t === "string") {
      this.i++;
      return { kind: "string", value: tok.value };
    }
    if (tok.t === "number") {
      this.i++;
      return { kind: "number", value: tok.value, raw: tok.raw };
    }
    if (tok.t === "ident") {
      const kw = tok.text.toLowerCase();
      if (kw === "true" || kw === "false") {
        this.i++;
        return { kind: "boolean", value: kw === "true" };
      }
      if (kw === "null") {
        this.i++;
        return null;
      }
    }
    const what = tok.t === "eof" ? "end of input" : `'${tokenText(tok)}'`;
    throw new FilterError(
      `Expected a value (a 'quoted string', number, true, false or null) but found ${what} at ${tok.pos}`,
      tok.pos,
    );
  }
}

function tokenText(tok: Token): string {
  switch (tok.t) {
    case "ident":
      return quoteForMessage(tok.text).slice(1, -1);
    case "string":
      return "string";
    case "number":
      return tok.raw;
    case "eof":
      return "end of input";
    case "error":
      return "?";
    default:
      return tok.t;
  }
}

/**
 * Parses a filter expression into a validated tree. Empty or whitespace-only input gives
 * `tree: null` (no filter). Never throws.
 */
export function parseFilter(input: string): ParseFilterResult {
  try {
    if (typeof input !== "string") return { ok: false, error: "Filter must be a string at 0", position: 0 };
    if (input.length > FILTER_LIMITS.maxInputLength) {
      const pos = FILTER_LIMITS.maxInputLength;
      return {
        ok: false,
        error: `Filter is too long (max ${pos} characters) at ${pos}`,
        position: pos,
      };
    }
    const tokens = tokenize(input);
    if (tokens.length === 1 && tokens[0].t === "eof") return { ok: true, tree: null };
    const tree = new Parser(tokens).parseAll();
    return { ok: true, tree };
  } catch (e) {
    if (e instanceof FilterError) return { ok: false, error: e.message, position: e.position };
    return { ok: false, error: "Invalid filter at 0", position: 0 };
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers for building and serialising trees
// ---------------------------------------------------------------------------------------------

/**
 * Combines trees with "and", skipping nulls. Top-level "and" nodes are flattened into the result;
 * one remaining tree is returned as is, none gives null. Inputs are not mutated.
 */
export function andAll(...nodes: (FilterNode | null)[]): FilterNode | null {
  const children: FilterNode[] = [];
  for (const node of nodes) {
    if (node == null) continue;
    if (node.kind === "and") children.push(...node.children);
    else children.push(node);
  }
  if (children.length === 0) return null;
  if (children.length === 1) return children[0];
  return { kind: "and", children };
}

function formatValue(field: FilterField, value: FilterValue): string {
  const raw: RawValue =
    typeof value === "string"
      ? { kind: "string", value }
      : typeof value === "number"
        ? { kind: "number", value, raw: String(value) }
        : { kind: "boolean", value };
  const checked = validateValue(field, raw);
  if (!checked.ok) throw new RangeError(`formatFilter: ${checked.error}`);
  if (typeof value === "string") return `'${value.split("'").join("''")}'`;
  return String(value);
}

function checkField(field: string, op: FieldOp | null): FilterField {
  if (!isFilterField(field)) throw new RangeError(`formatFilter: unknown field '${field}'`);
  if (op !== null && !fieldAllows(field, op)) {
    throw new RangeError(`formatFilter: operator '${op}' is not allowed for field '${field}'`);
  }
  return field;
}

/** Strips and/or wrappers with a single child, which mean the same as that child. */
function unwrapSingle(node: FilterNode): FilterNode {
  let current = node;
  while ((current.kind === "and" || current.kind === "or") && current.children.length === 1)
    current = current.children[0];
  return current;
}

/**
 * Serialises a tree to the text syntax so that `parseFilter(formatFilter(t))` gives back `t` for
 * any tree parseFilter can produce (and/or nodes with at least two children, valid values already
 * normalised). Uses the minimum of parentheses. Throws a RangeError for trees that could never be
 * valid (unknown field, disallowed operator, invalid value, empty and/or) so the caller learns about
 * the bug before the server rejects the request.
 */
export function formatFilter(node: FilterNode): string {
  switch (node.kind) {
    case "and":
    case "or": {
      if (node.children.length === 0) throw new RangeError(`formatFilter: '${node.kind}' needs at least one child`);
      if (node.children.length === 1) return formatFilter(node.children[0]);
      return node.children
        .map((child) => {
          const inner = unwrapSingle(child);
          const text = formatFilter(inner);
          // "and" binds tighter than "or", so only an "or" inside an "and" needs parentheses for
          // precedence; a same-kind child gets them too so the parser keeps it a separate node.
          const needsParens = inner.kind === node.kind || (inner.kind === "or" && node.kind === "and");
          return needsParens ? `(${text})` : text;
        })
        .join(` ${node.kind} `);
    }
    case "not": {
      const inner = unwrapSingle(node.child);
      const text = formatFilter(inner);
      return inner.kind === "and" || inner.kind === "or" ? `not (${text})` : `not ${text}`;
    }
    case "cmp": {
      const field = checkField(node.field, node.op);
      return `${field} ${node.op} ${formatValue(field, node.value)}`;
    }
    case "in": {
      const field = checkField(node.field, "in");
      if (node.values.length === 0) throw new RangeError("formatFilter: 'in' needs at least one value");
      return `${field} in (${node.values.map((v) => formatValue(field, v)).join(", ")})`;
    }
    case "null": {
      const field = checkField(node.field, null);
      if (!FILTER_FIELDS[field].nullable) throw new RangeError(`formatFilter: field '${field}' cannot be null`);
      return `${field} is ${node.negated ? "not " : ""}null`;
    }
    default:
      throw new RangeError("formatFilter: unknown node kind");
  }
}
