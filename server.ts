/**
 * Starts the whole product in one process: the embedded LMS API (Hono, /api), the embedded OpenID
 * provider (/idp), and the learner web app (React Router, /learn and its resource routes).
 * Configuration is read from the environment; see the README's configuration table.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { resolve } from "node:path";
import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { Hono, type Context } from "hono";
import { getRequestListener } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler, RouterContextProvider, type RouterContext, type ServerBuild } from "react-router";
import { parseAppConfig, type AppLoadContext } from "./app/services/config.server";
import type { ChangeFeed } from "./domain/contract/changes";
import {
  audienceOf,
  bodyLimit,
  checkRequestTarget,
  compressResponses,
  continueIfAwaited,
  DEFAULT_BODY_LIMIT_BYTES,
  markAwaitingContinue,
  refusalResponse,
  securityHeaders,
  sendResponse,
  streamedBody,
} from "./app/server/http.server";
import {
  AdmissionControl,
  admissionGate,
  admissionOptionsFrom,
  createOverloadResponder,
  loadOverloadTexts,
} from "./app/server/overload.server";
import { PUBLIC_PAGE_TTL_MS, publicPageCache } from "./app/server/public-page-cache.server";
import { createApi } from "./api/app";
import { openDatabase } from "./api/db/client";
import { embeddedDataDir } from "./api/db/pglite-start";
import { refreshStatistics, statisticsMarkFile } from "./api/db/maintenance";
import { importScormPackage, saveUpload, SCORM_LIMITS } from "./api/scorm/import";
import { ScormPackageError } from "./api/scorm/manifest";
import { contentKeyFromSessionSecret } from "./api/scorm/content-token";
import { seedOnStart } from "./api/demo/seed-process";
import { demoAccountsAllowed, demoPassword, disableDemoPasswordAccounts } from "./api/demo/demo-accounts";
import { createIdentityProvider, IDP_MOUNT } from "./api/idp/provider";
import { deleteExpiredModels } from "./api/idp/adapter";
import { createSessionStore, deleteEndedSessions } from "./api/sessions/store";
import { operatorCommand, OperatorError, runOperatorCommand } from "./api/sessions/operator";
import { verifierFrom, type Secrets, type VerifierConfig } from "./api/runtime";
import { followSigningKeys, loadDeploymentSecrets } from "./api/stored-secrets";
import { isLoopback, testSupportEnabled, testSupportMount, TEST_SUPPORT_PATH } from "./api/demo/test-support";
import { startApiInThread } from "./api/app-thread";
import { registryOf } from "./api/lti/registry";
import { runToolCommand, takeOverToolsFile, toolCommand, ToolStoreError, TOOLS_FILE } from "./api/lti/tool-store";
import { AttachError, attachmentCommand, runAttachmentCommand } from "./api/lti/attach";
import { certificateCommand, CertificateCommandError, runCertificateCommand } from "./api/certificate-revocation";
import { demoTools } from "./api/demo/tools/registry";
import { createDemoProctoringService, DEMO_PROCTORING_PATH } from "./api/demo/tools/proctoring";
import { createDemoLti13Tool } from "./api/demo/tools/lti13";
import { createDemoLti11Tool } from "./api/demo/tools/lti11";
import { attachmentBodyLimit } from "./domain/chat-attachments";
import { createContentOrigin, defaultContentUrl } from "./app/server/content-origin.server";
import { isScormCommitPath, SCORM_COMMIT_MAX_BYTES } from "./domain/contract/scorm";
import { analyticsConfigFrom } from "./api/analytics-limits";
import { sweepTemporaryFiles } from "./api/files/temporary";
import { ANALYTICS_BATCH_MAX_BYTES } from "./domain/analytics";
import { chatAttachmentRules, isChatPostPath } from "./app/server/chat-uploads.server";
import { flushLogs, log, rootLog } from "./app/server/logger.server";
import { loadFullCollection, loadMallocTrim, quietTrimmer, releaseMemory } from "./app/server/memory-trim.server";
import { createOperations } from "./app/server/operations.server";
import { listenShared } from "./app/server/listeners.server";
import { databaseNotReady } from "./api/db/health";
import { pendingJobs } from "./api/jobs/run";
import { openFileStore, storageConfigFrom } from "./api/files/object-store";

const isDev = process.env.NODE_ENV !== "production";
// The pages' build loads while the database and the API start (decision 038: start to first answer).
const productionBuild = isDev ? null : import(resolve("build/server/index.js"));
const port = Number(process.env.PORT ?? 3000);
const appUrl = (process.env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
/** SCORM packages (issue 15): the most bytes and files a package may unpack to. */
/** ANALYTICS_URL: the collector forwards the events it stores there too (decision 029). */
const analyticsUrl = process.env.ANALYTICS_URL || undefined;
if (analyticsUrl && !/^https?:\/\//.test(analyticsUrl)) throw new Error("ANALYTICS_URL must be an http(s) URL");
/** What the collector keeps and for how long (issue 29 item 3): ANALYTICS_RETENTION_DAYS, ANALYTICS_ANONYMOUS_PER_HOUR. */
const analytics = analyticsConfigFrom(process.env);
const scormLimits = {
  maxBytes: Number(process.env.SCORM_MAX_BYTES ?? SCORM_LIMITS.maxBytes),
  maxEntries: Number(process.env.SCORM_MAX_ENTRIES ?? SCORM_LIMITS.maxEntries),
};
/**
 * Issue 29 item 1 (decision 040): the content origin — where SCORM packages run, apart from the app.
 * CONTENT_URL names it (a host name of its own in production); unset, it is this server's next port
 * under the other loopback name. CONTENT_PORT is the port this process listens on for it (default:
 * CONTENT_URL's port when that is not PORT; none when a proxy brings its host name to PORT).
 */
const contentSetting = process.env.CONTENT_URL
  ? null
  : defaultContentUrl(appUrl, Number(process.env.CONTENT_PORT ?? port + 1));
const contentUrl = (process.env.CONTENT_URL ?? contentSetting!.url).replace(/\/$/, "");
{
  const u = URL.parse(contentUrl);
  if (!u || !/^https?:$/.test(u.protocol) || u.pathname.replace(/\/$/, "") !== "")
    throw new Error(`CONTENT_URL: "${contentUrl}" is not an http(s) origin`);
  if (u.origin === new URL(appUrl).origin)
    throw new Error("CONTENT_URL must be another origin than APP_URL (decision 040)");
  if (contentSetting?.warning) rootLog.warn({ contentUrl }, contentSetting.warning);
}
const contentHost = new URL(contentUrl).host.toLowerCase();
const contentPort = process.env.CONTENT_PORT
  ? Number(process.env.CONTENT_PORT) || null // 0: another process serves the content origin
  : process.env.CONTENT_URL
    ? (() => {
        const u = new URL(contentUrl);
        return u.port && Number(u.port) !== port ? Number(u.port) : null;
      })()
    : port + 1;
/** CONTENT_CSP_SOURCES: space-separated origins packages may load from besides their own (fonts, video…). */
const contentSources = (process.env.CONTENT_CSP_SOURCES ?? "").split(/\s+/).filter(Boolean);
for (const source of contentSources)
  if (!/^https:\/\/[a-z0-9.*-]+(:\d+)?$/i.test(source))
    throw new Error(`CONTENT_CSP_SOURCES: "${source}" is not an https origin`);
/** Issue 16 item 3 (decision 027): what files a chat message may carry; a bad value stops the server. */
const chatAttachments = chatAttachmentRules(process.env);
/** Where stored files live (decision 037): DATA_DIR/storage, or a bucket with STORAGE_BACKEND=s3. */
const storage = storageConfigFrom(process.env, resolve(dataDir, "storage"));
const files = openFileStore(storage);
const appEnv = process.env.APP_ENV ?? (isDev ? "dev" : "prod");
// Issue 16 item 6 (decision 028): the tutor's OpenAI-compatible model; without it, extractive answers.
const tutorModel =
  process.env.TUTOR_BASE_URL && process.env.TUTOR_MODEL
    ? { baseUrl: process.env.TUTOR_BASE_URL, apiKey: process.env.TUTOR_API_KEY ?? "", model: process.env.TUTOR_MODEL }
    : undefined;
/** The browser tests' learner fixture endpoint (decision 014): never on outside the tests. */
const testSupport = testSupportEnabled({ ...process.env, APP_ENV: appEnv });

/** What the embedded provider adds to the configuration when no external one is set. */
let embeddedClient: { OIDC_ISSUER: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string } | null = null;

let idpHandler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;
/** The embedded provider's sign-out on the server (issue 29 item 4), for the app's /oidc/logout. */
let providerSignOut: ((idToken: string) => Promise<number>) | undefined;
/** The database's change notices, which the app's caches follow (decision 019). */
let changes: ChangeFeed | undefined;
let apiFetch: ((request: Request) => Response | Promise<Response>) | null = null;
type SigningKeys = Pick<Secrets, "signingKey" | "previousSigningKeys">;
/** What follows a signing-key rotation made on the database (decision 037), checked this often. */
const onRotation: ((keys: SigningKeys) => void)[] = [];
const SECRETS_REFRESH_MS = Number(process.env.SECRETS_REFRESH_MS ?? 30_000);
let follower: ReturnType<typeof followSigningKeys> | null = null;
/** Makes the embedded database's planner statistics when due, or now (`force`); set with the embedded API. */
let keepStatistics: (force: boolean) => Promise<void> = async () => {};

/** IDP_EXTRA_APP_URLS: comma-separated origins of other app processes; a value that is no http(s) origin stops the server. */
function otherAppUrls(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean)
    .map((v) => {
      const u = URL.parse(v);
      if (!u || !/^https?:$/.test(u.protocol) || u.pathname.replace(/\/$/, "") !== "")
        throw new Error(`IDP_EXTRA_APP_URLS: "${v}" is not an http(s) origin`);
      return u.origin;
    });
}

