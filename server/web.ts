/**
 * The web router: the security baseline and body limits every request meets, then the LMS API at
 * /api, the operator endpoints, static files, the demo's tools, and the pages (React Router).
 */
import { existsSync, readdirSync } from "node:fs";
import { Hono, type Context } from "hono";
import { routePath } from "hono/route";
import { serveStatic } from "@hono/node-server/serve-static";
import { ANALYTICS_BATCH_MAX_BYTES } from "#domain/analytics";
import { attachmentBodyLimit } from "#domain/chat-attachments";
import { isScormCommitPath, SCORM_COMMIT_MAX_BYTES } from "#domain/contract/scorm";
import { isLoopback, TEST_SUPPORT_PATH } from "../demo/test-support";
import { demoTools } from "../demo/tools/registry";
import { createDemoProctoringService, DEMO_PROCTORING_PATH } from "../demo/tools/proctoring";
import { createDemoLti13Tool } from "../demo/tools/lti13";
import { createDemoLti11Tool } from "../demo/tools/lti11";
import { operatorRoutes, type OperatorRouteDeps } from "../ops/routes";
import type { ServerConfig } from "./config";
import { isChatPostPath } from "./http/chat-uploads";
import { incomingOf, type AddressOf } from "./http/client-address";
import { audienceOf, bodyLimit, compressResponses, refusalResponse, securityHeaders, streamedBody } from "./http/front";
import { PUBLIC_PAGE_TTL_MS, publicPageCache } from "./http/public-page-cache";
import { ROUTE_TEMPLATE_HEADER, UNMATCHED } from "./http/route-table";

export interface WebParts {
  /** The embedded LMS API, or null: the app reaches LMS_API_URL over HTTP. */
  api: ((request: Request) => Response | Promise<Response>) | null;
  operator: OperatorRouteDeps;
  withSecurityHeaders: ReturnType<typeof securityHeaders>;
  pages: (request: Request, clientIp: string | undefined) => Promise<Response>;
  /** Who sent a request: the socket, or a trusted proxy's word (TRUST_PROXY, decision 050). */
  addressOf: AddressOf;
}

/** Bodies that stream to their handler, counted against their own limit, read only once it has checked who sends them. */
const STREAMED_UPLOADS = new Set([
  "/api/scorm/v1/packages",
  "/operator/v1/scorm-packages",
  "/api/lms/v1/cartridges",
  // Test support's package courses (browser tests only, loopback only).
  "/api/test-support/v1/scorm-courses",
]);
/** Whether a path's body streams to its handler (read there, under its own limit) rather than being read whole first. */
export const streamsBody = (path: string): boolean => STREAMED_UPLOADS.has(path) || isChatPostPath(path);

/** Analytics batches (the beacon, the collector) are small: a flood of large bodies is refused at 64 KB. */
const ANALYTICS_PATHS = new Set(["/learn/collect", "/api/analytics/v1/events"]);

/**
 * The largest body a path reads whole before its handler runs: an analytics batch 64 KB, a SCORM commit
 * the SCO's whole kept data (decision 040), any other BODY_LIMIT_BYTES.
 */
export const readBodyLimit =
  (bodyLimitBytes: number) =>
  (path: string): number =>
    ANALYTICS_PATHS.has(path)
      ? Math.min(ANALYTICS_BATCH_MAX_BYTES, bodyLimitBytes)
      : isScormCommitPath(path)
        ? Math.max(bodyLimitBytes, SCORM_COMMIT_MAX_BYTES)
        : bodyLimitBytes;

