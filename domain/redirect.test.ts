import { describe, expect, it } from "vitest";
import { safeRedirect, safeRedirectWithin } from "./redirect";
import { hostileTargets } from "../tests/fixtures/hostile-redirects";

const prod = { appOrigin: "https://learn.example.com", fallback: "/learn" };
const dev = { appOrigin: "http://localhost:3000", fallback: "/learn", allowHttp: true };

describe("spec 5: redirect targets must be https and on the app's own origin, else the client root", () => {
  it.each([
    ["same-host path", "/learn/courses?x=1#top", prod, "/learn/courses?x=1#top"],
    ["same-host https URL", "https://learn.example.com/learn/catalog", prod, "/learn/catalog"],
    ["http on the same host outside production", "http://localhost:3000/learn/courses", dev, "/learn/courses"],
    ["a path with its own dot segment that stays on the origin", "/learn/catalog/../courses", prod, "/learn/courses"],
    ["an encoded query value", "/learn/courses?keyword=a%2Fb", prod, "/learn/courses?keyword=a%2Fb"],
    ["unicode in the query", "/learn/courses?keyword=日本", prod, "/learn/courses?keyword=%E6%97%A5%E6%9C%AC"],
    [
      "a path when the app itself is served over http",
      "/learn/courses",
      { appOrigin: "http://localhost:3000" },
      "/learn/courses",
    ],
  ])("keeps %s", (_name, target, options, expected) => {
    expect(safeRedirect(target, options)).toBe(expected);
  });

  // At least 40 hostile variants (the same table the HTTP tests send): each must become the client root.
  const hostile = hostileTargets(prod.appOrigin);
  it("has at least 40 hostile variants", () => expect(hostile.length).toBeGreaterThanOrEqual(40));
  it.each(hostile)("refuses %s", (_name, target) => {
    const result = safeRedirect(target, prod);
    expect(
      result === "/learn" || (result.startsWith("/") && !result.startsWith("//") && !result.startsWith("/\\")),
    ).toBe(true);
    // Nothing that names another host survives, as a path or otherwise.
    expect(new URL(result, "https://learn.example.com").host).toBe("learn.example.com");
  });
  it("refuses exactly to the fallback for the ones that leave the origin", () => {
    for (const [, target] of hostile.filter(([n]) => !/encoded (back)?slash|fullwidth/.test(n))) {
      expect(safeRedirect(target, prod)).toBe("/learn");
    }
  });
  it("refuses values that are not strings", () => {
    for (const value of [null, undefined, 42, {}, ["/learn/courses"]]) expect(safeRedirect(value, prod)).toBe("/learn");
  });
  it("keeps a target inside a prefix only (a course's own pages)", () => {
    const opts = { ...prod, fallback: "/learn/courses/c1/view/content" };
    expect(safeRedirectWithin("/learn/courses/c1/view/content?activityPathId=p", "/learn/courses/c1", opts)).toBe(
      "/learn/courses/c1/view/content?activityPathId=p",
    );
    expect(safeRedirectWithin("/learn/courses/c2/view/content", "/learn/courses/c1", opts)).toBe(opts.fallback);
    expect(safeRedirectWithin("/learn/courses/c10", "/learn/courses/c1", opts)).toBe(opts.fallback);
    expect(safeRedirectWithin("/learn/courses/c1/..//evil.example", "/learn/courses/c1", opts)).toBe(opts.fallback);
  });
});