if (process.env.LMS_API_URL && !process.env.OIDC_ISSUER) {
  throw new Error(
    "LMS_API_URL is set, so the embedded identity provider is off: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too.",
  );
}
/**
 * Demo accounts (password "demo") only on a loopback APP_URL or with DEMO_ACCOUNTS=1 (decision 017):
 * elsewhere they are not seeded, existing ones are disabled, and their password is refused.
 */
const demoAllowed = demoAccountsAllowed(appUrl, process.env.DEMO_ACCOUNTS);

// The database is always opened: it holds the app's own sessions (decision 017) even when the LMS
// API is an external one; with the embedded API it holds everything.
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: embeddedDataDir(),
  thread: process.env.PGLITE_THREAD !== "0",
});
await database.migrate();
// The generated secrets: in the database with DATABASE_URL, made once for every node (decision 037);
// in DATA_DIR/secrets.json with the embedded PGlite.
const secrets = await loadDeploymentSecrets(database, dataDir);
const sessionSecret = process.env.SESSION_SECRET ?? secrets.sessionSecret;
/**
 * The key of the personal calendar feed links (decision 022), derived from the session secret: every
 * node of a cluster already shares that one, so each shows the same link and finds it again.
 */
/** The key of the grants under which the content origin reads a package's files (decision 040): every node the same. */
const contentKey = contentKeyFromSessionSecret(sessionSecret);
const calendarFeedKey = Buffer.from(hkdfSync("sha256", sessionSecret, "", "learner-app calendar feed", 32)).toString(
  "base64url",
);
/** The key of the e-mails' unsubscribe links (issue 31, decision 042): derived the same way, shared by every node. */
const mailLinkKey = Buffer.from(hkdfSync("sha256", sessionSecret, "", "learner-app mail links", 32)).toString(
  "base64url",
);
if (!demoAllowed) {
  const disabled = await disableDemoPasswordAccounts(database.db);
  if (disabled.length > 0)
    rootLog.warn(
      { appUrl, disabled },
      "demo: APP_URL is not a loopback origin and DEMO_ACCOUNTS is not 1: accounts with the demo password were disabled (no password now)",
    );
}
const sessions = createSessionStore(database.db);
// Decisions 023 and 043: the LTI tools the server gives itself (the demo's); the operator's
// (npm run lti:tool) are in the database, where every node reads them.
const lti = { tools: demoAllowed ? demoTools(appUrl) : [] };
/** The registry as `npm run lti:tool -- attach` sees it through this server (the API's own is in its thread). */
const operatorRegistry = { lti, database };

