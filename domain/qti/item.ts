/**
 * Decision 055: a QTI 3.0 assessment item (or a 2.x one, read with 3.0's names) as the model the
 * server scores and the viewer renders. The body is kept as a safe tree: allowed XHTML elements and
 * attributes, typed interactions, feedback apart. `publicItem` is what reaches the learner before review.
 */
import { childNamed, childrenNamed, elements, parseXml, QtiError, textOf, type XmlElement, type XmlNode } from "./xml";
import { BASE_TYPES, parseScalar, type BaseType, type Cardinality, type Scalar } from "./values";
import { isShape, parseCoords, type Shape } from "./geometry";

interface MapEntry {
  key: Scalar;
  value: number;
  caseSensitive: boolean;
}
export interface Mapping {
  defaultValue: number;
  lowerBound: number | null;
  upperBound: number | null;
  entries: MapEntry[];
}
/** A point response's areas and their values (map_response_point, qti-map-response-point). */
export interface AreaMapping {
  defaultValue: number;
  lowerBound: number | null;
  upperBound: number | null;
  entries: { shape: Shape; coords: number[]; value: number }[];
}
export interface ResponseDeclaration {
  identifier: string;
  cardinality: Cardinality;
  baseType: BaseType;
  correct: Scalar[];
  mapping: Mapping | null;
  /** Absent in items stored before decision 056. */
  areaMapping?: AreaMapping | null;
}
export interface OutcomeDeclaration {
  identifier: string;
  cardinality: Cardinality;
  baseType: BaseType | null;
  defaultValue: Scalar[];
  normalMaximum: number | null;
  externalScored: string | null;
}

interface Choice {
  identifier: string;
  fixed: boolean;
  content: BodyNode[];
}
interface AssociableChoice extends Choice {
  matchMax: number;
}
/** The image of a graphic interaction (its src a data: URI once imported). */
export interface GraphicImage {
  src: string;
  width: number | null;
  height: number | null;
  alt: string;
}
/** An area of a graphic interaction's image: drawn, and named in the keyboard alternative. */
export interface Hotspot {
  identifier: string;
  shape: Shape;
  coords: number[];
  label: string | null;
  matchMax: number;
}
interface GapChoice {
  identifier: string;
  matchMax: number;
  fixed: boolean;
  text: string;
  image: GraphicImage | null;
}

export type Interaction =
  | {
      type: "choice";
      response: string;
      prompt: BodyNode[];
      shuffle: boolean;
      maxChoices: number;
      minChoices: number;
      orientation: string | null;
      choices: Choice[];
    }
  | { type: "textEntry"; response: string; expectedLength: number | null; placeholder: string | null }
  | {
      type: "extendedText";
      response: string;
      prompt: BodyNode[];
      expectedLines: number | null;
      expectedLength: number | null;
      placeholder: string | null;
    }
  | {
      /** A file the learner sends (issue 48, decision 068): a person scores it; `types` the MIME types asked for (empty: any the product takes). */
      type: "upload";
      response: string;
      prompt: BodyNode[];
      types: string[];
    }
  | {
      type: "inlineChoice";
      response: string;
      shuffle: boolean;
      choices: { identifier: string; fixed: boolean; text: string }[];
    }
  | { type: "order"; response: string; prompt: BodyNode[]; shuffle: boolean; choices: Choice[] }
  | {
      type: "match";
      response: string;
      prompt: BodyNode[];
      shuffle: boolean;
      maxAssociations: number;
      sources: AssociableChoice[];
      targets: AssociableChoice[];
    }
  | {
      type: "gapMatch";
      response: string;
      prompt: BodyNode[];
      shuffle: boolean;
      /** The words and pictures that fill the gaps (`qti-gap-text`, `qti-gap-img`), in the item's order. */
      gapTexts: GapChoice[];
      content: BodyNode[];
    }
  | { type: "slider"; response: string; prompt: BodyNode[]; lowerBound: number; upperBound: number; step: number }
  | {
      type: "hottext";
      response: string;
      prompt: BodyNode[];
      maxChoices: number;
      minChoices: number;
      content: BodyNode[];
    }
  | {
      type: "associate";
      response: string;
      prompt: BodyNode[];
      shuffle: boolean;
      maxAssociations: number;
      minAssociations: number;
      choices: AssociableChoice[];
    }
  | {
      type: "hotspot";
      response: string;
      prompt: BodyNode[];
      maxChoices: number;
      minChoices: number;
      image: GraphicImage;
      hotspots: Hotspot[];
    }
  | {
      type: "selectPoint";
      response: string;
      prompt: BodyNode[];
      maxChoices: number;
      minChoices: number;
      image: GraphicImage;
    }
  | { type: "graphicOrder"; response: string; prompt: BodyNode[]; image: GraphicImage; hotspots: Hotspot[] }
  | {
      type: "graphicAssociate";
      response: string;
      prompt: BodyNode[];
      maxAssociations: number;
      minAssociations: number;
      image: GraphicImage;
      hotspots: Hotspot[];
    }
  | {
      type: "graphicGapMatch";
      response: string;
      prompt: BodyNode[];
      shuffle: boolean;
      image: GraphicImage;
      hotspots: Hotspot[];
      gapChoices: GapChoice[];
    };

