// `npm test`: unit + integration tests (vitest), then browser tests (Playwright, JavaScript on and off).
// Finds a Chromium by itself and says what it did; ends with one line "N passed, N failed".
// Where PostgreSQL is installed (CI installs it) it also runs the tests that touch the database on
// PostgreSQL, besides PGlite, and the two-node browser test (docs/postgres-tests.md, decision 019).
// Before that line it prints each part's time, the counts of tests and of runs without JavaScript, and
// the 15 slowest test files (scripts/test-times.ts; how to read them: docs/testing.md).
import { spawnSync, execSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { findPostgresBin, startPostgres } from "../tests/fixtures/postgres.ts";
import { playwrightPart, summary, vitestPart } from "./test-times.ts";

const e2eOnly = process.argv.includes("--e2e-only");
const unitOnly = process.argv.includes("--unit-only");
const work = mkdtempSync(join(tmpdir(), "learner-tests-"));
let passed = 0;
let failed = 0;
/** The names of the tests that failed, printed before the last line so a CI log's tail says which. */
const failures = [];
/** Each run's times (scripts/test-times.ts), printed at the end. */
const parts = [];
const started = Date.now();

function vitestFailures(report) {
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failedTests) failures.push(`${file.name.replace(process.cwd() + "/", "")} › ${t.fullName}`);
    if (file.status === "failed" && failedTests.length === 0) {
      failures.push(
        `${file.name.replace(process.cwd() + "/", "")} (suite failed: ${String(file.message).slice(0, 200)})`,
      );
    }
  }
}

function playwrightFailures(report, label) {
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === "unexpected") {
          const last = t.results?.at(-1);
          const why = last?.error?.message?.split("\n")[0]?.slice(0, 200) ?? "";
          failures.push(
            `[${label} ${t.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")} — ${why}`,
          );
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  // The top suites are the files: their titles are the file names, already in spec.file.
  for (const suite of report.suites ?? []) walk(suite, []);
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

/** Runs a command and says how long it took: `{ status, wallMs }`. */
function timed(cmd, args, env = {}) {
  const start = Date.now();
  const status = run(cmd, args, env);
  return { status, wallMs: Date.now() - start };
}

function findChromium() {
  if (process.env.PLAYWRIGHT_CHROMIUM_PATH && existsSync(process.env.PLAYWRIGHT_CHROMIUM_PATH)) {
    console.log(`[test] using Chromium from PLAYWRIGHT_CHROMIUM_PATH: ${process.env.PLAYWRIGHT_CHROMIUM_PATH}`);
    return process.env.PLAYWRIGHT_CHROMIUM_PATH;
  }
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (existsSync(p)) {
      console.log(`[test] using Debian's Chromium at ${p}`);
      return p;
    }
  }
  const own = () => {
    try {
      const out = execSync(`node -e "import('@playwright/test').then(m=>console.log(m.chromium.executablePath()))"`, {
        encoding: "utf8",
      }).trim();
      return out && existsSync(out) ? out : null;
    } catch {
      return null;
    }
  };
  let path = own();
  if (path) {
    console.log(`[test] using Playwright's own Chromium at ${path}`);
    return "";
  }
  console.log("[test] no Chromium found: trying `npx playwright install chromium`…");
  if (run("npx", ["playwright", "install", "chromium"]) === 0 && own()) {
    console.log("[test] installed Playwright's Chromium");
    return "";
  }
  if (process.getuid?.() === 0) {
    console.log("[test] Playwright's download failed; installing Debian's chromium with apt-get (running as root)…");
    run("apt-get", ["update", "-qq"]);
    if (run("apt-get", ["install", "-y", "-qq", "chromium"]) === 0 && existsSync("/usr/bin/chromium")) {
      console.log("[test] installed /usr/bin/chromium");
      return "/usr/bin/chromium";
    }
  }
  console.error(
    "[test] could not find or install Chromium. Install it (apt-get install chromium) or set PLAYWRIGHT_CHROMIUM_PATH.",
  );
  return null;
}