export async function createWebRouter(config: ServerConfig, parts: WebParts): Promise<Hono> {
  const { appUrl, bodyLimitBytes } = config;
  const web = new Hono();
  const clientOf = (c: Context): string => {
    const incoming = incomingOf(c.env);
    return incoming ? parts.addressOf(incoming) : "unknown";
  };

  // Cross-origin writes are refused before anything runs.
  web.use("*", async (c, next) => {
    const method = c.req.method;
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
      const site = c.req.header("sec-fetch-site");
      const origin = c.req.header("origin");
      const own = new URL(c.req.url).origin;
      const crossSite = site !== undefined && site !== "same-origin" && site !== "none";
      if (crossSite || (origin !== undefined && origin !== own && origin !== appUrl) || origin === "null")
        return refusalResponse({ status: 403, code: "crossOrigin" }, audienceOf(c.req.raw.headers));
    }
    await next();
    parts.withSecurityHeaders(c.req.path, c.res.headers);
    // The pages and the API name their own route; the others here are named by their registration.
    if (!c.res.headers.has(ROUTE_TEMPLATE_HEADER)) {
      const registered = routePath(c);
      c.res.headers.set(ROUTE_TEMPLATE_HEADER, registered === "*" || registered === "/*" ? UNMATCHED : registered);
    }
  });

  // Bodies are counted while they stream and refused past their limit (413) before any other work.
  // A chat post may carry its files: every file at its largest passes, so one too large gets the
  // spec's message from the API. A SCORM commit carries the SCO's whole kept data (decision 040).
  const chatBodyLimitBytes = Math.max(bodyLimitBytes, attachmentBodyLimit(config.api.chatAttachments!));
  const streamedLimit = (path: string) =>
    STREAMED_UPLOADS.has(path) ? config.api.scormLimits!.maxBytes : streamsBody(path) ? chatBodyLimitBytes : null;
  const limitBodies = bodyLimit(readBodyLimit(bodyLimitBytes));
  const streamBodies = streamedBody((path) => streamedLimit(path) ?? bodyLimitBytes, config.bodyBudget);
  web.use("*", (c, next) => (streamedLimit(c.req.path) === null ? limitBodies(c, next) : streamBodies(c, next)));
  web.use("*", compressResponses());

  const api = parts.api;
  if (api)
    web.all("/api/*", (c) => {
      // Test support creates accounts: only a process on this machine (the test runner) may call it.
      if (c.req.path.startsWith(TEST_SUPPORT_PATH) && !isLoopback(clientOf(c)))
        return c.json({ status: 403, title: "Forbidden", errors: {} }, 403, { "Cache-Control": "no-store" });
      // The API limits public lookups per address: the socket's or a trusted proxy's, never one a client claims.
      c.req.raw.headers.set("X-Client-IP", clientOf(c));
      return api(c.req.raw);
    });
  // SCIM clients are given <APP_URL>/scim/v2 (decision 059); the API answers it at /api/scim/v2.
  if (api)
    web.all("/scim/v2/*", (c) => {
      const url = new URL(c.req.url);
      url.pathname = `/api${url.pathname}`;
      const { method, headers, body } = c.req.raw;
      return api(new Request(url, { method, headers, body, duplex: "half" } as RequestInit));
    });
  web.route("/operator/v1", operatorRoutes(parts.operator));

  if (!config.dev) serveBuiltFiles(web);
  web.get("/", (c) => c.redirect("/learn", 302));
  // The demo's LTI tools and proctoring service: tools of their own that reach the platform over HTTP only.
  if (config.demoAllowed && !config.lmsApiUrl) {
    const tools = demoTools(appUrl);
    const lti13 = tools.find((t) => t.key === "demo-lti13")!;
    const base13 = `${appUrl}/demo-tools/lti13`;
    web.route(
      "/demo-tools/lti13",
      await createDemoLti13Tool({
        platform: appUrl,
        clientId: lti13.clientId!,
        deploymentId: lti13.deploymentId!,
        base: base13,
      }),
    );
    web.route(DEMO_PROCTORING_PATH, createDemoProctoringService({ platform: appUrl }));
    const lti11 = tools.find((t) => t.key === "demo-lti11")!;
    web.route(
      "/demo-tools/lti11",
      createDemoLti11Tool({
        consumerKey: lti11.consumerKey!,
        secret: lti11.secret!,
        base: `${appUrl}/demo-tools/lti11`,
      }),
    );
  }
  // The public certificate page, the same for every visitor, kept 10 s per address and language.
  web.use(
    "/learn/certificate/*",
    publicPageCache({ ttlMs: PUBLIC_PAGE_TTL_MS, matches: (path) => /^\/learn\/certificate\/[^/]+\/?$/.test(path) }),
  );
  web.all("*", (c) => parts.pages(c.req.raw, clientOf(c)));
  return web;
}

/** The production build's files: hashed assets for a year, the service worker checked on every visit. */
function serveBuiltFiles(web: Hono) {
  const root = "./build/client";
  const rewriteRequestPath = (p: string) => p.replace(/^\/learn/, "");
  web.use(
    "/learn/assets/*",
    serveStatic({
      root,
      rewriteRequestPath,
      // Built with .br and .gz beside each file (scripts/compress-assets.mjs): chosen by Accept-Encoding.
      precompressed: true,
      onFound: (_p, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
    }),
  );
  web.get(
    "/learn/sw.js",
    serveStatic({
      root,
      rewriteRequestPath,
      onFound: (_p, c) => {
        c.header("Cache-Control", "no-cache");
        // Its scope is /learn (the dashboard itself), one level above the script's folder.
        c.header("Service-Worker-Allowed", "/learn");
      },
    }),
  );
  // The build's other public files (icons, covers, the demo's files): only a path under one of these
  // names is looked for on disk, so a page costs no file-system call.
  const publicNames = new Set(existsSync(root) ? readdirSync(root) : []);
  const publicFiles = serveStatic({
    root,
    rewriteRequestPath,
    onFound: (_p, c) => c.header("Cache-Control", "public, max-age=3600"),
  });
  web.use("/learn/*", (c, next) => (publicNames.has(c.req.path.split("/")[2] ?? "") ? publicFiles(c, next) : next()));
}