export type BodyNode =
  | { kind: "text"; text: string }
  | { kind: "element"; tag: string; attrs: Record<string, string>; children: BodyNode[] }
  | { kind: "interaction"; interaction: Interaction }
  | { kind: "gap"; identifier: string }
  | { kind: "hottext"; identifier: string; children: BodyNode[] }
  | {
      kind: "feedback";
      block: boolean;
      outcome: string;
      identifier: string;
      showHide: "show" | "hide";
      children: BodyNode[];
    };

interface ModalFeedback {
  outcome: string;
  identifier: string;
  showHide: "show" | "hide";
  title: string | null;
  content: BodyNode[];
}

export interface AssessmentItem {
  identifier: string;
  title: string;
  lang: string | null;
  dir: "ltr" | "rtl" | null;
  responses: ResponseDeclaration[];
  outcomes: OutcomeDeclaration[];
  body: BodyNode[];
  /** The standard template's name (match_correct, map_response, map_response_point), or null. */
  template: "match_correct" | "map_response" | "map_response_point" | null;
  /** The rules of a response processing written out (3.0 names), or null. */
  rules: XmlElement | null;
  modalFeedback: ModalFeedback[];
  /** An item a person scores (an essay or an upload without a correct response, or external-scored="human"). */
  needsPerson: boolean;
}

/** Elements of an item body that are rendered (XHTML's safe part and MathML's root); the rest is refused. */
const ALLOWED = new Set([
  "p",
  "div",
  "span",
  "br",
  "hr",
  "strong",
  "em",
  "b",
  "i",
  "u",
  "sub",
  "sup",
  "small",
  "big",
  "code",
  "pre",
  "kbd",
  "samp",
  "var",
  "q",
  "blockquote",
  "cite",
  "abbr",
  "acronym",
  "dfn",
  "address",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "caption",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "col",
  "colgroup",
  "img",
  "figure",
  "figcaption",
  "a",
  "ruby",
  "rt",
  "rp",
  "bdo",
  "bdi",
  "mark",
  "del",
  "ins",
  "s",
  "label",
  "section",
  "article",
  "aside",
  "header",
  "footer",
  "nav",
  "details",
  "summary",
]);
/** Wrappers whose content is shown in their place. */
const TRANSPARENT = new Set(["qti-content-body", "qti-item-body", "qti-printed-variable"]);
const ATTRS = new Set([
  "lang",
  "dir",
  "title",
  "alt",
  "src",
  "width",
  "height",
  "colspan",
  "rowspan",
  "scope",
  "abbr",
  "href",
  "start",
  "type",
]);

const num = (v: string | undefined, fallback: number) => {
  if (v === undefined || v.trim() === "") return fallback;
  const n = Number(v);
  return Number.isFinite(n) ? n : fallback;
};
const bool = (v: string | undefined, fallback: boolean) => (v === undefined ? fallback : v === "true" || v === "1");

interface Ctx {
  file: string;
  item: string;
}

function refuse(ctx: Ctx, code: string, why: string): never {
  throw new QtiError(code, `item "${ctx.item}": ${why}`, ctx.file);
}

