/**
 * What the learner sends for an item (strings per response, from a form or the API) as QTI values,
 * checked against the item's interactions: an unknown choice, too many choices or a value of the wrong
 * type is refused (the API's 400), never stored.
 */
import { hottextsOf, interactionsOf, type AssessmentItem, type Interaction } from "./item";
import { pointOf } from "./geometry";
import { parseScalar, type QtiValue, type Scalar } from "./values";

export type RawResponses = Record<string, string[]>;

export class ResponseError extends Error {
  constructor(
    readonly code: "responseUnknown" | "responseInvalid" | "responseTooMany",
    readonly response: string,
    message: string,
  ) {
    super(message);
  }
}

const MAX_TEXT = 20_000;
const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function allowedKeys(i: Interaction): Set<string> | null {
  switch (i.type) {
    case "choice":
    case "order":
    case "inlineChoice":
      return new Set(i.choices.map((c) => c.identifier));
    case "hottext":
      return new Set(hottextsOf(i.content));
    case "hotspot":
    case "graphicOrder":
      return new Set(i.hotspots.map((h) => h.identifier));
    default:
      return null;
  }
}

/** Turns raw strings into values; responses the item does not have are refused. Empty means no response. */
export function toResponses(item: AssessmentItem, raw: RawResponses): Map<string, QtiValue> {
  const interactions = new Map(interactionsOf(item).map((i) => [i.response, i]));
  const out = new Map<string, QtiValue>();
  for (const [id, given] of Object.entries(raw)) {
    const decl = item.responses.find((r) => r.identifier === id);
    const interaction = interactions.get(id);
    if (!decl || !interaction) throw new ResponseError("responseUnknown", id, `This item has no response "${id}".`);
    const strings = given
      .map((s) => (interaction.type === "extendedText" || interaction.type === "textEntry" ? s : s.trim()))
      .filter((s) => s !== "");
    if (strings.some((s) => s.length > MAX_TEXT))
      throw new ResponseError("responseInvalid", id, "The answer is too long.");
    const keys = allowedKeys(interaction);
    const values: Scalar[] = [];
    for (const s of strings) {
      const v = parseScalar(decl.baseType, s);
      if (v === null) throw new ResponseError("responseInvalid", id, `"${s.slice(0, 40)}" is not a valid answer here.`);
      // An upload's answer is the id of the file the API stored for it (decision 068), never a file's bytes.
      if (interaction.type === "upload" && !FILE_ID.test(String(v)))
        throw new ResponseError("responseInvalid", id, "An upload's answer is the id of a file sent with it.");
      if (keys && typeof v === "string" && !keys.has(v))
        throw new ResponseError("responseInvalid", id, `"${s.slice(0, 40)}" is not one of the choices.`);
      if (interaction.type === "match") {
        const [a, b] = String(v).split(" ");
        const src =
          interaction.sources.some((c) => c.identifier === a) && interaction.targets.some((c) => c.identifier === b);
        const rev =
          interaction.sources.some((c) => c.identifier === b) && interaction.targets.some((c) => c.identifier === a);
        if (!src && !(decl.baseType === "pair" && rev))
          throw new ResponseError("responseInvalid", id, "That pair is not one of the choices.");
      }
      if (interaction.type === "gapMatch") {
        const [a] = String(v).split(" ");
        if (!interaction.gapTexts.some((g) => g.identifier === a))
          throw new ResponseError("responseInvalid", id, "That word is not one of the choices.");
      }
      if (
        interaction.type === "slider" &&
        typeof v === "number" &&
        (v < interaction.lowerBound || v > interaction.upperBound)
      )
        throw new ResponseError("responseInvalid", id, "The value is outside the slider's range.");
      values.push(v);
    }
    checkGraphic(interaction, id, values);
    if (decl.cardinality === "single" && values.length > 1)
      throw new ResponseError("responseTooMany", id, "Give one answer here.");
    if (
      (interaction.type === "choice" ||
        interaction.type === "hottext" ||
        interaction.type === "hotspot" ||
        interaction.type === "selectPoint") &&
      interaction.maxChoices > 0 &&
      values.length > interaction.maxChoices
    )
      throw new ResponseError("responseTooMany", id, `Choose at most ${interaction.maxChoices}.`);
    if ((interaction.type === "order" || interaction.type === "graphicOrder") && new Set(values).size !== values.length)
      throw new ResponseError("responseInvalid", id, "Each choice takes one place.");
    out.set(id, { cardinality: decl.cardinality, baseType: decl.baseType, values });
  }
  return out;
}

