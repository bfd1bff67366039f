/**
 * The composition root: the whole product in one process. It reads the configuration, opens the
 * database, starts the embedded LMS (API, identity provider, jobs) or points at an external one,
 * builds the web router and opens the ports. docs/architecture.md draws what runs where.
 */
import { resolve } from "node:path";
import { parseAppConfig } from "../app/services/config.server";
import { rootLog } from "../app/services/logger.server";
import { openDatabase } from "../api/db/client";
import { embeddedDataDir } from "../api/db/pglite-start";
import { databaseNotReady } from "../api/db/health";
import { waitForDatabase } from "../api/db/wait";
import { sql } from "drizzle-orm";
import { openFileStore, StorageUnavailable } from "../api/files/object-store";
import { pendingJobs } from "../api/jobs/run";
import { createSessionStore } from "../identity/sessions/store";
import { loadDeploymentSecrets } from "../api/stored-secrets";
import { disableDemoPasswordAccounts } from "../demo/demo-accounts";
import { demoTools } from "../demo/tools/registry";
import { DEMO_PROCTORING_PATH } from "../demo/tools/proctoring";
import { parseServerConfig } from "./config";
import { startEmbeddedLms } from "./embedded-lms";
import { createFront } from "./front";
import { securityHeaders } from "./http/front";
import { createContentOrigin } from "./http/content-origin";
import { whileAvailable } from "./http/unavailable";
import { DependencyProbe } from "./operations/dependencies";
import { BodyBudget, bodyBudgetAnswers, bodyBudgetStep } from "./http/body-budget";
import { clientAddresses } from "./http/client-address";
import { deriveKeys } from "./keys";
import { listen } from "./listen";
import { startCleanUp } from "./operations/clean-up";
import { createOperations } from "./operations/operations";
import { AdmissionControl, admissionGate, createOverloadResponder, loadOverloadTexts } from "./overload/admission";
import { trimMemoryWhenQuiet } from "./overload/quiet-memory";
import { isStreamPath, StreamPlaces } from "./overload/streams";
import { createPages, productionBuild } from "./pages";
import { createWebRouter, readBodyLimit, streamsBody } from "./web";
import { IDP_MOUNT } from "../identity/provider";

const config = parseServerConfig(process.env);
// The pages' build loads while the database and the API start (decision 038: start to first answer).
const early = productionBuild(config.dev);
const { appUrl, dataDir, demoAllowed } = config;

// 1. The database: always opened, since it holds the app's own sessions (decision 017) even with an
// external LMS API; with the embedded one it holds everything. Then the generated secrets (in the
// database on PostgreSQL, made once for every node; in DATA_DIR/secrets.json with PGlite).
const database = await openDatabase({
  databaseUrl: config.database.url,
  dataDir: embeddedDataDir(),
  thread: config.database.thread,
});
// A database that does not answer yet is waited for, with the tries in the log (decision 053); then
// the migrations, refused by a build older than the schema.
await waitForDatabase(() => database.db.execute(sql`select 1`));
await database.migrate();
const secrets = await loadDeploymentSecrets(database, dataDir);
const sessionSecret = config.sessionSecret ?? secrets.sessionSecret;
const disabled = demoAllowed ? [] : await disableDemoPasswordAccounts(database.db);
if (disabled.length > 0)
  rootLog.warn(
    { appUrl, disabled },
    "demo: APP_URL is not loopback nor DEMO_ACCOUNTS=1: demo-password accounts disabled",
  );
const files = openFileStore(config.storage);
// The storage at start (decision 053): a bucket that does not exist or credentials it refuses stop the
// start with the setting to fix; one that does not answer yet is logged, and readiness reports it.
await files.check().catch((error: unknown) => {
  if (error instanceof StorageUnavailable && error.configuration)
    throw new Error(`storage: ${error.reason}; the node does not start (docs/configuration.md)`, { cause: error });
  rootLog.warn({ err: error }, "storage: does not answer at start; starting anyway (see /readyz, storage_up)");
});
// Whether the database and the storage answer now: readiness, db_up and storage_up, the 503 pages.
const databaseProbe = new DependencyProbe("database", () => database.db.execute(sql`select 1`));
const storageProbe = new DependencyProbe("storage", () => files.check());
// The LTI tools the server gives itself (the demo's); the operator's are in the database (decision 043).
const lti = { tools: demoAllowed ? demoTools(appUrl) : [] };
// Who sent a request: the socket's address, or a trusted proxy's word for it (TRUST_PROXY, decision 050).
const addressOf = clientAddresses(config.trustProxy);