function safeAttrs(e: XmlElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.attrs)) {
    if (!ATTRS.has(k)) continue;
    if ((k === "src" || k === "href") && /^\s*(javascript|data|vbscript):/i.test(v)) continue;
    out[k] = v;
  }
  return out;
}

function choiceList(ctx: Ctx, e: XmlElement, name: string): Choice[] {
  return childrenNamed(e, name).map((c) => {
    const identifier = c.attrs.identifier;
    if (!identifier) refuse(ctx, "qtiInvalid", `a <${name}> has no identifier.`);
    return { identifier, fixed: bool(c.attrs.fixed, false), content: body(ctx, c.children) };
  });
}

function promptOf(ctx: Ctx, e: XmlElement) {
  const p = childNamed(e, "qti-prompt");
  return p ? body(ctx, p.children) : [];
}

const UNSAFE_SRC = /^\s*(javascript|vbscript|data):/i;
const size = (v: string | undefined) => (v && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : null);

/** The image of a graphic interaction or a gap image: an <img>, or an <object> of an image type (QTI 2.x). */
function imageOf(e: XmlElement): GraphicImage | null {
  const el = elements(e).find((c) => c.name === "img" || c.name === "object");
  if (!el) return null;
  const src = el.name === "img" ? el.attrs.src : el.attrs.data;
  if (!src || UNSAFE_SRC.test(src)) return null;
  if (el.name === "object" && el.attrs.type && !el.attrs.type.startsWith("image/")) return null;
  return {
    src,
    width: size(el.attrs.width),
    height: size(el.attrs.height),
    alt: (el.name === "img" ? (el.attrs.alt ?? "") : textOf(el)).replace(/\s+/g, " ").trim(),
  };
}

/**
 * The words (`qti-gap-text`) and pictures (`qti-gap-img`) of a gap match, in the item's order. A picture's
 * text is its `object-label`, else its image's alternative text, else its identifier: the name the gap's
 * select offers, and what the picture is called beside it.
 */
function gapChoicesOf(ctx: Ctx, e: XmlElement): GapChoice[] {
  return elements(e)
    .filter((g) => g.name === "qti-gap-img" || g.name === "qti-gap-text")
    .map((g) => {
      const identifier = g.attrs.identifier ?? refuse(ctx, "qtiInvalid", `a <${g.name}> has no identifier.`);
      const image = g.name === "qti-gap-img" ? imageOf(g) : null;
      if (g.name === "qti-gap-img" && !image) refuse(ctx, "qtiInvalid", `the gap image "${identifier}" has no image.`);
      const text = (g.name === "qti-gap-text" ? textOf(g) : (g.attrs["object-label"] ?? image?.alt ?? ""))
        .replace(/\s+/g, " ")
        .trim();
      return {
        identifier,
        matchMax: num(g.attrs["match-max"], 1),
        fixed: bool(g.attrs.fixed, false),
        text: text || identifier,
        image,
      };
    });
}

function graphicImage(ctx: Ctx, e: XmlElement): GraphicImage {
  return (
    imageOf(e) ??
    refuse(ctx, "qtiInvalid", `the interaction <${e.name}> has no image (an <img>, or an <object> of an image type).`)
  );
}

function hotspotsOf(ctx: Ctx, e: XmlElement, name: string): Hotspot[] {
  const list = childrenNamed(e, name).map((h) => {
    const identifier = h.attrs.identifier ?? refuse(ctx, "qtiInvalid", `a <${name}> has no identifier.`);
    const shape = h.attrs.shape;
    if (!isShape(shape))
      refuse(
        ctx,
        "qtiInvalid",
        `the hotspot "${identifier}" has the shape "${shape ?? ""}", which is not one of QTI's.`,
      );
    const coords = parseCoords(shape, h.attrs.coords);
    if (!coords)
      refuse(
        ctx,
        "qtiInvalid",
        `the hotspot "${identifier}" has coords "${h.attrs.coords ?? ""}" that do not fit a ${shape}.`,
      );
    const label = (h.attrs["hotspot-label"] ?? textOf(h)).replace(/\s+/g, " ").trim();
    return { identifier, shape, coords, label: label || null, matchMax: num(h.attrs["match-max"], 1) };
  });
  if (list.length === 0) refuse(ctx, "qtiInvalid", `<${e.name}> has no <${name}>.`);
  return list;
}

