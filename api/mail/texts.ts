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

/** A message: a greeting, paragraphs, one button-like link per action, then a closing note. */
export function layoutMail(input: {
  locale: string;
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  actions: { label: string; href: string }[];
  closing: string[];
}): MailMessage {
  const { dir } = mailTranslator(input.locale);
  const text = [
    input.greeting,
    "",
    ...input.paragraphs.flatMap((p) => [p, ""]),
    ...input.actions.flatMap((a) => [`${a.label}:`, a.href, ""]),
    ...input.closing,
  ].join("\n");
  const html = `<!doctype html><html lang="${esc(input.locale)}" dir="${dir}"><head><meta charset="utf-8"><title>${esc(input.subject)}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c2430">
<p>${esc(input.greeting)}</p>
${input.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("\n")}
${input.actions
  .map(
    (a) =>
      `<p><a href="${esc(a.href)}" style="display:inline-block;padding:10px 16px;background:#1f5fbf;color:#fff;border-radius:6px;text-decoration:none;font-weight:600">${esc(a.label)}</a></p>`,
  )
  .join("\n")}
${input.closing.map((p) => `<p style="color:#5b6675;font-size:0.875em">${esc(p)}</p>`).join("\n")}
</body></html>`;
  return { to: input.to, subject: input.subject, text, html };
}
