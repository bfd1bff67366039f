/**
 * Spec 2.1 / 5: a redirect target is kept only when it is the app's own origin (https outside
 * development) and its *final* path — after the URL parser has removed tabs and newlines, decoded
 * dot segments (`/learn/..//x`, `/%2e%2e//x`) and resolved `.` — does not start with `//` or `/\`,
 * which a browser would read as another host. Anything else becomes the client root. The check runs
 * on the parsed URL, never on the text before parsing: validating first and normalising after is how
 * `/.//evil.example` once became `Location: //evil.example`.
 *
 * Returns a path (with query and hash) on the app's origin, so the caller's Location never names a host.
 */
export function safeRedirect(
  target: unknown,
  options: { appOrigin: string | URL; fallback?: string; allowHttp?: boolean },
): string {
  const fallback = options.fallback ?? "/learn";
  if (typeof target !== "string" || target.length === 0 || target.length > 2048) return fallback;
  // Control characters (tab, newline, NUL…) are dropped or rejected by parsers in different ways;
  // backslashes are slashes to browsers. No real target of ours contains either.
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  const origin = new URL(options.appOrigin);
  // A path on our origin, or an absolute http(s) URL; nothing relative to the current page.
  if (!target.startsWith("/") && !/^https?:\/\//i.test(target)) return fallback;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return fallback;
  }
  // A path inherits our origin; a full URL must name it, over https (or http outside production).
  const absolute = !target.startsWith("/");
  const protocolOk = url.protocol === "https:" || (options.allowHttp === true && url.protocol === "http:");
  if (absolute && !protocolOk) return fallback;
  if (url.host !== origin.host || url.username || url.password) return fallback;
  const path = url.pathname;
  if (path.startsWith("//") || path.startsWith("/\\")) return fallback;
  return path + url.search + url.hash;
}

/** A redirect target inside one part of the app (e.g. a course's pages), else `fallback`. */
export function safeRedirectWithin(
  target: unknown,
  prefix: string,
  options: { appOrigin: string | URL; fallback: string; allowHttp?: boolean },
): string {
  const safe = safeRedirect(target, options);
  return safe === prefix ||
    safe.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`) ||
    safe.startsWith(`${prefix}?`)
    ? safe
    : options.fallback;
}
