import { appendFileSync } from "node:fs";
import type { BrowserContext, Page } from "@playwright/test";
import { test, expect, chooseLanguage, seriousFindings } from "./fixtures";
import { cachedWalk, measureOverflow, NOT_PAGES, ROUTE_IDS, settled, STOPS, type WalkIds } from "./walk";

/**
 * Issue 25 items 1 and 7, in one pass over every page route of app/routes.ts (walk.ts), in both projects
 * (JavaScript on and off):
 * - nothing scrolls sideways on a phone: at 320 and 390 px the document's `scrollWidth − clientWidth`
 *   is 0 (with OVERFLOW_REPORT set, each measurement is appended to that file as a JSON line;
 *   `npm run overflow` prints them as a table);
 * - axe finds nothing serious at 390 px and on a 1280 px desktop.
 * Each stop is checked once per project, over language × width × JavaScript pairwise rather than in every
 * combination (decision 060): each language, each width and each project is checked, and so is each pair
 * of a language and a width or a project, but English and Arabic at every width in both projects is not.
 * - `js`: the English page and the Arabic page are each opened once at 320 px and widened to 390 (and
 *   1280) px, as a phone is rotated or a window widened; the overflow is measured at 320 and 390 px in
 *   both languages (right-to-left overflows differently); axe runs on the English page at 390 px and on
 *   the Arabic page at 1280 px.
 * - `nojs`: the English page at 320 and 390 px for the overflow (the markup without scripts: the
 *   `<noscript>` fallbacks, the closed panels); axe-core runs as a script, so its page is opened at 390 px
 *   in a second context that runs scripts but blocks the app's own (the same markup, as
 *   `expectAccessible` does).
 */
interface Pass {
  lng: "en-US" | "ar";
  /** Widths the overflow is measured at, narrowest first (the page is opened at the first). */
  overflow: readonly number[];
  /** Widths axe runs at. */
  axe: readonly number[];
}
const PASSES: Record<"js" | "nojs", readonly Pass[]> = {
  js: [
    { lng: "en-US", overflow: [320, 390], axe: [390] },
    { lng: "ar", overflow: [320, 390], axe: [1280] },
  ],
  nojs: [{ lng: "en-US", overflow: [320, 390], axe: [390] }],
};

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
  test(`no sideways scrolling at 320 and 390 px, axe at 390 and 1280 px: ${stop.label} (${stop.route})`, async ({
    page,
    jsEnabled,
    baseURL,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { ids, cookies } = walk!;
    if (!stop.visitor) await page.context().addCookies(cookies);
    const url = stop.url(ids);
    const overflowing: string[] = [];
    const findings: string[] = [];
    const axe = async (target: Page, width: number, lng: string) => {
      await target.setViewportSize({ width, height: 800 });
      findings.push(...(await seriousFindings(target)).map((f) => `[${width} px, ${lng}] ${f}`));
    };
    for (const pass of PASSES[jsEnabled ? "js" : "nojs"]) {
      await chooseLanguage(page, baseURL!, pass.lng);
      // Opened once per language at the narrowest width, then widened: the layout follows the viewport in
      // CSS (and in the widgets' media queries).
      await page.setViewportSize({ width: pass.overflow[0], height: 800 });
      await page.goto(url);
      if (jsEnabled) await settled(page);
      for (const width of pass.overflow) {
        await page.setViewportSize({ width, height: 800 });
        const { overflow, culprits } = await measureOverflow(page);
        if (process.env.OVERFLOW_REPORT)
          appendFileSync(
            process.env.OVERFLOW_REPORT,
            JSON.stringify({
              route: stop.route,
              label: stop.label,
              width,
              lng: pass.lng,
              js: jsEnabled,
              overflow,
              culprits,
            }) + "\n",
          );
        if (overflow > 0) overflowing.push(`${width} px ${pass.lng}: +${overflow} px (${culprits.join(", ")})`);
        if (jsEnabled && pass.axe.includes(width)) await axe(page, width, pass.lng);
      }
      if (jsEnabled) {
        for (const width of pass.axe.filter((w) => !pass.overflow.includes(w))) await axe(page, width, pass.lng);
      } else if (pass.axe.length > 0) {
        // Without JavaScript, axe's own page: scripts on, the app's blocked.
        const axeContext = await browser.newContext({ javaScriptEnabled: true });
        try {
          await axeContext.addCookies(await page.context().cookies());
          const axePage = await axeContext.newPage();
          await axePage.route("**/*.js", (route) => route.abort());
          await axePage.setViewportSize({ width: pass.axe[0], height: 800 });
          await axePage.goto(url);
          for (const width of pass.axe) await axe(axePage, width, pass.lng);
        } finally {
          await axeContext.close();
        }
      }
    }
    expect(overflowing, `sideways overflow of ${url}`).toEqual([]);
    expect(findings, `axe on ${url}`).toEqual([]);
  });
}
