/**
 * What the HTTP front (`server.ts`) does to every request before the app, the LMS API or the
 * provider sees it, and to every answer after (decision 016): size limits, security headers and
 * compression. Server-only; no route imports it.
 */
import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { Readable } from "node:stream";
import { constants, createBrotliCompress, createGzip } from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import { DEFAULT_LOCALE, localeDirection } from "#domain/locales";
import { negotiateLocale } from "#domain/locale-negotiation";

/** Requests whose target (path and query) is longer get 414 (spec 'bodies and URLs bounded'). */
export const MAX_URL_BYTES = 8 * 1024;
/** More query parameters than this is not a request any screen makes: 400. */
const MAX_QUERY_PARAMETERS = 100;
/** Default largest request body (BODY_LIMIT_BYTES overrides it). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export type LimitRefusal = {
  status: 400 | 403 | 413 | 414;
  code: "tooManyParameters" | "tooLarge" | "uriTooLong" | "badRequest" | "crossOrigin";
};

/** The request line's own limits, checked before anything reads a byte of the body. */
export function checkRequestTarget(url: string): LimitRefusal | null {
  if (Buffer.byteLength(url) > MAX_URL_BYTES) return { status: 414, code: "uriTooLong" };
  const q = url.indexOf("?");
  if (q >= 0) {
    let count = 0;
    for (let i = q; i < url.length; i++) if (url[i] === "&" || i === q) count++;
    if (count > MAX_QUERY_PARAMETERS) return { status: 400, code: "tooManyParameters" };
  }
  return null;
}

type RefusalTexts = Record<LimitRefusal["code"], { title: string; text: string }> & {
  home: string;
  /** The page of a database or storage outage (server/http/unavailable.ts). */
  unavailable: { title: string; text: string; retry: string };
};

/** `locales/{locale}/http.json` (its one key `http`), read once per locale; English fills any gap. */
const localesDir = fileURLToPath(new URL("../../locales", import.meta.url));
const refusalTexts = new Map<string, RefusalTexts>();
export function textsFor(locale: string): RefusalTexts {
  let texts = refusalTexts.get(locale);
  if (!texts) {
    const read = (l: string) => {
      const file = `${localesDir}/${l}/http.json`;
      return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { http: RefusalTexts }).http : null;
    };
    texts = { ...read(DEFAULT_LOCALE)!, ...read(locale) };
    refusalTexts.set(locale, texts);
  }
  return texts;
}

/**
 * The language of a refusal, decided as the app decides it (spec 9): the `lng` cookie (React Router's
 * format, base64 of a JSON string), then Accept-Language. A garbled cookie or header reads as absent.
 */
