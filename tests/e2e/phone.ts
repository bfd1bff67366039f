import AxeBuilder from "@axe-core/playwright";
import { test, expect } from "@playwright/test";
import type { Page } from "@playwright/test";

/**
 * Axe at 390 px on a page's own content (`#main`), with the same rules as `expectAccessible`,
 * and nothing in it wider than the screen. The shell's header at phone width is issue 25's (its branch runs
 * `expectAccessible` at 390 px for every page); in the no-JavaScript project the page is re-opened with
 * scripts blocked, as `expectAccessible` does.
 */
export async function expectPhoneReady(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  // The page's own content: nothing wider than its column (a table may scroll inside its own box).
  const overflow = await page.evaluate(() => {
    const main = document.getElementById("main")!;
    return main.scrollWidth - main.clientWidth;
  });
  expect(overflow, "content wider than a 390 px phone").toBeLessThanOrEqual(0);
  const jsOff = test.info().project.use.javaScriptEnabled === false;
  let target = page;
  let cleanup = async () => {};
  if (jsOff) {
    const ctx = await page
      .context()
      .browser()!
      .newContext({ javaScriptEnabled: true, viewport: { width: 390, height: 844 } });
    await ctx.addCookies(await page.context().cookies());
    target = await ctx.newPage();
    await target.route("**/*.js", (route) => route.abort());
    await target.goto(page.url());
    cleanup = () => ctx.close();
  }
  const results = await new AxeBuilder({ page: target })
    .include("#main")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  await cleanup();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}
