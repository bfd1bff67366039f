import { describe, expect, it } from "vitest";
import { canonicalZone, zoneCatalog, zonePicker } from "./time-zones.server";
import { zoneMatches } from "~/common/time-zone-search";

const AT = new Date("2026-01-15T12:00:00.000Z");
const t = (key: string) => key;

describe("issue 25 item 4: IANA's current names, older ones kept as aliases", () => {
  it("lists Europe/Kyiv, Asia/Kolkata, Asia/Ho_Chi_Minh, America/Argentina/Buenos_Aires — not their old names", () => {
    const ids = new Set(zoneCatalog().map((z) => z.id));
    for (const id of ["Europe/Kyiv", "Asia/Kolkata", "Asia/Ho_Chi_Minh", "America/Argentina/Buenos_Aires", "UTC"])
      expect(ids, id).toContain(id);
    for (const old of ["Europe/Kiev", "Asia/Calcutta", "Asia/Saigon", "America/Buenos_Aires"])
      expect(ids, old).not.toContain(old);
    expect(canonicalZone("Europe/Kiev")?.id).toBe("Europe/Kyiv");
    expect(canonicalZone("Asia/Calcutta")?.id).toBe("Asia/Kolkata");
  });

  it("a learner who saved an old name keeps it, shown under the new name, first", () => {
    const picker = zonePicker("en-US", AT, "Europe/Kiev", t);
    expect(picker.current).toBe("Europe/Kyiv");
    expect(picker.currentLabel).toBe("Kyiv, Ukraine (UTC+02:00)");
    expect(picker.groups[0]).toMatchObject({
      key: "suggested",
      zones: [{ value: "Europe/Kiev", label: "Kyiv, Ukraine" }],
    });
    const europe = picker.groups.find((g) => g.key === "Europe")!;
    expect(europe.label).toBe("Europe");
    expect(europe.zones.find((z) => z.label === "Kyiv, Ukraine")?.value).toBe("Europe/Kiev");
  });

  it("groups by region, named in the page's language; countries too", () => {
    const picker = zonePicker("ar", AT, null, t);
    expect(picker.groups.map((g) => g.key)).toEqual([
      "suggested",
      "Africa",
      "America",
      "Antarctica",
      "Asia",
      "Atlantic",
      "Australia",
      "Europe",
      "Indian",
      "Pacific",
      "Other",
    ]);
    expect(picker.groups.find((g) => g.key === "Europe")!.label).toBe("أوروبا");
    const kyiv = picker.groups.flatMap((g) => g.zones).find((z) => z.ids.includes("Europe/Kyiv"))!;
    expect(kyiv.label).toBe("Kyiv, أوكرانيا");
  });

  it.each([
    ["Kyiv", "Europe/Kyiv"],
    ["ukraine", "Europe/Kyiv"],
    ["أوكرانيا", "Europe/Kyiv"],
    ["India", "Asia/Kolkata"],
    ["+05:30", "Asia/Kolkata"],
    ["utc+5:30", "Asia/Kolkata"],
    ["buenos aires", "America/Argentina/Buenos_Aires"],
    ["Ho Chi Minh", "Asia/Ho_Chi_Minh"],
    ["Saigon", "Asia/Ho_Chi_Minh"],
    ["São Paulo", "America/Sao_Paulo"],
    ["sao paulo", "America/Sao_Paulo"],
  ])("“%s” finds %s", (query, id) => {
    const zones = zonePicker("ar", AT, null, t)
      .groups.slice(1)
      .flatMap((g) => g.zones);
    const found = zones.filter((z) => zoneMatches(z, query)).map((z) => z.ids[0]);
    expect(found).toContain(id);
    if (query.startsWith("+")) expect(found.every((f) => ["Asia/Kolkata", "Asia/Colombo"].includes(f))).toBe(true);
  });
});
