/**
 * Starts the whole product in one process: the embedded LMS API (Hono, /api), the embedded OpenID
 * provider (/idp), and the learner web app (React Router, /learn and its resource routes).
 * Configuration is read from the environment; see the README's configuration table.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { resolve } from "node:path";
import { rm } from "node:fs/promises";
import { Hono } from "hono";
import { sql } from "drizzle-orm";
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
  DEFAULT_BODY_LIMIT_BYTES,
  refusalResponse,
  securityHeaders,
  sendResponse,
} from "./app/server/http.server";
import {
  createOverloadResponder,
  DEFAULT_SHEDDING,
  eventLoopDelaySource,
  LoadShedder,
  loadOverloadTexts,
  shedRequests,
} from "./app/server/overload.server";
import { PUBLIC_PAGE_TTL_MS, publicPageCache } from "./app/server/public-page-cache.server";
import { createApi } from "./api/app";
import { openDatabase } from "./api/db/client";
import { importScormPackage, saveUpload, SCORM_LIMITS } from "./api/scorm/import";
import { ScormPackageError } from "./api/scorm/manifest";
import { seedIfEmpty } from "./api/demo/seed";
import { demoAccountsAllowed, demoPassword, disableDemoPasswordAccounts } from "./api/demo/demo-accounts";
import { createIdentityProvider, IDP_MOUNT } from "./api/idp/provider";
import { deleteExpiredModels } from "./api/idp/adapter";
import { createSessionStore, deleteEndedSessions } from "./api/sessions/store";
import { operatorCommand, OperatorError, runOperatorCommand } from "./api/sessions/operator";
import { loadSecrets, verifierFrom, type VerifierConfig } from "./api/runtime";
import { isLoopback, testSupportEnabled, testSupportMount, TEST_SUPPORT_PATH } from "./api/demo/test-support";
import { startApiInThread } from "./api/app-thread";
import { TOOLS_FILE } from "./api/lti/registry";
import { demoTools } from "./api/demo/tools/registry";
import { createDemoProctoringService, DEMO_PROCTORING_PATH } from "./api/demo/tools/proctoring";
import { createDemoLti13Tool } from "./api/demo/tools/lti13";
import { createDemoLti11Tool } from "./api/demo/tools/lti11";
import { attachmentBodyLimit } from "./domain/chat-attachments";
import { createContentOrigin, defaultContentUrl } from "./app/server/content-origin.server";
import { isScormCommitPath, SCORM_COMMIT_MAX_BYTES } from "./domain/contract/scorm";
import { chatAttachmentRules, isChatPostPath } from "./app/server/chat-uploads.server";

const isDev = process.env.NODE_ENV !== "production";
const port = Number(process.env.PORT ?? 3000);
const appUrl = (process.env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
/** SCORM packages (issue 15): the most bytes and files a package may unpack to. */
/** ANALYTICS_URL: the collector forwards the events it stores there too (decision 029). */
const analyticsUrl = process.env.ANALYTICS_URL || undefined;
if (analyticsUrl && !/^https?:\/\//.test(analyticsUrl)) throw new Error("ANALYTICS_URL must be an http(s) URL");
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
  if (contentSetting?.warning) console.warn(contentSetting.warning);
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
const appEnv = process.env.APP_ENV ?? (isDev ? "dev" : "prod");
// Issue 16 item 6 (decision 028): the tutor's OpenAI-compatible model; without it, extractive answers.
const tutorModel =
  process.env.TUTOR_BASE_URL && process.env.TUTOR_MODEL
    ? { baseUrl: process.env.TUTOR_BASE_URL, apiKey: process.env.TUTOR_API_KEY ?? "", model: process.env.TUTOR_MODEL }
    : undefined;
/** The browser tests' learner fixture endpoint (decision 014): never on outside the tests. */
const testSupport = testSupportEnabled({ ...process.env, APP_ENV: appEnv });

const secrets = await loadSecrets(dataDir);
const sessionSecret = process.env.SESSION_SECRET ?? secrets.sessionSecret;
/**
 * The key of the personal calendar feed links (decision 022), derived from the session secret: every
 * node of a cluster already shares that one, so each shows the same link and finds it again.
 */
/** The key of the grants under which the content origin reads a package's files (decision 040): every node the same. */
const contentKey = Buffer.from(hkdfSync("sha256", sessionSecret, "", "learner-app content grants", 32)).toString(
  "base64url",
);
const calendarFeedKey = Buffer.from(hkdfSync("sha256", sessionSecret, "", "learner-app calendar feed", 32)).toString(
  "base64url",
);
/** What the embedded provider adds to the configuration when no external one is set. */
let embeddedClient: { OIDC_ISSUER: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string } | null = null;

let idpHandler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;
/** The database's change notices, which the app's caches follow (decision 019). */
let changes: ChangeFeed | undefined;
let apiFetch: ((request: Request) => Response | Promise<Response>) | null = null;

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
  dataDir: resolve(dataDir, "pglite"),
  thread: process.env.PGLITE_THREAD !== "0",
});
await database.migrate();
if (!demoAllowed) {
  const disabled = await disableDemoPasswordAccounts(database.db);
  if (disabled.length > 0)
    console.warn(
      `[demo] APP_URL ${appUrl} is not a loopback origin and DEMO_ACCOUNTS is not 1: ${disabled.length} accounts with the demo password were disabled (no password now): ${disabled.join(", ")}`,
    );
}
const sessions = createSessionStore(database.db);