if (!process.env.LMS_API_URL) {
  changes = database.changes;
  // Several nodes may start together on one PostgreSQL database: the migrations (above) and the demo
  // seed run on one of them under advisory locks; the others wait, then find nothing left to do (decision 019).
  // Decision 043: a registry file this node kept before the tools moved to the database is taken over once.
  await takeOverToolsFile(database, resolve(dataDir, TOOLS_FILE));
  // On PostgreSQL from a child process, so this node never holds what seeding used (decision 038,
  // addendum 11); the embedded database has one owner, this node.
  const seeded = await seedOnStart(database, { accounts: demoAllowed, store: files });
  if (seeded)
    rootLog.info(
      demoAllowed
        ? "seed: demo data created (accounts: see README, password 'demo')"
        : "seed: demo data created without the demo accounts (APP_URL is not a loopback origin; DEMO_ACCOUNTS=1 allows them)",
    );
  // Planner statistics (api/db/maintenance.ts): after a seed at once, else when a day old or the data
  // grew, checked now and with every clean-up. Beside the first requests, not before them (decision 038).
  keepStatistics = (force) =>
    refreshStatistics(database, { markFile: statisticsMarkFile(embeddedDataDir()), force })
      .then(() => undefined)
      .catch((err: unknown) => rootLog.warn({ err }, "db: planner statistics not refreshed"));
  void keepStatistics(seeded);
  // Background jobs (decision 021): reinforcement e-mails (SMTP_URL, else .eml files in
  // DATA_DIR/outbox) and certificate files. Every node may run them: rows are claimed with SKIP LOCKED.
  const jobs = { smtpUrl: process.env.SMTP_URL };
  let verifier: VerifierConfig;
  if (process.env.OIDC_ISSUER) {
    verifier = { kind: "remote", issuer: process.env.OIDC_ISSUER, audience: process.env.OIDC_AUDIENCE };
  } else {
    const issuer = `${appUrl}${IDP_MOUNT}`;
    const clientId = "learner-app";
    // Derived from the provider's stored secret: the same on every start and on every node sharing
    // DATA_DIR/secrets.json, so a code issued by one node can be exchanged at another.
    const clientSecret =
      process.env.IDP_CLIENT_SECRET ??
      createHmac("sha256", secrets.idpCookieKey).update("learner-app client secret").digest("base64url");
    // Other app processes this provider signs in for, as their "external" provider (OIDC_ISSUER
    // pointing here; the CI's external-mode browser tests): their callback and sign-out returns.
    const appUrls = [appUrl, ...otherAppUrls(process.env.IDP_EXTRA_APP_URLS)];
    const provider = (keys: SigningKeys) =>
      createIdentityProvider({
        issuer,
        db: database.db,
        client: {
          clientId,
          clientSecret,
          redirectUris: appUrls.map((u) => `${u}/learn/login-callback`),
          postLogoutRedirectUris: appUrls.flatMap((u) => [
            `${u}/learn`,
            `${u}/learn/open-catalog`,
            `${u}/learn/signed-out`,
          ]),
        },
        signingKey: keys.signingKey,
        previousSigningKeys: keys.previousSigningKeys,
        cookieKeys: [secrets.idpCookieKey],
        showDemoHint: appEnv !== "prod" && demoAllowed,
        secureCookies: appUrl.startsWith("https:"),
        refusedPassword: demoAllowed ? null : demoPassword(),
        // Issue 26: sign-up links and password resets, through the outbox (SMTP_URL, else DATA_DIR/outbox).
        mail: { appUrl, dataDir, smtpUrl: process.env.SMTP_URL },
      });
    const idp = provider(secrets);
    idpHandler = idp.handle;
    providerSignOut = idp.endSessionFor;
    // A rotation on the database (decision 037): the provider signs with the new key from now on.
    onRotation.push((keys) => {
      const next = provider(keys);
      idpHandler = next.handle;
      providerSignOut = next.endSessionFor;
    });
    // The app discovers this provider like any other (openid-client + OIDC discovery).
    embeddedClient = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret };
    verifier = { kind: "local", issuer, key: secrets.signingKey, previousKeys: secrets.previousSigningKeys };
  }
  if (database.thread) {
    // Decision 012: the API runs in the database thread, beside PGlite, off the rendering thread.
    const thread = database.thread;
    await startApiInThread(thread, {
      verifier,
      dataDir,
      storage,
      testSupport,
      appUrl,
      signingKey: secrets.signingKey,
      previousSigningKeys: secrets.previousSigningKeys,
      lti,
      jobs,
      calendarFeedKey,
      mailLinkKey,
      contentKey,
      scormLimits,
      tutorModel,
      analyticsUrl,
      chatAttachments,
      analyticsRetentionDays: analytics.retentionDays,
      analyticsAnonymousPerHour: analytics.anonymousPerHour,
    });
    apiFetch = (request) => thread.fetch(request);
  } else {
    let verify = verifierFrom(verifier);
    const deps = {
      database,
      // A token signed by a key another node rotated in a moment ago: look at the database once, then
      // verify again (decision 037).
      verifyToken: (token: string) =>
        verify(token).catch(async (error: unknown) => {
          if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY" || !follower) throw error;
          await follower.check();
          return verify(token);
        }),
      dataDir,
      files,
      internalRoutes: testSupportMount(testSupport),
      appUrl,
      signingKey: secrets.signingKey,
      previousSigningKeys: secrets.previousSigningKeys,
      lti,
      jobs,
      calendarFeedKey,
      mailLinkKey,
      contentKey,
      scormLimits,
      tutorModel,
      analyticsUrl,
      chatAttachments,
      analyticsRetentionDays: analytics.retentionDays,
      analyticsAnonymousPerHour: analytics.anonymousPerHour,
    };
    const api = createApi(deps);
    apiFetch = (request) => api.fetch(request);
    const local = verifier;
    onRotation.push((keys) => {
      if (local.kind === "local")
        verify = verifierFrom({ ...local, key: keys.signingKey, previousKeys: keys.previousSigningKeys });
      Object.assign(deps, keys);
    });
  }
  // Nothing is remembered before this node hears the other nodes' writes (decision 019).
  await database.changes.listening();
  if (database.kind === "postgres")
    follower = followSigningKeys(
      database.db,
      secrets.signingKey,
      (keys) => onRotation.forEach((f) => f(keys)),
      SECRETS_REFRESH_MS,
    );
}

