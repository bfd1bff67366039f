import { createContext, createCookie, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { DEFAULT_LOCALE, isSupportedLocale } from "#domain/locales";
import { negotiateLocale } from "#domain/locale-negotiation";
import { tenantLocales } from "./tenant-locale.server";
import { createLiteI18n, type LiteI18n } from "~/common/i18n";

/** The learner's language choice (spec 9: it comes first). Also read and written by the sign-in page (/idp). */
export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  maxAge: 365 * 24 * 3600,
  httpOnly: false,
});

/**
 * Every namespace file of a locale (`locales/{locale}/*.json`, but `idp.json`, the sign-in page's,
 * `overload.json`, the HTTP front's refusal page, and `mail.json`, the API's e-mails)
 * merged into one tree: a feature adds its texts in a file of its own (`calendar.json` with a top-level
 * `calendar` key), and the browser still loads one versioned file per locale.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>(
  [
    "../../locales/*/*.json",
    "!../../locales/*/idp.json",
    "!../../locales/*/overload.json",
    "!../../locales/*/mail.json",
  ],
  {
    eager: true,
  },
);

const resources: Record<string, { common: Record<string, unknown> }> = {};
for (const [path, mod] of Object.entries(files)) {
  const locale = path.split("/").at(-2)!;
  resources[locale] = { common: { ...resources[locale]?.common, ...mod.default } };
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] =
      v && typeof v === "object" && b && typeof b === "object"
        ? deepMerge(b as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

const merged = new Map<string, Record<string, unknown>>();
/**
 * The browser's translations: the locale over en-US, so a text missing in a locale falls back to
 * English exactly as it does on the server (otherwise hydration would differ).
 */
export function translationsFor(locale: string): Record<string, unknown> {
  let m = merged.get(locale);
  if (!m) {
    const base = resources[DEFAULT_LOCALE].common as Record<string, unknown>;
    const own = resources[locale]?.common as Record<string, unknown> | undefined;
    m = own && locale !== DEFAULT_LOCALE ? deepMerge(base, own) : base;
    merged.set(locale, m);
  }
  return m;
}

const localeContext = createContext<string>(DEFAULT_LOCALE);

/** The `lng` cookie's locale, or null (absent or garbled: never an error). */
export async function chosenLocale(request: Request): Promise<string | null> {
  const value = await localeCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}

/**
 * The request's language (spec 9, issue 25 item 3; `negotiateLocale` in domain/, the same rule as the
 * embedded provider's pages): the `lng` cookie (the learner's choice, made in the app's language menu
 * or on the sign-in page, or taken from the profile's saved language at sign-in), then the browser's
 * Accept-Language among the tenant's languages, then the tenant's default, then en-US — decided once
 * per request. The tenant's languages are only read when the cookie does not decide (a cached
 * public-settings call, tenant-locale.server.ts). Rendering translates with the same small translator
 * the browser uses (decision 009), one per language for the life of the process — no i18next instance
 * per request. (remix-i18next 8 only exports a middleware that creates one; decision 013.)
 */
export const localeMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const chosen = await chosenLocale(request);
  const tenant = isSupportedLocale(chosen ?? "") ? null : await tenantLocales(context);
  context.set(
    localeContext,
    negotiateLocale({
      chosen: [chosen],
      tenantDefault: tenant?.defaultLocale,
      supported: tenant?.supported,
      acceptLanguage: request.headers.get("Accept-Language"),
    }),
  );
  return next();
};

export const getLocale = (context: Readonly<RouterContextProvider>): string => context.get(localeContext);

const translators = new Map<string, LiteI18n>();
export function getInstance(context: Readonly<RouterContextProvider>): LiteI18n {
  const locale = getLocale(context);
  let i18n = translators.get(locale);
  if (!i18n) {
    i18n = createLiteI18n(locale, translationsFor(locale));
    translators.set(locale, i18n);
  }
  return i18n;
}

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
