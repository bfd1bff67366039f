import { describe, expect, it } from "vitest";
import { groupForActivity, startMode, workModes } from "./groups";

const both = { supportCollaborativeMode: true, supportPersonalMode: true };
const groupOnly = { supportCollaborativeMode: true, supportPersonalMode: false };
const personalOnly = { supportCollaborativeMode: false, supportPersonalMode: true };
const neither = { supportCollaborativeMode: false, supportPersonalMode: false };

describe("spec 3 supportCollaborativeMode / supportPersonalMode: the modes offered", () => {
  it.each([
    [both, ["personal", "group"]],
    [groupOnly, ["group"]],
    [personalOnly, ["personal"]],
    [neither, ["personal"]],
  ] as const)("%o → %o", (a, modes) => expect(workModes(a)).toEqual(modes));
});

describe("spec 1 / 3: starting in a mode", () => {
  it.each([
    ["collaborative only, no choice, in a group", groupOnly, undefined, true, { mode: "group" }],
    ["collaborative only, no group", groupOnly, undefined, false, { refused: "noGroup" }],
    ["collaborative only, personal asked", groupOnly, "personal", true, { refused: "modeNotSupported" }],
    ["both, group chosen", both, "group", true, { mode: "group" }],
    ["both, group chosen without a group", both, "group", false, { refused: "noGroup" }],
    ["both, personal chosen", both, "personal", true, { mode: "personal" }],
    ["both, no choice → personal", both, undefined, true, { mode: "personal" }],
    ["personal only, group asked", personalOnly, "group", true, { refused: "modeNotSupported" }],
    ["personal only, no group needed", personalOnly, undefined, false, { mode: "personal" }],
  ] as const)("%s", (_, a, asked, hasGroup, expected) => expect(startMode(a, asked, hasGroup)).toEqual(expected));
});

describe("spec 1: which group works on an activity", () => {
  const at = { objectiveId: "c1", activityPartId: "p1" };
  const g = (id: string, kind: string, objectiveId: string | null, activityPartId: string | null) => ({
    id,
    kind,
    objectiveId,
    activityPartId,
  });
  it.each([
    ["none", [], null],
    ["a tenant-wide mini-group", [g("a", "miniGroup", null, null)], "a"],
    ["a mini-group of another course does not count", [g("a", "miniGroup", "c2", null)], null],
    [
      "the course's mini-group beats the tenant-wide one",
      [g("a", "miniGroup", null, null), g("b", "miniGroup", "c1", null)],
      "b",
    ],
    ["a team for the course beats mini-groups", [g("b", "miniGroup", "c1", null), g("t", "team", "c1", null)], "t"],
    ["a team for this activity beats the course's team", [g("t", "team", "c1", null), g("u", "team", "c1", "p1")], "u"],
    ["a team for another activity does not count", [g("u", "team", "c1", "p2")], null],
    ["a team without a course does not count", [g("u", "team", null, null)], null],
    [
      "ties: the lowest id, for every member alike",
      [g("z", "miniGroup", "c1", null), g("m", "miniGroup", "c1", null)],
      "m",
    ],
  ] as const)("%s", (_, candidates, expected) =>
    expect(groupForActivity([...candidates], at)?.id ?? null).toBe(expected),
  );
});
