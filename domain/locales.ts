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

/** Right-to-left languages: the two of the app's locales, and others a course may be written in. */
const RTL = new Set<string>(["ar", "he", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug", "syr"]);

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

/** The portal's name when the tenant has not named it (api/settings-defaults.ts). */
const DEFAULT_PORTAL_NAME = "Learning Portal";

/**
 * The portal's name on a page (issue 25 item 3): the tenant's own name as it wrote it, or — when the
 * tenant kept the built-in default — that default in the page's language (`translated`), on the sign-in
 * page and in the app alike.
 */
export function portalDisplayName(configured: string | null | undefined, translated: string): string {
  const name = configured?.trim();
  return name && name !== DEFAULT_PORTAL_NAME ? name : translated || DEFAULT_PORTAL_NAME;
}

/** The `lang` and `dir` attributes of a text from data (issue 25 item 2). */
export interface TextLanguage {
  lang?: string;
  dir: "ltr" | "rtl" | "auto";
}

/**
 * Issue 25 item 2: a course's texts (names, descriptions, lessons, quotations) keep their own language
 * and direction whatever the page's: `lang` and `dir` from the course's language when it is known, else
 * `dir="auto"` (the browser takes the direction from the text's first strong character). Code inside is
 * always left to right (app.scss).
 */
export function textLanguage(language: string | null | undefined): TextLanguage {
  if (!language) return AUTO;
  let known = textLanguages.get(language);
  if (!known) {
    // A page asks once per course it shows; canonicalising a tag through Intl is the costly part.
    known = Object.freeze(languageOf(language));
    if (textLanguages.size >= MAX_TEXT_LANGUAGES) textLanguages.clear();
    textLanguages.set(language, known);
  }
  return known;
}

const AUTO: TextLanguage = Object.freeze({ dir: "auto" });
/** The languages courses are written in, each worked out once (a bound, not a policy). */
const MAX_TEXT_LANGUAGES = 1000;
const textLanguages = new Map<string, TextLanguage>();

function languageOf(language: string): TextLanguage {
  try {
    const [tag] = Intl.getCanonicalLocales(language);
    return tag ? { lang: tag, dir: localeDirection(tag) } : AUTO;
  } catch {
    return AUTO;
  }
}
