/**
 * How long a refused request asks its client to wait, when the client reads the refusal's body but not
 * its headers: React Router's fetcher turns a non-React-Router answer (an overloaded node's 503, decision
 * 038) into an error carrying the status and the body's text only. So the refusal page names its
 * `Retry-After` in a meta element too, and the page's autosave waits as long (decision 069).
 */
const RETRY_AFTER_META = "retry-after";

/** The element the refusal page carries: `<meta name="retry-after" content="2">`. */
export const retryAfterMeta = (seconds: number) => `<meta name="${RETRY_AFTER_META}" content="${seconds}">`;

/** What a client waits at most, whatever a body says. */
const MAX_SECONDS = 300;

/**
 * The seconds a refusal's body asks for: its retry-after meta element, or the API's JSON error's
 * `params.seconds`; null when it says neither (then the client's own backoff applies).
 */
export function retryAfterOf(body: unknown): number | null {
  if (typeof body !== "string") return null;
  const meta = new RegExp(`<meta\\s+name="${RETRY_AFTER_META}"\\s+content="(\\d{1,6})"`, "i").exec(body);
  const json = meta ? null : /"seconds"\s*:\s*(\d{1,6})\b/.exec(body);
  const raw = meta?.[1] ?? json?.[1];
  if (raw === undefined) return null;
  return Math.min(MAX_SECONDS, Math.max(1, Number(raw)));
}
