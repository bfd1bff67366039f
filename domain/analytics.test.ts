import { describe, expect, it } from "vitest";
import { analyticsEnabled, optedOut, sessionAt } from "./analytics";

describe("spec 1 / issue 16 item 8: analytics only in test and prod", () => {
  it.each([
    ["dev", false],
    ["test", true],
    ["prod", true],
  ])("%s → %s", (env, expected) => expect(analyticsEnabled(env)).toBe(expected));
});

describe("Do-Not-Track and Global Privacy Control", () => {
  it.each([
    [null, null, false],
    ["1", null, true],
    [null, "1", true],
    ["0", "0", false],
  ])("DNT %s, GPC %s → opted out %s", (dnt, gpc, expected) => expect(optedOut(dnt, gpc)).toBe(expected));
});

describe("spec 9: the analytics session ends after more than 7,200 s without activity", () => {
  const id = () => "new";
  it.each([
    [null, 0, "new"],
    [{ id: "s", lastActivity: 0 }, 7_200_000, "s"],
    [{ id: "s", lastActivity: 0 }, 7_200_001, "new"],
  ])("%j at %i → %s", (current, now, expected) => expect(sessionAt(current, now, id).id).toBe(expected));
});
