import { describe, expect, it } from "vitest";
import { hasPermissions, isLearnerOnly, isPlatformOnly, isPublicPath, learnerAreaDecision } from "./access";

describe("spec 6: learner-only", () => {
  it.each([
    [["Learner"], true],
    [["Instructor", "Learner"], false],
    [["Administrator"], false],
    [[], false],
  ])("%j → %s", (roles, expected) => expect(isLearnerOnly(roles)).toBe(expected));
});

describe("spec 6: permission objects match on all keys including scope_id; all or any", () => {
  const held = [
    { permission: "ObjectiveWorkflow.Create", scope_id: null },
    { permission: "Research.Access", scope_id: "s1" },
  ];
  it.each([
    ["unscoped wanted matches any scope", [{ permission: "Research.Access" }], "all", true],
    ["scope must match when given", [{ permission: "Research.Access", scope_id: "s2" }], "all", false],
    ["scope null matches tenant-wide", [{ permission: "ObjectiveWorkflow.Create", scope_id: null }], "all", true],
    [
      "all needs every entry",
      [{ permission: "ObjectiveWorkflow.Create" }, { permission: "Admin.Access" }],
      "all",
      false,
    ],
    ["any needs one entry", [{ permission: "ObjectiveWorkflow.Create" }, { permission: "Admin.Access" }], "any", true],
    ["nothing wanted", [], "all", true],
  ] as const)("%s", (_n, wanted, strategy, expected) => {
    expect(hasPermissions(held, wanted, strategy)).toBe(expected);
  });
});

describe("spec 6: licences only research or knowledge models go to the platform", () => {
  it.each([
    [["Platform.Research"], true],
    [["Platform.KnowledgeModels"], true],
    [["Platform.Research", "Platform.KnowledgeModels"], true],
    [["Platform.Research", "LMS"], false],
    [["LMS"], false],
    [[], false],
  ])("%j → %s", (licences, expected) => expect(isPlatformOnly(licences)).toBe(expected));
});

describe("spec 6: where a user belongs in the learner area", () => {
  const create = [{ permission: "ObjectiveWorkflow.Create", scope_id: null }];
  it.each([
    [
      "platform-only licence",
      { roles: ["Learner"], permissions: create, licences: ["Platform.Research"], firstMenuNodeUrl: null },
      { kind: "platform" },
    ],
    [
      "learner-only stays",
      { roles: ["Learner"], permissions: [], licences: ["LMS"], firstMenuNodeUrl: null },
      { kind: "stay" },
    ],
    [
      "ObjectiveWorkflow.Create stays",
      { roles: ["Instructor", "Learner"], permissions: create, licences: ["LMS"], firstMenuNodeUrl: "/admin" },
      { kind: "stay" },
    ],
    [
      "others go to their first menu node",
      { roles: ["Author"], permissions: [], licences: ["LMS"], firstMenuNodeUrl: "/admin" },
      { kind: "firstMenuNode", url: "/admin" },
    ],
    [
      "others without a node are forbidden",
      { roles: ["Author"], permissions: [], licences: ["LMS"], firstMenuNodeUrl: null },
      { kind: "forbidden" },
    ],
  ])("%s", (_n, input, expected) => expect(learnerAreaDecision(input)).toEqual(expected));
});

describe("spec 2.1: public paths", () => {
  it.each([
    ["/learn/open-catalog/abc", true],
    ["/learn/catalog", true],
    ["/learn/certificate/123", true],
    ["/learn/courses", false],
    ["/learn/courses/1/certificate/2", false],
  ])("%s → %s", (path, expected) => expect(isPublicPath(path)).toBe(expected));
});
