import type { BrowserContext } from "@playwright/test";
import { test, expectAccessible } from "./fixtures";
import { cachedWalk, settled, STOPS, type WalkIds } from "./walk";

/**
 * Issue 25 item 7: axe on every page route of app/routes.ts (walk.ts) at 390 px and on a desktop, in
 * English and in Arabic (`expectAccessible` checks the four variants), with JavaScript on and off.
 */
let walk: { ids: WalkIds; cookies: Awaited<ReturnType<BrowserContext["cookies"]>> } | null = null;

test.beforeAll(async ({ browser, playwright }, info) => {
  test.setTimeout(180_000);
  walk = await cachedWalk(browser, playwright.request, String(info.project.use.baseURL));
});

for (const stop of STOPS) {
  test(`axe at 390 px and 1280 px, English and Arabic: ${stop.label} (${stop.route})`, async ({ page, jsEnabled }) => {
    test.setTimeout(120_000);
    const { ids, cookies } = walk!;
    if (!stop.visitor) await page.context().addCookies(cookies);
    await page.goto(stop.url(ids));
    if (jsEnabled) await settled(page);
    await expectAccessible(page);
  });
}