function associableChoices(ctx: Ctx, e: XmlElement): AssociableChoice[] {
  return childrenNamed(e, "qti-simple-associable-choice").map((c) => ({
    identifier: c.attrs.identifier ?? refuse(ctx, "qtiInvalid", "an associable choice has no identifier."),
    fixed: bool(c.attrs.fixed, false),
    matchMax: num(c.attrs["match-max"], 1),
    content: body(ctx, c.children),
  }));
}

/** An upload interaction's `type`: MIME types, separated by spaces or commas, lower case, each once. */
export function mimeTypesOf(attr: string | undefined): string[] {
  const list = (attr ?? "")
    .split(/[\s,]+/)
    .map((t) => t.trim().toLowerCase())
    .filter((t) => /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+*-]+$/.test(t));
  return [...new Set(list)];
}

function interaction(ctx: Ctx, e: XmlElement): Interaction {
  const response = e.attrs["response-identifier"];
  if (!response) refuse(ctx, "qtiInvalid", `<${e.name}> has no response-identifier.`);
  const shuffle = bool(e.attrs.shuffle, false);
  switch (e.name) {
    case "qti-choice-interaction":
      return {
        type: "choice",
        response,
        prompt: promptOf(ctx, e),
        shuffle,
        maxChoices: num(e.attrs["max-choices"], 1),
        minChoices: num(e.attrs["min-choices"], 0),
        orientation: e.attrs.orientation ?? null,
        choices: choiceList(ctx, e, "qti-simple-choice"),
      };
    case "qti-text-entry-interaction":
      return {
        type: "textEntry",
        response,
        expectedLength: e.attrs["expected-length"] ? num(e.attrs["expected-length"], 0) : null,
        placeholder: e.attrs["placeholder-text"] ?? null,
      };
    case "qti-extended-text-interaction":
      return {
        type: "extendedText",
        response,
        prompt: promptOf(ctx, e),
        expectedLines: e.attrs["expected-lines"] ? num(e.attrs["expected-lines"], 0) : null,
        expectedLength: e.attrs["expected-length"] ? num(e.attrs["expected-length"], 0) : null,
        placeholder: e.attrs["placeholder-text"] ?? null,
      };
    case "qti-upload-interaction":
      return { type: "upload", response, prompt: promptOf(ctx, e), types: mimeTypesOf(e.attrs.type) };
    case "qti-inline-choice-interaction":
      return {
        type: "inlineChoice",
        response,
        shuffle,
        choices: childrenNamed(e, "qti-inline-choice").map((c) => ({
          identifier: c.attrs.identifier ?? refuse(ctx, "qtiInvalid", "a <qti-inline-choice> has no identifier."),
          fixed: bool(c.attrs.fixed, false),
          text: textOf(c).trim(),
        })),
      };
    case "qti-order-interaction":
      return {
        type: "order",
        response,
        prompt: promptOf(ctx, e),
        shuffle,
        choices: choiceList(ctx, e, "qti-simple-choice"),
      };
    case "qti-match-interaction": {
      const sets = childrenNamed(e, "qti-simple-match-set");
      if (sets.length !== 2) refuse(ctx, "qtiInvalid", "a match interaction needs two <qti-simple-match-set>.");
      const assoc = (set: XmlElement): AssociableChoice[] =>
        childrenNamed(set, "qti-simple-associable-choice").map((c) => ({
          identifier: c.attrs.identifier ?? refuse(ctx, "qtiInvalid", "an associable choice has no identifier."),
          fixed: bool(c.attrs.fixed, false),
          matchMax: num(c.attrs["match-max"], 1),
          content: body(ctx, c.children),
        }));
      return {
        type: "match",
        response,
        prompt: promptOf(ctx, e),
        shuffle,
        maxAssociations: num(e.attrs["max-associations"], 1),
        sources: assoc(sets[0]!),
        targets: assoc(sets[1]!),
      };
    }
    case "qti-gap-match-interaction": {
      const gapTexts = gapChoicesOf(ctx, e);
      const content = body(
        ctx,
        e.children.filter(
          (c) => typeof c === "string" || !["qti-prompt", "qti-gap-text", "qti-gap-img"].includes(c.name),
        ),
      );
      return { type: "gapMatch", response, prompt: promptOf(ctx, e), shuffle, gapTexts, content };
    }
    case "qti-slider-interaction":
      return {
        type: "slider",
        response,
        prompt: promptOf(ctx, e),
        lowerBound: num(e.attrs["lower-bound"], 0),
        upperBound: num(e.attrs["upper-bound"], 10),
        step: num(e.attrs.step, 1),
      };
    case "qti-hottext-interaction":
      return {
        type: "hottext",
        response,
        prompt: promptOf(ctx, e),
        maxChoices: num(e.attrs["max-choices"], 1),
        minChoices: num(e.attrs["min-choices"], 0),
        content: body(
          ctx,
          e.children.filter((c) => typeof c === "string" || c.name !== "qti-prompt"),
        ),
      };
    case "qti-associate-interaction":
      return {
        type: "associate",
        response,
        prompt: promptOf(ctx, e),
        shuffle,
        maxAssociations: num(e.attrs["max-associations"], 1),
        minAssociations: num(e.attrs["min-associations"], 0),
        choices: associableChoices(ctx, e),
      };
    case "qti-hotspot-interaction":
      return {
        type: "hotspot",
        response,
        prompt: promptOf(ctx, e),
        maxChoices: num(e.attrs["max-choices"], 1),
        minChoices: num(e.attrs["min-choices"], 0),
        image: graphicImage(ctx, e),
        hotspots: hotspotsOf(ctx, e, "qti-hotspot-choice"),
      };
    case "qti-select-point-interaction":
      return {
        type: "selectPoint",
        response,
        prompt: promptOf(ctx, e),
        maxChoices: num(e.attrs["max-choices"], 1),
        minChoices: num(e.attrs["min-choices"], 0),
        image: graphicImage(ctx, e),
      };
    case "qti-graphic-order-interaction":
      return {
        type: "graphicOrder",
        response,
        prompt: promptOf(ctx, e),
        image: graphicImage(ctx, e),
        hotspots: hotspotsOf(ctx, e, "qti-hotspot-choice"),
      };
    case "qti-graphic-associate-interaction":
      return {
        type: "graphicAssociate",
        response,
        prompt: promptOf(ctx, e),
        maxAssociations: num(e.attrs["max-associations"], 1),
        minAssociations: num(e.attrs["min-associations"], 0),
        image: graphicImage(ctx, e),
        hotspots: hotspotsOf(ctx, e, "qti-associable-hotspot"),
      };
    case "qti-graphic-gap-match-interaction": {
      const gapChoices = gapChoicesOf(ctx, e);
      if (gapChoices.length === 0)
        refuse(ctx, "qtiInvalid", "a graphic gap match interaction has no gap image or text.");
      return {
        type: "graphicGapMatch",
        response,
        prompt: promptOf(ctx, e),
        shuffle,
        image: graphicImage(ctx, e),
        hotspots: hotspotsOf(ctx, e, "qti-associable-hotspot"),
        gapChoices,
      };
    }
    default:
      return refuse(
        ctx,
        "qtiUnsupported",
        `the interaction <${e.name}> is not delivered by this product (choice, text entry, extended text, upload, inline choice, order, match, associate, gap match, hot text, slider, hotspot, select point, graphic order, graphic associate and graphic gap match are).`,
      );
  }
}