// The app's configuration, parsed once (a bad value stops the server here), and its way to the LMS
// API: in-process to the embedded one (no socket), or HTTP to LMS_API_URL. Both reach every request
// through the load context (decision 015); the app reads no environment variable itself.
const config = parseAppConfig(
  {
    ...process.env,
    APP_ENV: appEnv,
    APP_URL: appUrl,
    SESSION_SECRET: sessionSecret,
    ...embeddedClient,
    CONTENT_URL: contentUrl,
    // Issue 14 item 8: with the demo, proctored activities open in its simulated proctoring service.
    PROCTORING_URL:
      process.env.PROCTORING_URL ||
      (demoAllowed && !process.env.LMS_API_URL ? `${appUrl}${DEMO_PROCTORING_PATH}` : undefined),
  },
  { oidcEmbedded: embeddedClient !== null },
);
// Operations (decision 037): health endpoints, request ids, metrics, the drain.
const operations = createOperations({
  env: process.env,
  databaseNotReady: () => databaseNotReady(database.db),
  pool: database.pool,
  pendingJobs: process.env.LMS_API_URL ? undefined : () => pendingJobs(database.db),
  // Page views still waiting for their batch (app/services/analytics.server.ts) go first.
  close: async () => {
    const current = typeof build === "function" ? await build() : build;
    const { flushPendingEvents } = current.entry.module as unknown as { flushPendingEvents?: () => Promise<void> };
    await flushPendingEvents?.().catch(() => {});
    await database.close();
  },
});
const lmsTransport = operations.withRequestId(apiFetch ?? ((request: Request) => fetch(request)));

// The content origin's handler: the launcher and the package files, read from the LMS API (in-process
// or LMS_API_URL) under the grant in their URL, never with a session.
const contentHandler = createContentOrigin({
  appOrigin: new URL(appUrl).origin,
  transport: lmsTransport,
  apiBase: process.env.LMS_API_URL ?? "http://lms.internal",
  runtimeDir: resolve("build/content"),
  extraSources: contentSources,
});
const contentListener = getRequestListener(contentHandler);

const vite = isDev
  ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true }, appType: "custom" }))
  : null;
// The launcher is its own build (vite.content.config.ts); the dev server builds it once at start.
if (vite)
  await import("vite").then((v) => v.build({ configFile: resolve("vite.content.config.ts"), logLevel: "warn" }));
const build = vite
  ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
  : ((await productionBuild) as ServerBuild);
const handleDocument = createRequestHandler(build as ServerBuild, isDev ? "development" : "production");

