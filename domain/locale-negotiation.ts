// The learner's language from a request (spec 9). Apart from domain/locales.ts because its libraries
// (negotiator, the BCP 47 matcher) belong on the server: the pages' own code imports the locale list and
// directions from locales.ts, and must not carry these into every page's first-load JavaScript.
import Negotiator from "negotiator";
import { match } from "@formatjs/intl-localematcher";
import { DEFAULT_LOCALE, isSupportedLocale, SUPPORTED_LOCALES, type Locale } from "./locales";

/**
 * The learner's language (spec 9, issue 25 item 3), the same rule for the app and the embedded provider's
 * pages: the learner's explicit choice (the `lng` cookie, OIDC `ui_locales`, a language saved in their
 * profile — in the order given) when it names a supported locale; then the browser's Accept-Language,
 * matched among the tenant's supported locales by the BCP 47 "best fit" algorithm (so `pt` finds pt-BR,
 * `zh-HK` zh-TW, `sr` sr-Latn, `ar-EG` ar); then the tenant's default (`platform.common.locale`); then
 * en-US (or the tenant's first supported locale when en-US is not among them). Garbled values are
 * ignored, never thrown.
 *
 * The browser's language comes before the tenant's default: a person whose browser asks for Arabic gets
 * Arabic in a tenant whose default is English, before and after signing in.
 */
export function negotiateLocale(input: {
  chosen?: (string | null | undefined)[];
  tenantDefault?: string | null;
  acceptLanguage?: string | null;
  supported?: readonly string[];
}): Locale {
  const supported = (input.supported?.length ? input.supported : SUPPORTED_LOCALES).filter(isSupportedLocale);
  const allowed = (tag: string): tag is Locale => supported.includes(tag as Locale);
  for (const value of input.chosen ?? []) {
    for (const part of (value ?? "").split(/\s+/)) if (allowed(part)) return part;
  }
  const browser = browserLocale(input.acceptLanguage, supported);
  if (browser) return browser;
  if (input.tenantDefault && allowed(input.tenantDefault)) return input.tenantDefault;
  return supported.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : (supported[0] ?? DEFAULT_LOCALE);
}

/** No match: a value `match` returns only when none of the requested languages is close to a supported one. */
const NO_MATCH = "und-x-none";

/** The supported locale closest to the browser's Accept-Language, or null when none is close. */
function browserLocale(header: string | null | undefined, supported: Locale[]): Locale | null {
  if (!header || header.length > 500) return null;
  const requested = new Negotiator({ headers: { "accept-language": header } })
    .languages()
    .filter((tag) => tag !== "*" && isWellFormedTag(tag));
  if (!requested.length) return null;
  const best = match(requested, supported, NO_MATCH, { algorithm: "best fit" });
  if (!isSupportedLocale(best) || !supported.includes(best)) return null;
  // "Best fit" falls back to English for languages it has no data on (Klingon → en-US): only a match of
  // the same language counts as the browser's, so the tenant's default decides for the others.
  const language = languageOf(best);
  return requested.some((tag) => languageOf(tag) === language) ? best : null;
}

/** Norwegian (`no`) is written as Bokmål (`nb`) here; other tags by their language subtag. */
function languageOf(tag: string): string {
  const language = new Intl.Locale(tag).language;
  return language === "no" ? "nb" : language;
}

function isWellFormedTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * What a sign-in records of the learner's language (spec 9): a language chosen on this browser (the `lng`
 * cookie: the menu, the sign-in page) is her choice, kept in her profile and sent at every later sign-in;
 * otherwise the language this browser negotiated is only her e-mails' language until she chooses, and is
 * never sent back as a choice, so the next browser's Accept-Language decides there.
 */
export function signInLanguage(input: {
  chosen: string | null | undefined;
  negotiated: string;
}): { locale: Locale } | { browserLocale: Locale } | null {
  if (isSupportedLocale(input.chosen)) return { locale: input.chosen };
  return isSupportedLocale(input.negotiated) ? { browserLocale: input.negotiated } : null;
}