function feedbackNode(ctx: Ctx, e: XmlElement, block: boolean): BodyNode {
  return {
    kind: "feedback",
    block,
    outcome: e.attrs["outcome-identifier"] ?? "FEEDBACK",
    identifier: e.attrs.identifier ?? "",
    showHide: e.attrs["show-hide"] === "hide" ? "hide" : "show",
    children: body(ctx, e.children),
  };
}

function body(ctx: Ctx, nodes: XmlNode[]): BodyNode[] {
  const out: BodyNode[] = [];
  for (const n of nodes) {
    if (typeof n === "string") {
      out.push({ kind: "text", text: n });
      continue;
    }
    if (n.name.endsWith("-interaction")) out.push({ kind: "interaction", interaction: interaction(ctx, n) });
    else if (n.name === "qti-gap") out.push({ kind: "gap", identifier: n.attrs.identifier ?? "" });
    else if (n.name === "qti-hottext")
      out.push({
        kind: "hottext",
        identifier: n.attrs.identifier ?? refuse(ctx, "qtiInvalid", "a <qti-hottext> has no identifier."),
        children: body(ctx, n.children),
      });
    else if (n.name === "qti-feedback-inline") out.push(feedbackNode(ctx, n, false));
    else if (n.name === "qti-feedback-block") out.push(feedbackNode(ctx, n, true));
    else if (TRANSPARENT.has(n.name)) out.push(...body(ctx, n.children));
    else if (n.name === "qti-rubric-block" || n.name === "qti-stylesheet" || n.name === "qti-prompt") continue;
    else if (n.name === "math")
      out.push({
        kind: "element",
        tag: "span",
        attrs: { class: "math" },
        children: [{ kind: "text", text: textOf(n) }],
      });
    else if (n.name === "object" || n.name === "video" || n.name === "audio" || n.name === "picture")
      out.push({ kind: "element", tag: "span", attrs: {}, children: body(ctx, n.children) });
    else if (ALLOWED.has(n.name))
      out.push({ kind: "element", tag: n.name, attrs: safeAttrs(n), children: body(ctx, n.children) });
    else if (n.name.startsWith("qti-"))
      refuse(ctx, "qtiUnsupported", `<${n.name}> in the item body is not delivered by this product.`);
    // Anything else (script, style, iframe, form, an unknown element) is left out with its content.
  }
  return out;
}

