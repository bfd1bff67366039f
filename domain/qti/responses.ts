/**
 * What the learner sends for an item (strings per response, from a form or the API) as QTI values,
 * checked against the item's interactions: an unknown choice, too many choices or a value of the wrong
 * type is refused (the API's 400), never stored.
 */
import { interactionsOf, type AssessmentItem, type Interaction } from "./item";
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

function allowedKeys(i: Interaction): Set<string> | null {
  switch (i.type) {
    case "choice":
    case "order":
    case "inlineChoice":
      return new Set(i.choices.map((c) => c.identifier));
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
    if (decl.cardinality === "single" && values.length > 1)
      throw new ResponseError("responseTooMany", id, "Give one answer here.");
    if (interaction.type === "choice" && interaction.maxChoices > 0 && values.length > interaction.maxChoices)
      throw new ResponseError("responseTooMany", id, `Choose at most ${interaction.maxChoices}.`);
    if (interaction.type === "order" && new Set(values).size !== values.length)
      throw new ResponseError("responseInvalid", id, "Each choice takes one place.");
    out.set(id, { cardinality: decl.cardinality, baseType: decl.baseType, values });
  }
  return out;
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
