/**
 * Starts the whole product in one process: the embedded LMS API (Hono, /api), the embedded OpenID
 * provider (/idp), and the learner web app (React Router, /learn and its resource routes).
 * Configuration is read from the environment; see the README's configuration table.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { Hono } from "hono";
import { sql } from "drizzle-orm";
import { getRequestListener } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { createApi } from "./api/app";
import { openDatabase } from "./api/db/client";
import { seedIfEmpty } from "./api/db/seed";
import { createIdentityProvider, IDP_MOUNT } from "./api/idp/provider";
import { loadSecrets, verifierFrom, type VerifierConfig } from "./api/runtime";
import { isLoopback, testSupportEnabled, TEST_SUPPORT_PATH } from "./api/routes/test-support";

const isDev = process.env.NODE_ENV !== "production";
const port = Number(process.env.PORT ?? 3000);
const appUrl = (process.env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
process.env.APP_ENV ??= isDev ? "dev" : "prod";
process.env.APP_URL = appUrl;
/** The browser tests' learner fixture endpoint (decision 014): never on outside the tests. */
const testSupport = testSupportEnabled(process.env);

const secrets = await loadSecrets(dataDir);
process.env.SESSION_SECRET ??= secrets.sessionSecret;

let idpHandler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;
let apiFetch: ((request: Request) => Response | Promise<Response>) | null = null;

if (process.env.LMS_API_URL) {
  if (!process.env.OIDC_ISSUER) {
    throw new Error(
      "LMS_API_URL is set, so the embedded identity provider is off: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too.",
    );
  }
} else {
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: resolve(dataDir, "pglite"),
    thread: process.env.PGLITE_THREAD !== "0",
  });
  await database.migrate();
  if (await seedIfEmpty(database.db)) console.log("[seed] demo data created (accounts: see README, password 'demo')");
  // PGlite runs no autovacuum: fresh planner statistics (without them joins are planned blind) and
  // a fresh visibility map (index-only scans, e.g. the catalog's total, skip the table). 0.6 s on
  // the 10,000-course data. A PostgreSQL server vacuums by itself; statistics are refreshed as before.
  await database.db.execute(database.kind === "pglite" ? sql`vacuum analyze` : sql`analyze`);
  let verifier: VerifierConfig;
  if (process.env.OIDC_ISSUER) {
    verifier = { kind: "remote", issuer: process.env.OIDC_ISSUER, audience: process.env.OIDC_AUDIENCE };
  } else {
    const issuer = `${appUrl}${IDP_MOUNT}`;
    const clientId = "learner-app";
    const clientSecret = randomBytes(24).toString("base64url");
    const idp = createIdentityProvider({
      issuer,
      db: database.db,
      client: {
        clientId,
        clientSecret,
        redirectUris: [`${appUrl}/learn/login-callback`],
        postLogoutRedirectUris: [`${appUrl}/learn`, `${appUrl}/learn/open-catalog`],
      },
      signingKey: secrets.signingKey,
      cookieKeys: [secrets.idpCookieKey],
      showDemoHint: process.env.APP_ENV !== "prod",
      secureCookies: appUrl.startsWith("https:"),
    });
    idpHandler = idp.handle;
    // The app discovers this provider like any other (remix-auth-oauth2 + OIDC discovery).
    process.env.OIDC_ISSUER = issuer;
    process.env.OIDC_CLIENT_ID = clientId;
    process.env.OIDC_CLIENT_SECRET = clientSecret;
    process.env.OIDC_EMBEDDED = "1";
    verifier = { kind: "local", issuer, key: secrets.signingKey };
  }
  if (database.thread) {
    // Decision 012: the API runs in the database thread, beside PGlite, off the rendering thread.
    const thread = database.thread;
    await thread.startApi({ verifier, dataDir, testSupport });
    apiFetch = (request) => thread.fetch(request);
  } else {
    const api = createApi({ database, verifyToken: verifierFrom(verifier), dataDir, testSupport });
    apiFetch = (request) => api.fetch(request);
  }
  // The app's LMS client calls the embedded API in-process through this transport (no socket).
  (globalThis as Record<symbol, unknown>)[Symbol.for("learner-app.lms-fetch")] = apiFetch;
}

const vite = isDev
  ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true }, appType: "custom" }))
  : null;
const build = vite
  ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
  : ((await import(resolve("build/server/index.js"))) as ServerBuild);
const handleDocument = createRequestHandler(build as ServerBuild, isDev ? "development" : "production");

const web = new Hono();

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
      return c.html(
        `<!DOCTYPE html><html lang="en"><meta charset="utf-8"><title>403 Forbidden</title><h1>403 Forbidden</h1><p>Cross-origin requests are refused.</p></html>`,
        403,
        { "Cache-Control": "no-store" },
      );
    }
  }
  await next();
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "strict-origin-when-cross-origin");
  if (!c.res.headers.has("Content-Security-Policy")) c.header("Content-Security-Policy", "frame-ancestors 'self'");
});

if (apiFetch) {
  const fetchApi = apiFetch;
  web.all("/api/*", (c) => {
    // Test support creates accounts: only a process on this machine (the test runner) may call it.
    if (c.req.path.startsWith(TEST_SUPPORT_PATH) && !isLoopback(getConnInfo(c).remote.address)) {
      return c.json({ status: 403, title: "Forbidden", errors: {} }, 403, { "Cache-Control": "no-store" });
    }
    return fetchApi(c.req.raw);
  });
}

if (!vite) {
  web.use(
    "/learn/assets/*",
    serveStatic({
      root: "./build/client",
      rewriteRequestPath: (p) => p.replace(/^\/learn/, ""),
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
web.all("*", (c) => handleDocument(c.req.raw, new RouterContextProvider() as never));

const listener = getRequestListener(web.fetch);
const server = createServer((req, res) => {
  const url = req.url ?? "/";
  if (idpHandler && (url === IDP_MOUNT || url.startsWith(`${IDP_MOUNT}/`) || url.startsWith(`${IDP_MOUNT}?`))) {
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
    `Learner app on ${appUrl}/learn (APP_ENV=${process.env.APP_ENV}${process.env.LMS_API_URL ? `, LMS API ${process.env.LMS_API_URL}` : ", embedded LMS API"})`,
  );
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