if (!process.env.LMS_API_URL) {
  changes = database.changes;
  // Several nodes may start together on one PostgreSQL database: the migrations (above) and the demo
  // seed run on one of them under advisory locks; the others wait, then find nothing left to do (decision 019).
  if (
    await database.exclusive("seed", () =>
      seedIfEmpty(database.db, { accounts: demoAllowed, storageRoot: resolve(dataDir, "storage") }),
    )
  )
    console.log(
      demoAllowed
        ? "[seed] demo data created (accounts: see README, password 'demo')"
        : "[seed] demo data created without the demo accounts (APP_URL is not a loopback origin; DEMO_ACCOUNTS=1 allows them)",
    );
  // PGlite runs no autovacuum: fresh planner statistics (without them joins are planned blind) and
  // a fresh visibility map (index-only scans, e.g. the catalog's total, skip the table). 0.6 s on
  // the 10,000-course data. A PostgreSQL server vacuums by itself; statistics are refreshed as before.
  await database.db.execute(database.kind === "pglite" ? sql`vacuum analyze` : sql`analyze`);
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
    const idp = createIdentityProvider({
      issuer,
      db: database.db,
      client: {
        clientId,
        clientSecret,
        redirectUris: appUrls.map((u) => `${u}/learn/login-callback`),
        postLogoutRedirectUris: appUrls.flatMap((u) => [`${u}/learn`, `${u}/learn/open-catalog`]),
      },
      signingKey: secrets.signingKey,
      previousSigningKeys: secrets.previousSigningKeys,
      cookieKeys: [secrets.idpCookieKey],
      showDemoHint: appEnv !== "prod" && demoAllowed,
      secureCookies: appUrl.startsWith("https:"),
      refusedPassword: demoAllowed ? null : demoPassword(),
    });
    idpHandler = idp.handle;
    // The app discovers this provider like any other (openid-client + OIDC discovery).
    embeddedClient = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret };
    verifier = { kind: "local", issuer, key: secrets.signingKey, previousKeys: secrets.previousSigningKeys };
  }
  // Decision 023: the LTI tools the operator registered (npm run lti:tool) and, with the demo, its tools.
  const lti = { file: resolve(dataDir, TOOLS_FILE), tools: demoAllowed ? demoTools(appUrl) : [] };
  if (database.thread) {
    // Decision 012: the API runs in the database thread, beside PGlite, off the rendering thread.
    const thread = database.thread;
    await startApiInThread(thread, {
      verifier,
      dataDir,
      testSupport,
      appUrl,
      signingKey: secrets.signingKey,
      previousSigningKeys: secrets.previousSigningKeys,
      lti,
      jobs,
      calendarFeedKey,
      contentKey,
      scormLimits,
      tutorModel,
      analyticsUrl,
      chatAttachments,
    });
    apiFetch = (request) => thread.fetch(request);
  } else {
    const api = createApi({
      database,
      verifyToken: verifierFrom(verifier),
      dataDir,
      internalRoutes: testSupportMount(testSupport),
      appUrl,
      signingKey: secrets.signingKey,
      previousSigningKeys: secrets.previousSigningKeys,
      lti,
      jobs,
      calendarFeedKey,
      contentKey,
      scormLimits,
      tutorModel,
      analyticsUrl,
      chatAttachments,
    });
    apiFetch = (request) => api.fetch(request);
  }
  // Nothing is remembered before this node hears the other nodes' writes (decision 019).
  await database.changes.listening();
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
const lmsTransport = apiFetch ?? ((request: Request) => fetch(request));

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
  : ((await import(resolve("build/server/index.js"))) as ServerBuild);
