import { describe, expect, it } from "vitest";
import type { ServerBuild } from "react-router";
import { contentTemplate, idpTemplate, pageTemplate, routeTable } from "./route-table";

const build = {
  root: { id: "root", path: "", module: {} },
  index: { id: "index", parentId: "root", index: true, module: {} },
  learn: { id: "learn", parentId: "root", path: "learn", module: {} },
  course: { id: "course", parentId: "learn", path: "courses/:id", module: {} },
  language: { id: "language", parentId: "learn", path: "language", module: { action: () => null } },
  splat: { id: "splat", parentId: "learn", path: "*", module: {} },
} as unknown as ServerBuild["routes"];

describe("templates: the route that takes a path, never the path's letters", () => {
  const table = routeTable(build);
  it.each([
    ["/learn/courses/c-1", "/learn/courses/:id"],
    ["/learn/courses/c-1.data", "/learn/courses/:id.data"],
    ["/learn/zzzzqqqq", "/learn/*"],
    ["/zzzzqqqq", "(unmatched)"],
    ["/zzzzqqqq.data", "(unmatched)"],
  ])("page %s → %s", (path, template) => {
    expect(pageTemplate(table, path)).toBe(template);
  });
  it("a resource route with an action and no loader is POST-only (a GET there is 405)", () => {
    expect(table.match("/learn/language")?.postOnly).toBe(true);
    expect(table.match("/learn/courses/c-1")?.postOnly).toBe(false);
  });
  it.each([
    ["/idp/token", "/idp/token"],
    ["/idp/.well-known/openid-configuration", "/idp/.well-known/openid-configuration"],
    ["/idp/interaction/abcdefgh", "/idp/interaction/:uid"],
    ["/idp/interaction/abcdefgh/signup", "/idp/interaction/:uid/signup"],
    ["/idp/interaction/abcdefgh/zzz", "(unmatched)"],
    ["/idp/qqqqwwww", "(unmatched)"],
  ])("provider %s → %s", (path, template) => {
    expect(idpTemplate("/idp", path)).toBe(template);
  });
  it.each([
    ["/scorm/abcdef/x/index.html", "/scorm/:grant/*"],
    ["/runtime/launcher.html", "/runtime/*"],
    ["/scorm/abcdef", "(unmatched)"],
    ["/qqq", "(unmatched)"],
  ])("content %s → %s", (path, template) => {
    expect(contentTemplate(path)).toBe(template);
  });
});
