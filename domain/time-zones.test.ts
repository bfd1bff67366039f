import { describe, expect, it } from "vitest";
import { formatOffset, isTimeZone, zoneOffsetMinutes } from "./time-zones";

const WINTER = new Date("2026-01-15T12:00:00.000Z");
const SUMMER = new Date("2026-07-15T12:00:00.000Z");

describe("zoneOffsetMinutes (spec 2.9: each zone with its current UTC offset)", () => {
  it.each([
    ["UTC", WINTER, 0],
    ["Europe/London", WINTER, 0],
    ["Europe/London", SUMMER, 60],
    ["America/New_York", WINTER, -300],
    ["America/New_York", SUMMER, -240],
    ["Asia/Kolkata", WINTER, 330],
    ["Asia/Kathmandu", WINTER, 345],
    ["Australia/Adelaide", WINTER, 630],
    ["Pacific/Kiritimati", SUMMER, 840],
  ] as const)("%s at %s → %i", (zone, at, minutes) => {
    expect(zoneOffsetMinutes(zone, at)).toBe(minutes);
  });
});

describe("formatOffset", () => {
  it.each([
    [0, "UTC+00:00"],
    [330, "UTC+05:30"],
    [-240, "UTC\u221204:00"],
    [-570, "UTC\u221209:30"],
  ])("%i → %s", (m, s) => expect(formatOffset(m)).toBe(s));
});

describe("isTimeZone (POST users/{id}/timezone refuses unknown zones)", () => {
  it.each([
    ["Europe/Berlin", true],
    ["UTC", true],
    ["Mars/Olympus_Mons", false],
    ["", false],
    ["x".repeat(100), false],
  ])("%j → %s", (zone, ok) => expect(isTimeZone(zone)).toBe(ok));
});