function valuesOf(ctx: Ctx, e: XmlElement | undefined, baseType: BaseType | null, what: string): Scalar[] {
  if (!e) return [];
  return childrenNamed(e, "qti-value").map((v) => {
    const s = parseScalar(baseType ?? "string", textOf(v));
    if (s === null) refuse(ctx, "qtiInvalid", `${what}: "${textOf(v)}" is not a ${baseType}.`);
    return s;
  });
}

function baseTypeOf(ctx: Ctx, e: XmlElement, required: boolean): BaseType | null {
  const b = e.attrs["base-type"];
  if (!b)
    return required
      ? refuse(ctx, "qtiInvalid", `<${e.name} identifier="${e.attrs.identifier}"> has no base-type.`)
      : null;
  if (!BASE_TYPES.includes(b as BaseType)) refuse(ctx, "qtiInvalid", `base-type "${b}" is not one of QTI's.`);
  return b as BaseType;
}

const CARDINALITIES = ["single", "multiple", "ordered", "record"];
function cardinalityOf(ctx: Ctx, e: XmlElement): Cardinality {
  const c = e.attrs.cardinality ?? "single";
  if (!CARDINALITIES.includes(c)) refuse(ctx, "qtiInvalid", `cardinality "${c}" is not one of QTI's.`);
  return c as Cardinality;
}

function responseDeclaration(ctx: Ctx, e: XmlElement): ResponseDeclaration {
  const identifier = e.attrs.identifier ?? refuse(ctx, "qtiInvalid", "a response declaration has no identifier.");
  const baseType = baseTypeOf(ctx, e, true)!;
  const m = childNamed(e, "qti-mapping");
  let mapping: Mapping | null = null;
  if (m) {
    mapping = {
      defaultValue: num(m.attrs["default-value"], 0),
      lowerBound: m.attrs["lower-bound"] !== undefined ? num(m.attrs["lower-bound"], 0) : null,
      upperBound: m.attrs["upper-bound"] !== undefined ? num(m.attrs["upper-bound"], 0) : null,
      entries: childrenNamed(m, "qti-map-entry").map((me) => {
        const key = parseScalar(baseType, me.attrs["map-key"] ?? "");
        if (key === null) refuse(ctx, "qtiInvalid", `map key "${me.attrs["map-key"]}" is not a ${baseType}.`);
        return {
          key,
          value: num(me.attrs["mapped-value"], 0),
          caseSensitive: bool(me.attrs["case-sensitive"], true),
        };
      }),
    };
  }
  const am = childNamed(e, "qti-area-mapping");
  let areaMapping: AreaMapping | null = null;
  if (am)
    areaMapping = {
      defaultValue: num(am.attrs["default-value"], 0),
      lowerBound: am.attrs["lower-bound"] !== undefined ? num(am.attrs["lower-bound"], 0) : null,
      upperBound: am.attrs["upper-bound"] !== undefined ? num(am.attrs["upper-bound"], 0) : null,
      entries: childrenNamed(am, "qti-area-map-entry").map((me) => {
        const shape = me.attrs.shape;
        if (!isShape(shape)) refuse(ctx, "qtiInvalid", `an area map entry has the shape "${shape ?? ""}".`);
        const coords = parseCoords(shape, me.attrs.coords);
        if (!coords)
          refuse(ctx, "qtiInvalid", `an area map entry's coords "${me.attrs.coords ?? ""}" do not fit a ${shape}.`);
        return { shape, coords, value: num(me.attrs["mapped-value"], 0) };
      }),
    };
  return {
    identifier,
    cardinality: cardinalityOf(ctx, e),
    baseType,
    areaMapping,
    correct: valuesOf(ctx, childNamed(e, "qti-correct-response"), baseType, `correct response of ${identifier}`),
    mapping,
  };
}

