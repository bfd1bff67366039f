import { describe, expect, it } from "vitest";
import { createLiteI18n } from "./i18n";

const resources = {
  courses: { title: "My courses", due: "Due {{date}}", spaced: "Hello {{ name }}, {{missing}}" },
  cards_one: "{{count}} course",
  cards_other: "{{count}} courses",
  brace: "Only {single} braces",
};

describe("the app's translator (decision 009): nested keys, {{interpolation}}, CLDR plurals", () => {
  const { t } = createLiteI18n("en-US", resources);
  it.each([
    ["courses.title", undefined, "My courses"],
    ["courses.due", { date: "Nov 27, 2026" }, "Due Nov 27, 2026"],
    ["courses.spaced", { name: "Ada" }, "Hello Ada, {{missing}}"],
    ["cards", { count: 1 }, "1 course"],
    ["cards", { count: 3 }, "3 courses"],
    ["brace", { single: "x" }, "Only {single} braces"],
    ["courses.nothing", undefined, "courses.nothing"],
    ["courses.nothing", { defaultValue: "Fallback" }, "Fallback"],
    ["courses.title.deeper", undefined, "courses.title.deeper"],
  ] as const)("t(%j, %j) → %j", (key, options, expected) => {
    expect(t(key, options as never)).toBe(expected);
    // Asked again (the second answer comes from the translator's memory): the same.
    expect(t(key, options as never)).toBe(expected);
  });

  it("each translator answers from its own catalogue", () => {
    const fr = createLiteI18n("fr", { courses: { title: "Mes cours" } });
    expect(fr.t("courses.title")).toBe("Mes cours");
    expect(t("courses.title")).toBe("My courses");
    // French puts 0 in "one": the plural rules are the translator's language's.
    const frCards = createLiteI18n("fr", { cards_one: "{{count}} cours", cards_other: "{{count}} cours (pl.)" });
    expect(frCards.t("cards", { count: 0 })).toBe("0 cours");
  });
});
