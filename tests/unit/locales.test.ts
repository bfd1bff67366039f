import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { SUPPORTED_LOCALES, DEFAULT_LOCALE } from "../../domain/locales";

/**
 * Spec 9: every key in every locale, really translated. A value equal to the English text is only
 * allowed for brand words and tokens that are the same in every language.
 */
const ALLOWED_SAME =
  /^(?:[\d\s{}.:,/()%|·×-]*|PDF|LTI|SCORM|Vimeo|E-mail|OK|Chrome|Edge|Safari|\{\{[a-z]+\}\}|[A-Z]{2,5}|Email|Online|Portal|Status|Video|Tutor)$/i;
/** Every namespace file English has: `common.json`, `idp.json` and one per feature. */
const NAMESPACES = readdirSync(`locales/${DEFAULT_LOCALE}`)
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.replace(/\.json$/, ""));

function flatten(obj: unknown, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") Object.assign(out, flatten(v, key));
    else out[key] = String(v);
  }
  return out;
}

const load = (locale: string, ns: string) => flatten(JSON.parse(readFileSync(`locales/${locale}/${ns}.json`, "utf8")));
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The keys a locale must have: plural keys expand to that language's CLDR categories (i18next JSON v4). */
function expectedKeys(english: Record<string, string>, locale: string): string[] {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const out = new Set<string>();
  for (const key of Object.keys(english)) {
    if (PLURAL.test(key)) for (const c of categories) out.add(key.replace(PLURAL, `_${c}`));
    else out.add(key);
  }
  return [...out].sort();
}
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("translations", () => {
  it("has a folder for every supported locale and no others", () => {
    const dirs = readdirSync("locales").sort();
    expect(dirs).toEqual([...SUPPORTED_LOCALES].sort());
  });

  it("app namespaces do not share a top-level key (they merge into one tree)", () => {
    const owners = new Map<string, string>();
    for (const ns of NAMESPACES.filter((n) => n !== "idp")) {
      for (const key of Object.keys(JSON.parse(readFileSync(`locales/${DEFAULT_LOCALE}/${ns}.json`, "utf8")))) {
        expect(owners.get(key), `"${key}" is in ${owners.get(key)}.json and ${ns}.json`).toBeUndefined();
        owners.set(key, ns);
      }
    }
  });

  for (const ns of NAMESPACES) {
    const english = load(DEFAULT_LOCALE, ns);
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== DEFAULT_LOCALE)) {
      it(`${locale}/${ns}.json has every key, translated, with the same placeholders`, () => {
        expect(existsSync(`locales/${locale}/${ns}.json`), `locales/${locale}/${ns}.json`).toBe(true);
        const other = load(locale, ns);
        expect(Object.keys(other).sort()).toEqual(expectedKeys(english, locale));
        const untranslated = Object.entries(english)
          .filter(([k, en]) => other[k] === en && !ALLOWED_SAME.test(en.trim()))
          .map(([k]) => k);
        expect(untranslated, "values identical to English").toEqual([]);
        for (const [k, value] of Object.entries(other)) {
          const source = english[k] ?? english[k.replace(PLURAL, "_other")];
          // A language may spell out the number in a singular form ("one course"), so {{count}} is optional there.
          const want = placeholders(source).filter((p) => !(p === "count" && PLURAL.test(k) && !k.endsWith("_other")));
          const have = placeholders(value).filter((p) => !(p === "count" && PLURAL.test(k) && !k.endsWith("_other")));
          expect(have, `${locale} ${k}`).toEqual(want);
        }
      });
    }
  }
});
