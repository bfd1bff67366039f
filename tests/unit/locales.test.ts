import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { SUPPORTED_LOCALES, DEFAULT_LOCALE } from "../../domain/locales";

/**
 * Spec 9: every key in every locale, really translated. A value equal to the English text is only
 * allowed for brand words and tokens that are the same in every language.
 */
const ALLOWED_SAME = /^(?:[\d\s{}.:,/()%|·×-]*|PDF|LTI|SCORM|Vimeo|E-mail|OK|Chrome|Edge|Safari|\{\{[a-z]+\}\}|[A-Z]{2,5}|Email|Online|Portal|Status|Video|Tutor)$/i;
const NAMESPACES = ["common", "idp"];

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
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("translations", () => {
  it("has a folder for every supported locale and no others", () => {
    const dirs = readdirSync("locales").sort();
    expect(dirs).toEqual([...SUPPORTED_LOCALES].sort());
  });

  for (const ns of NAMESPACES) {
    const english = load(DEFAULT_LOCALE, ns);
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== DEFAULT_LOCALE)) {
      it(`${locale}/${ns}.json has every key, translated, with the same placeholders`, () => {
        expect(existsSync(`locales/${locale}/${ns}.json`), `locales/${locale}/${ns}.json`).toBe(true);
        const other = load(locale, ns);
        expect(Object.keys(other).sort()).toEqual(Object.keys(english).sort());
        const untranslated = Object.entries(english)
          .filter(([k, en]) => other[k] === en && !ALLOWED_SAME.test(en.trim()))
          .map(([k]) => k);
        expect(untranslated, "values identical to English").toEqual([]);
        for (const [k, en] of Object.entries(english)) {
          expect(placeholders(other[k] ?? ""), `${locale} ${k}`).toEqual(placeholders(en));
        }
      });
    }
  }
});
