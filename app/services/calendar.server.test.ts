/**
 * The calendar's and the dashboard's dates, formatted on the server in the learner's locale
 * and zone. The texts are remembered per formatter and instant (decision 038, addendum 9): asked
 * again, or past the bound, they read exactly as `Intl` writes them.
 */
import { describe, expect, it } from "vitest";
import { formats, formatted, formattedRange, zoneLabel } from "./calendar.server";

const INSTANTS = [
  "2026-03-29T00:59:59Z", // Berlin: the last second before summer time
  "2026-03-29T01:00:00Z", // … and the first one in it
  "2026-10-25T00:59:59Z",
  "2026-12-31T23:59:59Z",
  "2027-01-01T00:00:00Z",
];

describe("formatted dates (issue 13)", () => {
  it.each([
    ["en-US", "Europe/Berlin"],
    ["de", "Europe/Berlin"],
    ["ar", "Asia/Kolkata"],
    ["ja", "Asia/Kathmandu"],
    ["fr", "America/St_Johns"],
  ])("%s in %s: each instant as Intl writes it, the same when asked twice", (locale, zone) => {
    const f = formats(locale, zone);
    for (const iso of INSTANTS) {
      const at = new Date(iso);
      for (const format of [f.time, f.dateTime, f.date]) {
        expect(formatted(format, at)).toBe(format.format(at));
        expect(formatted(format, new Date(iso))).toBe(format.format(at));
      }
    }
    const [start, end] = [new Date(INSTANTS[0]!), new Date(INSTANTS[1]!)];
    expect(formattedRange(f.dateTime, start, end)).toBe(f.dateTime.formatRange(start, end));
    expect(formattedRange(f.dateTime, start, end)).toBe(f.dateTime.formatRange(start, end));
  });

  it("tells formatters apart: the same instant in two zones and two locales", () => {
    const at = new Date("2026-11-28T06:30:00Z");
    expect(formatted(formats("en-US", "UTC").time, at)).toBe("6:30 AM");
    expect(formatted(formats("en-US", "Asia/Tokyo").time, at)).toBe("3:30 PM");
    expect(formatted(formats("de", "Asia/Tokyo").time, at)).toBe("15:30");
  });

  it("keeps answering right past the number of texts it remembers", () => {
    const f = formats("en-US", "America/New_York");
    const first = new Date(Date.UTC(2026, 0, 1));
    for (let i = 0; i < 6_000; i++) formatted(f.dateTime, new Date(first.getTime() + i * 60_000));
    expect(formatted(f.dateTime, first)).toBe(f.dateTime.format(first));
    const later = new Date(first.getTime() + 5_999 * 60_000);
    expect(formatted(f.dateTime, later)).toBe(f.dateTime.format(later));
  });

  it("names the zone with its offset at that moment, summer time included", () => {
    const f = formats("en-US", "Europe/Berlin");
    expect(zoneLabel(f, "Europe/Berlin", new Date("2026-01-15T12:00:00Z"))).toBe("Europe/Berlin (GMT+01:00)");
    expect(zoneLabel(f, "Europe/Berlin", new Date("2026-07-15T12:00:00Z"))).toBe("Europe/Berlin (GMT+02:00)");
    // ICU writes UTC's offset as "GMT" or "GMT+00:00", depending on its version.
    expect(zoneLabel(formats("en-US", "UTC"), "UTC", new Date("2026-07-15T12:00:00Z"))).toMatch(
      /^UTC \(GMT(\+00:00)?\)$/,
    );
  });
});
