import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect";

const prod = { requestUrl: "https://learn.example.com/learn/x", fallback: "/learn" };
const dev = { requestUrl: "http://localhost:3000/learn/x", fallback: "/learn", allowHttp: true };

describe("spec 5: redirect targets must be https and on the same host, else the client root", () => {
  it.each([
    ["same-host path", "/learn/courses?x=1#top", prod, "/learn/courses?x=1#top"],
    ["same-host https URL", "https://learn.example.com/learn/catalog", prod, "/learn/catalog"],
    ["other host", "https://evil.example/learn", prod, "/learn"],
    ["http on the same host in production", "http://learn.example.com/learn", prod, "/learn"],
    ["http on the same host outside production", "http://localhost:3000/learn/courses", dev, "/learn/courses"],
    ["protocol-relative", "//evil.example/x", prod, "/learn"],
    ["backslash trick", "/\\evil.example", prod, "/learn"],
    ["javascript: URL", "javascript:alert(1)", prod, "/learn"],
    ["data: URL", "data:text/html,hi", prod, "/learn"],
    ["credentials in URL", "https://user:pw@learn.example.com/learn", prod, "/learn"],
    ["empty", "", prod, "/learn"],
    ["not a string", null, prod, "/learn"],
    ["relative without slash", "learn/courses", prod, "/learn"],
    ["very long", `/${"a".repeat(5000)}`, prod, "/learn"],
    ["other port", "https://learn.example.com:8443/learn", prod, "/learn"],
  ])("%s", (_name, target, options, expected) => {
    expect(safeRedirect(target, options)).toBe(expected);
  });
});
