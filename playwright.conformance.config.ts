import { defineConfig, devices } from "@playwright/test";
import base from "./playwright.config";

/**
 * ADL's SCORM 2004 4th edition LMS conformance packages in Chromium (decision 040):
 * `npm run test:scorm-conformance` (with the API-level run, tests/conformance/*.test.ts), and `npm test`.
 * The same server as the browser tests; JavaScript on only (the packages need it).
 */
export default defineConfig({
  ...base,
  testDir: "tests/conformance",
  testMatch: /\.spec\.ts$/,
  fullyParallel: false,
  workers: 1,
  projects: [{ name: "js", use: { ...devices["Desktop Chrome"], javaScriptEnabled: true } }],
});
