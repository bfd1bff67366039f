import { PassThrough } from "node:stream";
import { randomBytes } from "node:crypto";
import type { EntryContext, RouterContextProvider } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { I18nProvider } from "~/common/i18n";
import { getInstance } from "./services/i18n.server";
import { NonceProvider } from "./components/nonce";
import { appConfig, type AppConfig } from "./services/config.server";
import { record } from "./services/analytics.server";
import { logPageError } from "./services/page-errors.server";

/** The load context's key, read by `server.ts` from this entry module of the build (decision 015). */
export { appLoadContext } from "./services/config.server";
/** Called by `server.ts` when it drains, before the database closes (decision 037). */
export { flushPendingEvents } from "./services/analytics.server";

export const streamTimeout = 5_000;

/** Content-Security-Policy with a fresh nonce per document (docs/architecture.md, security baseline). */
function csp(nonce: string, dev: boolean, provider: string, content: string, httpApp: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' ${dev ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    // Per-element values (cover colours, progress widths) are style attributes, which cannot carry a nonce.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    // LTI tools and videos in frames: https anywhere; an http: tool only where the app itself is
    // served over http (a local setup, issue 32 item 2) — `npm run lti:tool` warns of one elsewhere.
    // SCORM packages run on the content origin (decision 040), which may be plain http on loopback.
    `frame-src 'self' https://player.vimeo.com https:${httpApp ? " http:" : ""} ${content}`,
    "object-src 'self'",
    "media-src 'self' https:",
    "frame-ancestors 'self'",
    // Sign-out is a form whose answer redirects to the identity provider's end-session endpoint:
    // a browser checks form-action on that redirect too, so a provider on another origin is named.
    `form-action 'self'${provider ? ` ${provider}` : ""}`,
    "base-uri 'self'",
  ].join("; ");
}

/** What a 304 may carry: the validators and caching only — never a new nonce's CSP for the cached body. */
function cacheHeaders(headers: Headers): Headers {
  const out = new Headers();
  for (const name of ["ETag", "Cache-Control", "Vary"]) {
    const v = headers.get(name);
    if (v) out.set(name, v);
  }
  return out;
}

/** The identity provider's origin when it is not the app's own (an external OIDC_ISSUER), else "". */
function providerOrigin(config: AppConfig): string {
  const origin = URL.parse(config.oidc.issuer)?.origin ?? "";
  return origin && origin !== new URL(config.appUrl).origin ? origin : "";
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // A page that names its version (ETag: the public certificate) answers a revalidation with 304.
  const etag = responseHeaders.get("ETag");
  if (etag && responseStatusCode === 200 && request.headers.get("If-None-Match") === etag)
    return new Response(null, { status: 304, headers: cacheHeaders(responseHeaders) });
  const nonce = randomBytes(16).toString("base64");
  const dev = appConfig(loadContext).appEnv === "dev" && import.meta.env.DEV;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // The whole document before the first byte: every loader has finished by now, so what is left
    // are lazily loaded components (the discussion, later widgets), and a browser without JavaScript
    // could never swap a streamed Suspense fallback for them.
    const readyOption = "onAllReady";
    // A render still unfinished after the stream's time is cut off. The timer holds the whole render
    // (the request, its loader data and React's state), so it is cleared the moment the document is
    // sent: left to run, it kept every page of the last six seconds in memory, about 1,000 renders
    // and 100 MB of heap at 180 pages a second.
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    timer.unref();
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nProvider i18n={getInstance(loadContext)}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nProvider>
      </NonceProvider>,
      {
        nonce,
        // Never outline a finished Suspense boundary into a script-swapped segment (React does for
        // large ones): the page must read the same without JavaScript.
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          const config = appConfig(loadContext);
          responseHeaders.set(
            "Content-Security-Policy",
            csp(nonce, dev, providerOrigin(config), config.contentOrigin, config.appUrl.startsWith("http:")),
          );
          if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          // Sent (or the browser went away): the timer must not keep this render alive for seconds.
          body.once("close", () => clearTimeout(timer));
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered)
            logPageError(error, request, routerContext.staticHandlerContext.matches.at(-1)?.params, "render");
        },
      },
    );
  });
}

export function handleError(
  error: unknown,
  {
    request,
    params,
    context,
  }: {
    request: Request;
    params?: Readonly<Record<string, string | undefined>>;
    context?: Readonly<RouterContextProvider>;
  },
) {
  if (request.signal.aborted) return;
  if (error instanceof Response) return;
  // One JSON line with the request id, the route and the user (decision 053), never a plain-text block.
  logPageError(error, request, params);
  // Issue 16 item 8: server errors go to the collector with their stack (trace sample rate 1), never to the user.
  if (context) {
    const err = error instanceof Error ? error : new Error(String(error));
    void record(request, context, [
      { name: "error", page: new URL(request.url).pathname, props: { message: err.message, stack: err.stack ?? "" } },
    ]);
  }
}