export function outcomeDeclaration(ctx: Ctx, e: XmlElement): OutcomeDeclaration {
  const baseType = baseTypeOf(ctx, e, false);
  return {
    identifier: e.attrs.identifier ?? refuse(ctx, "qtiInvalid", "an outcome declaration has no identifier."),
    cardinality: cardinalityOf(ctx, e),
    baseType,
    defaultValue: valuesOf(ctx, childNamed(e, "qti-default-value"), baseType, `default of ${e.attrs.identifier}`),
    normalMaximum: e.attrs["normal-maximum"] !== undefined ? num(e.attrs["normal-maximum"], 0) : null,
    externalScored: e.attrs["external-scored"] ?? null,
  };
}

function templateOf(ctx: Ctx, rp: XmlElement): AssessmentItem["template"] {
  const uri = rp.attrs.template ?? rp.attrs["template-location"];
  if (!uri) return null;
  if (/match_correct/.test(uri)) return "match_correct";
  if (/map_response_point/.test(uri)) return "map_response_point";
  if (/map_response/.test(uri)) return "map_response";
  return refuse(ctx, "qtiUnsupported", `the response processing template "${uri}" is not one of the standard ones.`);
}

function collectInteractions(nodes: BodyNode[], out: Interaction[] = []): Interaction[] {
  for (const n of nodes) {
    if (n.kind === "interaction") {
      out.push(n.interaction);
      if (n.interaction.type === "gapMatch" || n.interaction.type === "hottext")
        collectInteractions(n.interaction.content, out);
    } else if (n.kind === "element" || n.kind === "feedback") collectInteractions(n.children, out);
  }
  return out;
}

/** The identifiers of the hot texts in some content, in document order. */
export function hottextsOf(nodes: BodyNode[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (n.kind === "hottext") out.push(n.identifier);
    if (n.kind === "hottext" || n.kind === "element") hottextsOf(n.children, out);
  }
  return out;
}

export const interactionsOf = (item: Pick<AssessmentItem, "body">) => collectInteractions(item.body);

