import { describe, expect, it } from "vitest";
import { formatInterval, formatTimespan, intervalCentis, sessionCentis, timespanCentis } from "./scorm-time";

// SCORM 2004 timeinterval (RTE 4.1.1.7) and 1.2 CMITimespan (RTE 3.4.2), read strictly.
describe("timeintervals", () => {
  it.each([
    ["PT1M", 6000],
    ["PT0H0M0S", 0],
    ["PT01H059M020S", (3600 + 59 * 60 + 20) * 100],
    ["P0Y029DT0H", 29 * 86_400 * 100],
    ["PT1.5S", 150],
    ["PT0.05S", 5],
    ["P1D", 8_640_000],
    ["P1Y", 31_536_000 * 100],
    ["P1M", 2_628_029 * 100],
  ])("%s is %i centiseconds", (v, cs) => expect(intervalCentis(v)).toBe(cs));

  it.each(["P1Y6M14DT", "PT", "P", "", "PT1.234S", "1H", "PT-1S", "P1.5D", "PT1H2", "pt1m"])("%j is not one", (v) =>
    expect(intervalCentis(v)).toBeNull(),
  );

  it.each([
    [0, "PT0S"],
    [6000, "PT1M"],
    [(2 * 3600 + 20) * 100, "PT2H20S"],
    [29 * 86_400 * 100, "P29D"],
    [(86_400 + 1) * 100 + 5, "P1DT1.05S"],
  ])("%i centiseconds are %s", (cs, v) => {
    expect(formatInterval(cs)).toBe(v);
    expect(intervalCentis(v)).toBe(cs);
  });
});

describe("CMITimespans", () => {
  it.each([
    ["00:00:00", 0],
    ["0001:02:03.5", (3600 + 123) * 100 + 50],
    ["9999:59:59.99", 9999 * 360_000 + 359_999],
  ])("%s is %i centiseconds", (v, cs) => expect(timespanCentis(v)).toBe(cs));

  it.each(["1:00:00", "00:60:00", "00:00:60", "00:00:00.123", "PT1M", ""])("%j is not one", (v) =>
    expect(timespanCentis(v)).toBeNull(),
  );

  it("formats four digits of hours and two decimals", () => {
    expect(formatTimespan(0)).toBe("0000:00:00.00");
    expect(formatTimespan((3600 * 26 + 61) * 100 + 7)).toBe("0026:01:01.07");
  });

  it("reads a session time by its version", () => {
    expect(sessionCentis("1.2", "00:01:00")).toBe(6000);
    expect(sessionCentis("1.2", "PT1M")).toBeNull();
    expect(sessionCentis("2004", "PT1M")).toBe(6000);
  });
});
