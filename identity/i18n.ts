import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_LOCALE, isSupportedLocale, localeDirection, portalDisplayName } from "../domain/locales";

type Messages = Record<string, string>;
const cache = new Map<string, Messages>();
const localesDir = fileURLToPath(new URL("../locales", import.meta.url));

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
  /** The portal's name as the app shows it: the tenant's own, or "Learning Portal" translated. */
  portalName: string;
  /** The tenant's languages, for the pages' language menu (issue 25 item 3); none on pages without one. */
  languages: readonly string[];
}

/**
 * `portalName`: the tenant's configured name (`platform.common.portal_name`); the built-in default is
 * shown translated, as in the app.
 */
export function idpTranslator(
  locale: string,
  tenant: { portalName?: string | null; languages?: readonly string[] } = {},
): IdpT {
  const lng = isSupportedLocale(locale) ? locale : DEFAULT_LOCALE;
  const primary = load(lng);
  const fallback = load(DEFAULT_LOCALE);
  const translated = primary.portalName ?? fallback.portalName ?? "";
  return {
    locale: lng,
    dir: localeDirection(lng),
    portalName: portalDisplayName(tenant.portalName, translated),
    languages: tenant.languages ?? [],
    t(key, vars) {
      let text = primary[key] ?? fallback[key] ?? key;
      for (const [k, v] of Object.entries(vars ?? {})) text = text.replaceAll(`{{${k}}}`, String(v));
      return text;
    },
  };
}