const handleDocument = createRequestHandler(build as ServerBuild, isDev ? "development" : "production");

/** The key of the load context comes from the build's own entry module, so both sides share it. */
async function loadContext(clientIp: string | undefined): Promise<RouterContextProvider> {
  const current = typeof build === "function" ? await build() : build;
  const { appLoadContext } = current.entry.module as unknown as { appLoadContext: RouterContext<AppLoadContext> };
  return new RouterContextProvider(new Map([[appLoadContext, { config, lmsTransport, sessions, changes, clientIp }]]));
}

// Expired provider records and sessions that ended a day ago are deleted now and then (decision 017).
const cleanUp = async () => {
  try {
    const [models, ended] = await Promise.all([deleteExpiredModels(database.db), deleteEndedSessions(database.db)]);
    if (models + ended > 0)
      console.log(`[sessions] cleaned up ${models} expired provider records, ${ended} ended sessions`);
  } catch (err) {
    console.warn("[sessions] clean-up failed:", (err as Error).message);
  }
};
void cleanUp();
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
// A SCORM package upload (issue 15) is streamed to disk by its handler, which counts it against its
// own limit (SCORM_MAX_BYTES): it is never buffered here.
// A chat post (the page's form and the API's command) may carry its files: every one at its largest
// passes, so one too large gets the spec's message from the API, not this 413.
const chatBodyLimitBytes = Math.max(bodyLimitBytes, attachmentBodyLimit(chatAttachments));
// A SCORM commit carries the SCO's whole kept data (decision 040): up to SCORM_COMMIT_MAX_BYTES.
const limitBodies = bodyLimit((path) =>
  isChatPostPath(path)
    ? chatBodyLimitBytes
    : isScormCommitPath(path)
      ? Math.max(bodyLimitBytes, SCORM_COMMIT_MAX_BYTES)
      : bodyLimitBytes,
);
const STREAMED_UPLOADS = new Set([
  "/api/scorm/v1/packages",
  "/operator/v1/scorm-packages",
  // Test support's package courses (browser tests only, loopback only): streamed to disk like an import.
  "/api/test-support/v1/scorm-courses",
]);
web.use("*", (c, next) => (STREAMED_UPLOADS.has(c.req.path) ? next() : limitBodies(c, next)));
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

// `npm run sessions` on this machine, while this server holds the embedded database (decision 017).
web.post("/operator/v1/sessions", async (c) => {
  const token = Buffer.from(c.req.header("authorization")?.replace(/^Bearer /, "") ?? "");
  const expected = Buffer.from(secrets.operatorToken);
  const allowed =
    isLoopback(getConnInfo(c).remote.address) && token.length === expected.length && timingSafeEqual(token, expected);
  if (!allowed) return c.json({ error: "Forbidden" }, 403);
  const command = operatorCommand.safeParse(await c.req.json().catch(() => null));
  if (!command.success) return c.json({ error: command.error.issues.map((i) => i.message).join("; ") }, 400);
  try {
    return c.json({ result: await runOperatorCommand(database.db, command.data, appUrl) });
  } catch (err) {
    if (err instanceof OperatorError) return c.json({ error: err.message }, 400);
    throw err;
  }
});