/** The key of the load context comes from the build's own entry module, so both sides share it. */
async function loadContext(clientIp: string | undefined): Promise<RouterContextProvider> {
  const current = typeof build === "function" ? await build() : build;
  const { appLoadContext } = current.entry.module as unknown as { appLoadContext: RouterContext<AppLoadContext> };
  return new RouterContextProvider(
    new Map([
      [
        appLoadContext,
        { config, lmsTransport, sessions, changes, clientIp, providerSignOut, shutdown: operations.shutdown },
      ],
    ]),
  );
}

// Expired provider records and sessions that ended a day ago are deleted now and then (decision 017).
// Temporary files of writers that were killed halfway (issue 29 item 4) go too: at start every one when
// this process alone holds the embedded database (nobody else writes into DATA_DIR), else, and later,
// those untouched for an hour (another node may be writing into a shared folder).
const TEMPORARY_FILES_AGE_MS = 60 * 60_000;
let firstCleanUp = true;
const cleanUp = async () => {
  if (!firstCleanUp) void keepStatistics(false);
  try {
    const olderThanMs = firstCleanUp && database.kind === "pglite" ? 0 : TEMPORARY_FILES_AGE_MS;
    firstCleanUp = false;
    const [models, ended, files] = await Promise.all([
      deleteExpiredModels(database.db),
      deleteEndedSessions(database.db),
      sweepTemporaryFiles(dataDir, { olderThanMs }),
    ]);
    if (models + ended > 0)
      rootLog.info({ models, ended }, "sessions: cleaned up expired provider records and ended sessions");
    if (files > 0) rootLog.info({ files }, "files: removed temporary files left by interrupted writes");
  } catch (err) {
    rootLog.warn({ err }, "sessions: clean-up failed");
  }
};
await cleanUp();
setInterval(() => void cleanUp(), 10 * 60_000).unref();

const web = new Hono();
const bodyLimitBytes = Number(process.env.BODY_LIMIT_BYTES ?? DEFAULT_BODY_LIMIT_BYTES);
const withSecurityHeaders = securityHeaders({ https: appUrl.startsWith("https:") });

// Security baseline (ARCHITECTURE.md): cross-origin writes are refused before anything runs.
web.use("*", async (c, next) => {
  const method = c.req.method;
  if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
    const site = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    const own = new URL(c.req.url).origin;
    const crossSite = site !== undefined && site !== "same-origin" && site !== "none";
    if (
      crossSite ||
      (origin !== undefined && origin !== "null" && origin !== own && origin !== appUrl) ||
      origin === "null"
    ) {
      return refusalResponse({ status: 403, code: "crossOrigin" }, audienceOf(c.req.raw.headers));
    }
  }
  await next();
  withSecurityHeaders(c.req.path, c.res.headers);
});
// Bodies are counted while they stream and refused past the limit (413) before any other work.
// Larger bodies go to their handlers as they arrive, counted against their own limits, and are read
// only after the handler has checked who sends them and whether they may (issue 29 item 2): a SCORM
// package (issue 15; SCORM_MAX_BYTES) and a chat post with its files (the page's form and the API's
// command; every file at its largest passes, so one too large gets the spec's message from the API).
const chatBodyLimitBytes = Math.max(bodyLimitBytes, attachmentBodyLimit(chatAttachments));
const STREAMED_UPLOADS = new Set([
  "/api/scorm/v1/packages",
  "/operator/v1/scorm-packages",
  // Test support's package courses (browser tests only, loopback only): streamed to disk like an import.
  "/api/test-support/v1/scorm-courses",
]);
const streamedLimit = (path: string) =>
  STREAMED_UPLOADS.has(path) ? scormLimits.maxBytes : isChatPostPath(path) ? chatBodyLimitBytes : null;
// Analytics batches (the beacon, the collector) are small: a flood of 1 MB bodies is refused at 64 KB.
const ANALYTICS_PATHS = new Set(["/learn/collect", "/api/analytics/v1/events"]);
// A SCORM commit carries the SCO's whole kept data (decision 040): up to SCORM_COMMIT_MAX_BYTES.
const limitBodies = bodyLimit((path) =>
  ANALYTICS_PATHS.has(path)
    ? Math.min(ANALYTICS_BATCH_MAX_BYTES, bodyLimitBytes)
    : isScormCommitPath(path)
      ? Math.max(bodyLimitBytes, SCORM_COMMIT_MAX_BYTES)
      : bodyLimitBytes,
);
const streamBodies = streamedBody((path) => streamedLimit(path) ?? bodyLimitBytes);
web.use("*", (c, next) => (streamedLimit(c.req.path) === null ? limitBodies(c, next) : streamBodies(c, next)));
web.use("*", compressResponses());

if (apiFetch) {
  const fetchApi = apiFetch;
  web.all("/api/*", (c) => {
    // Test support creates accounts: only a process on this machine (the test runner) may call it.
    if (c.req.path.startsWith(TEST_SUPPORT_PATH) && !isLoopback(getConnInfo(c).remote.address)) {
      return c.json({ status: 403, title: "Forbidden", errors: {} }, 403, { "Cache-Control": "no-store" });
    }
    // The API limits public lookups per address: it reads the socket's, never one a client claims.
    c.req.raw.headers.set("X-Client-IP", getConnInfo(c).remote.address ?? "unknown");
    return fetchApi(c.req.raw);
  });
}

