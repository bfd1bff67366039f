import { defineConfig, devices } from "@playwright/test";
import { PORTS } from "./tests/nodes/cluster";

/**
 * Two app processes on one PostgreSQL database behind a balancer (tests/nodes/, decision 019):
 * `npm test` runs this when PostgreSQL is available (TEST_DATABASE_URL), as CI always does.
 */
const executablePath = process.env.PLAYWRIGHT_CHROMIUM_PATH || undefined;
const args = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/nodes",
  globalSetup: "./tests/nodes/cluster.ts",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PW_JSON_OUTPUT ? [["list"], ["json", { outputFile: process.env.PW_JSON_OUTPUT }]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORTS.balancer}`,
    trace: "retain-on-failure",
    launchOptions: { executablePath, args },
  },
  projects: [
    { name: "js", use: { ...devices["Desktop Chrome"], javaScriptEnabled: true } },
    { name: "nojs", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false } },
  ],
});
