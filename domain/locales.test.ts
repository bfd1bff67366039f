import { describe, expect, it } from "vitest";
import { localeDirection, parseSupportedLocales, SUPPORTED_LOCALES, textLanguage } from "./locales";
import { negotiateLocale, signInLanguage } from "./locale-negotiation";

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
    // [explicit choice, tenant default, Accept-Language, expected]
    ["de", null, "fr-FR,fr;q=0.9", "de"],
    [null, null, "fr-FR,fr;q=0.9,en;q=0.5", "fr"],
    [null, null, "pt", "pt-BR"],
    [null, null, "pt-PT,pt;q=0.9", "pt-PT"],
    [null, null, "zh-CN", "zh-CN"],
    [null, null, "zh-TW", "zh-TW"],
    [null, null, "sr-Latn-RS", "sr-Latn"],
    [null, null, "ar-EG,ar;q=0.9", "ar"],
    [null, null, "en-GB,en;q=0.8", "en-US"],
    [null, null, "xx-YY, q=;;", "en-US"],
    [null, null, "%", "en-US"],
    [null, null, "", "en-US"],
    ["klingon", null, "ja", "ja"],
    // Issue 25 item 3: the browser's language before the tenant's default…
    [null, "en-US", "ar", "ar"],
    [null, "de", "fr", "fr"],
    // …which decides when the browser asks for nothing supported, or nothing at all.
    [null, "de", "xx-YY", "de"],
    [null, "de", "", "de"],
    [null, "de", "tlh", "de"],
    ["it", "de", "fr", "it"],
    [null, "xx", "ja;q=0.5,ko;q=0.9", "ko"],
    [null, "xx", "tlh", "en-US"],
  ])(
    "choice %s, tenant %s, Accept-Language %s → %s (issue 25: choice, browser, tenant, en-US)",
    (cookie, tenant, header, expected) => {
      expect(negotiateLocale({ chosen: [cookie], tenantDefault: tenant, acceptLanguage: header })).toBe(expected);
    },
  );
  it("takes the explicit choices in order: the cookie, ui_locales (a list), a saved profile language", () => {
    expect(negotiateLocale({ chosen: [null, "xx ar fr", "de"], acceptLanguage: "ja" })).toBe("ar");
    expect(negotiateLocale({ chosen: [null, null, "de"], acceptLanguage: "ja" })).toBe("de");
  });
  it("matches the browser's language among the tenant's supported locales only", () => {
    expect(negotiateLocale({ acceptLanguage: "ar", tenantDefault: "fr", supported: ["de", "fr"] })).toBe("fr");
    expect(negotiateLocale({ acceptLanguage: "de-AT", tenantDefault: "fr", supported: ["de", "fr"] })).toBe("de");
  });
  it("keeps to the tenant's supported list", () => {
    expect(negotiateLocale({ chosen: ["ja"], acceptLanguage: "ja", supported: ["de", "fr"] })).toBe("de");
    expect(negotiateLocale({ acceptLanguage: "fr", supported: ["de", "fr"] })).toBe("fr");
  });
});

describe("what a sign-in records of the learner's language (spec 9: choice, then browser)", () => {
  it.each([
    // A language chosen on this browser is her choice, sent at every later sign-in.
    ["ar", "ar", { locale: "ar" }],
    // None chosen: the browser's language is only her e-mails' until she chooses.
    [null, "ar", { browserLocale: "ar" }],
    [undefined, "en-US", { browserLocale: "en-US" }],
    ["xx", "de", { browserLocale: "de" }],
    [null, "xx", null],
  ])("cookie %s, negotiated %s → %o", (chosen, negotiated, expected) => {
    expect(signInLanguage({ chosen, negotiated })).toEqual(expected);
  });
});

describe("issue 25 item 2: a course's text keeps its own language (textLanguage)", () => {
  it.each([
    ["ar", { lang: "ar", dir: "rtl" }],
    ["AR-eg", { lang: "ar-EG", dir: "rtl" }],
    ["he-IL", { lang: "he-IL", dir: "rtl" }],
    ["fa", { lang: "fa", dir: "rtl" }],
    ["de", { lang: "de", dir: "ltr" }],
    ["en-us", { lang: "en-US", dir: "ltr" }],
    ["zh-hant-tw", { lang: "zh-Hant-TW", dir: "ltr" }],
    ["not a tag!", { dir: "auto" }],
    ["", { dir: "auto" }],
    [null, { dir: "auto" }],
    [undefined, { dir: "auto" }],
  ])("%j → %j, the same when asked again", (language, expected) => {
    expect(textLanguage(language)).toEqual(expected);
    expect(textLanguage(language)).toEqual(expected);
  });

  it("keeps answering after more distinct languages than it remembers", () => {
    for (let i = 0; i < 1500; i++) textLanguage(`en-x-n${i}`);
    expect(textLanguage("ar")).toEqual({ lang: "ar", dir: "rtl" });
    expect(textLanguage("en-x-n3")).toEqual({ lang: "en-x-n3", dir: "ltr" });
  });
});