/** Parses one item document; throws QtiError naming the file and the item for what cannot be delivered. */
export function parseItem(xml: string, file = "item.xml"): AssessmentItem {
  const root = parseXml(xml, file);
  if (root.name !== "qti-assessment-item")
    throw new QtiError("qtiNotItem", `is not an assessment item (its root is <${root.name}>).`, file);
  const ctx: Ctx = { file, item: root.attrs.identifier ?? "?" };
  if (!root.attrs.identifier) refuse(ctx, "qtiInvalid", "the item has no identifier.");
  const responses = childrenNamed(root, "qti-response-declaration").map((e) => responseDeclaration(ctx, e));
  const outcomes = childrenNamed(root, "qti-outcome-declaration").map((e) => outcomeDeclaration(ctx, e));
  const bodyEl = childNamed(root, "qti-item-body");
  const itemBody = bodyEl ? body(ctx, bodyEl.children) : [];
  const rp = childNamed(root, "qti-response-processing");
  const template = rp ? templateOf(ctx, rp) : null;
  const rules = rp && !template && elements(rp).length > 0 ? rp : null;
  if (rules) validateRules(ctx, rules);
  const modalFeedback = childrenNamed(root, "qti-modal-feedback").map((m) => ({
    outcome: m.attrs["outcome-identifier"] ?? "FEEDBACK",
    identifier: m.attrs.identifier ?? "",
    showHide: m.attrs["show-hide"] === "hide" ? ("hide" as const) : ("show" as const),
    title: m.attrs.title ?? null,
    content: body(ctx, m.children),
  }));
  const interactions = collectInteractions(itemBody);
  for (const i of interactions)
    if (!responses.some((r) => r.identifier === i.response))
      refuse(ctx, "qtiInvalid", `the interaction's response "${i.response}" is not declared.`);
  for (const i of interactions) {
    if (i.type !== "upload") continue;
    const d = responses.find((r) => r.identifier === i.response)!;
    if (d.baseType !== "file" || d.cardinality !== "single")
      refuse(
        ctx,
        "qtiInvalid",
        `the upload interaction's response "${i.response}" must be declared base-type="file" cardinality="single".`,
      );
  }
  const human = outcomes.some((o) => o.externalScored === "human");
  const essay = interactions.some((i) => {
    if (i.type === "upload") return true;
    if (i.type !== "extendedText") return false;
    const d = responses.find((r) => r.identifier === i.response);
    return !d || (d.correct.length === 0 && !d.mapping);
  });
  const dir = root.attrs.dir === "rtl" || root.attrs.dir === "ltr" ? root.attrs.dir : null;
  return {
    identifier: root.attrs.identifier!,
    title: root.attrs.title ?? root.attrs.identifier!,
    lang: root.attrs.lang ?? null,
    dir,
    responses,
    outcomes,
    body: itemBody,
    template,
    rules,
    modalFeedback,
    needsPerson:
      human || (essay && (template !== null || rules !== null || outcomes.some((o) => o.identifier === "SCORE"))),
  };
}

/** Expressions and rules the engine evaluates (processing.ts); anything else is refused at import. */
const KNOWN_RULES = new Set([
  "qti-response-condition",
  "qti-response-if",
  "qti-response-else-if",
  "qti-response-else",
  "qti-set-outcome-value",
  "qti-exit-response",
  "qti-response-processing-fragment",
  "qti-lookup-outcome-value",
  "qti-outcome-condition",
  "qti-outcome-if",
  "qti-outcome-else-if",
  "qti-outcome-else",
  "qti-exit-test",
  "qti-outcome-processing-fragment",
  "qti-match-table",
  "qti-match-table-entry",
  "qti-interpolation-table",
  "qti-interpolation-table-entry",
]);
const KNOWN_EXPRESSIONS = new Set([
  "qti-base-value",
  "qti-variable",
  "qti-correct",
  "qti-default",
  "qti-null",
  "qti-multiple",
  "qti-ordered",
  "qti-is-null",
  "qti-match",
  "qti-member",
  "qti-contains",
  "qti-delete",
  "qti-map-response",
  "qti-sum",
  "qti-product",
  "qti-subtract",
  "qti-divide",
  "qti-min",
  "qti-max",
  "qti-round",
  "qti-truncate",
  "qti-integer-divide",
  "qti-and",
  "qti-or",
  "qti-not",
  "qti-gt",
  "qti-gte",
  "qti-lt",
  "qti-lte",
  "qti-equal",
  "qti-equal-rounded",
  "qti-string-match",
  "qti-pattern-match",
  "qti-container-size",
  "qti-index",
  "qti-test-variables",
  "qti-outcome-maximum",
  "qti-outcome-minimum",
  "qti-number-correct",
  "qti-number-incorrect",
  "qti-number-responded",
  "qti-number-presented",
  "qti-number-selected",
  "qti-inside",
  "qti-map-response-point",
]);

export function validateRules(ctx: Ctx, rules: XmlElement) {
  for (const e of elements(rules)) {
    if (!KNOWN_RULES.has(e.name) && !KNOWN_EXPRESSIONS.has(e.name))
      refuse(ctx, "qtiUnsupported", `<${e.name}> in response or outcome processing is not evaluated by this product.`);
    if (e.name !== "qti-base-value") validateRules(ctx, e);
  }
}
