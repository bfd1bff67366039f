import Negotiator from "negotiator";
import { match } from "@formatjs/intl-localematcher";
/**
 * Spec 9: supported locales, default en-US; right-to-left layouts. The spec's list names 35 of its
 * "about 36"; Hebrew completes it as a second right-to-left language (docs/decisions/005-locales.md).
 */
export const SUPPORTED_LOCALES = [
  "ar",
  "bg",
  "bn",
  "cs",
  "da",
  "de",
  "en-US",
  "es",
  "fi",
  "fr",
  "he",
  "hi",
  "hu",
  "id",
  "it",
  "ja",
  "ko",
  "la",
  "ms",
  "my",
  "nb",
  "nl",
  "pl",
  "pt-BR",
  "pt-PT",
  "ro",
  "ru",
  "sr-Latn",
  "sv",
  "ta",
  "th",
  "tr",
  "uk",
  "vi",
  "zh-CN",
  "zh-TW",
] as const;

export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en-US";

const RTL = new Set<string>(["ar", "he"]);

export function isSupportedLocale(value: unknown): value is Locale {
  return typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

export function localeDirection(locale: string): "rtl" | "ltr" {
  return RTL.has(locale.split("-")[0]) ? "rtl" : "ltr";
}

/** The language's own name, for the language menu (shown in that language, never translated). */
export const LOCALE_NAMES: Record<Locale, string> = {
  ar: "العربية",
  bg: "Български",
  bn: "বাংলা",
  cs: "Čeština",
  da: "Dansk",
  de: "Deutsch",
  "en-US": "English (US)",
  es: "Español",
  fi: "Suomi",
  fr: "Français",
  he: "עברית",
  hi: "हिन्दी",
  hu: "Magyar",
  id: "Bahasa Indonesia",
  it: "Italiano",
  ja: "日本語",
  ko: "한국어",
  la: "Latina",
  ms: "Bahasa Melayu",
  my: "မြန်မာ",
  nb: "Norsk bokmål",
  nl: "Nederlands",
  pl: "Polski",
  "pt-BR": "Português (Brasil)",
  "pt-PT": "Português (Portugal)",
  ro: "Română",
  ru: "Русский",
  "sr-Latn": "Srpski",
  sv: "Svenska",
  ta: "தமிழ்",
  th: "ไทย",
  tr: "Türkçe",
  uk: "Українська",
  vi: "Tiếng Việt",
  "zh-CN": "简体中文",
  "zh-TW": "繁體中文",
};

/** Spec 3 'Settings read': platform.common.supported_locales is a comma list; unknown entries are ignored. */
export function parseSupportedLocales(value: string | null | undefined): Locale[] {
  if (!value) return [...SUPPORTED_LOCALES];
  const list = value
    .split(",")
    .map((s) => s.trim())
    .filter(isSupportedLocale);
  return list.length ? list : [DEFAULT_LOCALE];
}

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
