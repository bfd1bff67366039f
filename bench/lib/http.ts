/**
 * A tiny HTTP client that behaves like a browser with JavaScript off: plain document requests,
 * redirects followed by hand, cookies kept in a jar. Only for the bench's own loopback server.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface HttpResponse {
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A browser-like user agent, so the app streams the document as it does for people (not bots). */
export const BROWSER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/** Cookies by name and path; sent to a URL whose path is under the cookie's path (RFC 6265, simplified). */
class CookieJar {
  private cookies = new Map<string, StoredCookie>();

  /** Applies the Set-Cookie headers of a response (deletions included). */
  store(setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = "/";
      let expired = false;
      for (const attribute of attributes) {
        const [key = "", val = ""] = attribute.split("=", 2).map((s) => s.trim());
        const k = key.toLowerCase();
        if (k === "path" && val.startsWith("/")) path = val;
        if (k === "max-age" && Number(val) <= 0) expired = true;
        if (k === "expires" && Date.parse(val) <= Date.now()) expired = true;
      }
      const key = `${name}\t${path}`;
      if (expired || value === "") this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path });
    }
  }

  /** The Cookie header a browser would send to `path`, or "" when none applies. */
  header(path: string): string {
    const matches = [...this.cookies.values()]
      .filter((c) => c.path === "/" || path === c.path || path.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`))
      .sort((a, b) => b.path.length - a.path.length);
    return matches.map((c) => `${c.name}=${c.value}`).join("; ");
  }

  /** Every cookie kept, to hand to a real browser's cookie store. */
  all(): StoredCookie[] {
    return [...this.cookies.values()];
  }

  has(name: string): boolean {
    return [...this.cookies.values()].some((c) => c.name === name);
  }
}

/** One request, no redirect following; the response body read as UTF-8 text. */
export function send(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, timeout: options.timeoutMs ?? 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            url,
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () =>
      req.destroy(
        new Error(`${options.method ?? "GET"} ${url.href}: no answer within ${options.timeoutMs ?? 30_000} ms`),
      ),
    );
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const isRedirect = (status: number) => status >= 300 && status < 400 && status !== 304;

/** A browser session against one origin: every request carries the jar's cookies and updates it. */
export class Browser {
  readonly jar = new CookieJar();

  constructor(readonly origin: string) {}

  headersFor(url: URL, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { Accept: "text/html", "User-Agent": BROWSER_USER_AGENT, ...extra };
    const cookie = this.jar.header(url.pathname);
    if (cookie) headers.Cookie = cookie;
    return headers;
  }

  /** One request (no redirect following); the cookies it sets are kept. */
  async fetch(
    target: string | URL,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<HttpResponse> {
    const url = new URL(target, this.origin);
    if (url.origin !== this.origin) throw new Error(`refusing to leave ${this.origin}: ${url.href}`);
    const res = await send(url, {
      method: options.method,
      body: options.body,
      headers: this.headersFor(url, options.headers),
    });
    this.jar.store(res.headers["set-cookie"]);
    return res;
  }

  /** Like fetch, then follows redirects with GET like a browser does after 301/302/303. */
  async navigate(
    target: string | URL,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
    maxHops = 20,
  ): Promise<HttpResponse & { hops: string[] }> {
    const hops: string[] = [];
    let res = await this.fetch(target, options);
    while (isRedirect(res.status)) {
      const location = res.headers.location;
      if (!location) throw new Error(`${res.status} without Location at ${res.url.href}`);
      if (hops.length >= maxHops)
        throw new Error(`more than ${maxHops} redirects from ${String(target)}: ${hops.join(" → ")}`);
      const next = new URL(location, res.url);
      hops.push(`${res.status} ${next.pathname}${next.search}`);
      res = await this.fetch(next);
    }
    return { ...res, hops };
  }
}

/** Decodes the few entities an HTML attribute value can hold here. */
export function unescapeHtml(value: string): string {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}
