/**
 * Issue 31 item 3: what the service worker (app/sw/service-worker.ts), the server and the page agree
 * on about copies of courses kept for offline reading (decision 044). Pure string and number rules,
 * table-tested in offline.test.ts; nothing here touches a cache.
 */

/** Request header the service worker sends when it fetches a page to keep: the server renders the offline copy's parts. */
export const OFFLINE_COPY_HEADER = "X-Offline-Copy";
/** Request header on a write the service worker sends again after being offline: answered with a status, not a redirect. */
export const OFFLINE_REPLAY_HEADER = "X-Offline-Replay";
/** Response header of every page: whose it is (an opaque key of the signed-in person), or "none". */
export const OFFLINE_USER_HEADER = "X-Offline-User";
export const NO_USER = "none";

/** The service worker's address and scope. */
export const SERVICE_WORKER_URL = "/learn/sw.js";
/**
 * Its scope is `/learn`, not `/learn/`: the dashboard (the installed app's start) is `/learn` itself,
 * which a `/learn/` scope leaves out; the server allows it (`Service-Worker-Allowed` on the script).
 */
export const SERVICE_WORKER_SCOPE = "/learn";
/** The page shown for a page never kept, in the learner's language. */
export const OFFLINE_PAGE_PATH = "/learn/offline";

/** What the service worker fetches to know which pages of a course to keep. */
export const offlinePlanPath = (courseId: string) => `/learn/courses/${encodeURIComponent(courseId)}/offline-copy`;

/** The plan of one course's copy (the server decides what the learner may open now: spec 4.12). */
export interface OfflinePlan {
  /** Whose copy it is (the same key as OFFLINE_USER_HEADER): every page kept must say the same. */
  user: string;
  courseId: string;
  name: string;
  /** The course's pages (details, content, one per text or file activity open now), same-origin paths. */
  pages: string[];
}

/** What the page asks the service worker, and what it answers (through a MessageChannel). */
export type ToServiceWorker =
  | { type: "offline:save"; courseId: string }
  | { type: "offline:remove"; courseId: string }
  | { type: "offline:list" }
  | { type: "offline:replay" };

export interface SavedCourse {
  courseId: string;
  name: string;
  /** ISO time the copy was made. */
  savedAt: string;
  bytes: number;
  pages: number;
  files: number;
}

export type FromServiceWorker =
  | { type: "offline:progress"; done: number; total: number }
  | { type: "offline:saved"; course: SavedCourse }
  | { type: "offline:list"; courses: SavedCourse[] }
  | { type: "offline:removed"; courseId: string }
  | { type: "offline:error"; reason: "notAllowed" | "signedOut" | "network" | "storage" };

/**
 * The SCORM run-time's queue rule (decision 025), for any write sent again: a network failure, a 5xx
 * or a 429 keeps the write at the head of the queue to be tried again later; any other answer takes
 * it out — sent (2xx) or refused for good (4xx: said to the learner, never tried again). An answer
 * the queue cannot read (status 0: a redirect, e.g. to sign in again) is tried again too.
 */
export function sendOutcome(status: number | "network"): "sent" | "retry" | "refused" {
  if (status === "network" || status === 0 || status === 429 || status >= 500) return "retry";
  if (status >= 200 && status < 400) return "sent";
  return "refused";
}

/**
 * A kept page is the page without its scripts: offline it reads as it does without JavaScript (every
 * page of the app works so), and no script of the moment it was kept runs later against stale data.
 * `<noscript>` wrappers are removed so their content (the PDF's object, plain forms) shows.
 */
