/**
 * The item as the learner's page receives it. Before review nothing of the correct responses,
 * mappings, processing or feedback is in it; choices are in the attempt's shuffled order (from its seed,
 * the same on every reload). Review adds the feedback that processing shows and, when allowed, the solution.
 */
import type { AssessmentItem, BodyNode, Interaction } from "./item";
import { feedbackShown } from "./processing";
import { rng, shuffleKeepingFixed } from "./random";
import type { QtiValue } from "./values";
import { fromResponses, type RawResponses } from "./responses";

export interface ItemView {
  identifier: string;
  title: string;
  lang: string | null;
  dir: "ltr" | "rtl" | null;
  body: BodyNode[];
  /** Modal feedback shown after processing (review with feedback only). */
  feedback: BodyNode[][];
  /** The correct responses (review with the solution only). */
  solution: RawResponses | null;
}

export interface Reveal {
  /** The item's outcomes after processing; feedback shown from them. */
  vars: Map<string, QtiValue>;
  feedback: boolean;
  solution: boolean;
}

function shuffled(i: Interaction, seed: string): Interaction {
  const random = rng(`${seed}/${i.response}`);
  switch (i.type) {
    case "choice":
    case "order":
      return i.shuffle ? { ...i, choices: shuffleKeepingFixed(i.choices, (c) => c.fixed, random) } : i;
    case "inlineChoice":
      return i.shuffle ? { ...i, choices: shuffleKeepingFixed(i.choices, (c) => c.fixed, random) } : i;
    case "match":
      return i.shuffle
        ? {
            ...i,
            sources: shuffleKeepingFixed(i.sources, (c) => c.fixed, random),
            targets: shuffleKeepingFixed(i.targets, (c) => c.fixed, random),
          }
        : i;
    case "gapMatch":
      return i.shuffle ? { ...i, gapTexts: shuffleKeepingFixed(i.gapTexts, (c) => c.fixed, random) } : i;
    case "associate":
      return i.shuffle ? { ...i, choices: shuffleKeepingFixed(i.choices, (c) => c.fixed, random) } : i;
    case "graphicGapMatch":
      return i.shuffle ? { ...i, gapChoices: shuffleKeepingFixed(i.gapChoices, (c) => c.fixed, random) } : i;
    default:
      return i;
  }
}

function viewBody(nodes: BodyNode[], seed: string, reveal: Reveal | null): BodyNode[] {
  const out: BodyNode[] = [];
  for (const n of nodes) {
    if (n.kind === "feedback") {
      if (reveal?.feedback && feedbackShown(reveal.vars, n))
        out.push({
          kind: "element",
          tag: n.block ? "div" : "span",
          attrs: { class: "qti-feedback" },
          children: viewBody(n.children, seed, reveal),
        });
      continue;
    }
    if (n.kind === "element" || n.kind === "hottext") out.push({ ...n, children: viewBody(n.children, seed, reveal) });
    else if (n.kind === "interaction") {
      const i = shuffled(n.interaction, seed);
      out.push({
        kind: "interaction",
        interaction:
          i.type === "gapMatch" ||
          i.type === "hottext" ||
          i.type === "choice" ||
          i.type === "order" ||
          i.type === "match"
            ? ({ ...i, ...("content" in i ? { content: viewBody(i.content, seed, reveal) } : {}) } as Interaction)
            : i,
      });
    } else out.push(n);
  }
  return out;
}

/** The learner's view of an item (`reveal` null before review: nothing secret in it). */
export function itemView(item: AssessmentItem, seed: string, reveal: Reveal | null = null): ItemView {
  return {
    identifier: item.identifier,
    title: item.title,
    lang: item.lang,
    dir: item.dir,
    body: viewBody(item.body, seed, reveal),
    feedback: reveal?.feedback
      ? item.modalFeedback.filter((f) => feedbackShown(reveal.vars, f)).map((f) => f.content)
      : [],
    solution: reveal?.solution
      ? fromResponses(
          new Map(
            item.responses
              .filter((r) => r.correct.length > 0)
              .map((r) => [r.identifier, { cardinality: r.cardinality, baseType: r.baseType, values: r.correct }]),
          ),
        )
      : null,
  };
}
