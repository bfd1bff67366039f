import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;
const executablePath = process.env.PLAYWRIGHT_CHROMIUM_PATH || undefined;
// The server's DATA_DIR, fixed here in the runner so the workers (which inherit its environment) know it:
// the outside-tool spec registers and attaches its tool there with `npm run lti:tool`.
const dataDir = (process.env.E2E_DATA_DIR ??= `./data/e2e-${Date.now()}`);

// Chromium flags that keep it quiet on a closed network (no update checks, sign-in prompts or crash uploads).
const args = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Files of the `http` project (`*.http.spec.ts`). */
const HTTP_ONLY = /\.http\.spec\.ts$/;
/** The external-provider/external-API journeys need a second server: playwright.external.config.ts runs them. */
const EXTERNAL = /external\.spec\.ts$/;
/**
 * Tests that prove nothing more without JavaScript (no form of their own, no behaviour that differs
 * without scripts: a page read, a link followed, an HTTP answer), tagged `{ tag: "@js-only" }`; and the
 * few about the page without JavaScript alone, `@nojs-only` (decision 052, docs/testing.md).
 */
const JS_ONLY = /@js-only/;
const NOJS_ONLY = /@nojs-only/;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // A test with two learners or several sign-ins takes 20–35 s on a busy two-core machine (expectAccessible
  // no longer adds its 45 s for the four variants: the walk checks those, decision 035).
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PW_JSON_OUTPUT ? [["list"], ["json", { outputFile: process.env.PW_JSON_OUTPUT }]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: { executablePath, args },
  },
  projects: [
    // A project's testIgnore replaces the config's, so each project names both.
    {
      name: "js",
      testIgnore: [HTTP_ONLY, EXTERNAL],
      grepInvert: NOJS_ONLY,
      use: { ...devices["Desktop Chrome"], javaScriptEnabled: true },
    },
    // Without JavaScript: every test but those tagged @js-only (docs/testing.md says which are).
    {
      name: "nojs",
      testIgnore: [HTTP_ONLY, EXTERNAL],
      grepInvert: JS_ONLY,
      use: { ...devices["Desktop Chrome"], javaScriptEnabled: false },
    },
    // Tests of HTTP answers (fuzzing, redirects): no page past the sign-in, so they run once.
    { name: "http", testMatch: HTTP_ONLY, use: { ...devices["Desktop Chrome"], javaScriptEnabled: true } },
  ],
  webServer: {
    // The server as `npm start` runs it (decision 038): the compiled build, built first when stale
    // (ensure-build), so the tests exercise what production runs, its start-up included.
    command:
      "node scripts/ensure-build.mjs && MALLOC_ARENA_MAX=2 exec node --max-old-space-size=512 --max-semi-space-size=8 --expose-gc build/node/server.js",
    url: `${baseURL}/config-ui/config.json`,
    reuseExistingServer: false,
    // A stale app build is rebuilt first (about a minute, more on a busy machine).
    timeout: 300_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      APP_ENV: "test",
      // The learner fixture's endpoint (tests/e2e/fixtures.ts, decision 014): only this server has it.
      E2E_FIXTURES: "1",
      // The admin panel is configured (spec 1: the user menu's admin entry uses ADMIN_URL).
      ADMIN_URL: "/admin/console",
      PORT: String(port),
      // The content origin where SCORM packages run (decision 040): the next port, on the other loopback name.
      CONTENT_URL: `http://127.0.0.1:${port + 1}`,
      // Overload control (decision 038) on, with a longer wait: on a shared machine the tests' own
      // requests can wait over the default 1 s for a place without the server being overloaded by them.
      OVERLOAD_MAX_WAIT_MS: "10000",
      // No metrics port (decision 037): several test servers run on one machine; warnings and errors
      // only in the test output (no line per request).
      METRICS_PORT: "0",
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir,
    },
  },
});
