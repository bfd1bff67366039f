import { describe, expect, it } from "vitest";
import { DEFAULT_FEATURES, dashboardAvailable, learnerMenu, pageTitle, type MenuContext } from "./menu";

const base: MenuContext = {
  features: DEFAULT_FEATURES,
  permissions: [],
  licences: ["LMS"],
  cloudRedirect: false,
  portalUrl: null,
  platformUrl: "/platform",
};
const keys = (ctx: Partial<MenuContext>) => learnerMenu({ ...base, ...ctx }).map((e) => e.key);
const research = {
  permissions: [{ permission: "Research.Access", scope_id: null }],
  licences: ["LMS", "Platform.Research"],
};

describe("spec 2.2: menu entries, each shown conditionally", () => {
  it("defaults: catalog on; rooms, research projects and knowledge models off", () => {
    expect(keys({})).toEqual(["courses", "grades", "catalog"]);
  });
  it("catalog off hides it", () =>
    expect(keys({ features: { ...DEFAULT_FEATURES, catalog: false } })).toEqual(["courses", "grades"]));
  it("dashboard, rooms, calendar and portal when on", () => {
    expect(
      keys({
        features: { ...DEFAULT_FEATURES, dashboard: true, rooms: true, calendar: true },
        portalUrl: "https://portal",
      }),
    ).toEqual(["dashboard", "courses", "grades", "catalog", "rooms", "calendar", "portal"]);
  });
  it("issue 31: Grades, always, after the courses", () => {
    expect(learnerMenu(base).find((e) => e.key === "grades")).toEqual({
      key: "grades",
      href: "/learn/grades",
      external: false,
    });
  });
  it.each([
    [["Learner"], ["courses", "grades", "catalog"]],
    [
      ["Instructor", "Learner"],
      ["courses", "grades", "grading", "catalog"],
    ],
    [["Administrator"], ["courses", "grades", "catalog"]],
  ])("decision 048: Grading for those who grade (%j)", (roles, expected) => {
    expect(keys({ roles })).toEqual(expected);
  });
  it("spec 2.1 `/`: the dashboard is available only with the tenant's dashboard feature", () => {
    expect(dashboardAvailable(DEFAULT_FEATURES)).toBe(false);
    expect(dashboardAvailable({ ...DEFAULT_FEATURES, dashboard: true })).toBe(true);
  });
  it("research entries need licence, feature flag and Research.Access", () => {
    const on = { ...DEFAULT_FEATURES, researchProjects: true, knowledgeModels: true };
    expect(keys({ features: on, ...research })).toContain("researchProjects");
    expect(keys({ features: on, ...research })).toContain("knowledgeModels");
    expect(keys({ features: on, permissions: [], licences: research.licences })).not.toContain("researchProjects");
    expect(keys({ features: on, permissions: research.permissions, licences: ["LMS"] })).not.toContain(
      "researchProjects",
    );
    expect(keys({ ...research })).not.toContain("researchProjects");
  });
  it("research entries lead to the platform or cloud fragments depending on the cloud-redirect setting", () => {
    const on = { ...DEFAULT_FEATURES, researchProjects: true };
    const platform = learnerMenu({ ...base, features: on, ...research }).find((e) => e.key === "researchProjects");
    const cloud = learnerMenu({ ...base, features: on, ...research, cloudRedirect: true }).find(
      (e) => e.key === "researchProjects",
    );
    expect(platform?.href.startsWith("/platform")).toBe(true);
    expect(cloud?.href.startsWith("/cloud")).toBe(true);
  });
  it("rooms lead to /classroom/learner/rooms", () => {
    expect(
      learnerMenu({ ...base, features: { ...DEFAULT_FEATURES, rooms: true } }).find((e) => e.key === "rooms")?.href,
    ).toBe("/classroom/learner/rooms");
  });
});

describe("spec 2.2: page title", () => {
  it.each([
    [["Python basics", "My courses"], "Portal", "Python basics | My courses | Portal"],
    [[], "Portal", "Portal"],
    [[null, "", "  "], "Portal", "Portal"],
  ])("%j → %s", (names, portal, expected) => expect(pageTitle(names, portal)).toBe(expected));
});
