// The learner's language from a request (spec 9). Apart from domain/locales.ts because its libraries
// (negotiator, the BCP 47 matcher) belong on the server: the pages' own code imports the locale list and
// directions from locales.ts, and must not carry these into every page's first-load JavaScript.
import Negotiator from "negotiator";
import { match } from "@formatjs/intl-localematcher";
import { DEFAULT_LOCALE, isSupportedLocale, SUPPORTED_LOCALES, type Locale } from "./locales";

/**
 * Spec 9: the learner's language. An explicit choice (the `lng` cookie, OIDC `ui_locales`) wins when
 * it names a supported locale; then the tenant's default (`platform.common.locale`); then the
 * browser's Accept-Language, matched by the BCP 47 "best fit" algorithm (so `pt` finds pt-BR, `zh-HK`
 * finds zh-TW, `sr` finds sr-Latn); then en-US. Garbled values are ignored, never thrown.
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
  if (input.tenantDefault && allowed(input.tenantDefault)) return input.tenantDefault;
  const header = input.acceptLanguage ?? "";
  if (header && header.length <= 500) {
    const requested = new Negotiator({ headers: { "accept-language": header } })
      .languages()
      .filter((tag) => tag !== "*" && isWellFormedTag(tag));
    if (requested.length) {
      const fallback = supported.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : supported[0];
      const best = match(requested, supported, fallback, { algorithm: "best fit" });
      if (allowed(best)) return best;
    }
  }
  return supported.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : (supported[0] ?? DEFAULT_LOCALE);
}

function isWellFormedTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
