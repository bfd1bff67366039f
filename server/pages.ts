/**
 * The pages: React Router's request handler over the production build (or Vite's in development),
 * with the load context every loader and action reads (decision 015).
 */
import { resolve } from "node:path";
import type { ViteDevServer } from "vite";
import { createRequestHandler, RouterContextProvider, type RouterContext, type ServerBuild } from "react-router";
import type { AppLoadContext } from "../app/services/config.server";
import { audienceOf, refusalResponse } from "./http/front";
import { pageTemplate, ROUTE_TEMPLATE_HEADER, routeTable, type RouteTable } from "./http/route-table";

type Context = Omit<AppLoadContext, "clientIp">;

export interface Pages {
  handle: (request: Request, clientIp: string | undefined) => Promise<Response>;
  /** Vite's middleware in development; null in production. */
  vite: ViteDevServer | null;
  /** The build's routes (development: as they were at start), for the front's decisions (decision 050). */
  routes: RouteTable;
  /** Page views still waiting for their batch are sent (called by the drain before the database closes). */
  flush: () => Promise<void>;
}

/** The answer with the route that made it named (a redirect's headers cannot be changed: a copy). */
function withRouteTemplate(response: Response, template: string): Response {
  try {
    response.headers.set(ROUTE_TEMPLATE_HEADER, template);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(ROUTE_TEMPLATE_HEADER, template);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** The production build, imported as soon as the launcher starts: it loads while the database opens. */
export const productionBuild = (dev: boolean) => (dev ? null : import(resolve("build/server/index.js")));

export async function createPages(
  dev: boolean,
  early: Promise<unknown> | null,
  context: () => Context,
): Promise<Pages> {
  const vite = dev
    ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true }, appType: "custom" }))
    : null;
  // The content origin's launcher is its own build (vite.content.config.ts); development builds it once.
  if (vite)
    await import("vite").then((v) => v.build({ configFile: resolve("vite.content.config.ts"), logLevel: "warn" }));
  const build = vite
    ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : ((await early) as ServerBuild);
  const current = async () => (typeof build === "function" ? await build() : build);
  const handleDocument = createRequestHandler(build, dev ? "development" : "production");
  const routes = routeTable((await current()).routes);
  return {
    vite,
    routes,
    async handle(request, clientIp) {
      const pathname = new URL(request.url).pathname;
      // A GET on a POST-only resource route: 405 with Allow, not the router's 400 and its stack.
      if ((request.method === "GET" || request.method === "HEAD") && routes.match(pathname)?.postOnly)
        return withRouteTemplate(
          refusalResponse({ status: 405, code: "methodNotAllowed", allow: "POST" }, audienceOf(request.headers)),
          pageTemplate(routes, pathname),
        );
      // A live stream has no data request (React Router would wait on its endless body before answering).
      if (pathname.endsWith(".data") && routes.match(pathname.slice(0, -".data".length))?.stream)
        return withRouteTemplate(
          refusalResponse({ status: 400, code: "badRequest" }, audienceOf(request.headers)),
          pageTemplate(routes, pathname),
        );
      // The key of the load context comes from the build's own entry module, so both sides share it.
      const { appLoadContext } = (await current()).entry.module as unknown as {
        appLoadContext: RouterContext<AppLoadContext>;
      };
      const provider = new RouterContextProvider(new Map([[appLoadContext, { ...context(), clientIp }]]));
      const response = await handleDocument(request, provider);
      return withRouteTemplate(response, pageTemplate(routes, pathname));
    },
    async flush() {
      const { flushPendingEvents } = (await current()).entry.module as unknown as {
        flushPendingEvents?: () => Promise<void>;
      };
      await flushPendingEvents?.().catch(() => {});
    },
  };
}
