import { describe, expect, it } from "vitest";
import { isSupportedBrowser } from "./browser-support";

describe("spec 2.11 browser support: desktop Chrome, Safari, Edge; mobile Chrome, Safari", () => {
  it.each([
    ["desktop", "Chrome", true],
    ["desktop", "Safari", true],
    ["desktop", "Microsoft Edge", true],
    ["desktop", "Firefox", false],
    ["desktop", "Opera", false],
    ["mobile", "Chrome", true],
    ["mobile", "Safari", true],
    ["tablet", "Safari", true],
    ["mobile", "Microsoft Edge", false],
    ["mobile", "Samsung Internet for Android", false],
    ["tv", "Chrome", false],
    [undefined, undefined, false],
  ])("%s %s → %s", (platform, browser, expected) => {
    expect(isSupportedBrowser(platform, browser)).toBe(expected);
  });
});
