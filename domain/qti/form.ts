/**
 * An item's interactions as plain form controls and back (the page works without JavaScript): one field
 * per response (radio, checkboxes, text, textarea, select), and for order, match and gap match one select
 * per choice, source or gap; an upload is a file input whose file the page's action sends on its own. `responsesFromForm` turns what the form posted into the strings the API takes.
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
      if (n.interaction.type === "gapMatch" || n.interaction.type === "hottext") collect(n.interaction.content, out);
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

type Associating = Extract<Interaction, { type: "associate" | "graphicAssociate" }>;
type PointSelecting = Extract<Interaction, { type: "selectPoint" }>;

/** How many pairs of selects an associate interaction shows: its max-associations, at most every possible pair. */
export function associationSlots(i: Associating): number {
  const n = i.type === "associate" ? i.choices.length : i.hotspots.length;
  const possible = (n * (n - 1)) / 2;
  return Math.max(1, Math.min(i.maxAssociations > 0 ? i.maxAssociations : n, possible));
}

/** How many x/y rows a select point interaction shows (its max-choices; 5 when it has no limit). */
export const pointSlots = (i: PointSelecting) => Math.min(i.maxChoices > 0 ? i.maxChoices : 5, 10);

const isCoordinate = (v: string | undefined): v is string => v !== undefined && /^\s*[+-]?\d+\s*$/.test(v);

/**
 * A select point's points: the x/y rows (the keyboard's way), and a click on the image (an image button
 * posts where it was clicked). The click replaces the only point, or is added after the rows; (0, 0) is what
 * pressing Enter in another field sends through the image button, not a click, and is ignored.
 */
function pointsFromForm(i: PointSelecting, get: (name: string) => string[], ref: string): string[] {
  const name = (...part: string[]) => fieldName(ref, i.response, ...part);
  const slots = pointSlots(i);
  const rows: string[] = [];
  for (let k = 1; k <= slots; k++) {
    const x = get(name("x", String(k)))[0];
    const y = get(name("y", String(k)))[0];
    if (x?.trim() || y?.trim()) rows.push(`${(x ?? "").trim()} ${(y ?? "").trim()}`.trim());
  }
  const cx = get(`${name("click")}.x`)[0];
  const cy = get(`${name("click")}.y`)[0];
  if (isCoordinate(cx) && isCoordinate(cy) && !(Number(cx) === 0 && Number(cy) === 0)) {
    const click = `${Number(cx)} ${Number(cy)}`;
    if (slots === 1) return [click];
    if (rows.length >= slots) rows[slots - 1] = click;
    else rows.push(click);
  }
  return rows;
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
      case "graphicOrder": {
        const shown = i.hotspots.map((h) => h.identifier);
        out[i.response] = orderFromPositions(shown, Object.fromEntries(shown.map((h) => [h, get(name("pos", h))[0]])));
        break;
      }
      case "associate":
      case "graphicAssociate": {
        const pairs: string[] = [];
        for (let k = 1; k <= associationSlots(i); k++) {
          const a = get(name("pair", String(k), "a"))[0] ?? "";
          const b = get(name("pair", String(k), "b"))[0] ?? "";
          if (a !== "" || b !== "") pairs.push(`${a} ${b}`.trim());
        }
        out[i.response] = pairs;
        break;
      }
      case "graphicGapMatch":
        out[i.response] = i.hotspots.flatMap((h) =>
          get(name("spot", h.identifier))
            .filter((g) => g !== "")
            .map((g) => `${g} ${h.identifier}`),
        );
        break;
      case "selectPoint":
        out[i.response] = pointsFromForm(i, get, ref);
        break;
      case "upload":
        // The file travels as a file of the post (decision 068): no value here keeps the one sent before.
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
    /** The k-th pair (1-based) of an associate interaction, or the k-th point's x and y. */
    pairAt: (k: number) => {
      const [a = "", b = ""] = (values[k - 1] ?? "").split(" ");
      return [a, b] as const;
    },
    wordIn: (gap: string) => values.find((v) => v.split(" ")[1] === gap)?.split(" ")[0] ?? "",
  };
}
