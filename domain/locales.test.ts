import { describe, expect, it } from "vitest";
import { localeDirection, parseSupportedLocales, SUPPORTED_LOCALES } from "./locales";

describe("spec 9: locales", () => {
  it("has 36 locales including every one the spec lists, en-US among them", () => {
    const listed = "ar, bg, bn, cs, da, de, en-US, es, fi, fr, hi, hu, id, it, ja, ko, la, ms, my, nb, nl, pl, pt-BR, pt-PT, ro, ru, sr-Latn, sv, ta, th, tr, uk, vi, zh-CN, zh-TW".split(", ");
    for (const l of listed) expect(SUPPORTED_LOCALES).toContain(l);
    expect(SUPPORTED_LOCALES).toHaveLength(36);
  });
  it.each([["ar", "rtl"], ["he", "rtl"], ["en-US", "ltr"], ["zh-TW", "ltr"]])("%s is %s", (l, dir) => expect(localeDirection(l)).toBe(dir));
  it("parses the tenant's comma list and ignores unknown entries", () => {
    expect(parseSupportedLocales("de, fr,xx")).toEqual(["de", "fr"]);
    expect(parseSupportedLocales("xx")).toEqual(["en-US"]);
    expect(parseSupportedLocales(null)).toHaveLength(36);
  });
});
