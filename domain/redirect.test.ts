import { describe, expect, it } from "vitest";
import { safeRedirect, safeRedirectWithin } from "./redirect";

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

  // At least 40 hostile variants: each must become the client root.
  const hostile: [string, string][] = [
    ["other host", "https://evil.example/learn"],
    ["http on the same host in production", "http://learn.example.com/learn"],
    ["protocol-relative", "//evil.example/x"],
    ["protocol-relative with three slashes", "///evil.example/x"],
    ["backslash trick", "/\\evil.example"],
    ["backslash then slash", "\\/evil.example"],
    ["double backslash", "\\\\evil.example"],
    ["dot segment to a protocol-relative path", "/.//evil.example"],
    ["parent segment to a protocol-relative path", "/learn/..//evil.example"],
    ["double parent segments", "/learn/catalog/../..//evil.example"],
    ["encoded parent segment", "/%2e%2e//evil.example"],
    ["encoded parent segment, mixed case", "/%2E%2e//evil.example"],
    ["encoded dot segment", "/%2e//evil.example"],
    ["own origin then protocol-relative path", "https://learn.example.com//evil.example"],
    ["own origin, dot segment, protocol-relative path", "https://learn.example.com/.//evil.example"],
    ["own origin, encoded parent segment", "https://learn.example.com/%2e%2e//evil.example"],
    ["tab inside the slashes", "/\t/evil.example"],
    ["newline inside the slashes", "/\n/evil.example"],
    ["carriage return inside the slashes", "/\r/evil.example"],
    ["leading tab", "\t//evil.example"],
    ["NUL byte", "/\u0000/evil.example"],
    ["DEL character", "/\u007f/evil.example"],
    ["javascript: URL", "javascript:alert(1)"],
    ["javascript: URL in capitals", "JaVaScRiPt:alert(1)"],
    ["data: URL", "data:text/html,hi"],
    ["vbscript: URL", "vbscript:msgbox(1)"],
    ["file: URL", "file:///etc/passwd"],
    ["ftp: URL", "ftp://learn.example.com/x"],
    ["credentials in the URL", "https://user:pw@learn.example.com/learn"],
    ["user name only", "https://user@learn.example.com/learn"],
    ["our host as the user name", "https://learn.example.com@evil.example/learn"],
    ["our host as a subdomain of another", "https://learn.example.com.evil.example/learn"],
    ["another subdomain of ours", "https://evil.learn.example.com/learn"],
    ["IDN look-alike of our host (Cyrillic а)", "https://leаrn.example.com/learn"],
    ["punycode look-alike", "https://xn--lern-6ve.example.com/learn"],
    ["fullwidth solidus", "／／evil.example"],
    ["other port", "https://learn.example.com:8443/learn"],
    ["empty", ""],
    ["relative without a slash", "learn/courses"],
    ["a bare host", "evil.example"],
    ["question mark only path", "?//evil.example"],
    ["very long", `/${"a".repeat(5000)}`],
    ["encoded slash after the origin", "/%2f%2fevil.example"],
  ];
  it.each(hostile)("refuses %s", (_name, target) => {
    const result = safeRedirect(target, prod);
    expect(
      result === "/learn" || (result.startsWith("/") && !result.startsWith("//") && !result.startsWith("/\\")),
    ).toBe(true);
    // Nothing that names another host survives, as a path or otherwise.
    expect(new URL(result, "https://learn.example.com").host).toBe("learn.example.com");
  });
  it("refuses exactly to the fallback for the ones that leave the origin", () => {
    for (const [, target] of hostile.filter(([n]) => !n.includes("encoded slash") && !n.includes("fullwidth"))) {
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
