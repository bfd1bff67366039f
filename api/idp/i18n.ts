import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_LOCALE, isSupportedLocale, localeDirection } from "../../domain/locales";

type Messages = Record<string, string>;
const cache = new Map<string, Messages>();
const localesDir = fileURLToPath(new URL("../../locales", import.meta.url));

function load(locale: string): Messages {
  let m = cache.get(locale);
  if (!m) {
    const file = `${localesDir}/${locale}/idp.json`;
    m = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Messages) : {};
    cache.set(locale, m);
  }
  return m;
}

export interface IdpT {
  locale: string;
  dir: "rtl" | "ltr";
  t(key: string, vars?: Record<string, string | number>): string;
}

export function idpTranslator(locale: string): IdpT {
  const lng = isSupportedLocale(locale) ? locale : DEFAULT_LOCALE;
  const primary = load(lng);
  const fallback = load(DEFAULT_LOCALE);
  return {
    locale: lng,
    dir: localeDirection(lng),
    t(key, vars) {
      let text = primary[key] ?? fallback[key] ?? key;
      for (const [k, v] of Object.entries(vars ?? {})) text = text.replaceAll(`{{${k}}}`, String(v));
      return text;
    },
  };
}