// `npm run content:import-scorm` on this machine, while this server holds the embedded database.
web.post("/operator/v1/scorm-packages", async (c) => {
  const token = Buffer.from(c.req.header("authorization")?.replace(/^Bearer /, "") ?? "");
  const expected = Buffer.from(secrets.operatorToken);
  const allowed =
    isLoopback(getConnInfo(c).remote.address) && token.length === expected.length && timingSafeEqual(token, expected);
  if (!allowed) return c.json({ error: "Forbidden" }, 403);
  const course = c.req.query("course");
  if (!course) return c.json({ error: "Name the course: ?course=CODE" }, 400);
  let zipPath: string | null = null;
  try {
    zipPath = await saveUpload(c.req.raw.body, scormLimits.maxBytes);
    const result = await importScormPackage(database.db, {
      zipPath,
      storageRoot: resolve(dataDir, "storage"),
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
  web.use(
    "/learn/*",
    serveStatic({
      root: "./build/client",
      rewriteRequestPath: (p) => p.replace(/^\/learn/, ""),
      onFound: (_p, c) => c.header("Cache-Control", "public, max-age=3600"),
    }),
  );
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
      console.warn(
        `[http] requests for ${host} are not on APP_URL's host ${appHost}: check APP_URL or the proxy's Host header`,
      );
    hostWarned = true;
    return null;
  }
  return `${appUrl}${url}`;
}

const listener = getRequestListener(web.fetch);

// Load shedding (decision 031): past OVERLOAD_MAX_IN_FLIGHT requests in flight, or an event-loop
// delay over OVERLOAD_MAX_DELAY_MS, new requests get 503 + Retry-After at once (0 turns a limit off).
const envNumber = (name: string, fallback: number) => {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, got "${value}"`);
  return n;
};
const shedding = {
  maxInFlight: envNumber("OVERLOAD_MAX_IN_FLIGHT", DEFAULT_SHEDDING.maxInFlight),
  maxEventLoopDelayMs: envNumber("OVERLOAD_MAX_DELAY_MS", DEFAULT_SHEDDING.maxEventLoopDelayMs),
  retryAfterSeconds: Math.max(1, Math.round(envNumber("OVERLOAD_RETRY_AFTER", DEFAULT_SHEDDING.retryAfterSeconds))),
};
const shedder = new LoadShedder(shedding, eventLoopDelaySource());
const shed = shedRequests(
  shedder,
  createOverloadResponder(loadOverloadTexts(resolve("locales")), shedding.retryAfterSeconds),
);

const server = createServer((req, res) => {
  const url = req.url ?? "/";
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
  // A proxy may bring the content origin's host name to this port: it gets the content origin only.
  if (contentHost !== appHost && requestHost(req) === contentHost) {
    void contentListener(req, res);
    return;
  }
  const elsewhere = otherHostRedirect(req, url);
  if (elsewhere) {
    res.writeHead(307, {
      Location: elsewhere,
      "Cache-Control": "no-store",
      "Set-Cookie": `${HOST_MARK}=1; Path=/; Max-Age=30; HttpOnly; SameSite=Lax`,
    });
    res.end();
    return;
  }
  if (shed(req, res)) return;
  if (idpHandler && (url === IDP_MOUNT || url.startsWith(`${IDP_MOUNT}/`) || url.startsWith(`${IDP_MOUNT}?`))) {
    // The provider writes its own answers; the same security headers go out with them.
    withSecurityHeaders(url, { has: (n) => res.hasHeader(n), set: (n, v) => void res.setHeader(n, v) });
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
});

server.listen(port, () => {
  console.log(
    `Learner app on ${appUrl}/learn (APP_ENV=${appEnv}${process.env.LMS_API_URL ? `, LMS API ${process.env.LMS_API_URL}` : ", embedded LMS API"})`,
  );
});

// The content origin's own port (decision 040): nothing but the launcher and the packages' files.
const contentServer =
  contentPort === null
    ? null
    : createServer((req, res) => {
        const refusal = checkRequestTarget(req.url ?? "/");
        if (refusal) {
          res.writeHead(refusal.status, { "Cache-Control": "no-store", Connection: "close" });
          res.end();
          return;
        }
        void contentListener(req, res);
      });
contentServer?.on("error", (error: NodeJS.ErrnoException) => {
  console.error(
    `[content] the content origin cannot listen on port ${contentPort} (${error.code ?? error.message}): set CONTENT_URL or CONTENT_PORT (README, decision 040)`,
  );
  process.exit(1);
});
contentServer?.listen(contentPort!, () => console.log(`Content origin (SCORM packages) on ${contentUrl}`));

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    contentServer?.close();
    process.exit(0);
  });
}