/** A PostgreSQL server: TEST_DATABASE_URL as given, or a throw-away cluster when PostgreSQL is installed. */
let postgres = null;
if (process.env.TEST_DATABASE_URL) {
  postgres = { url: process.env.TEST_DATABASE_URL, stop: () => {} };
  console.log("[test] PostgreSQL from TEST_DATABASE_URL: the database tests run on it too, besides PGlite");
} else {
  const bin = findPostgresBin();
  if (bin) {
    try {
      postgres = await startPostgres({ bin });
      console.log(
        `[test] PostgreSQL ${postgres.version} found (${bin}): a throw-away cluster on port ${postgres.port} runs the ` +
          "API integration suite and the two-node test too, besides PGlite",
      );
    } catch (error) {
      console.log(`[test] PostgreSQL is installed but would not start: ${error.message}`);
      failed += 1;
    }
  } else {
    console.log(
      "[test] PostgreSQL not installed: database tests on PGlite only, no two-node test " +
        "(CI installs it; apt-get install postgresql, or set TEST_DATABASE_URL; docs/postgres-tests.md)",
    );
  }
}
const stopPostgres = () => {
  postgres?.stop();
  postgres = null;
};
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopPostgres();
    process.exit(1);
  });
}
const postgresEnv = postgres ? { TEST_DATABASE_URL: postgres.url } : {};

if (!e2eOnly) {
  const out = join(work, "vitest.json");
  const timesOut = join(work, "vitest-times.json");
  const { status, wallMs } = timed(
    "npx",
    [
      "vitest",
      "run",
      "--reporter=default",
      "--reporter=json",
      "--reporter=./scripts/vitest-file-times.ts",
      `--outputFile.json=${out}`,
    ],
    { ...postgresEnv, VITEST_FILE_TIMES: timesOut },
  );
  if (existsSync(timesOut)) parts.push(vitestPart(wallMs, JSON.parse(readFileSync(timesOut, "utf8"))));
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, "utf8"));
    vitestFailures(r);
    passed += r.numPassedTests ?? 0;
    const counted = (r.numFailedTests ?? 0) + (r.numFailedTestSuites && !r.numFailedTests ? r.numFailedTestSuites : 0);
    failed += counted;
    // vitest also fails a run whose tests all passed when an error escaped them (an unhandled
    // rejection, an error thrown after a test ended). Its JSON report does not count those: the exit
    // status does, and the errors themselves are in vitest's output above.
    if (status !== 0 && counted === 0) {
      failed += 1;
      failures.push(
        `vitest exited ${status} with every test passed: an unhandled error (see "Unhandled Errors" above)`,
      );
    }
  } else if (status !== 0) {
    failed += 1;
  }
}

if (!unitOnly) {
  const chromium = findChromium();
  if (chromium === null) {
    failed += 1;
  } else {
    // The compiled server the browser suites start (a minute or more when the app is stale).
    const build = timed("node", ["scripts/ensure-build.mjs"]);
    parts.push({ name: "build (ensure-build)", wallMs: build.wallMs, projects: [], files: [] });
    const browserEnv = chromium ? { PLAYWRIGHT_CHROMIUM_PATH: chromium } : {};
    /** One Playwright config's run: its failures, counts and times; `label` names it in the summary. */
    const playwright = (label, config, env) => {
      const out = join(work, `playwright-${label}.json`);
      const { status, wallMs } = timed("npx", ["playwright", "test", ...(config ? ["--config", config] : [])], {
        PW_JSON_OUTPUT: out,
        ...env,
        ...browserEnv,
      });
      if (existsSync(out)) {
        const r = JSON.parse(readFileSync(out, "utf8"));
        playwrightFailures(r, label);
        parts.push(playwrightPart(label, wallMs, r, process.cwd(), config ?? "playwright.config.ts"));
        passed += (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0);
        failed += r.stats?.unexpected ?? 0;
        if (status !== 0 && !(r.stats?.unexpected > 0)) failed += 1;
      } else if (status !== 0) {
        failed += 1;
      }
    };
    // JavaScript on (`js`) and off (`nojs`, only the tests not tagged @js-only), and the `http` project.
    playwright("e2e", null, { E2E_DATA_DIR: join(work, "data") });
    // ADL's SCORM 2004 conformance packages in Chromium through the whole product (decision 040); the
    // same packages on the API are part of the vitest run above (tests/conformance/).
    playwright("conformance", "playwright.conformance.config.ts", { E2E_DATA_DIR: join(work, "data-conformance") });
    // The README's configuration modes: OIDC_ISSUER and LMS_API_URL at a second process of this
    // server on another origin (playwright.external.config.ts starts both; issue 11).
    playwright("external", "playwright.external.config.ts", { E2E_DATA_DIR: join(work, "data-external") });
    // Two app processes on one PostgreSQL database behind a balancer (tests/nodes/).
    if (postgres) playwright("nodes", "playwright.nodes.config.ts", postgresEnv);
  }
}

stopPostgres();
rmSync(work, { recursive: true, force: true });
for (const line of summary(parts, Date.now() - started)) console.log(line);
if (failures.length > 0) {
  console.log(`[test] what failed (${failures.length}):`);
  for (const f of failures) console.log(`  ✘ ${f}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