/** An operator's command comes from this machine with the operator token of DATA_DIR/secrets.json. */
function operatorAllowed(c: Context): boolean {
  const token = Buffer.from(c.req.header("authorization")?.replace(/^Bearer /, "") ?? "");
  const expected = Buffer.from(secrets.operatorToken);
  return (
    isLoopback(getConnInfo(c).remote.address) && token.length === expected.length && timingSafeEqual(token, expected)
  );
}

// `npm run sessions` on this machine, while this server holds the embedded database (decision 017).
web.post("/operator/v1/sessions", async (c) => {
  if (!operatorAllowed(c)) return c.json({ error: "Forbidden" }, 403);
  const command = operatorCommand.safeParse(await c.req.json().catch(() => null));
  if (!command.success) return c.json({ error: command.error.issues.map((i) => i.message).join("; ") }, 400);
  try {
    return c.json({ result: await runOperatorCommand(database.db, command.data, appUrl) });
  } catch (err) {
    if (err instanceof OperatorError) return c.json({ error: err.message }, 400);
    throw err;
  }
});

// `npm run lti:tool -- add|list|remove` on this machine, while this server holds the embedded database
// (decision 043): the registry is in the database; a tool may not take a key or id of the demo's tools.
web.post("/operator/v1/lti-tools", async (c) => {
  if (!operatorAllowed(c)) return c.json({ error: "Forbidden" }, 403);
  const command = toolCommand.safeParse(await c.req.json().catch(() => null));
  if (!command.success) return c.json({ error: command.error.issues.map((i) => i.message).join("; ") }, 400);
  try {
    return c.json({ result: await runToolCommand(database.db, command.data, lti.tools) });
  } catch (err) {
    if (err instanceof ToolStoreError) return c.json({ error: err.message, code: err.code }, 400);
    throw err;
  }
});

// `npm run lti:tool -- attach|detach` on this machine, while this server holds the embedded database
// (issue 32 item 2): the tool must be in this server's registry (the database's tools, the demo's).
web.post("/operator/v1/lti-attachments", async (c) => {
  if (!operatorAllowed(c)) return c.json({ error: "Forbidden" }, 403);
  const command = attachmentCommand.safeParse(await c.req.json().catch(() => null));
  if (!command.success) return c.json({ error: command.error.issues.map((i) => i.message).join("; ") }, 400);
  try {
    return c.json({
      result: await runAttachmentCommand(database.db, await registryOf(operatorRegistry), command.data),
    });
  } catch (err) {
    if (err instanceof AttachError) return c.json({ error: err.message, code: err.code }, 400);
    throw err;
  }
});

// `npm run certificates` on this machine, while this server holds the embedded database (issue 32 item 4).
web.post("/operator/v1/certificates", async (c) => {
  if (!operatorAllowed(c)) return c.json({ error: "Forbidden" }, 403);
  const command = certificateCommand.safeParse(await c.req.json().catch(() => null));
  if (!command.success) return c.json({ error: command.error.issues.map((i) => i.message).join("; ") }, 400);
  try {
    return c.json({ result: await runCertificateCommand(database.db, command.data, new Date()) });
  } catch (err) {
    if (err instanceof CertificateCommandError) return c.json({ error: err.message }, 400);
    throw err;
  }
});

// `npm run content:import-scorm` on this machine, while this server holds the embedded database.
web.post("/operator/v1/scorm-packages", async (c) => {
  if (!operatorAllowed(c)) return c.json({ error: "Forbidden" }, 403);
  const course = c.req.query("course");
  if (!course) return c.json({ error: "Name the course: ?course=CODE" }, 400);
  let zipPath: string | null = null;
  try {
    zipPath = await saveUpload(c.req.raw.body, scormLimits.maxBytes);
    const result = await importScormPackage(database.db, {
      zipPath,
      store: files,
      courseCode: course,
      activityId: c.req.query("activity"),
      title: c.req.query("title"),
      limits: scormLimits,
    });
    return c.json({ result });
  } catch (err) {
    if (err instanceof ScormPackageError) return c.json({ error: err.message, code: err.code }, err.status as 400);
    throw err;
  } finally {
    if (zipPath) await rm(zipPath, { force: true });
  }
});