// 2. The embedded LMS, or none: the app then reaches LMS_API_URL over HTTP.
const lms = config.lmsApiUrl
  ? null
  : await startEmbeddedLms(config, { database, secrets, keys: deriveKeys(sessionSecret), files, lti, addressOf });

// 3. The web app's configuration, parsed once; the app reads no environment variable itself.
const appConfig = parseAppConfig(
  {
    ...config.env,
    APP_ENV: config.appEnv,
    APP_URL: appUrl,
    SESSION_SECRET: sessionSecret,
    ...lms?.client,
    CONTENT_URL: config.content.url,
    // With the demo, proctored activities open in its simulated proctoring service.
    PROCTORING_URL: config.proctoringUrl ?? (demoAllowed && lms ? `${appUrl}${DEMO_PROCTORING_PATH}` : undefined),
  },
  { oidcEmbedded: lms?.client != null },
);
const sessions = createSessionStore(database.db);
const pages = await createPages(config.dev, early, () => ({
  config: appConfig,
  lmsTransport,
  sessions,
  changes: lms ? database.changes : undefined,
  providerSignOut: lms?.providerSignOut,
  shutdown: operations.shutdown,
}));
// Health endpoints, request ids, metrics, the drain (decision 037).
const operations = createOperations({
  env: config.env,
  databaseNotReady: async () => (await databaseProbe.status()) ?? databaseNotReady(database.db),
  dependencies: [databaseProbe, storageProbe],
  storage: { status: () => storageProbe.status(), gates: config.readinessStorage === "gate" },
  pool: database.pool,
  pendingJobs: lms ? () => pendingJobs(database.db) : undefined,
  close: async () => {
    await pages.flush();
    await database.close();
  },
});
const lmsTransport = operations.withRequestId(lms?.fetch ?? ((request: Request) => fetch(request)));
await startCleanUp(database, dataDir, () => void lms?.keepStatistics(false));

// 4. The web router and the front that every request on the app's port meets first.
const withSecurityHeaders = securityHeaders({ https: appUrl.startsWith("https:") });
const web = await createWebRouter(config, {
  api: lms?.fetch ?? null,
  operator: {
    database,
    files,
    lti,
    operatorToken: secrets.operatorToken,
    appUrl,
    scormLimits: config.api.scormLimits!,
    addressOf,
  },
  withSecurityHeaders,
  addressOf,
  pages: whileAvailable(databaseProbe, storageProbe, (request, clientIp) => pages.handle(request, clientIp)),
});
// The content origin: the launcher and the package files, read from the LMS API under the grant in their URL.
const content = createContentOrigin({
  appOrigin: new URL(appUrl).origin,
  transport: lmsTransport,
  apiBase: config.lmsApiUrl ?? "http://lms.internal",
  runtimeDir: resolve("build/content"),
  extraSources: config.content.sources,
});
// Overload control (decision 038): a request waits a while for a place, then gets 503 + Retry-After.
const admission = new AdmissionControl(config.admission);
const overloadAnswer = createOverloadResponder(
  loadOverloadTexts(resolve("locales")),
  config.admission.retryAfterSeconds,
);
// The body budget (decision 050): bodies are read before the gate, at a minimum rate, a few per address.
const readBody = bodyBudgetStep(new BodyBudget(config.bodyBudget, undefined, addressOf), {
  maxBytes: readBodyLimit(config.bodyLimitBytes),
  exempt: (path) => streamsBody(path) || path === IDP_MOUNT || path.startsWith(`${IDP_MOUNT}/`),
  answers: bodyBudgetAnswers(overloadAnswer),
});
const front = createFront(config, {
  web: web.fetch,
  content,
  idpHandler: () => lms?.idpHandler() ?? null,
  vite: pages.vite,
  withSecurityHeaders,
  shed: admissionGate(admission, overloadAnswer, {
    isStream: (req) => isStreamPath(pages.routes, (req.url ?? "/").split("?", 1)[0]!),
    places: new StreamPlaces(config.streams),
    addressOf,
  }),
  readBody,
});
trimMemoryWhenQuiet(admission, front.requestsSeen, config.memoryTrimAfterMb);

// 5. The ports.
listen(config, operations, front, {
  fields: {
    url: `${appUrl}/learn`,
    appEnv: config.appEnv,
    lmsApi: config.lmsApiUrl ?? "embedded",
    database: database.kind,
  },
  demoHint: lms?.demoHint ?? null,
});
