import { createElement, Fragment, type ReactNode } from "react";
import { useTranslation } from "~/common/i18n";
import type { BodyNode, GraphicImage, Hotspot, Interaction } from "#domain/qti/item";
import type { RawResponses } from "#domain/qti/responses";
import type { ItemView } from "#domain/qti/view";
import { associationSlots, fieldName, gapsOf, pointSlots, savedValues, viewInteractions } from "#domain/qti/form";
import { centreOf } from "#domain/qti/geometry";
import { answerFileField, type AnswerFile } from "#domain/contract/assessment";

const VOID = new Set(["br", "hr", "img", "col"]);
const ATTR: Record<string, string> = { class: "className", colspan: "colSpan", rowspan: "rowSpan" };

interface Ctx {
  ref: string;
  saved: RawResponses | null;
  /** The files sent as the item's uploads, by response (decision 068). */
  files: Record<string, AnswerFile> | undefined;
  /** Review: controls are shown, not editable. */
  readOnly: boolean;
  /** Counts inline blanks for their labels. */
  blanks: { n: number };
  t: (key: string, values?: Record<string, unknown>) => string;
}

/** The plain text of some nodes (a label for a select's option or an order select). */
function plain(nodes: BodyNode[]): string {
  return nodes
    .map((n) => (n.kind === "text" ? n.text : n.kind === "element" || n.kind === "hottext" ? plain(n.children) : ""))
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
    case "hottext":
      return <Fragment key={key}>{nodes(n.children, ctx)}</Fragment>;
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

/** The words and pictures a gap match places, each picture beside the name its selects offer (so its `alt` is empty). */
function GapChoiceList({ choices }: { choices: { identifier: string; text: string; image: GraphicImage | null }[] }) {
  return (
    <ul className="qti__gap-choices">
      {choices.map((g) => (
        <li key={g.identifier}>
          {g.image ? (
            <img src={g.image.src} alt="" width={g.image.width ?? undefined} height={g.image.height ?? undefined} />
          ) : null}{" "}
          {g.text}
        </li>
      ))}
    </ul>
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

/** A hot text interaction's content with a radio or checkbox around each hot text (it is the label's text). */
function hottextContent(list: BodyNode[], i: Extract<Interaction, { type: "hottext" }>, ctx: Ctx): ReactNode[] {
  const saved = savedValues(ctx.saved, i);
  return list.map((n, key) => {
    if (n.kind === "hottext")
      return (
        <label key={key} className="qti__hottext">
          <input
            type={i.maxChoices === 1 ? "radio" : "checkbox"}
            name={fieldName(ctx.ref, i.response)}
            value={n.identifier}
            defaultChecked={saved.values.includes(n.identifier)}
            disabled={ctx.readOnly}
          />{" "}
          {nodes(n.children, ctx)}
        </label>
      );
    if (n.kind === "element" && !VOID.has(n.tag))
      return createElement(n.tag, { key, ...attrsOf(n.attrs) }, ...hottextContent(n.children, i, ctx));
    return node(n, ctx, key);
  });
}

/** A hotspot's name in the keyboard alternative: its number on the image, then its label. */
const hotspotName = (h: Hotspot, at: number, ctx: Ctx) =>
  h.label ? `${at + 1}. ${h.label}` : ctx.t("qti.area", { n: at + 1 });

function ShapeOf({ h }: { h: Hotspot }) {
  const c = h.coords;
  switch (h.shape) {
    case "rect":
      return (
        <rect
          x={Math.min(c[0]!, c[2]!)}
          y={Math.min(c[1]!, c[3]!)}
          width={Math.abs(c[2]! - c[0]!)}
          height={Math.abs(c[3]! - c[1]!)}
        />
      );
    case "circle":
      return <circle cx={c[0]} cy={c[1]} r={c[2]} />;
    case "ellipse":
      return <ellipse cx={c[0]} cy={c[1]} rx={c[2]} ry={c[3]} />;
    case "poly":
      return <polygon points={c.join(" ")} />;
    default:
      return null;
  }
}

/**
 * The image of a graphic interaction with its areas drawn over it (SVG in the image's own pixels, each
 * area numbered as in the list of controls below it) and the chosen areas or points marked. Without the
 * image's size the areas are not drawn; the controls still name them.
 */
function Graphic({
  image,
  hotspots = [],
  chosen = [],
  points = [],
  children,
}: {
  image: GraphicImage;
  hotspots?: Hotspot[];
  chosen?: string[];
  points?: string[];
  children?: ReactNode;
}) {
  const { width, height } = image;
  return (
    <div className={`qti__graphic${children ? " qti__graphic--natural" : ""}`}>
      {children ?? <img src={image.src} alt={image.alt} width={width ?? undefined} height={height ?? undefined} />}
      {width && height && (hotspots.length > 0 || points.length > 0) ? (
        <svg className="qti__areas" viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false">
          {hotspots.map((h, at) => {
            const [x, y] = centreOf(h.shape, h.coords, width, height);
            return (
              <g key={h.identifier} className={chosen.includes(h.identifier) ? "is-chosen" : undefined}>
                <ShapeOf h={h} />
                <text x={x} y={y} textAnchor="middle" dominantBaseline="central">
                  {at + 1}
                </text>
              </g>
            );
          })}
          {points.map((p, at) => {
            const [x, y] = p.split(" ").map(Number);
            return Number.isFinite(x) && Number.isFinite(y) ? (
              <circle key={at} className="qti__point-mark" cx={x} cy={y} r={Math.max(4, width / 80)} />
            ) : null;
          })}
        </svg>
      ) : null}
    </div>
  );
}

/** Pairs of selects (associate, graphic associate): each slot one pair of two of the choices. */
function PairSelects({
  i,
  options,
  ctx,
}: {
  i: Extract<Interaction, { type: "associate" | "graphicAssociate" }>;
  options: { value: string; label: string }[];
  ctx: Ctx;
}) {
  const saved = savedValues(ctx.saved, i);
  const slots = Array.from({ length: associationSlots(i) }, (_, k) => k + 1);
  const select = (k: number, side: "a" | "b", value: string) => {
    const id = `${fieldName(ctx.ref, i.response, "pair", String(k), side)}-select`;
    return (
      <span className="qti__pair-side">
        <label htmlFor={id}>{ctx.t(side === "a" ? "qti.pairFirst" : "qti.pairSecond", { n: k })}</label>{" "}
        <select
          id={id}
          name={fieldName(ctx.ref, i.response, "pair", String(k), side)}
          defaultValue={value}
          disabled={ctx.readOnly}
        >
          <option value="">{ctx.t("assessment.noChoice")}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </span>
    );
  };
  return (
    <>
      <p className="qti__hint">
        {ctx.t("qti.pairHint")}
        {i.maxAssociations > 1 ? ` ${ctx.t("assessment.chooseAtMost", { max: i.maxAssociations })}` : null}
      </p>
      <ul className="qti__choices">
        {slots.map((k) => {
          const [a, b] = saved.pairAt(k);
          return (
            <li key={k} className="qti__pair">
              {select(k, "a", a)} {select(k, "b", b)}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** Ordered selects, one per option (order by positions). */
function PositionSelects({
  response,
  options,
  ctx,
  position,
}: {
  response: string;
  options: { value: string; label: ReactNode }[];
  ctx: Ctx;
  position: (value: string) => string;
}) {
  return (
    <ul className="qti__choices">
      {options.map((o) => {
        const id = `${fieldName(ctx.ref, response, "pos", o.value)}-select`;
        return (
          <li key={o.value} className="qti__pair">
            <select
              id={id}
              name={fieldName(ctx.ref, response, "pos", o.value)}
              defaultValue={position(o.value)}
              disabled={ctx.readOnly}
            >
              <option value="">{ctx.t("assessment.noChoice")}</option>
              {options.map((_, at) => (
                <option key={at} value={String(at + 1)}>
                  {at + 1}
                </option>
              ))}
            </select>{" "}
            <label htmlFor={id}>{o.label}</label>
          </li>
        );
      })}
    </ul>
  );
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
    case "upload": {
      // Decision 068: a plain file input (the form is multipart); the file sent before stays until another replaces it.
      const id = `${name}-file`;
      const sent = saved.values[0] ? ctx.files?.[i.response] : undefined;
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          {sent ? (
            <p className="qti__file">
              {ctx.t("assessment.uploadSent")}{" "}
              <a href={`/learn/assessment-files/${sent.id}`} download={sent.name}>
                {sent.name}
              </a>
            </p>
          ) : ctx.readOnly ? (
            <p className="qti__file">{ctx.t("assessment.uploadNone")}</p>
          ) : null}
          {ctx.readOnly ? null : (
            <>
              <label htmlFor={id}>{ctx.t(sent ? "assessment.uploadReplace" : "assessment.uploadChoose")}</label>{" "}
              <input
                id={id}
                type="file"
                name={answerFileField(ctx.ref, i.response)}
                accept={i.types.length > 0 ? i.types.join(",") : undefined}
                aria-describedby={i.types.length > 0 ? `${id}-types` : undefined}
              />
              {i.types.length > 0 ? (
                <p className="qti__hint" id={`${id}-types`}>
                  {ctx.t("assessment.uploadTypes", { types: i.types.join(", ") })}
                </p>
              ) : null}
            </>
          )}
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
          {/* Pictures to place: each shown with the name its gaps' selects offer. */}
          {i.gapTexts.some((g) => g.image) ? <GapChoiceList choices={i.gapTexts} /> : null}
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
    case "hottext":
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          {i.maxChoices > 1 ? (
            <p className="qti__hint">{ctx.t("assessment.chooseAtMost", { max: i.maxChoices })}</p>
          ) : null}
          <div className="qti__hottexts">{hottextContent(i.content, i, ctx)}</div>
        </fieldset>
      );
    case "associate":
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <PairSelects
            i={i}
            ctx={ctx}
            options={i.choices.map((c) => ({ value: c.identifier, label: plain(c.content) }))}
          />
        </fieldset>
      );
    case "hotspot": {
      const multiple = i.maxChoices !== 1;
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <Graphic image={i.image} hotspots={i.hotspots} chosen={saved.values} />
          {multiple && i.maxChoices > 1 ? (
            <p className="qti__hint">{ctx.t("assessment.chooseAtMost", { max: i.maxChoices })}</p>
          ) : null}
          <ul className="qti__choices qti__choices--row">
            {i.hotspots.map((h, at) => (
              <li key={h.identifier}>
                <label className="qti__choice">
                  <input
                    type={multiple ? "checkbox" : "radio"}
                    name={name}
                    value={h.identifier}
                    defaultChecked={saved.values.includes(h.identifier)}
                    disabled={ctx.readOnly}
                  />{" "}
                  <span>{hotspotName(h, at, ctx)}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      );
    }
    case "graphicOrder":
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <Graphic image={i.image} hotspots={i.hotspots} />
          <p className="qti__hint">{ctx.t("assessment.orderHint")}</p>
          <PositionSelects
            response={i.response}
            ctx={ctx}
            position={saved.position}
            options={i.hotspots.map((h, at) => ({ value: h.identifier, label: hotspotName(h, at, ctx) }))}
          />
        </fieldset>
      );
    case "graphicAssociate":
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <Graphic image={i.image} hotspots={i.hotspots} />
          <PairSelects
            i={i}
            ctx={ctx}
            options={i.hotspots.map((h, at) => ({ value: h.identifier, label: hotspotName(h, at, ctx) }))}
          />
        </fieldset>
      );
    case "graphicGapMatch":
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <Graphic image={i.image} hotspots={i.hotspots} />
          <GapChoiceList choices={i.gapChoices} />
          <ul className="qti__choices">
            {i.hotspots.map((h, at) => {
              const id = `${fieldName(ctx.ref, i.response, "spot", h.identifier)}-select`;
              return (
                <li key={h.identifier} className="qti__pair">
                  <label htmlFor={id}>{hotspotName(h, at, ctx)}</label>{" "}
                  <select
                    id={id}
                    name={fieldName(ctx.ref, i.response, "spot", h.identifier)}
                    defaultValue={saved.wordIn(h.identifier)}
                    disabled={ctx.readOnly}
                  >
                    <option value="">{ctx.t("assessment.noChoice")}</option>
                    {i.gapChoices.map((g) => (
                      <option key={g.identifier} value={g.identifier}>
                        {g.text}
                      </option>
                    ))}
                  </select>
                </li>
              );
            })}
          </ul>
        </fieldset>
      );
    case "selectPoint": {
      const rows = Array.from({ length: pointSlots(i) }, (_, k) => k + 1);
      const { width, height } = i.image;
      return (
        <fieldset className="qti__group">
          <Legend prompt={i.prompt} ctx={ctx} />
          <p className="qti__hint">{ctx.t("qti.pointHint")}</p>
          <Graphic image={i.image} points={saved.values}>
            <input
              type="image"
              name={fieldName(ctx.ref, i.response, "click")}
              src={i.image.src}
              alt={i.image.alt ? `${ctx.t("qti.pointImage")}: ${i.image.alt}` : ctx.t("qti.pointImage")}
              width={width ?? undefined}
              height={height ?? undefined}
              disabled={ctx.readOnly}
            />
          </Graphic>
          <ul className="qti__choices">
            {rows.map((k) => {
              const [x, y] = saved.pairAt(k);
              const id = `${fieldName(ctx.ref, i.response, "x", String(k))}-input`;
              return (
                <li key={k} className="qti__pair">
                  <span className="qti__pair-side">
                    <label htmlFor={id}>{ctx.t("qti.pointX", { n: k })}</label>{" "}
                    <input
                      id={id}
                      type="number"
                      inputMode="numeric"
                      className="qti__coordinate"
                      name={fieldName(ctx.ref, i.response, "x", String(k))}
                      min={0}
                      max={width ?? undefined}
                      step={1}
                      defaultValue={x}
                      readOnly={ctx.readOnly}
                    />
                  </span>{" "}
                  <span className="qti__pair-side">
                    <label htmlFor={`${id}-y`}>{ctx.t("qti.pointY", { n: k })}</label>{" "}
                    <input
                      id={`${id}-y`}
                      type="number"
                      inputMode="numeric"
                      className="qti__coordinate"
                      name={fieldName(ctx.ref, i.response, "y", String(k))}
                      min={0}
                      max={height ?? undefined}
                      step={1}
                      defaultValue={y}
                      readOnly={ctx.readOnly}
                    />
                  </span>
                </li>
              );
            })}
          </ul>
        </fieldset>
      );
    }
  }
}

/** The content of one hot text. */
function findHottext(list: BodyNode[], id: string): BodyNode[] {
  for (const n of list) {
    if (n.kind === "hottext" && n.identifier === id) return n.children;
    if (n.kind === "element" || n.kind === "hottext") {
      const found = findHottext(n.children, id);
      if (found.length > 0) return found;
    }
  }
  return [];
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
      const spot = (h: string) => {
        if (!("hotspots" in i)) return h;
        const at = i.hotspots.findIndex((x) => x.identifier === h);
        return at < 0 ? h : i.hotspots[at]!.label ? `${at + 1}. ${i.hotspots[at]!.label}` : String(at + 1);
      };
      if (i.type === "hotspot" || i.type === "graphicOrder") return spot(id);
      if (i.type === "graphicAssociate") return id.split(" ").map(spot).join(" ↔ ");
      if (i.type === "graphicGapMatch") {
        const [g, h] = id.split(" ");
        return `${i.gapChoices.find((x) => x.identifier === g)?.text ?? g} → ${spot(h!)}`;
      }
      if (i.type === "associate")
        return id
          .split(" ")
          .map((x) => plain(i.choices.find((c) => c.identifier === x)?.content ?? []) || x)
          .join(" ↔ ");
      if (i.type === "hottext") return plain(findHottext(i.content, id)) || id;
      if (i.type === "selectPoint") return `(${id.split(" ").join(", ")})`;
      if (i.type === "gapMatch") {
        const [w, g] = id.split(" ");
        return `${gapsOf(i.content).indexOf(g!) + 1}: ${i.gapTexts.find((x) => x.identifier === w)?.text ?? w}`;
      }
      return id;
    };
    parts.push(values.map(label).join(i.type === "order" || i.type === "graphicOrder" ? " → " : ", "));
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
  files,
  number,
  readOnly = false,
  children,
}: {
  view: ItemView;
  itemRef: string;
  saved: RawResponses | null;
  files?: Record<string, AnswerFile>;
  number: number;
  readOnly?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const ctx: Ctx = { ref: itemRef, saved, files, readOnly, blanks: { n: 0 }, t };
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