if (!vite) {
  web.use(
    "/learn/assets/*",
    serveStatic({
      root: "./build/client",
      rewriteRequestPath: (p) => p.replace(/^\/learn/, ""),
      // Built with .br and .gz beside each file (scripts/compress-assets.mjs): chosen by Accept-Encoding.
      precompressed: true,
      onFound: (_p, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
    }),
  );
  // Issue 31 (decision 042): the service worker — checked for a new version on every visit.
  web.get(
    "/learn/sw.js",
    serveStatic({
      root: "./build/client",
      rewriteRequestPath: (p) => p.replace(/^\/learn/, ""),
      onFound: (_p, c) => {
        c.header("Cache-Control", "no-cache");
        // Its scope is /learn (the dashboard itself), one level above the script's folder.
        c.header("Service-Worker-Allowed", "/learn");
      },
    }),
  );
  // The build's other public files (icons, covers, the demo's files, favicon.svg): only a path under
  // one of these names is looked for on disk, so a page (/learn/courses…) costs no file-system call.
  const publicNames = new Set(existsSync("./build/client") ? readdirSync("./build/client") : []);
  const publicFiles = serveStatic({
    root: "./build/client",
    rewriteRequestPath: (p) => p.replace(/^\/learn/, ""),
    onFound: (_p, c) => c.header("Cache-Control", "public, max-age=3600"),
  });
  web.use("/learn/*", (c, next) => (publicNames.has(c.req.path.split("/")[2] ?? "") ? publicFiles(c, next) : next()));
}
web.get("/", (c) => c.redirect("/learn", 302));
// Issue 14 item 7: the demo LTI tool, a tool of its own that reaches the platform over HTTP only.
if (demoAllowed && !process.env.LMS_API_URL) {
  const demo = demoTools(appUrl).find((t) => t.key === "demo-lti13")!;
  web.route(
    "/demo-tools/lti13",
    await createDemoLti13Tool({
      platform: appUrl,
      clientId: demo.clientId!,
      deploymentId: demo.deploymentId!,
      base: `${appUrl}/demo-tools/lti13`,
    }),
  );
  web.route(DEMO_PROCTORING_PATH, createDemoProctoringService({ platform: appUrl }));
  const demo11 = demoTools(appUrl).find((t) => t.key === "demo-lti11")!;
  web.route(
    "/demo-tools/lti11",
    createDemoLti11Tool({
      consumerKey: demo11.consumerKey!,
      secret: demo11.secret!,
      base: `${appUrl}/demo-tools/lti11`,
    }),
  );
}
// Issue 12: the public certificate page, the same for every visitor, kept 10 s per address and language.
web.use(
  "/learn/certificate/*",
  publicPageCache({ ttlMs: PUBLIC_PAGE_TTL_MS, matches: (path) => /^\/learn\/certificate\/[^/]+\/?$/.test(path) }),
);
web.all("*", async (c) => handleDocument(c.req.raw, await loadContext(getConnInfo(c).remote.address)));

/**
 * A page opened on another name of this server (http://127.0.0.1:3000 when APP_URL is
 * http://localhost:3000) goes to APP_URL's origin first: sign-in returns there, and its cookies
 * would not be found on the other name. A short cookie marks the redirect, so a proxy that rewrites
 * the Host header gets the page (and a warning) instead of a redirect loop.
 */
const appHost = new URL(appUrl).host.toLowerCase();
const HOST_MARK = "learn_host_redirect";
let hostWarned = false;
/** The host name (and port) a request was sent to, as the proxy or the browser says. */
function requestHost(req: IncomingMessage): string {
  return String(req.headers["x-forwarded-host"] ?? req.headers.host ?? "")
    .split(",")[0]
    .trim()
    .toLowerCase();
}
function otherHostRedirect(req: IncomingMessage, url: string): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const host = requestHost(req);
  if (!host || host === appHost) return null;
  if (url.startsWith("/api/") || url.startsWith(IDP_MOUNT) || url.startsWith("/operator/")) return null;
  if ((req.headers.cookie ?? "").includes(`${HOST_MARK}=1`)) {
    if (!hostWarned)
      log().warn(
        { host, appHost },
        "http: requests are not for APP_URL's host: check APP_URL or the proxy's Host header",
      );
    hostWarned = true;
    return null;
  }
  return `${appUrl}${url}`;
}

const listener = getRequestListener(web.fetch);

// Overload control (decision 038): a request waits at most OVERLOAD_MAX_WAIT_MS for a place among
// those being served (an adaptive number), then gets 503 + Retry-After in the learner's language.
const admission = admissionOptionsFrom(process.env);
const admissionControl = new AdmissionControl(admission);
const shed = admissionGate(
  admissionControl,
  createOverloadResponder(loadOverloadTexts(resolve("locales")), admission.retryAfterSeconds),
);

/** Every request the app port has had (the memory trim's measure of quiet; the gate may be off). */
let requestsSeen = 0;

// After a burst, once quiet (nothing refused or waiting, under 20 requests a second), V8's free heap
// and the C allocator's free memory go back to the system (decision 038, addendum 15);
// MEMORY_TRIM_AFTER_MB=0 turns it off.
const mallocTrim = loadMallocTrim();
const trimAfterMb = Number(process.env.MEMORY_TRIM_AFTER_MB ?? 32);
if (mallocTrim && trimAfterMb > 0) {
  let last = admissionControl.stats();
  let lastSeen = requestsSeen;
  const trimmer = quietTrimmer({
    trim: releaseMemory(mallocTrim, loadFullCollection()),
    rss: () => process.memoryUsage.rss(),
    busy: () => {
      const now = admissionControl.stats();
      const busy = now.refused !== last.refused || now.waiting > 0 || requestsSeen - lastSeen >= 20;
      last = now;
      lastSeen = requestsSeen;
      return busy;
    },
    growthBytes: trimAfterMb * 1024 * 1024,
    report: ({ beforeBytes, afterBytes, ms }) =>
      rootLog.info(
        { beforeMb: Math.round(beforeBytes / 2 ** 20), afterMb: Math.round(afterBytes / 2 ** 20), ms: Math.round(ms) },
        "memory: returned to the system after a burst",
      ),
  });
  setInterval(() => trimmer.check(), 1_000).unref();
}

/** The content origin's answers (decision 040): its own headers, none of the app's. */
const serveContent = (req: IncomingMessage, res: ServerResponse) => {
  const refusal = checkRequestTarget(req.url ?? "/");
  if (refusal) {
    res.writeHead(refusal.status, { "Cache-Control": "no-store", Connection: "close" });
    res.end();
    return;
  }
  void contentListener(req, res);
};

