/**
 * The filter expression's tokenizer: hand-written, linear time, no regular expressions. A lexical
 * error becomes an error token, which the parser reports when (and if) it reaches it.
 */
import { FILTER_LIMITS } from "./fields";

export type Token =
  | { t: "ident"; text: string; pos: number }
  | { t: "string"; value: string; pos: number }
  | { t: "number"; value: number; raw: string; pos: number }
  | { t: "("; pos: number }
  | { t: ")"; pos: number }
  | { t: ","; pos: number }
  | { t: "eof"; pos: number }
  /** A lexical error; the parser reports it when (and if) it reaches this token. */
  | { t: "error"; message: string; pos: number };

export class FilterError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

export function isDigit(c: number): boolean {
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
export function quoteForMessage(s: string): string {
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

export function tokenize(input: string): Token[] {
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