export function refusalLocale(headers: { cookie?: string | null; acceptLanguage?: string | null }): string {
  let chosen: string | null = null;
  for (const part of (headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== "lng") continue;
    try {
      const decoded: unknown = JSON.parse(Buffer.from(decodeURIComponent(value.join("=")), "base64").toString("utf8"));
      if (typeof decoded === "string") chosen = decoded;
    } catch {
      chosen = null;
    }
  }
  try {
    return negotiateLocale({ chosen: [chosen], acceptLanguage: headers.acceptLanguage });
  } catch {
    return DEFAULT_LOCALE;
  }
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The request headers a refusal reads: who asks (JSON or a page) and in which language. */
export interface RefusalAudience {
  accept?: string | null;
  acceptLanguage?: string | null;
  cookie?: string | null;
}

/**
 * A refusal as the caller reads it, in their language (issue 17 item 6): the API's JSON error shape, or a
 * small page with a way back to the start. Nothing of the request is echoed into it.
 */
export function refusalResponse(refusal: LimitRefusal, audience: RefusalAudience = {}): Response {
  const locale = refusalLocale(audience);
  const texts = textsFor(locale);
  const { title, text } = texts[refusal.code];
  const headers = { "Cache-Control": "no-store", Connection: "close", "Content-Language": locale };
  const accept = audience.accept ?? "";
  if (accept.includes("application/json") && !accept.includes("text/html")) {
    return Response.json(
      { status: refusal.status, title, errors: { "": [{ code: refusal.code, message: text }] } },
      { status: refusal.status, headers },
    );
  }
  const html =
    `<!DOCTYPE html><html lang="${locale}" dir="${localeDirection(locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${refusal.status} ${escapeHtml(title)}</title></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/learn">${escapeHtml(texts.home)}</a></p></main></body></html>`;
  return new Response(html, {
    status: refusal.status,
    headers: { ...headers, "Content-Type": "text/html; charset=utf-8" },
  });
}

/** What a Web request tells `refusalResponse`. */
export const audienceOf = (headers: Headers): RefusalAudience => ({
  accept: headers.get("accept"),
  acceptLanguage: headers.get("accept-language"),
  cookie: headers.get("cookie"),
});

/**
 * Requests that asked `Expect: 100-continue` and have not been told to send their body yet: the
 * server marks them (its `checkContinue` event) and the first read of the body sends the 100, so a
 * client that waits for it never sends a byte of a body that is refused before it is read.
 */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** server.ts: `server.on("checkContinue", …)` marks the request before handling it as any other. */
export function markAwaitingContinue(incoming: IncomingMessage): void {
  awaitingContinue.add(incoming);
}

/** The Node request and response behind a Hono context (`@hono/node-server` puts them in `c.env`). */
function nodeOf(c: Context): { incoming?: IncomingMessage; outgoing?: ServerResponse } {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  return { incoming: env?.incoming, outgoing: env?.outgoing };
}

/** Sends the 100 Continue a client waits for, once: just before its body is first read. */
export function continueIfAwaited(incoming: IncomingMessage | undefined, outgoing: ServerResponse | undefined): void {
  if (!incoming || !outgoing || !awaitingContinue.delete(incoming)) return;
  if (!outgoing.headersSent) outgoing.writeContinue();
}
const continueContext = (c: Context) => {
  const { incoming, outgoing } = nodeOf(c);
  continueIfAwaited(incoming, outgoing);
};

/** Whether a request says it carries a body (read from its headers: looking at the body would start reading it). */
function declaresBody(headers: Headers): boolean {
  return headers.has("transfer-encoding") || Number(headers.get("content-length") ?? "0") > 0;
}

/**
 * The body, counted while it streams (a Content-Length larger than the limit is refused at once,
 * and a chunked body is cut off as soon as it passes it), so a 200 MB upload costs 1 MB of memory
 * and no authentication work. The body is read whole (up to the limit) before the app or the API
 * runs; every handler then reads a buffer it knows is small.
 */
export function bodyLimit(limitFor: (path: string) => number): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    if (request.method === "GET" || request.method === "HEAD") return next();
    const limit = limitFor(c.req.path);
    const declared = Number(request.headers.get("content-length") ?? "NaN");
    const audience = audienceOf(request.headers);
    if (Number.isFinite(declared) && declared > limit)
      return refusalResponse({ status: 413, code: "tooLarge" }, audience);
    continueContext(c);
    if (!request.body) return next();
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch {
        // The client went away or sent a broken chunked body.
        return refusalResponse({ status: 400, code: "badRequest" }, audience);
      }
      if (step.done) break;
      size += step.value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => {});
        return refusalResponse({ status: 413, code: "tooLarge" }, audience);
      }
      chunks.push(step.value);
    }
    const body = Buffer.concat(chunks, size);
    c.req.raw = new Request(request, { body, duplex: "half" } as RequestInit);
    return next();
  };
}

/** A response with one more header, whether or not its own headers may be changed (a redirect's may not). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * A body that goes to its handler as it arrives instead of being buffered here (issue 29 item 2): a
 * SCORM package, a chat post with its files. Nothing of it is read until the handler reads it — which
 * it does only after it has checked who sends it and whether they may — and it is counted as it passes:
 * a declared length over the limit is a 413 at once; a body that passes the limit is cut off, and the
 * answer is the front's 413 whatever the handler made of the broken body. A body the handler left
 * unread (its 401, 403, 404 or 429) is never read: the answer closes the connection (`Connection:
 * close`), so the rest of it is not taken off the wire; a client that asked `Expect: 100-continue`
 * is never told to send it.
 */
