/**
 * An item's interactions as plain form controls and back (the page works without JavaScript): one field
 * per response (radio, checkboxes, text, textarea, select), and for order, match and gap match one select
 * per choice, source or gap. `responsesFromForm` turns what the form posted into the strings the API takes.
 */
import type { BodyNode, Interaction } from "./item";
import { orderFromPositions, type RawResponses } from "./responses";
import type { ItemView } from "./view";

const SEP = "::";
export const fieldName = (ref: string, response: string, ...part: string[]) => [ref, response, ...part].join(SEP);

function collect(nodes: BodyNode[], out: Interaction[] = []): Interaction[] {
  for (const n of nodes) {
    if (n.kind === "interaction") {
      out.push(n.interaction);
      if (n.interaction.type === "gapMatch") collect(n.interaction.content, out);
    } else if (n.kind === "element") collect(n.children, out);
  }
  return out;
}
export const viewInteractions = (view: Pick<ItemView, "body">) => collect(view.body);

/** The gaps of a gap match interaction, in document order. */
export function gapsOf(nodes: BodyNode[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (n.kind === "gap") out.push(n.identifier);
    else if (n.kind === "element") gapsOf(n.children, out);
  }
  return out;
}

/** One item's responses from a posted form (`get` answers every value of a field name). */
export function responsesFromForm(view: ItemView, ref: string, get: (name: string) => string[]): RawResponses {
  const out: RawResponses = {};
  for (const i of viewInteractions(view)) {
    const name = (...part: string[]) => fieldName(ref, i.response, ...part);
    switch (i.type) {
      case "order": {
        const shown = i.choices.map((c) => c.identifier);
        out[i.response] = orderFromPositions(shown, Object.fromEntries(shown.map((c) => [c, get(name("pos", c))[0]])));
        break;
      }
      case "match":
        out[i.response] = i.sources.flatMap((s) =>
          get(name("src", s.identifier))
            .filter((t) => t !== "")
            .map((t) => `${s.identifier} ${t}`),
        );
        break;
      case "gapMatch":
        out[i.response] = gapsOf(i.content).flatMap((g) =>
          get(name("gap", g))
            .filter((w) => w !== "")
            .map((w) => `${w} ${g}`),
        );
        break;
      default:
        out[i.response] = get(name()).filter((v) => v !== "");
    }
  }
  return out;
}

/** The value a control shows from a saved response (the inverse of responsesFromForm). */
export function savedValues(saved: RawResponses | null, i: Interaction) {
  const values = saved?.[i.response] ?? [];
  return {
    values,
    position: (choice: string) => {
      const at = values.indexOf(choice);
      return at < 0 ? "" : String(at + 1);
    },
    pairWith: (first: string) => values.find((v) => v.split(" ")[0] === first)?.split(" ")[1] ?? "",
    wordIn: (gap: string) => values.find((v) => v.split(" ")[1] === gap)?.split(" ")[0] ?? "",
  };
}
