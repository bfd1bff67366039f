import { describe, expect, it } from "vitest";
import { hasControlCharacters, stripControlCharacters } from "./text";

describe("control characters (issue 17 item 6: keyword=a%01b, search=%00 gave 500)", () => {
  it.each([
    ["a\u0001b", true, "ab"],
    ["x\u007fy", true, "xy"],
    ["\u0000", true, ""],
    ["\u0085next line", true, "next line"],
    ["tab\tline\nreturn\r", false, "tab\tline\nreturn\r"],
    ["Ünïcödé 漢字 😀", false, "Ünïcödé 漢字 😀"],
    ["", false, ""],
  ])("%j: has %s, stripped %j", (text, has, stripped) => {
    expect(hasControlCharacters(text)).toBe(has);
    expect(stripControlCharacters(text)).toBe(stripped);
  });
});
