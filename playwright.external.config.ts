import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * The configuration modes the README promises (issue 11), proven in the browser: the app on one
 * origin with OIDC_ISSUER and LMS_API_URL pointing at a second process of this server on another
 * origin — its embedded provider as the "external" identity provider, its embedded API as the
 * "external" LMS API, reached over HTTP with its own DATA_DIR. The app is on localhost, the other
 * process on 127.0.0.1: another site, so the browser's return from sign-in is cross-site as it is
 * with a real external provider.
 */
const port = Number(process.env.E2E_PORT ?? 3220);
const otherPort = Number(process.env.E2E_EXTERNAL_PORT ?? port + 1);
const appUrl = `http://localhost:${port}`;
const otherUrl = `http://127.0.0.1:${otherPort}`;
/** An app with the other origin's provider but its own embedded LMS API (OIDC_ISSUER without LMS_API_URL). */
const providerOnlyUrl = `http://localhost:${port + 2}`;
/** An app whose LMS API does not answer (a closed port): what a learner sees then. */
const apiDownUrl = `http://localhost:${port + 3}`;
const stamp = Date.now();
const dataDir = process.env.E2E_DATA_DIR ?? "./data";
/** The app's client at the other process's provider (both processes are told the same secret). */
const clientSecret = `external-mode-${stamp}`;

// Learners are made on the other process, where the accounts and the LMS data live (tests/e2e/fixtures.ts).
process.env.E2E_API_URL = otherUrl;
process.env.E2E_PROVIDER_ONLY_URL = providerOnlyUrl;
process.env.E2E_API_DOWN_URL = apiDownUrl;

export default defineConfig({
  ...base,
  // Only the journeys of external.spec.ts, with JavaScript on and off (the http project's fuzzing runs
  // against the main server only).
  projects: (base.projects ?? [])
    .filter((project) => project.name !== "http")
    .map((project) => ({ ...project, testMatch: /external\.spec\.ts$/, testIgnore: [] })),
  use: { ...base.use, baseURL: appUrl },
  webServer: [
    {
      command: "tsx server.ts",
      url: `${otherUrl}/idp/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        APP_ENV: "test",
        E2E_FIXTURES: "1",
        PORT: String(otherPort),
        APP_URL: otherUrl,
        DATA_DIR: `${dataDir}/external-provider-${stamp}`,
        IDP_CLIENT_SECRET: clientSecret,
        IDP_EXTRA_APP_URLS: `${appUrl},${providerOnlyUrl},${apiDownUrl}`,
      },
    },
    {
      command: "tsx server.ts",
      url: `${appUrl}/learn/open-catalog`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        APP_ENV: "test",
        PORT: String(port),
        APP_URL: appUrl,
        DATA_DIR: `${dataDir}/external-app-${stamp}`,
        OIDC_ISSUER: `${otherUrl}/idp`,
        OIDC_CLIENT_ID: "learner-app",
        OIDC_CLIENT_SECRET: clientSecret,
        LMS_API_URL: otherUrl,
      },
    },
    {
      command: "tsx server.ts",
      url: `${providerOnlyUrl}/learn/open-catalog`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        APP_ENV: "test",
        PORT: String(port + 2),
        APP_URL: providerOnlyUrl,
        DATA_DIR: `${dataDir}/external-provider-only-${stamp}`,
        OIDC_ISSUER: `${otherUrl}/idp`,
        OIDC_CLIENT_ID: "learner-app",
        OIDC_CLIENT_SECRET: clientSecret,
      },
    },
    {
      command: "tsx server.ts",
      // Ready when it serves its own files: its pages need the API, which never answers.
      url: `${apiDownUrl}/learn/favicon.svg`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        APP_ENV: "test",
        PORT: String(port + 3),
        APP_URL: apiDownUrl,
        DATA_DIR: `${dataDir}/external-api-down-${stamp}`,
        OIDC_ISSUER: `${otherUrl}/idp`,
        OIDC_CLIENT_ID: "learner-app",
        OIDC_CLIENT_SECRET: clientSecret,
        // A port nothing listens on: every call is refused at once.
        LMS_API_URL: `http://127.0.0.1:${port + 4}`,
      },
    },
  ],
});
