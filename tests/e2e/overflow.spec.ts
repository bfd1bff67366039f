import { appendFileSync } from "node:fs";
import { test, expect, chooseLanguage } from "./fixtures";
import { cachedWalk, measureOverflow, NOT_PAGES, ROUTE_IDS, settled, STOPS, type WalkIds } from "./walk";
import type { BrowserContext } from "@playwright/test";

/**
 * Issue 25 item 1: nothing scrolls sideways on a phone. Every page route of app/routes.ts (walk.ts) at
 * 320 and 390 px, in English and Arabic, in both projects (JavaScript on and off): the document's
 * `scrollWidth − clientWidth` must be 0. With OVERFLOW_REPORT set, each measurement is appended to that
 * file as a JSON line (`npm run overflow` prints them as a table).
 */
const WIDTHS = [320, 390] as const;
const LANGUAGES = ["en-US", "ar"] as const;

let walk: { ids: WalkIds; cookies: Awaited<ReturnType<BrowserContext["cookies"]>> } | null = null;

test.beforeAll(async ({ browser, playwright }, info) => {
  test.setTimeout(180_000);
  walk = await cachedWalk(browser, playwright.request, String(info.project.use.baseURL));
});

test("the walk covers every route of app/routes.ts", () => {
  const walked = new Set(STOPS.map((s) => s.route));
  const missing = ROUTE_IDS.filter((id) => !walked.has(id) && !(id in NOT_PAGES));
  expect(missing, "routes with neither a stop in walk.ts nor a reason in NOT_PAGES").toEqual([]);
  const unknown = [...walked, ...Object.keys(NOT_PAGES)].filter((id) => !ROUTE_IDS.includes(id));
  expect(unknown, "stops of routes app/routes.ts no longer has").toEqual([]);
});

for (const stop of STOPS) {
  test(`no sideways scrolling at 320 and 390 px: ${stop.label} (${stop.route})`, async ({
    page,
    jsEnabled,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const { ids, cookies } = walk!;
    if (!stop.visitor) await page.context().addCookies(cookies);
    const url = stop.url(ids);
    const failures: string[] = [];
    for (const lng of LANGUAGES) {
      await chooseLanguage(page, baseURL!, lng);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(url);
        if (jsEnabled) await settled(page);
        const { overflow, culprits } = await measureOverflow(page);
        if (process.env.OVERFLOW_REPORT)
          appendFileSync(
            process.env.OVERFLOW_REPORT,
            JSON.stringify({ route: stop.route, label: stop.label, width, lng, js: jsEnabled, overflow, culprits }) +
              "\n",
          );
        if (overflow > 0) failures.push(`${width} px ${lng}: +${overflow} px (${culprits.join(", ")})`);
      }
    }
    expect(failures, `sideways overflow of ${url}`).toEqual([]);
  });
}
