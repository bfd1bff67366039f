/**
 * The pages' routes as the router declares them (decision 050), for the front, which has to decide
 * before the router runs: a request's route template (`/learn/courses/:id`, the metrics' label and the
 * log's path) and whether its route is a long-lived stream (`export const handle = { stream: true }`
 * in the route module). What the client sends (its `Accept` header, its path's letters) decides neither.
 */
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

export interface RouteInfo {
  /** The route's path pattern from the root, e.g. `/learn/courses/:id/chat-events`. */
  template: string;
  /** The route module says it answers with a stream that lives as long as its page. */
  stream: boolean;
  /** A resource route with an action and no loader: a GET there is 405 with `Allow: POST`. */
  postOnly: boolean;
}

/** What a route module's `handle` may say to the front. */
interface FrontHandle {
  stream?: boolean;
}

type BuildRoutes = ServerBuild["routes"];

type Node = RouteObject & { id: string; children?: Node[] };

/** A route table over a build's routes: `match(pathname)`, or null for a path no route takes. */
export function routeTable(routes: BuildRoutes) {
  const nodes = new Map<string, Node>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    nodes.set(route.id, {
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
    } as Node);
  }
  const roots: Node[] = [];
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  const streams = new Set(
    Object.values(routes)
      .filter((r) => (r?.module.handle as FrontHandle | undefined)?.stream === true)
      .map((r) => r!.id),
  );
  const postOnly = new Set(
    Object.values(routes)
      .filter((r) => r && r.module.action && !r.module.loader && !r.module.default)
      .map((r) => r!.id),
  );
  const cache = new Map<string, RouteInfo | null>();

  return {
    match(pathname: string): RouteInfo | null {
      let info = cache.get(pathname);
      if (info !== undefined) return info;
      const matches = matchRoutes(roots, pathname);
      if (!matches || matches.length === 0) info = null;
      else {
        const template = matches
          .map((m) => m.route.path ?? "")
          .filter(Boolean)
          .join("/")
          .replace(/\/+/g, "/");
        const last = matches[matches.length - 1]!.route as Node;
        info = {
          template: `/${template.replace(/^\//, "")}`,
          stream: streams.has(last.id),
          postOnly: postOnly.has(last.id),
        };
      }
      // Bounded: every path of a route with ids is a new key; the work saved is a few microseconds.
      if (cache.size >= 2_000) cache.clear();
      cache.set(pathname, info);
      return info;
    },
  };
}

export type RouteTable = ReturnType<typeof routeTable>;

/** What a path no route took is labelled (the metrics, the log's `route`). */
export const UNMATCHED = "(unmatched)";

/** The header an answer names its route template in; the front's metrics and log read it. */
export const ROUTE_TEMPLATE_HEADER = "X-Route-Template";

/** The embedded provider's endpoints (oidc-provider's, and the sign-in pages' under /interaction). */
const IDP_ROUTES = [
  "/.well-known/openid-configuration",
  "/auth",
  "/token",
  "/token/introspection",
  "/token/revocation",
  "/me",
  "/jwks",
  "/session/end",
  "/session/end/confirm",
  "/session/end/success",
  "/reg",
];
const IDP_INTERACTION = /^\/interaction\/[\w-]+(\/login|\/signup|\/forgot|\/confirm|\/reset)?$/;

/** The provider's route template of a path under its mount `mount` (`/idp/interaction/:uid/login`). */
export function idpTemplate(mount: string, path: string): string {
  const rest = path.slice(mount.length) || "/";
  if (IDP_ROUTES.includes(rest)) return `${mount}${rest}`;
  const m = IDP_INTERACTION.exec(rest);
  if (m) return `${mount}/interaction/:uid${m[1] ?? ""}`;
  return UNMATCHED;
}

/** The content origin's routes (decision 040): the launcher's files and a package's files under its grant. */
export function contentTemplate(path: string): string {
  if (path.startsWith("/runtime/")) return "/runtime/*";
  if (/^\/scorm\/[^/]+\//.test(path)) return "/scorm/:grant/*";
  return UNMATCHED;
}

/**
 * The template of a page or data request (`/learn/courses/abc.data` is `/learn/courses/:id.data`,
 * React Router's single fetch), from the route table; UNMATCHED when no route takes it.
 */
export function pageTemplate(table: RouteTable, pathname: string): string {
  if (pathname.endsWith(".data")) {
    const page = pathname === "/_root.data" ? "/" : pathname.slice(0, -".data".length);
    const info = table.match(page);
    return info ? `${info.template}.data` : UNMATCHED;
  }
  return table.match(pathname)?.template ?? UNMATCHED;
}
