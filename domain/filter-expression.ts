/**
 * Spec 7.2: the `filter` query-string parameter of `GET objective-workflow-aggregates/query`.
 *
 * A small, whitelisted boolean expression language over the fields of a learner's course access
 * ("objective-workflow aggregate"). This module only parses and validates it into a typed tree;
 * SQL is built elsewhere from the tree, with bound parameters only. The module is pure (no I/O)
 * and `parseFilter` never throws. This file is the grammar and its parser; beside it, in
 * filter-expression/: the fields a filter may name and the tree it parses to (fields.ts), the
 * tokenizer (tokens.ts), the literals checked against their field (values.ts), and building and
 * writing trees (format.ts).
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

import {
  COMPARE_OPS,
  FILTER_FIELDS,
  FILTER_LIMITS,
  fieldAllows,
  isFilterField,
  type CompareOp,
  type FilterField,
  type FilterNode,
  type FilterValue,
  type ParseFilterResult,
} from "./filter-expression/fields";
import { FilterError, quoteForMessage, tokenize, type Token } from "./filter-expression/tokens";
import { validateValue, type RawValue } from "./filter-expression/values";

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
