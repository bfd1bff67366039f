import { test as base, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";

export const DEMO = {
  ada: { email: "ada@example.com", name: "Ada Lovelace" },
  grace: { email: "grace@example.com", name: "Grace Hopper" },
  admin: { email: "admin@example.com", name: "Alan Admin" },
  rita: { email: "rita@example.com", name: "Rita Levi" },
} as const;
export type DemoUser = keyof typeof DEMO;

/** Every browser test fails on a console error (STYLE.md), except the ones a test expects. */
export const test = base.extend<{ consoleErrors: string[]; jsEnabled: boolean }>({
  jsEnabled: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        const text = msg.text();
        // Error pages are expected to log their HTTP status as a failed resource load.
        if (
          /Failed to load resource: the server responded with a status of (400|401|403|404|409|413|422|429|500)/.test(
            text,
          )
        )
          return;
        errors.push(text);
      });
      page.on("pageerror", (err) => errors.push(String(err)));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Signs in through the embedded provider's form, as a person would. */
export async function login(page: Page, user: DemoUser, goto = "/learn") {
  await page.goto(goto);
  await expect(page.getByRole("heading", { name: /sign in/i })).toBeVisible();
  await page.getByLabel(/e-mail/i).fill(DEMO[user].email);
  await page.getByLabel(/password/i).fill("demo");
  await page.getByRole("button", { name: /sign in/i }).click();
}

/** Proves a page runs without JavaScript: React Router's globals are absent. */
export async function expectNoReact(page: Page) {
  const hydrated = await page.evaluate(() => "__reactRouterRouteModules" in window);
  expect(hydrated).toBe(false);
}

/**
 * axe-core needs script to run; in the no-JavaScript project the same server-rendered page is
 * re-opened in a script-enabled context with the same cookies (without hydration it is the same
 * markup) and checked there.
 */
export async function expectAccessible(page: Page) {
  const jsOff = base.info().project.use.javaScriptEnabled === false;
  let target = page;
  let cleanup = async () => {};
  if (jsOff) {
    const browser = page.context().browser()!;
    const ctx = await browser.newContext({ javaScriptEnabled: true, viewport: page.viewportSize() });
    await ctx.addCookies(await page.context().cookies());
    target = await ctx.newPage();
    await target.route("**/*.js", (route) => route.abort());
    await target.goto(page.url());
    cleanup = () => ctx.close();
  }
  const results = await new AxeBuilder({ page: target })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  await cleanup();
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}
