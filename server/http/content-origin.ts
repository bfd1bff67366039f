/**
 * The content origin (issue 29 item 1, decision 040): learner-facing content the platform did not
 * write — a SCORM package's pages and scripts — is served from an origin of its own (CONTENT_URL;
 * by default a second port on another loopback name of the same server), never from the app's. No
 * cookie is set or read here and no session reaches it: the package's files are fetched from the LMS
 * storage API under the signed grant in their URL, and the launcher page that holds the run-time API
 * talks to the app only by origin-checked postMessage. Every answer carries a strict policy: the
 * launcher may run only its own script and frame only this origin; the package's pages may be framed
 * only by the launcher in the app's page, cannot be framed anywhere else, cannot post forms to or
 * fetch from another origin, and cannot navigate the app's page (the app frames them sandboxed).
 */
import { UNAVAILABLE_RETRY_AFTER_SECONDS, unavailableResponse } from "./unavailable";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, resolve } from "node:path";

export interface ContentOriginOptions {
  /** The app's origin: the only one that may frame the launcher and receive its messages. */
  appOrigin: string;
  /** How a request reaches the LMS API (in-process or HTTP), and where the API is. */
  transport: (request: Request) => Response | Promise<Response>;
  apiBase: string;
  /** build/content: the launcher's script and its chunks. */
  runtimeDir: string;
  /** CONTENT_CSP_SOURCES: origins a package may load media, fonts, styles and scripts from besides its own. */
  extraSources?: string[];
}

const LAUNCHER_STYLE =
  "html,body{margin:0;height:100%;background:#fff}iframe{display:block;border:0;inline-size:100%;block-size:100%}";
const styleHash = `'sha256-${createHash("sha256").update(LAUNCHER_STYLE).digest("base64")}'`;

/** Headers of every answer of the content origin. */
const COMMON = {
  "X-Content-Type-Options": "nosniff",
  // The grant is in the URL: no page of a package tells another site where it came from.
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=()",
};

