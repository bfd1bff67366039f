import { createElement, Fragment, type ReactNode } from "react";
import { useTranslation } from "~/common/i18n";
import type { BodyNode, Interaction } from "#domain/qti/item";
import type { RawResponses } from "#domain/qti/responses";
import type { ItemView } from "#domain/qti/view";
import { fieldName, gapsOf, savedValues, viewInteractions } from "#domain/qti/form";

const VOID = new Set(["br", "hr", "img", "col"]);
const ATTR: Record<string, string> = { class: "className", colspan: "colSpan", rowspan: "rowSpan" };

interface Ctx {
  ref: string;
  saved: RawResponses | null;
  /** Review: controls are shown, not editable. */
  readOnly: boolean;
  /** Counts inline blanks for their labels. */
  blanks: { n: number };
  t: (key: string, values?: Record<string, unknown>) => string;
}

/** The plain text of some nodes (a label for a select's option or an order select). */
function plain(nodes: BodyNode[]): string {
  return nodes
    .map((n) => (n.kind === "text" ? n.text : n.kind === "element" ? plain(n.children) : ""))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

function attrsOf(attrs: Record<string, string>) {
  return Object.fromEntries(Object.entries(attrs).map(([k, v]) => [ATTR[k] ?? k, v]));
}

function nodes(list: BodyNode[], ctx: Ctx): ReactNode[] {
  return list.map((n, i) => node(n, ctx, i));
}

function node(n: BodyNode, ctx: Ctx, key: number): ReactNode {
  switch (n.kind) {
    case "text":
      return <Fragment key={key}>{n.text}</Fragment>;
    case "element":
      return VOID.has(n.tag)
        ? createElement(n.tag, { key, ...attrsOf(n.attrs) })
        : createElement(n.tag, { key, ...attrsOf(n.attrs) }, ...nodes(n.children, ctx));
    case "interaction":
      return <Fragment key={key}>{interactionControl(n.interaction, ctx)}</Fragment>;
    case "gap":
      return null;
    default:
      return null;
  }
}

function GapSelect({
  i,
  gap,
  ctx,
  n,
}: {
  i: Extract<Interaction, { type: "gapMatch" }>;
  gap: string;
  ctx: Ctx;
  n: number;
}) {
  const saved = savedValues(ctx.saved, i);
  return (
    <select
      name={fieldName(ctx.ref, i.response, "gap", gap)}
      defaultValue={saved.wordIn(gap)}
      aria-label={ctx.t("assessment.gap", { n })}
      disabled={ctx.readOnly}
      className="qti__inline"
    >
      <option value="">{ctx.t("assessment.noChoice")}</option>
      {i.gapTexts.map((g) => (
        <option key={g.identifier} value={g.identifier}>
          {g.text}
        </option>
      ))}
    </select>
  );
}

/** A gap match's content with a select in each gap. */
function gapContent(
  list: BodyNode[],
  i: Extract<Interaction, { type: "gapMatch" }>,
  ctx: Ctx,
  count: { n: number },
): ReactNode[] {
  return list.map((n, key) => {
    if (n.kind === "gap") {
      count.n++;
      return <GapSelect key={key} i={i} gap={n.identifier} ctx={ctx} n={count.n} />;
    }
    if (n.kind === "element" && !VOID.has(n.tag))
      return createElement(n.tag, { key, ...attrsOf(n.attrs) }, ...gapContent(n.children, i, ctx, count));
    return node(n, ctx, key);
  });
}

function Legend({ prompt, ctx }: { prompt: BodyNode[]; ctx: Ctx }) {
  return <legend className="qti__prompt">{prompt.length > 0 ? nodes(prompt, ctx) : ctx.t("assessment.answer")}</legend>;
}

function interactionControl(i: Interaction, ctx: Ctx): ReactNode {
  const saved = savedValues(ctx.saved, i);
  const name = fieldName(ctx.ref, i.response);
  switch (i.type) {
    case "choice": {
      const multiple = i.maxChoices !== 1;
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          {multiple && i.maxChoices > 1 ? (
            <p className="qti__hint">{ctx.t("assessment.chooseAtMost", { max: i.maxChoices })}</p>
          ) : null}
          <ul className={`qti__choices${i.orientation === "horizontal" ? " qti__choices--row" : ""}`}>
            {i.choices.map((c) => (
              <li key={c.identifier}>
                <label className="qti__choice">
                  <input
                    type={multiple ? "checkbox" : "radio"}
                    name={name}
                    value={c.identifier}
                    defaultChecked={saved.values.includes(c.identifier)}
                    disabled={ctx.readOnly}
                  />{" "}
                  <span>{nodes(c.content, ctx)}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      );
    }
    case "textEntry":
      ctx.blanks.n++;
      return (
        <input
          type="text"
          name={name}
          className="qti__inline qti__text"
          defaultValue={saved.values[0] ?? ""}
          size={Math.min(Math.max(i.expectedLength ?? 10, 4), 30)}
          maxLength={2000}
          placeholder={i.placeholder ?? undefined}
          aria-label={ctx.t("assessment.blank", { n: ctx.blanks.n })}
          readOnly={ctx.readOnly}
          autoComplete="off"
          spellCheck={false}
        />
      );
    case "inlineChoice":
      ctx.blanks.n++;
      return (
        <select
          name={name}
          className="qti__inline"
          defaultValue={saved.values[0] ?? ""}
          aria-label={ctx.t("assessment.blank", { n: ctx.blanks.n })}
          disabled={ctx.readOnly}
        >
          <option value="">{ctx.t("assessment.noChoice")}</option>
          {i.choices.map((c) => (
            <option key={c.identifier} value={c.identifier}>
              {c.text}
            </option>
          ))}
        </select>
      );
    case "extendedText": {
      const id = `${name}-text`;
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <label htmlFor={id} className="visually-hidden">
            {ctx.t("assessment.answer")}
          </label>
          <textarea
            id={id}
            name={name}
            className="qti__essay"
            rows={Math.min(Math.max(i.expectedLines ?? 6, 3), 20)}
            defaultValue={saved.values[0] ?? ""}
            maxLength={20000}
            placeholder={i.placeholder ?? undefined}
            readOnly={ctx.readOnly}
          />
        </fieldset>
      );
    }
    case "order":
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <p className="qti__hint">{ctx.t("assessment.orderHint")}</p>
          <ul className="qti__choices">
            {i.choices.map((c) => {
              const id = `${fieldName(ctx.ref, i.response, "pos", c.identifier)}-select`;
              return (
                <li key={c.identifier} className="qti__pair">
                  <select
                    id={id}
                    name={fieldName(ctx.ref, i.response, "pos", c.identifier)}
                    defaultValue={saved.position(c.identifier)}
                    disabled={ctx.readOnly}
                  >
                    <option value="">{ctx.t("assessment.noChoice")}</option>
                    {i.choices.map((_, at) => (
                      <option key={at} value={String(at + 1)}>
                        {at + 1}
                      </option>
                    ))}
                  </select>{" "}
                  <label htmlFor={id}>{nodes(c.content, ctx)}</label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      );
    case "match":
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <ul className="qti__choices">
            {i.sources.map((s) => {
              const id = `${fieldName(ctx.ref, i.response, "src", s.identifier)}-select`;
              return (
                <li key={s.identifier} className="qti__pair">
                  <label htmlFor={id}>{nodes(s.content, ctx)}</label>{" "}
                  <select
                    id={id}
                    name={fieldName(ctx.ref, i.response, "src", s.identifier)}
                    defaultValue={saved.pairWith(s.identifier)}
                    disabled={ctx.readOnly}
                  >
                    <option value="">{ctx.t("assessment.noChoice")}</option>
                    {i.targets.map((tgt) => (
                      <option key={tgt.identifier} value={tgt.identifier}>
                        {plain(tgt.content)}
                      </option>
                    ))}
                  </select>
                </li>
              );
            })}
          </ul>
        </fieldset>
      );
    case "gapMatch":
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <div>{gapContent(i.content, i, ctx, { n: 0 })}</div>
        </fieldset>
      );
    case "slider": {
      const id = `${name}-number`;
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <label htmlFor={id}>{ctx.t("assessment.between", { min: i.lowerBound, max: i.upperBound })}</label>{" "}
          <input
            id={id}
            type="number"
            name={name}
            min={i.lowerBound}
            max={i.upperBound}
            step={i.step}
            defaultValue={saved.values[0] ?? ""}
            readOnly={ctx.readOnly}
          />
        </fieldset>
      );
    }
  }
}

/** The text of a solution's values, with the choices' own words. */
export function solutionText(view: ItemView, solution: RawResponses): string {
  const parts: string[] = [];
  for (const i of viewInteractions(view)) {
    const values = solution[i.response];
    if (!values) continue;
    const label = (id: string): string => {
      if (i.type === "choice" || i.type === "order")
        return plain(i.choices.find((c) => c.identifier === id)?.content ?? []) || id;
      if (i.type === "inlineChoice") return i.choices.find((c) => c.identifier === id)?.text ?? id;
      if (i.type === "match") {
        const all = [...i.sources, ...i.targets];
        return id
          .split(" ")
          .map((x) => plain(all.find((c) => c.identifier === x)?.content ?? []) || x)
          .join(" → ");
      }
      if (i.type === "gapMatch") {
        const [w, g] = id.split(" ");
        return `${gapsOf(i.content).indexOf(g!) + 1}: ${i.gapTexts.find((x) => x.identifier === w)?.text ?? w}`;
      }
      return id;
    };
    parts.push(values.map(label).join(i.type === "order" ? " → " : ", "));
  }
  return parts.join("; ");
}

/**
 * One QTI item as a labelled group of plain form controls (each interaction a fieldset whose legend is its
 * prompt); the item keeps its own language and direction.
 */
export function QtiItem({
  view,
  itemRef,
  saved,
  number,
  readOnly = false,
  children,
}: {
  view: ItemView;
  itemRef: string;
  saved: RawResponses | null;
  number: number;
  readOnly?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const ctx: Ctx = { ref: itemRef, saved, readOnly, blanks: { n: 0 }, t };
  const headingId = `q-${itemRef}`;
  return (
    <section className="qti" aria-labelledby={headingId} id={`item-${itemRef}`}>
      <h2 className="qti__number" id={headingId}>
        {t("assessment.question", { n: number })}
      </h2>
      <div className="qti__body" lang={view.lang ?? undefined} dir={view.dir ?? undefined}>
        {nodes(view.body, ctx)}
        {view.feedback.map((f, i) => (
          <div key={i} className="qti-feedback">
            {nodes(f, ctx)}
          </div>
        ))}
      </div>
      {children}
    </section>
  );
}
