/**
 * Decision 055: a QTI document as one tree of elements, read with fast-xml-parser in document
 * order (an item body is mixed content). QTI 2.1/2.2 names are mapped to 3.0's on the way
 * (`choiceInteraction` → `qti-choice-interaction`, `responseIdentifier` → `response-identifier`), so that
 * one reader serves both. A document type is refused before the parser sees it (no entities, no XXE).
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** A document the import cannot use: the file, the line when known, and the reason (issue 48 item 4). */
export class QtiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly file: string | null = null,
    readonly line: number | null = null,
  ) {
    super(file ? `${file}${line ? `:${line}` : ""}: ${message}` : message);
    this.name = "QtiError";
  }
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: "#comment",
});

/** QTI 2.x element names written in lower case (the others are camelCase and convert by rule). */
const QTI2_LOWER = new Set([
  "value",
  "mapping",
  "prompt",
  "match",
  "variable",
  "correct",
  "sum",
  "and",
  "or",
  "not",
  "equal",
  "member",
  "gte",
  "lte",
  "gt",
  "lt",
  "product",
  "subtract",
  "divide",
  "multiple",
  "ordered",
  "null",
  "delete",
  "contains",
  "index",
  "round",
  "truncate",
  "min",
  "max",
  "substring",
  "inside",
  "power",
  "selection",
  "ordering",
  "weight",
  "stylesheet",
  "gap",
  "hottext",
  "default",
  "interpretation",
  "random",
  "gcd",
  "lcm",
]);

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The 3.0 name of a QTI 2.x element (XHTML elements keep theirs). */
function qti3Name(name: string): string {
  if (/[A-Z]/.test(name) || QTI2_LOWER.has(name)) return `qti-${kebab(name)}`;
  return name;
}

type Raw = Record<string, unknown>;

function convert(raw: Raw[], qti2: boolean): XmlNode[] {
  const out: XmlNode[] = [];
  for (const entry of raw) {
    if ("#text" in entry) {
      out.push(String(entry["#text"]));
      continue;
    }
    if ("#comment" in entry) continue;
    const key = Object.keys(entry).find((k) => k !== ":@");
    if (!key || key.startsWith("?")) continue;
    const rawAttrs = (entry[":@"] ?? {}) as Record<string, unknown>;
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawAttrs)) attrs[qti2 ? kebab(k) : k] = String(v);
    out.push({
      name: qti2 ? qti3Name(key) : key,
      attrs,
      children: convert((entry[key] ?? []) as Raw[], qti2),
    });
  }
  return out;
}

/** The line of a character offset (1-based). */
const lineAt = (xml: string, offset: number) => xml.slice(0, offset).split("\n").length;

/** Reads one XML document into its root element; refuses a DOCTYPE and what is not well formed. */
export function parseXml(xml: string, file: string): XmlElement {
  const doctype = xml.search(/<!DOCTYPE/i);
  if (doctype >= 0)
    throw new QtiError(
      "qtiDoctype",
      "declares a document type (DOCTYPE), which QTI has no use for.",
      file,
      lineAt(xml, doctype),
    );
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new QtiError("qtiNotXml", `is not well-formed XML: ${valid.err.msg}`, file, valid.err.line);
  let raw: Raw[];
  try {
    raw = parser.parse(xml) as Raw[];
  } catch (e) {
    throw new QtiError("qtiNotXml", `could not be read: ${(e as Error).message}`, file);
  }
  const rootName = raw
    .map((e) => Object.keys(e).find((k) => k !== ":@" && !k.startsWith("?") && k !== "#text" && k !== "#comment"))
    .find(Boolean);
  const qti2 = !!rootName && /^[a-z]+[A-Z]/.test(rootName) && !rootName.startsWith("qti-");
  const root = convert(raw, qti2).find((n): n is XmlElement => typeof n !== "string");
  if (!root) throw new QtiError("qtiNotXml", "has no root element.", file);
  return root;
}

export const elements = (n: XmlElement) => n.children.filter((c): c is XmlElement => typeof c !== "string");
export const childrenNamed = (n: XmlElement, name: string) => elements(n).filter((c) => c.name === name);
export const childNamed = (n: XmlElement, name: string) => elements(n).find((c) => c.name === name);
export const textOf = (n: XmlNode): string => (typeof n === "string" ? n : n.children.map(textOf).join(""));
