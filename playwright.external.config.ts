import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * The configuration modes the README promises, proven in the browser: the app on one
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
/** An app (its own provider and API) whose tutor has a model: the fake OpenAI-compatible server below. */
const tutorUrl = `http://localhost:${port + 5}`;
const modelUrl = `http://127.0.0.1:${port + 6}`;
const stamp = Date.now();
const dataDir = process.env.E2E_DATA_DIR ?? "./data";
/** The app's client at the other process's provider (both processes are told the same secret). */
const clientSecret = `external-mode-${stamp}`;

// Learners are made on the other process, where the accounts and the LMS data live (tests/e2e/fixtures.ts).
process.env.E2E_API_URL = otherUrl;
process.env.E2E_PROVIDER_ONLY_URL = providerOnlyUrl;
process.env.E2E_API_DOWN_URL = apiDownUrl;
process.env.E2E_TUTOR_URL = tutorUrl;
process.env.E2E_MODEL_URL = modelUrl;

/**
 * One process of this server in production mode, as `npm start` and playwright.config.ts run it: the
 * compiled build (decision 052; `tsx server/index.ts` transpiled the whole server in each of the five
 * processes). Playwright starts the servers one after another, so the first builds what is stale
 * (`first`) and the others find it built. `url` answers when it is ready.
 */
function server(origin: string, readyPath: string, name: string, env: Record<string, string>, first = false) {
  return {
    command: `${first ? "node scripts/ensure-build.mjs && " : ""}MALLOC_ARENA_MAX=2 exec node --max-old-space-size=512 --max-semi-space-size=8 --expose-gc build/node/server.js`,
    url: `${origin}${readyPath}`,
    reuseExistingServer: false,
    // A stale app build is rebuilt first (about a minute, more on a busy machine).
    timeout: first ? 300_000 : 120_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      NODE_ENV: "production",
      APP_ENV: "test",
      PORT: new URL(origin).port,
      APP_URL: origin,
      // Each process's content origin (decision 040) on a port of its own, clear of the others.
      CONTENT_URL: `http://127.0.0.1:${Number(new URL(origin).port) + 20}`,
      DATA_DIR: `${dataDir}/external-${name}-${stamp}`,
      // No metrics port (decision 037): several test servers run on one machine; warnings and errors
      // only in the test output (no line per request).
      METRICS_PORT: "0",
      LOG_LEVEL: "warn",
      ...env,
    },
  };
}

/** An app process signing in at the other process's provider (its client `learner-app`). */
const externalSignIn = {
  OIDC_ISSUER: `${otherUrl}/idp`,
  OIDC_CLIENT_ID: "learner-app",
  OIDC_CLIENT_SECRET: clientSecret,
};

export default defineConfig({
  ...base,
  // Only the journeys of *external.spec.ts, with JavaScript on and off (the http project's fuzzing runs
  // against the main server only).
  projects: (base.projects ?? [])
    .filter((project) => project.name !== "http")
    .map((project) => ({ ...project, testMatch: /external\.spec\.ts$/, testIgnore: [] })),
  use: { ...base.use, baseURL: appUrl },
  webServer: [
    server(
      otherUrl,
      "/idp/.well-known/openid-configuration",
      "provider",
      {
        E2E_FIXTURES: "1",
        IDP_CLIENT_SECRET: clientSecret,
        IDP_EXTRA_APP_URLS: `${appUrl},${providerOnlyUrl},${apiDownUrl}`,
      },
      true,
    ),
    server(appUrl, "/learn/open-catalog", "app", { ...externalSignIn, LMS_API_URL: otherUrl }),
    // Decision 049: ada's account here is linked by her verified address (the other process's provider
    // says it is); a learner only the provider knows is made a learner here at her first sign-in.
    server(providerOnlyUrl, "/learn/open-catalog", "provider-only", {
      ...externalSignIn,
      OIDC_EMAIL_LINKING: "verified",
    }),
    // Ready when it serves its own files: its pages need the API, which never answers.
    server(apiDownUrl, "/learn/favicon.svg", "api-down", {
      ...externalSignIn,
      // A port nothing listens on: every call is refused at once.
      LMS_API_URL: `http://127.0.0.1:${port + 4}`,
    }),
    {
      command: "tsx tests/fixtures/fake-openai-server.ts",
      url: `${modelUrl}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: String(port + 6) },
    },
    server(tutorUrl, "/learn/open-catalog", "tutor", {
      E2E_FIXTURES: "1",
      TUTOR_BASE_URL: `${modelUrl}/v1`,
      TUTOR_API_KEY: "e2e-key",
      TUTOR_MODEL: "e2e-model",
    }),
  ],
});