const escapeAttr = (s: string) => s.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The policy of a package's own pages: its own files (and data:/blob:), scripts as authoring tools write them. */
function packagePolicy(appOrigin: string, extra: string[] = []): string {
  const more = extra.length ? ` ${extra.join(" ")}` : "";
  return [
    `default-src 'self' data: blob:${more}`,
    // Authoring tools' output relies on inline scripts and eval; it runs on an origin that holds nothing.
    `script-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:${more}`,
    `style-src 'self' 'unsafe-inline' data:${more}`,
    `img-src 'self' data: blob:${more}`,
    `media-src 'self' data: blob:${more}`,
    `font-src 'self' data:${more}`,
    `connect-src 'self'${more}`,
    `frame-src 'self' data: blob:${more}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // Framed only by the launcher (this origin) inside the app's page.
    `frame-ancestors 'self' ${appOrigin}`,
  ].join("; ");
}

/** The launcher's own policy: its script, its frame of this origin, framed by the app only. */
function launcherPolicy(appOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styleHash}`,
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${appOrigin}`,
  ].join("; ");
}

const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8" };

/** The content origin's request handler: /runtime/launcher.html, /runtime/*.js, /scorm/{grant}/{path}. */
export function createContentOrigin(options: ContentOriginOptions): (request: Request) => Promise<Response> {
  const runtimeDir = resolve(options.runtimeDir);
  const launcherFile = join(runtimeDir, "scorm-launcher.js");
  const version = () =>
    existsSync(launcherFile)
      ? createHash("sha256").update(readFileSync(launcherFile)).digest("base64url").slice(0, 12)
      : "missing";
  let launcherVersion: string | null = null;
  const launcherHtml = () => {
    launcherVersion ??= version();
    return (
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="app-origin" content="${escapeAttr(options.appOrigin)}">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>SCORM</title><style>${LAUNCHER_STYLE}</style>` +
      `<script type="module" src="/runtime/scorm-launcher.js?v=${launcherVersion}"></script>` +
      `</head><body><iframe id="sco" title="SCORM"></iframe></body></html>`
    );
  };
  const packageCsp = packagePolicy(options.appOrigin, options.extraSources);
  const apiBase = options.apiBase.replace(/\/$/, "");

  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname;
    if (request.method !== "GET" && request.method !== "HEAD")
      return new Response("Method not allowed", { status: 405, headers: { ...COMMON, Allow: "GET, HEAD" } });
    if (path === "/runtime/launcher.html")
      return new Response(request.method === "HEAD" ? null : launcherHtml(), {
        headers: {
          ...COMMON,
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": launcherPolicy(options.appOrigin),
          "Cache-Control": "no-cache",
        },
      });
    const asset = /^\/runtime\/([A-Za-z0-9_-]+\.js)$/.exec(path);
    if (asset) {
      const file = join(runtimeDir, asset[1]);
      if (!existsSync(file) || !statSync(file).isFile()) return notFound();
      return new Response(request.method === "HEAD" ? null : readFileSync(file), {
        headers: {
          ...COMMON,
          "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
          "Content-Security-Policy": "default-src 'none'",
          // The entry is asked for with its version in the query; its chunks' names carry their hash.
          "Cache-Control":
            asset[1] === "scorm-launcher.js" && !url.search ? "no-cache" : "public, max-age=31536000, immutable",
        },
      });
    }
    const file = /^\/scorm\/([A-Za-z0-9_-]{1,200})\/(.+)$/.exec(path);
    if (!file) return notFound();
    const headers = new Headers({ Accept: "*/*" });
    const range = request.headers.get("range");
    if (range) headers.set("Range", range);
    let res: Response;
    try {
      res = await options.transport(
        new Request(`${apiBase}/api/lms-storage/v1/scorm-content/${file[1]}/${file[2]}`, {
          method: request.method,
          headers,
        }),
      );
    } catch {
      return new Response("The package could not be read.", { status: 502, headers: COMMON });
    }
    // The storage or the database is down: 503 with Retry-After in the learner's language, not "Not found".
    if (res.status === 503) {
      const body = (await res.json().catch(() => null)) as { errors?: { ""?: { code?: string }[] } } | null;
      const dependency = body?.errors?.[""]?.[0]?.code === "databaseUnavailable" ? "database" : "storage";
      const answer = unavailableResponse(
        dependency,
        { acceptLanguage: request.headers.get("accept-language") },
        UNAVAILABLE_RETRY_AFTER_SECONDS,
      );
      for (const [name, value] of Object.entries(COMMON)) answer.headers.set(name, value);
      return answer;
    }
    if (!res.ok && res.status !== 206) {
      const status = res.status === 403 || res.status === 416 ? res.status : 404;
      return new Response(
        status === 403 ? "This link to the package has expired: open the activity again." : "Not found",
        {
          status,
          headers: { ...COMMON, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
        },
      );
    }
    const out = new Headers({ ...COMMON, "Content-Security-Policy": packageCsp });
    for (const h of [
      "content-type",
      "content-length",
      "content-range",
      "accept-ranges",
      "cache-control",
      "last-modified",
      "etag",
    ]) {
      const v = res.headers.get(h);
      if (v) out.set(h, v);
    }
    return new Response(request.method === "HEAD" ? null : res.body, { status: res.status, headers: out });
  };
}

const notFound = () =>
  new Response("Not found", { status: 404, headers: { ...COMMON, "Content-Type": "text/plain; charset=utf-8" } });

/**
 * Where the content origin is when CONTENT_URL is not set: the next port of this server under the
 * other loopback name (app on localhost → content on 127.0.0.1, and the reverse), so that no cookie
 * of the app's host name is ever sent to it; for another host name, the same name on the next port
 * (cookies ignore ports: a warning says to set CONTENT_URL to a host name of its own).
 */
export function defaultContentUrl(appUrl: string, contentPort: number): { url: string; warning: string | null } {
  const app = new URL(appUrl);
  const host = app.hostname;
  if (host === "localhost") return { url: `${app.protocol}//127.0.0.1:${contentPort}`, warning: null };
  if (host === "127.0.0.1" || host === "[::1]")
    return { url: `${app.protocol}//localhost:${contentPort}`, warning: null };
  return {
    url: `${app.protocol}//${host}:${contentPort}`,
    warning:
      `[content] CONTENT_URL is not set: SCORM packages are served on ${host}:${contentPort}, the app's host name on another port. ` +
      "Browsers send a host's cookies to every port: set CONTENT_URL to a host name of its own (README, decision 040).",
  };
}
