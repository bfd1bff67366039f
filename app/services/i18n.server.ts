import { createCookie } from "react-router";
import { createI18nextMiddleware } from "remix-i18next/middleware";
import type { Resource } from "i18next";
import { DEFAULT_LOCALE, SUPPORTED_LOCALES } from "#domain/locales";

/** The learner's language choice (spec 9: cookie first, then Accept-Language). Also read by /idp. */
export const localeCookie = createCookie("lng", { path: "/", sameSite: "lax", maxAge: 365 * 24 * 3600, httpOnly: false });

const files = import.meta.glob<{ default: Record<string, unknown> }>("../../locales/*/common.json", { eager: true });

export const resources: Resource = Object.fromEntries(
  Object.entries(files).map(([path, mod]) => [path.split("/").at(-2)!, { common: mod.default }]),
);

export function translationsFor(locale: string): Record<string, unknown> {
  return (resources[locale]?.common ?? resources[DEFAULT_LOCALE].common) as Record<string, unknown>;
}

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    cookie: localeCookie,
    order: ["cookie", "header"],
  },
  i18next: {
    resources,
    defaultNS: "common",
    ns: ["common"],
    fallbackLng: DEFAULT_LOCALE,
    interpolation: { escapeValue: false },
  },
});

const versions = new Map<string, string>();
/** A short content hash per locale, so the browser caches translations until they change. */
export function translationsVersion(locale: string): string {
  let v = versions.get(locale);
  if (!v) {
    const text = JSON.stringify(translationsFor(locale));
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    v = (h >>> 0).toString(36);
    versions.set(locale, v);
  }
  return v;
}