const handle = (req: IncomingMessage, res: ServerResponse) => {
  requestsSeen++;
  const url = req.url ?? "/";
  // A proxy may bring the content origin's host name to this port: it gets the content origin only.
  if (contentHost !== appHost && requestHost(req) === contentHost) {
    serveContent(req, res);
    return;
  }
  // Every answer carries the security headers, the front's own early ones (414, 403, 413, 503, the
  // host redirect) and the provider's included; an answer's own value of one of them wins (issue 29).
  withSecurityHeaders(url.split("?")[0]!, { has: (n) => res.hasHeader(n), set: (n, v) => void res.setHeader(n, v) });
  const refusal = checkRequestTarget(url);
  if (refusal) {
    void sendResponse(
      res,
      refusalResponse(refusal, {
        accept: req.headers.accept,
        acceptLanguage: req.headers["accept-language"],
        cookie: req.headers.cookie,
      }),
    );
    return;
  }
  const elsewhere = otherHostRedirect(req, url);
  if (elsewhere) {
    res.writeHead(307, {
      // eslint-disable-next-line local/redirect-targets -- APP_URL's origin followed by this request's own path
      Location: elsewhere,
      "Cache-Control": "no-store",
      "Set-Cookie": `${HOST_MARK}=1; Path=/; Max-Age=30; HttpOnly; SameSite=Lax`,
    });
    res.end();
    return;
  }
  if (shed(req, res, handle)) return;
  if (idpHandler && (url === IDP_MOUNT || url.startsWith(`${IDP_MOUNT}/`) || url.startsWith(`${IDP_MOUNT}?`))) {
    // The provider writes its own answers (the security headers are set above).
    continueIfAwaited(req, res);
    void idpHandler(req, res);
    return;
  }
  if (vite) {
    // Vite's base middleware strips "/learn" from req.url; the app needs the full path back.
    vite.middlewares(req, res, () => {
      req.url = url;
      void listener(req, res);
    });
    return;
  }
  void listener(req, res);
};
// Health checks first, a request id, metrics and a log line for each request; drained on SIGTERM (decision 037).
const serve = operations.serve(handle);
/**
 * A client that sends `Expect: 100-continue` waits for the 100 before its body: the provider's
 * requests get it at once, anything else when its handler first reads the body (`markAwaitingContinue`),
 * so a body refused before it is read (401, 403, 413, 429) is never sent at all (issue 29 item 2).
 */
const server = createServer(serve);
server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
  markAwaitingContinue(req);
  serve(req, res);
});
/**
 * Connections the kernel completes before the node accepts them (decision 038, addendum 11). Node's
 * default, 511, overflowed under 1,000 clients connecting at once: the kernel dropped the rest, which
 * tried again after 1, 3 and 7 s (TCP's retransmission), so their requests waited seconds before
 * the overload control could serve or refuse them. Linux caps it at `net.core.somaxconn` (4096 here).
 */
const LISTEN_BACKLOG = Number(process.env.LISTEN_BACKLOG ?? 4_096);
if (!Number.isInteger(LISTEN_BACKLOG) || LISTEN_BACKLOG < 1)
  throw new Error(`LISTEN_BACKLOG must be a whole number ≥ 1, got "${process.env.LISTEN_BACKLOG}"`);
/** Listening sockets on the port, so a node at capacity still accepts new connections (decision 038, addendum 13). */
const LISTEN_SOCKETS = Number(process.env.LISTEN_SOCKETS ?? 64);
if (!Number.isInteger(LISTEN_SOCKETS) || LISTEN_SOCKETS < 1 || LISTEN_SOCKETS > 256)
  throw new Error(`LISTEN_SOCKETS must be a whole number from 1 to 256, got "${process.env.LISTEN_SOCKETS}"`);
listenShared(server, { port, backlog: LISTEN_BACKLOG, count: LISTEN_SOCKETS }).then(
  () => {
    rootLog.info(
      { url: `${appUrl}/learn`, appEnv, lmsApi: process.env.LMS_API_URL ?? "embedded", database: database.kind },
      "learner app listening",
    );
    // Issue 26: the demo's way in, on the last line `npm start` prints (only where demo accounts are
    // allowed) — after the log's buffered lines, which are written asynchronously.
    if (demoAllowed && !process.env.LMS_API_URL && !process.env.OIDC_ISSUER) {
      flushLogs();
      console.log(
        `Demo sign-in: open ${appUrl}/learn and sign in as ada@example.com with the password "${demoPassword()}" (also grace@, admin@ and rita@example.com)`,
      );
    }
  },
  (error: NodeJS.ErrnoException) => {
    rootLog.fatal({ port, error: error.code ?? error.message }, "the app cannot listen on its port (PORT)");
    process.exit(1);
  },
);

// The content origin's own port (decision 040): nothing but the launcher and the packages' files,
// with the same request ids, metrics and log lines as the app's port.
const contentServer = contentPort === null ? null : createServer(operations.serve(serveContent));
contentServer?.on("error", (error: NodeJS.ErrnoException) => {
  rootLog.fatal(
    { port: contentPort, error: error.code ?? error.message },
    "the content origin cannot listen: set CONTENT_URL or CONTENT_PORT (README, decision 040)",
  );
  process.exit(1);
});
contentServer?.listen(contentPort!, () =>
  rootLog.info({ url: contentUrl }, "content origin (SCORM packages) listening"),
);
// Draining (decision 037) takes no new connection on the content port either; the app port's drain ends the process.
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    contentServer?.close();
    contentServer?.closeIdleConnections();
  });

operations.start(server);