export function streamedBody(limitFor: (path: string) => number): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    if (request.method === "GET" || request.method === "HEAD") return next();
    const { incoming } = nodeOf(c);
    // Behind Node's server the headers tell (looking at the body would start reading it); in process, the body.
    if (!(incoming ? declaresBody(request.headers) : request.body !== null)) return next();
    const limit = limitFor(c.req.path);
    const audience = audienceOf(request.headers);
    const declared = Number(request.headers.get("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > limit)
      return refusalResponse({ status: 413, code: "tooLarge" }, audience);
    const counted = { bytes: 0, done: false, exceeded: false };
    let source: AsyncIterator<Uint8Array> | null = null;
    const release = () => {
      const open = source;
      source = null;
      void open?.return?.().catch(() => undefined);
    };
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (!source) {
            if (counted.done || counted.exceeded) return controller.close();
            continueContext(c);
            // Straight from Node's request where there is one (nothing is read ahead); else the Web body.
            source = incoming
              ? (incoming.iterator({ destroyOnReturn: false }) as AsyncIterator<Uint8Array>)
              : (request.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
          }
          let step: IteratorResult<Uint8Array>;
          try {
            step = await source.next();
          } catch (error) {
            release();
            controller.error(error);
            return;
          }
          if (step.done) {
            counted.done = true;
            release();
            controller.close();
            return;
          }
          counted.bytes += step.value.byteLength;
          if (counted.bytes > limit) {
            counted.exceeded = true;
            release();
            controller.error(new RangeError(`the body is larger than ${limit} bytes`));
            return;
          }
          controller.enqueue(
            step.value instanceof Uint8Array ? step.value : new Uint8Array(step.value as ArrayBufferLike),
          );
        },
        cancel: release,
      },
      { highWaterMark: 0 },
    );
    // A new request from the parts (a copy of the old one would start reading its body).
    c.req.raw = new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body,
      duplex: "half",
      signal: request.signal,
    } as RequestInit);
    await next();
    if (counted.exceeded) {
      c.res = undefined as unknown as Response;
      c.res = refusalResponse({ status: 413, code: "tooLarge" }, audience);
    } else if (!counted.done) {
      release();
      const answer = c.res;
      c.res = undefined as unknown as Response;
      c.res = withHeader(answer, "Connection", "close");
    }
  };
}

/**
 * Headers every answer carries: no MIME sniffing, a strict referrer, HSTS when the app is served
 * over https, a default CSP for anything that did not set its own (documents carry one with a nonce),
 * and `no-store` on React Router's data requests (`.data`), which carry per-learner data.
 */
export function securityHeaders(options: { https: boolean }) {
  return (path: string, headers: { has(name: string): boolean; set(name: string, value: string): void }) => {
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    if (options.https) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", "frame-ancestors 'self'");
    if (path.endsWith(".data")) headers.set("Cache-Control", "no-store");
  };
}

const COMPRESSIBLE = /^(text\/(html|x-script|plain|css|calendar|event-stream)|application\/(json|javascript|xml))/i;

/** br (quality 5: about 2 ms for a 50 KB page) or gzip, by the request's Accept-Encoding and q-values. */
export function chooseEncoding(acceptEncoding: string | null | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    if (name) q.set(name, Number.isFinite(value) ? value : 0);
  }
  const of = (name: string) => q.get(name) ?? q.get("*") ?? 0;
  if (of("br") > 0 && of("br") >= of("gzip")) return "br";
  if (of("gzip") > 0) return "gzip";
  return null;
}

/**
 * Compresses documents, data requests and API answers on the fly, chunk by chunk (each write is
 * flushed, so a streamed answer is never held back). Build assets are compressed at build time and
 * served as they are (`scripts/compress-assets.mjs`); server-sent events are left alone.
 */
export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get("Content-Type") ?? "";
    if (
      !res.body ||
      c.req.method === "HEAD" ||
      res.headers.has("Content-Encoding") ||
      res.status === 204 ||
      res.status === 206 ||
      !COMPRESSIBLE.test(type) ||
      type.startsWith("text/event-stream") ||
      /\bno-transform\b/.test(res.headers.get("Cache-Control") ?? "")
    )
      return;
    const length = Number(res.headers.get("Content-Length") ?? "NaN");
    if (Number.isFinite(length) && length < 1024) return;
    const encoding = chooseEncoding(c.req.header("accept-encoding"));
    if (!encoding) return;
    const zip =
      encoding === "br"
        ? createBrotliCompress({
            flush: constants.BROTLI_OPERATION_FLUSH,
            params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
          })
        : createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH });
    const source = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
    source.on("error", (err) => zip.destroy(err));
    source.pipe(zip);
    const headers = new Headers(res.headers);
    headers.delete("Content-Length");
    headers.set("Content-Encoding", encoding);
    headers.append("Vary", "Accept-Encoding");
    // Hono's `c.res =` copies the previous answer's headers over the new one's (Content-Length
    // included, which would announce the uncompressed size): clear it first, as Hono's docs say.
    c.res = undefined as unknown as Response;
    c.res = new Response(Readable.toWeb(zip) as ReadableStream<Uint8Array>, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}

/** Writes a small, whole answer (a refusal) to Node's response. */
export async function sendResponse(res: import("node:http").ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
