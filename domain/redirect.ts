/**
 * Spec 2.1 / 5: a redirect target must be https and on the same host, else the client root.
 * Relative paths ("/learn/courses") are same-host by construction. Outside production plain http on
 * the same host is accepted too, so the demo works on http://localhost.
 */
export function safeRedirect(
  target: unknown,
  options: { requestUrl: string | URL; fallback?: string; allowHttp?: boolean },
): string {
  const fallback = options.fallback ?? "/learn";
  if (typeof target !== "string" || target.length === 0 || target.length > 2048) return fallback;
  const base = new URL(options.requestUrl);
  // Protocol-relative ("//evil") and backslash tricks ("/\\evil") must never pass as paths.
  if (target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\")) {
    let resolved: URL;
    try {
      resolved = new URL(target, base);
    } catch {
      return fallback;
    }
    if (resolved.host !== base.host) return fallback;
    return resolved.pathname + resolved.search + resolved.hash;
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return fallback;
  }
  const protocolOk = url.protocol === "https:" || (options.allowHttp === true && url.protocol === "http:");
  if (!protocolOk || url.host !== base.host || url.username || url.password) return fallback;
  return url.pathname + url.search + url.hash;
}
