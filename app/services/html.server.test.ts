import { describe, expect, it } from "vitest";
import { sanitizeCourseHtml } from "./html.server";

describe("course HTML (issue 25 items 1–2)", () => {
  it("code blocks and tables are reachable by keyboard, since they scroll inside themselves on a phone", () => {
    expect(sanitizeCourseHtml('<pre lang="en" tabindex="-1"><code>df.info()</code></pre>')).toBe(
      '<pre lang="en" tabindex="0"><code>df.info()</code></pre>',
    );
    expect(sanitizeCourseHtml("<table><tr><td>1</td></tr></table>")).toBe(
      '<table tabindex="0"><tr><td>1</td></tr></table>',
    );
  });
  it("keeps a passage's own language and direction, drops other attributes", () => {
    expect(sanitizeCourseHtml('<p lang="ar" dir="rtl" onclick="x()">نص</p>')).toBe('<p lang="ar" dir="rtl">نص</p>');
  });
});
