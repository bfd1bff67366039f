/**
 * What a request meets on the app's port before the router: the content origin's host name, the
 * security headers, refusals of bad request targets, the redirect to APP_URL's host, the overload
 * gate, then the identity provider or the web router.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { ViteDevServer } from "vite";
import { IDP_MOUNT } from "../identity/provider";
import { log } from "../app/services/logger.server";
import type { ServerConfig } from "./config";
import { contentTemplate, idpTemplate, ROUTE_TEMPLATE_HEADER } from "./http/route-table";
import {
  checkMethod,
  checkRequestTarget,
  continueIfAwaited,
  refusalResponse,
  securityHeaders,
  sendResponse,
} from "./http/front";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface FrontParts {
  web: (request: Request) => Response | Promise<Response>;
  content: (request: Request) => Promise<Response>;
  idpHandler: () => ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null;
  vite: ViteDevServer | null;
  withSecurityHeaders: ReturnType<typeof securityHeaders>;
  /** The overload gate: true when it answered (503) or queued the request to run `handle` later. */
  shed: (req: IncomingMessage, res: ServerResponse, handle: NodeHandler) => boolean;
  /** The body budget (decision 050): reads a request's body, then calls `next`, or answers itself. */
  readBody: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}

/** The short cookie that marks the redirect to APP_URL's host, so a proxy rewriting Host gets no loop. */
const HOST_MARK = "learn_host_redirect";

/** The host name (and port) a request was sent to, as the proxy or the browser says. */
function requestHost(req: IncomingMessage): string {
  return String(req.headers["x-forwarded-host"] ?? req.headers.host ?? "")
    .split(",")[0]
    .trim()
    .toLowerCase();
}

export function createFront(config: ServerConfig, parts: FrontParts) {
  const appHost = new URL(config.appUrl).host.toLowerCase();
  const contentHost = config.content.host;
  const listener = getRequestListener(parts.web);
  const contentListener = getRequestListener(parts.content);
  let hostWarned = false;
  let requestsSeen = 0;

  /**
   * A page opened on another name of this server (http://127.0.0.1:3000 when APP_URL is
   * http://localhost:3000) goes to APP_URL's origin first: sign-in returns there, and its cookies
   * would not be found on the other name.
   */
  function otherHostRedirect(req: IncomingMessage, url: string): string | null {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const host = requestHost(req);
    if (!host || host === appHost) return null;
    if (/^\/(api|operator|scim)\//.test(url) || url.startsWith(IDP_MOUNT)) return null;
    if ((req.headers.cookie ?? "").includes(`${HOST_MARK}=1`)) {
      if (!hostWarned)
        log().warn(
          { host, appHost },
          "http: requests are not for APP_URL's host: check APP_URL or the proxy's Host header",
        );
      hostWarned = true;
      return null;
    }
    return `${config.appUrl}${url}`;
  }

  /**
   * The content origin's answers (decision 040): its own headers, none of the app's. Only under
   * CONTENT_URL's host: a package opened under another name that reaches this port (the app's host
   * name, another loopback name) would run on that host and could set cookies for it, so any other
   * Host gets 421 Misdirected Request (RFC 9110 §15.5.20) and nothing of the package (decision 050).
   */
  const serveContent: NodeHandler = (req, res) => {
    const target = checkMethod(req.method) ?? checkRequestTarget(req.url ?? "/");
    const refusal = requestHost(req) !== contentHost ? { status: 421 } : target;
    if (refusal) {
      const allow = refusal.status === 405 ? { Allow: "GET, HEAD" } : {};
      res.writeHead(refusal.status, { "Cache-Control": "no-store", Connection: "close", ...allow });
      res.end();
      return;
    }
    res.setHeader(ROUTE_TEMPLATE_HEADER, contentTemplate((req.url ?? "/").split("?", 1)[0]!));
    void contentListener(req, res);
  };

  const handle: NodeHandler = (req, res) => {
    requestsSeen++;
    const url = req.url ?? "/";
    // A proxy may bring the content origin's host name to this port: it gets the content origin only.
    if (contentHost !== appHost && requestHost(req) === contentHost) return serveContent(req, res);
    // Every answer carries the security headers, the front's own early ones included; an answer's own
    // value of one of them wins.
    parts.withSecurityHeaders(url.split("?")[0]!, {
      has: (n) => res.hasHeader(n),
      set: (n, v) => void res.setHeader(n, v),
    });
    const refusal = checkMethod(req.method) ?? checkRequestTarget(url);
    if (refusal) {
      const { accept, cookie } = req.headers;
      void sendResponse(
        res,
        refusalResponse(refusal, { accept, acceptLanguage: req.headers["accept-language"], cookie }),
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
    parts.readBody(req, res, () => {
      if (!parts.shed(req, res, handle)) dispatch(req, res, url);
    });
  };

  /** An admitted request (its body read, if it had one) to the provider, Vite or the web router. */
  const dispatch = (req: IncomingMessage, res: ServerResponse, url: string) => {
    const idp = parts.idpHandler();
    if (idp && (url === IDP_MOUNT || url.startsWith(`${IDP_MOUNT}/`) || url.startsWith(`${IDP_MOUNT}?`))) {
      // The provider writes its own answers (the security headers are set above).
      res.setHeader(ROUTE_TEMPLATE_HEADER, idpTemplate(IDP_MOUNT, url.split("?", 1)[0]!));
      continueIfAwaited(req, res);
      void idp(req, res);
      return;
    }
    if (parts.vite) {
      // Vite's base middleware strips "/learn" from req.url; the app needs the full path back.
      parts.vite.middlewares(req, res, () => {
        req.url = url;
        void listener(req, res);
      });
      return;
    }
    void listener(req, res);
  };
  return { handle, serveContent, requestsSeen: () => requestsSeen };
}
