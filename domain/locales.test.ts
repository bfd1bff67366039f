import { describe, expect, it } from "vitest";
import { localeDirection, parseSupportedLocales, SUPPORTED_LOCALES } from "./locales";
import { negotiateLocale } from "./locale-negotiation";

describe("spec 9: locales", () => {
  it("has 36 locales including every one the spec lists, en-US among them", () => {
    const listed =
      "ar, bg, bn, cs, da, de, en-US, es, fi, fr, hi, hu, id, it, ja, ko, la, ms, my, nb, nl, pl, pt-BR, pt-PT, ro, ru, sr-Latn, sv, ta, th, tr, uk, vi, zh-CN, zh-TW".split(
        ", ",
      );
    for (const l of listed) expect(SUPPORTED_LOCALES).toContain(l);
    expect(SUPPORTED_LOCALES).toHaveLength(36);
  });
  it.each([
    ["ar", "rtl"],
    ["he", "rtl"],
    ["en-US", "ltr"],
    ["zh-TW", "ltr"],
  ])("%s is %s", (l, dir) => expect(localeDirection(l)).toBe(dir));
  it("parses the tenant's comma list and ignores unknown entries", () => {
    expect(parseSupportedLocales("de, fr,xx")).toEqual(["de", "fr"]);
    expect(parseSupportedLocales("xx")).toEqual(["en-US"]);
    expect(parseSupportedLocales(null)).toHaveLength(36);
  });
  it.each([
    // [cookie, tenant default, Accept-Language, expected]
    ["de", null, "fr-FR,fr;q=0.9", "de"],
    [null, null, "fr-FR,fr;q=0.9,en;q=0.5", "fr"],
    [null, null, "pt", "pt-BR"],
    [null, null, "pt-PT,pt;q=0.9", "pt-PT"],
    [null, null, "zh-CN", "zh-CN"],
    [null, null, "zh-TW", "zh-TW"],
    [null, null, "sr-Latn-RS", "sr-Latn"],
    [null, null, "en-GB,en;q=0.8", "en-US"],
    [null, null, "xx-YY, q=;;", "en-US"],
    [null, null, "%", "en-US"],
    [null, null, "", "en-US"],
    ["klingon", null, "ja", "ja"],
    [null, "de", "fr", "de"],
    ["it", "de", "fr", "it"],
    [null, "xx", "ja;q=0.5,ko;q=0.9", "ko"],
  ])(
    "cookie %s, tenant %s, Accept-Language %s → %s (spec 9; tenant default before the browser's)",
    (cookie, tenant, header, expected) => {
      expect(negotiateLocale({ chosen: [cookie], tenantDefault: tenant, acceptLanguage: header })).toBe(expected);
    },
  );
  it("keeps to the tenant's supported list", () => {
    expect(negotiateLocale({ chosen: ["ja"], acceptLanguage: "ja", supported: ["de", "fr"] })).toBe("de");
    expect(negotiateLocale({ acceptLanguage: "fr", supported: ["de", "fr"] })).toBe("fr");
  });
});
