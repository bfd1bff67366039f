import { randomBytes } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/**
 * The HTTP front's short memory of public documents (issue 12 item 2: the public certificate page at
 * least 5 × a signed-in page's requests/s). A page that anyone may see the same way — it answers 200
 * with `Cache-Control: public, max-age=N`, sets no cookie, and was asked for without a cookie or an
 * Authorization header — is kept for `ttlMs` per address and Accept-Language (its `Vary`), and the
 * next anonymous requests get it without running the loaders or rendering React again.
 *
 * Every answer still gets a nonce of its own: the kept document's nonce is replaced by a fresh one in
 * the body and in the Content-Security-Policy header. `If-None-Match` with the kept ETag gets 304.
 * A request with a cookie (a signed-in learner, a toast waiting) always goes to the app.
 */
/** How long the product keeps a public page (part of the public certificate's one-minute revocation budget). */
export const PUBLIC_PAGE_TTL_MS = 10_000;

export interface PublicPageCacheOptions {
  /** How long a document is answered from memory. */
  ttlMs: number;
  /** Documents kept at once (the oldest goes first). */
  maxEntries?: number;
  /** Paths this applies to. */
  matches: (path: string) => boolean;
  now?: () => number;
}

interface Kept {
  expires: number;
  status: number;
  headers: [string, string][];
  body: string;
  /** The nonce the kept body and CSP carry, replaced on every answer. */
  nonce: string | null;
}

const NONCE = /'nonce-([A-Za-z0-9+/=_-]+)'/;

/** `public, max-age=N` with N > 0, and nothing that forbids keeping it. */
function isPublic(cacheControl: string | null): boolean {
  if (!cacheControl) return false;
  const parts = cacheControl
    .toLowerCase()
    .split(",")
    .map((p) => p.trim());
  if (!parts.includes("public") || parts.some((p) => p === "no-store" || p === "private" || p === "no-cache"))
    return false;
  const maxAge = parts.find((p) => p.startsWith("max-age="));
  return maxAge !== undefined && Number(maxAge.slice("max-age=".length)) > 0;
}

function answer(kept: Kept, ifNoneMatch: string | undefined, head: boolean): Response {
  const headers = new Headers(kept.headers);
  const etag = headers.get("ETag");
  if (etag && ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim() === etag)) {
    const out = new Headers();
    for (const name of ["ETag", "Cache-Control", "Vary"]) {
      const v = headers.get(name);
      if (v) out.set(name, v);
    }
    return new Response(null, { status: 304, headers: out });
  }
  let body = kept.body;
  if (kept.nonce) {
    const fresh = randomBytes(16).toString("base64");
    body = body.split(kept.nonce).join(fresh);
    const csp = headers.get("Content-Security-Policy");
    if (csp) headers.set("Content-Security-Policy", csp.split(kept.nonce).join(fresh));
  }
  return new Response(head ? null : body, { status: kept.status, headers });
}

export function publicPageCache(options: PublicPageCacheOptions): MiddlewareHandler {
  const kept = new Map<string, Kept>();
  const max = options.maxEntries ?? 500;
  const now = options.now ?? Date.now;
  return async (c, next) => {
    const method = c.req.method;
    const anonymous = !c.req.header("cookie") && !c.req.header("authorization");
    if ((method !== "GET" && method !== "HEAD") || !anonymous || !options.matches(c.req.path)) return next();
    const url = new URL(c.req.url);
    const key = `${url.pathname}${url.search}\n${c.req.header("accept-language") ?? ""}`;
    const hit = kept.get(key);
    if (hit && hit.expires > now()) return answer(hit, c.req.header("if-none-match"), method === "HEAD");
    if (hit) kept.delete(key);
    await next();
    const res = c.res;
    const type = res.headers.get("Content-Type") ?? "";
    if (
      method !== "GET" ||
      res.status !== 200 ||
      !type.startsWith("text/html") ||
      res.headers.has("Set-Cookie") ||
      res.headers.has("Content-Encoding") ||
      !isPublic(res.headers.get("Cache-Control"))
    )
      return;
    const body = await res.text();
    const entry: Kept = {
      expires: now() + options.ttlMs,
      status: res.status,
      headers: [...res.headers.entries()],
      body,
      nonce: NONCE.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1] ?? null,
    };
    kept.set(key, entry);
    if (kept.size > max) kept.delete(kept.keys().next().value!);
    c.res = new Response(body, { status: res.status, headers: res.headers });
  };
}
