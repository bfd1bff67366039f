/**
 * Spec 5: PDF URLs outside our own origin or the allowed storage host are blocked and rewritten to
 * relative. Pure (no DOM), so it runs the same on the server and in the browser and is unit-tested.
 */

const ALLOWED_PROTOCOLS = new Set(["http:", "https:"]);
// Control characters and whitespace inside a URL are a sign of smuggling (e.g. "java\tscript:").
const CONTROL = /[\u0000-\u001f\u007f]/;

function parseOrigin(origin: string): URL | null {
  try {
    const parsed = new URL(origin);
    return ALLOWED_PROTOCOLS.has(parsed.protocol) ? parsed : null;
  } catch {
    return null;
  }
}

/** `/a//b` stays, but a leading `//host` must never leave us (it would be protocol-relative). */
function relative(url: URL): string {
  return url.pathname.replace(/^\/{2,}/, "/") + url.search;
}

/** The storage host may be given as `storage.example.com`, `storage.example.com:9000` or a full origin. */
function isStorageHost(url: URL, allowedStorageHost: string | undefined): boolean {
  const allowed = allowedStorageHost?.trim();
  if (!allowed) return false;
  if (allowed.includes("://")) {
    const parsed = parseOrigin(allowed);
    return parsed !== null && parsed.origin === url.origin;
  }
  // A bare host name: HTTPS only (a plain-HTTP storage host must be spelt out as an origin).
  return url.protocol === "https:" && (url.host === allowed.toLowerCase() || url.hostname === allowed.toLowerCase());
}

/**
 * Returns the URL to load a PDF from, or null when it must not be loaded at all.
 *
 * - relative URL or same origin → `pathname + search` (relative);
 * - the allowed storage host → kept absolute (`origin + pathname + search`, user info dropped);
 * - any other http(s) URL (including protocol-relative `//evil`) → rewritten to its path on our origin;
 * - `javascript:`, `data:`, `blob:`, `file:` …, control characters or unparsable input → null.
 *
 * Fragments (`#page=2`) are dropped.
 */
export function safePdfUrl(url: string, origin: string, allowedStorageHost?: string): string | null {
  if (typeof url !== "string") return null;
  const trimmed = url.trim();
  if (!trimmed || CONTROL.test(trimmed)) return null;
  const base = parseOrigin(origin);
  if (!base) return null;
  let parsed: URL;
  try {
    parsed = new URL(trimmed, base.origin);
  } catch {
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(parsed.protocol)) return null;
  if (parsed.origin !== base.origin && isStorageHost(parsed, allowedStorageHost)) {
    return parsed.origin + relative(parsed);
  }
  // Same origin, or a foreign host rewritten to the same path on our origin.
  return relative(parsed);
}

/**
 * Origin used to resolve PDF URLs when the caller does not know the real one (server rendering).
 * The result of `safePdfUrl` does not depend on it: same-origin and foreign URLs both become
 * `pathname + search`, so server and client render the same markup.
 */
export const NEUTRAL_ORIGIN = "https://origin.invalid";

/** Iframe sources: http(s) or relative only. */
export function isSafeFrameSrc(src: string): boolean {
  if (typeof src !== "string") return false;
  const trimmed = src.trim();
  if (!trimmed || CONTROL.test(trimmed)) return false;
  try {
    return ALLOWED_PROTOCOLS.has(new URL(trimmed, NEUTRAL_ORIGIN).protocol);
  } catch {
    return false;
  }
}
