/**
 * `npm run bench:lighthouse`: Lighthouse (mobile, simulated slow 4G, the machine's Chromium) on the
 * screens the hardening issue names — My courses, catalog, open catalog, course details, content —
 * signed in as the demo learner, against a production build on a fresh demo database. Prints the
 * performance and accessibility scores with the timings and bytes behind them; the budget is
 * performance ≥ 0.95 and accessibility 1.0. A benchmark, not a test: it exits 0 unless `--strict`.
 * `--runs N` measures each page N times (the median is shown); `--only "Course details,Content"` picks pages.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { execSync } from "node:child_process";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { Browser, unescapeHtml } from "./lib/http";
import { freePort, startServer } from "./lib/server";
import { useCookies } from "./lib/cdp";

const { values: args } = parseArgs({
  options: {
    strict: { type: "boolean", default: false },
    runs: { type: "string", default: "1" },
    only: { type: "string" },
  },
});
const ROOT = resolve(import.meta.dirname, "..");
const say = (m: string) => console.log(`[lighthouse] ${m}`);

execSync("node scripts/ensure-build.mjs", { cwd: ROOT, stdio: "inherit" });
const dataDir = mkdtempSync(join(tmpdir(), "lighthouse-data-"));
const port = await freePort(3500);
const server = startServer({
  cwd: ROOT,
  port,
  env: { NODE_ENV: "production", APP_ENV: "test", DATA_DIR: dataDir },
  logFile: join(tmpdir(), "lighthouse-server.log"),
  readyPath: "/config-ui/config.json",
  readyTimeoutMs: 120_000,
});
const cleanup = async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
};
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));

try {
  await server.ready;
  const browser = new Browser(server.origin);
  const start = await browser.navigate("/oidc/login?redirectUrl=/learn/courses");
  const action = /<form\b[^>]*\baction="([^"]+)"/.exec(start.body)?.[1];
  if (!action) throw new Error("no sign-in form");
  await browser.navigate(unescapeHtml(action), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: browser.origin },
    body: new URLSearchParams({ email: "ada@example.com", password: "demo" }).toString(),
  });
  const courses = await browser.navigate("/learn/courses?clear");
  const courseId = /href="\/learn\/courses\/([0-9a-f-]{36})\/view\/content"/.exec(courses.body)?.[1];
  if (!courseId) throw new Error("no course in progress on My courses");
  const pages = [
    { name: "My courses", path: "/learn/courses" },
    { name: "Catalog", path: "/learn/catalog" },
    { name: "Open catalog", path: "/learn/open-catalog", visitor: true },
    { name: "Course details", path: `/learn/courses/${courseId}` },
    { name: "Content", path: `/learn/courses/${courseId}/view/content` },
  ];
  const cookies = browser.jar.all();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? process.env.PLAYWRIGHT_CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const rows: {
    name: string;
    performance: number;
    accessibility: number;
    fcp: number;
    lcp: number;
    tbt: number;
    cls: number;
    si: number;
    kb: number;
  }[] = [];
  try {
    const only = args.only?.split(",");
    for (const page of pages.filter((p) => !only || only.includes(p.name))) {
      for (let run = 0; run < Number(args.runs); run++) {
        await useCookies(chrome.port, server.origin, page.visitor ? [] : cookies);
        const result = await lighthouse(`${server.origin}${page.path}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
        });
        if (!result) throw new Error(`no result for ${page.path}`);
        const lhr = result.lhr;
        if (lhr.finalDisplayedUrl !== `${server.origin}${page.path}`) {
          throw new Error(`${page.path} ended on ${lhr.finalDisplayedUrl}: the bench did not measure the page`);
        }
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
        rows.push({
          name: page.name,
          performance: lhr.categories.performance?.score ?? 0,
          accessibility: lhr.categories.accessibility?.score ?? 0,
          fcp: audit("first-contentful-paint"),
          lcp: audit("largest-contentful-paint"),
          tbt: audit("total-blocking-time"),
          cls: audit("cumulative-layout-shift"),
          si: audit("speed-index"),
          kb: audit("total-byte-weight") / 1000,
        });
      }
    }
  } finally {
    await chrome.kill();
  }
  console.log("\nLighthouse (mobile, simulated slow 4G; median of runs shown per row)\n");
  console.log("page            performance  accessibility   FCP ms   LCP ms    SI ms   TBT ms    CLS  transfer KB");
  let failed = 0;
  for (const name of new Set(rows.map((r) => r.name))) {
    const mine = rows.filter((r) => r.name === name).sort((a, b) => a.performance - b.performance);
    const r = mine[Math.floor(mine.length / 2)];
    const ok = r.performance >= 0.95 && r.accessibility === 1;
    if (!ok) failed++;
    console.log(
      `${name.padEnd(15)} ${r.performance.toFixed(2).padStart(11)} ${r.accessibility.toFixed(2).padStart(14)} ${r.fcp.toFixed(0).padStart(8)} ${r.lcp.toFixed(0).padStart(8)} ${r.si.toFixed(0).padStart(8)} ${r.tbt.toFixed(0).padStart(8)} ${r.cls.toFixed(3).padStart(6)} ${r.kb.toFixed(0).padStart(12)}  ${ok ? "PASS" : "FAIL"}`,
    );
  }
  say(`budget: performance ≥ 0.95 and accessibility 1.0 — ${pages.length - failed} of ${pages.length} pages meet it`);
  await cleanup();
  process.exit(args.strict && failed > 0 ? 1 : 0);
} catch (err) {
  await cleanup();
  throw err;
}
