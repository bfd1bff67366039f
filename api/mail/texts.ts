/**
 * The e-mails' words (decision 036): `locales/<locale>/mail.json`, in the recipient's language, and one
 * plain layout drawn twice — as text and as HTML — so every message is multipart and reads the same.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_LOCALE, isSupportedLocale, localeDirection } from "../../domain/locales";
import type { MailMessage } from "./transport";

type Tree = Record<string, unknown>;
const localesDir = fileURLToPath(new URL("../../locales", import.meta.url));
const cache = new Map<string, Tree>();

function load(locale: string): Tree {
  let tree = cache.get(locale);
  if (!tree) {
    const file = `${localesDir}/${locale}/mail.json`;
    tree = existsSync(file) ? (((JSON.parse(readFileSync(file, "utf8")) as Tree).mail as Tree) ?? {}) : {};
    cache.set(locale, tree);
  }
  return tree;
}

function lookup(tree: Tree, key: string): string | null {
  let node: unknown = tree;
  for (const part of key.split(".")) node = node && typeof node === "object" ? (node as Tree)[part] : undefined;
  return typeof node === "string" ? node : null;
}

/** `t(key, vars)` over the locale's mail texts, English where a text is missing. */
export function mailTranslator(locale: string) {
  const lng = isSupportedLocale(locale) ? locale : DEFAULT_LOCALE;
  const own = load(lng);
  const fallback = load(DEFAULT_LOCALE);
  return {
    locale: lng,
    dir: localeDirection(lng),
    t: (key: string, vars: Record<string, string> = {}) =>
      (lookup(own, key) ?? lookup(fallback, key) ?? key).replace(
        /\{\{\s*(\w+)\s*\}\}/g,
        (m, n: string) => vars[n] ?? m,
      ),
  };
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** A list in a message: a heading and items (text from data keeps its own direction in HTML). */
export interface MailSection {
  heading?: string;
  items: { text: string; href?: string; detail?: string }[];
}

/** What closes a message the learner controls: why they get it, and the way out of it. */
export interface MailFooter {
  why: string;
  unsubscribe: { label: string; href: string };
  preferences: { label: string; href: string };
}

/**
 * A message: a greeting, paragraphs, lists, one button-like link per action, then a closing note and,
 * for e-mail the learner controls, the footer with the visible unsubscribe link (the List-Unsubscribe
 * headers go in `headers`).
 */
export function layoutMail(input: {
  locale: string;
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  sections?: MailSection[];
  actions: { label: string; href: string }[];
  closing: string[];
  footer?: MailFooter;
  headers?: Record<string, string>;
}): MailMessage {
  const { dir } = mailTranslator(input.locale);
  const sections = input.sections ?? [];
  const text = [
    input.greeting,
    "",
    ...input.paragraphs.flatMap((p) => [p, ""]),
    ...sections.flatMap((s) => [
      ...(s.heading ? [s.heading, ""] : []),
      ...s.items.map((i) => `- ${i.text}${i.detail ? ` (${i.detail})` : ""}${i.href ? `: ${i.href}` : ""}`),
      "",
    ]),
    ...input.actions.flatMap((a) => [`${a.label}:`, a.href, ""]),
    ...input.closing,
    ...(input.footer
      ? [
          "",
          "--",
          input.footer.why,
          `${input.footer.unsubscribe.label}: ${input.footer.unsubscribe.href}`,
          `${input.footer.preferences.label}: ${input.footer.preferences.href}`,
        ]
      : []),
  ].join("\n");
  const item = (i: MailSection["items"][number]) => {
    const label = `<span dir="auto">${esc(i.text)}</span>`;
    const body = i.href ? `<a href="${esc(i.href)}" style="color:#1f5fbf">${label}</a>` : label;
    return `<li style="margin-block-end:6px">${body}${i.detail ? ` <span style="color:#5b6675">(${esc(i.detail)})</span>` : ""}</li>`;
  };
  const html = `<!doctype html><html lang="${esc(input.locale)}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(input.subject)}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c2430">
<p>${esc(input.greeting)}</p>
${input.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("\n")}
${sections
  .map(
    (s) =>
      `${s.heading ? `<h2 style="font-size:1.05em;margin-block:1.2em 0.4em">${esc(s.heading)}</h2>` : ""}<ul style="padding-inline-start:1.2em">${s.items.map(item).join("")}</ul>`,
  )
  .join("\n")}
${input.actions
  .map(
    (a) =>
      `<p><a href="${esc(a.href)}" style="display:inline-block;padding:10px 16px;background:#1f5fbf;color:#fff;border-radius:6px;text-decoration:none;font-weight:600">${esc(a.label)}</a></p>`,
  )
  .join("\n")}
${input.closing.map((p) => `<p style="color:#5b6675;font-size:0.875em">${esc(p)}</p>`).join("\n")}
${
  input.footer
    ? `<hr style="border:none;border-block-start:1px solid #d5dae1;margin-block:24px 12px"><p style="color:#5b6675;font-size:0.8125em">${esc(input.footer.why)}<br><a href="${esc(input.footer.unsubscribe.href)}" style="color:#1f5fbf">${esc(input.footer.unsubscribe.label)}</a> · <a href="${esc(input.footer.preferences.href)}" style="color:#1f5fbf">${esc(input.footer.preferences.label)}</a></p>`
    : ""
}
</body></html>`;
  return { to: input.to, subject: input.subject, text, html, ...(input.headers ? { headers: input.headers } : {}) };
}
