import { describe, expect, it } from "vitest";
import { dateFormatter, FORMATTED_MAX, formattedDatesRemembered } from "./format.server";

// Spec 2.9: dates in the learner's locale and chosen time zone; the zone's name where a time is shown.
describe("dateFormatter", () => {
  const cases = [
    {
      locale: "en-US",
      tz: "UTC",
      iso: "2026-07-15T10:00:00.000Z",
      date: "Jul 15, 2026",
      time: "Jul 15, 2026, 10:00 AM UTC",
    },
    {
      locale: "en-US",
      tz: "Asia/Tokyo",
      iso: "2026-07-15T20:30:00.000Z",
      date: "Jul 16, 2026",
      time: "Jul 16, 2026, 5:30 AM GMT+9",
    },
    {
      locale: "de-DE",
      tz: "Europe/Berlin",
      iso: "2026-12-31T23:30:00.000Z",
      date: "01.01.2027",
      time: "1. Jan. 2027, 00:30 MEZ",
    },
    {
      locale: "en-US",
      tz: "Not/AZone",
      iso: "2026-07-15T10:00:00.000Z",
      date: "Jul 15, 2026",
      time: "Jul 15, 2026, 10:00 AM UTC",
    },
  ];
  it.each(cases)("$locale in $tz: $iso", ({ locale, tz, iso, date, time }) => {
    const fmt = dateFormatter(locale, tz);
    expect(fmt.date(iso)).toBe(date);
    expect(fmt.dateTime(iso)).toBe(time);
    // Asked again (remembered): the same text.
    expect(fmt.date(iso)).toBe(date);
    expect(fmt.dateTime(iso)).toBe(time);
  });

  it("gives null for no date", () => {
    const fmt = dateFormatter("en-US", "UTC");
    expect(fmt.date(null)).toBeNull();
    expect(fmt.dateTime(undefined)).toBeNull();
    expect(fmt.date("")).toBeNull();
  });

  it("keeps the same instant apart per locale, zone and kind", () => {
    const iso = "2026-03-01T01:00:00.000Z";
    expect(dateFormatter("en-US", "America/New_York").date(iso)).toBe("Feb 28, 2026");
    expect(dateFormatter("en-US", "UTC").date(iso)).toBe("Mar 1, 2026");
    expect(dateFormatter("fr-FR", "UTC").date(iso)).toBe("1 mars 2026");
    expect(dateFormatter("en-US", "UTC").dateTime(iso)).toBe("Mar 1, 2026, 1:00 AM UTC");
  });

  it("remembers a bounded number of dates", () => {
    const fmt = dateFormatter("en-GB", "Europe/London");
    const start = Date.UTC(2020, 0, 1);
    for (let i = 0; i < FORMATTED_MAX + 50; i++) fmt.date(new Date(start + i * 3_600_000).toISOString());
    expect(formattedDatesRemembered()).toBeLessThanOrEqual(FORMATTED_MAX);
    expect(fmt.date("2020-01-01T00:00:00.000Z")).toBe("1 Jan 2020");
  });
});
