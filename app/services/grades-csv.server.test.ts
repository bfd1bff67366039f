import { describe, expect, it } from "vitest";
import { isoDay } from "./grades.server";

/** The grades CSV writes days as ISO 8601, in the learner's time zone: a spreadsheet sorts them as dates. */
describe("isoDay", () => {
  it.each([
    ["2026-12-02T10:00:00Z", "UTC", "2026-12-02"],
    // Late evening in UTC is the next day in Tokyo and still the same day in New York.
    ["2026-12-02T23:30:00Z", "Asia/Tokyo", "2026-12-03"],
    ["2026-12-02T23:30:00Z", "America/New_York", "2026-12-02"],
    ["2026-01-05T00:00:00Z", "Asia/Riyadh", "2026-01-05"],
    [null, "UTC", ""],
    ["not a date", "UTC", ""],
  ])("%s in %s → %s", (iso, zone, expected) => {
    expect(isoDay(iso, zone)).toBe(expected);
  });
});