export function offlineCopyHtml(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<link\b[^>]*\brel=["']?modulepreload["']?[^>]*>/gi, "")
    .replace(/<\/?noscript\b[^>]*>/gi, "");
}

/** Rewrites every start tag that carries `marker` (an attribute, with its value if given). */
function editTags(html: string, marker: string, edit: (tag: string) => string): string {
  const escaped = marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return html.replace(new RegExp(`<[a-z][^<>]*\\s${escaped}(?=[\\s=>/])[^<>]*>`, "gi"), edit);
}
const show = (tag: string) => tag.replace(/\s+hidden(?:="")?(?=[\s>/])/i, "");
const hide = (tag: string) =>
  /\shidden(?:="")?(?=[\s>/])/i.test(tag) ? tag : tag.replace(/^<([a-z]+)/i, "<$1 hidden");

/**
 * The kept page as it is shown offline: its offline notice revealed, and every activity whose
 * "Mark as done" is waiting to be sent shown as such (its form hidden, its note shown).
 */
export function showOfflineState(html: string, queuedActivityPaths: Iterable<string>): string {
  let out = editTags(html, "data-offline-banner", show);
  for (const path of new Set(queuedActivityPaths)) {
    if (!/^[0-9a-f-]{36}$/i.test(path)) continue;
    out = editTags(out, `data-offline-queued="${path}"`, show);
    out = editTags(out, `data-offline-form="${path}"`, hide);
  }
  return out;
}

const ATTRIBUTE_URLS = /<(img|object|embed|source|a|link)\b[^>]*>/gi;
const ATTRIBUTE = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "i");

/** HTML attribute values as the page means them (`&amp;` in a URL is `&`). */
function unescapeAttribute(value: string): string {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
}

/**
 * What a kept page needs besides itself: its stylesheets, and the images, PDFs and files it shows or
 * offers (`<img src>`, `<source src>`, `<object data>`, `<embed src>`, `<a href download>` and links
 * to /learn/files/…) — only this origin's, never an API answer or a data request.
 */
export function pageResources(html: string, pageUrl: string): { styles: string[]; files: string[] } {
  const origin = new URL(pageUrl).origin;
  const styles = new Set<string>();
  const files = new Set<string>();
  const keep = (raw: string | undefined, into: Set<string>) => {
    if (!raw) return;
    let url: URL;
    try {
      url = new URL(unescapeAttribute(raw.trim()), pageUrl);
    } catch {
      return;
    }
    if (url.origin !== origin || !url.pathname.startsWith("/learn/")) return;
    if (url.pathname.endsWith(".data") || url.pathname.startsWith("/learn/api/")) return;
    url.hash = "";
    into.add(url.pathname + url.search);
  };
  for (const match of html.matchAll(ATTRIBUTE_URLS)) {
    const tag = match[0];
    const name = match[1].toLowerCase();
    const attr = (n: string) => {
      const m = ATTRIBUTE(n).exec(tag);
      return m ? (m[1] ?? m[2]) : undefined;
    };
    if (name === "link") {
      if (/\brel\s*=\s*["']?stylesheet\b/i.test(tag)) keep(attr("href"), styles);
    } else if (name === "a") {
      const href = attr("href");
      if (/\bdownload\b/i.test(tag) || (href && /^\/learn\/files\//.test(href))) keep(href, files);
    } else if (name === "object") {
      keep(attr("data"), files);
    } else {
      keep(attr("src"), files);
    }
  }
  return { styles: [...styles], files: [...files] };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/**
 * The offline page with the list of courses kept on this device for the signed-in learner: its
 * server-rendered list (`<ul data-offline-saved hidden></ul>`) filled in and shown, each item a link to
 * the kept course page.
 */
export function withSavedCourses(html: string, courses: { courseId: string; name: string }[]): string {
  if (courses.length === 0) return html;
  const items = courses
    .map(
      (c) => `<li><a href="/learn/courses/${encodeURIComponent(c.courseId)}" dir="auto">${escapeHtml(c.name)}</a></li>`,
    )
    .join("");
  const shown = editTags(html, "data-offline-saved", show);
  return shown.replace(/(<ul\b[^<>]*\sdata-offline-saved(?:="")?[^<>]*>)\s*<\/ul>/i, `$1${items}</ul>`);
}
