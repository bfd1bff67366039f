import { appendFileSync } from "node:fs";
import type { BrowserContext } from "@playwright/test";
import { test, expect, chooseLanguage, seriousFindings } from "./fixtures";
import { cachedWalk, measureOverflow, NOT_PAGES, ROUTE_IDS, settled, STOPS, type WalkIds } from "./walk";

/**
 * Issue 25 items 1 and 7, in one pass over every page route of app/routes.ts (walk.ts), in English and
 * Arabic, in both projects (JavaScript on and off):
 * - nothing scrolls sideways on a phone: at 320 and 390 px the document's `scrollWidth − clientWidth`
 *   is 0 (with OVERFLOW_REPORT set, each measurement is appended to that file as a JSON line;
 *   `npm run overflow` prints them as a table);
 * - axe finds nothing serious at 390 px and on a 1280 px desktop.
 * One test per stop opens its page once per language at 320 px and widens it to 390 and 1280 px (it
 * opened it at each width: three times the page loads, for the same markup and styles). axe-core runs as a script: without
 * JavaScript its pages are opened in a second context that runs scripts but blocks the app's own (the
 * same markup, as `expectAccessible` does), and the overflow is measured on the page without JavaScript.
 * Without JavaScript axe checks the English page only (decision 052): the Arabic page is the same
 * markup in the other direction, and the JavaScript project checks both languages at both widths.
 */
const LANGUAGES = ["en-US", "ar"] as const;
/** The languages axe checks: both with JavaScript; without, the server's markup in English. */
const axeLanguages = (jsEnabled: boolean): readonly string[] => (jsEnabled ? LANGUAGES : ["en-US"]);
/** Widths of each language's pass: the two phones measured for overflow, 390 and 1280 px checked by axe. */
const PASSES = [
  { width: 320, overflow: true, axe: false },
  { width: 390, overflow: true, axe: true },
  { width: 1280, overflow: false, axe: true },
] as const;

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
  test(`no sideways scrolling at 320 and 390 px, axe at 390 and 1280 px, English and Arabic: ${stop.label} (${stop.route})`, async ({
    page,
    jsEnabled,
    baseURL,
    browser,
  }) => {
    test.setTimeout(150_000);
    const { ids, cookies } = walk!;
    if (!stop.visitor) await page.context().addCookies(cookies);
    const url = stop.url(ids);
    const overflowing: string[] = [];
    const findings: string[] = [];
    // Without JavaScript, axe's own page: scripts on, the app's blocked.
    const axeContext = jsEnabled ? null : await browser.newContext({ javaScriptEnabled: true });
    const axePage = axeContext ? await axeContext.newPage() : page;
    if (axeContext) {
      await axeContext.addCookies(await page.context().cookies());
      await axePage.route("**/*.js", (route) => route.abort());
    }
    for (const lng of LANGUAGES) {
      await chooseLanguage(page, baseURL!, lng);
      if (axeContext) await chooseLanguage(axePage, baseURL!, lng);
      let axeOpened = false;
      for (const [index, pass] of PASSES.entries()) {
        await page.setViewportSize({ width: pass.width, height: 800 });
        // Opened once per language at 320 px, then turned to the wider sizes as a phone is rotated or a
        // window widened: the layout follows the viewport in CSS (and in the widgets' media queries).
        if (index === 0) {
          await page.goto(url);
          if (jsEnabled) await settled(page);
        }
        if (pass.overflow) {
          const { overflow, culprits } = await measureOverflow(page);
          if (process.env.OVERFLOW_REPORT)
            appendFileSync(
              process.env.OVERFLOW_REPORT,
              JSON.stringify({
                route: stop.route,
                label: stop.label,
                width: pass.width,
                lng,
                js: jsEnabled,
                overflow,
                culprits,
              }) + "\n",
            );
          if (overflow > 0) overflowing.push(`${pass.width} px ${lng}: +${overflow} px (${culprits.join(", ")})`);
        }
        if (pass.axe && axeLanguages(jsEnabled).includes(lng)) {
          if (axeContext) {
            await axePage.setViewportSize({ width: pass.width, height: 800 });
            if (!axeOpened) await axePage.goto(url);
            axeOpened = true;
          }
          findings.push(...(await seriousFindings(axePage)).map((f) => `[${pass.width} px, ${lng}] ${f}`));
        }
      }
    }
    await axeContext?.close();
    expect(overflowing, `sideways overflow of ${url}`).toEqual([]);
    expect(findings, `axe on ${url}`).toEqual([]);
  });
}