/** Counts each identifier's uses in pairs and refuses one used more than its match-max (0: no limit). */
function checkMatchMax(id: string, used: string[], limits: Map<string, number>) {
  const counts = new Map<string, number>();
  for (const u of used) counts.set(u, (counts.get(u) ?? 0) + 1);
  for (const [u, n] of counts) {
    const max = limits.get(u) ?? 1;
    if (max > 0 && n > max)
      throw new ResponseError("responseTooMany", id, `"${u.slice(0, 40)}" can be used at most ${max} times.`);
  }
}

/** Associate, graphic and point answers: pairs of the interaction's own choices, in the image, within their limits. */
function checkGraphic(i: Interaction, id: string, values: Scalar[]) {
  const pairs = () => values.map((v) => String(v).split(" ") as [string, string]);
  switch (i.type) {
    case "associate":
    case "graphicAssociate": {
      const choices = i.type === "associate" ? i.choices : i.hotspots;
      const ids = new Set(choices.map((c) => c.identifier));
      for (const [a, b] of pairs())
        if (!ids.has(a) || !ids.has(b) || a === b)
          throw new ResponseError("responseInvalid", id, "That pair is not two of the choices.");
      if (new Set(values).size !== values.length)
        throw new ResponseError("responseInvalid", id, "Each pair can be given once.");
      if (i.maxAssociations > 0 && values.length > i.maxAssociations)
        throw new ResponseError("responseTooMany", id, `Give at most ${i.maxAssociations} pairs.`);
      checkMatchMax(id, pairs().flat(), new Map(choices.map((c) => [c.identifier, c.matchMax])));
      return;
    }
    case "graphicGapMatch": {
      for (const [g, h] of pairs())
        if (!i.gapChoices.some((c) => c.identifier === g) || !i.hotspots.some((c) => c.identifier === h))
          throw new ResponseError("responseInvalid", id, "That pair is not one of the choices.");
      checkMatchMax(
        id,
        pairs().map((p) => p[0]),
        new Map(i.gapChoices.map((c) => [c.identifier, c.matchMax])),
      );
      checkMatchMax(
        id,
        pairs().map((p) => p[1]),
        new Map(i.hotspots.map((c) => [c.identifier, c.matchMax])),
      );
      return;
    }
    case "selectPoint":
      for (const v of values) {
        const p = pointOf(v);
        const { width, height } = i.image;
        if (!p || p[0] < 0 || p[1] < 0 || (width !== null && p[0] > width) || (height !== null && p[1] > height))
          throw new ResponseError("responseInvalid", id, "That point is not on the image.");
      }
      return;
    default:
      return;
  }
}

/** An order interaction without JavaScript: one position select per choice → the choices in order (unplaced left out, ties in shown order). */
export function orderFromPositions(shown: string[], positions: Record<string, string | undefined>): string[] {
  return shown
    .map((id, i) => ({ id, i, at: Number(positions[id]) }))
    .filter((p) => Number.isInteger(p.at) && p.at > 0)
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((p) => p.id);
}

/** The stored answers as raw strings again (what the page fills its controls with on resume). */
export function fromResponses(values: Map<string, QtiValue>): RawResponses {
  return Object.fromEntries([...values].map(([k, v]) => [k, v.values.map(String)]));
}
