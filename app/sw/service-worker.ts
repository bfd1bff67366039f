/// <reference lib="webworker" />
/**
 * Issue 31 item 3 (decision 044): the service worker, built on its own (vite.sw.config.ts →
 * build/client/sw.js, served at /learn/sw.js), registered after the page has loaded.
 *
 * What it does, and no more:
 * - **Pages** (navigations under /learn/): always from the network. It reads whose page it is
 *   (`X-Offline-User`): another person's, or nobody's, and it removes every copy it kept — copies are
 *   one person's, and sign-out removes them. Offline, a page kept for the signed-in learner opens from
 *   its copy (marked as such), any other page is the offline page in the learner's language.
 * - **Copies** of a course, made only when the learner asks ("Make available offline"): the pages the
 *   server lists (what the learner may open now, never locked content), kept without their scripts,
 *   with the stylesheets, images and PDFs they show. Never a `.data` answer, never an API answer.
 * - **Writes made offline**: "Mark as done" on a kept page is queued (Workbox background sync, stored in
 *   IndexedDB) with its command id, and sent in order when the network is back — the SCORM run-time's
 *   rule (decision 025): a network failure, 5xx or 429 keeps it at the head, any other answer takes it
 *   out; the server's command id makes a write sent twice count once.
 * - **Build assets** (/learn/assets/…, immutable): kept as they are fetched (the copies' stylesheets).
 * Everything else it leaves alone (no `respondWith`): data requests, the API, event streams, files online.
 */
import { clientsClaim } from "workbox-core";
import { safeRedirectWithin } from "#domain/redirect";
import { registerRoute } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";
import { ExpirationPlugin } from "workbox-expiration";
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { Queue } from "workbox-background-sync";
import {
  NO_USER,
  OFFLINE_COPY_HEADER,
  OFFLINE_PAGE_PATH,
  OFFLINE_REPLAY_HEADER,
  OFFLINE_USER_HEADER,
  offlineCopyHtml,
  offlinePlanPath,
  pageResources,
  sendOutcome,
  showOfflineState,
  withSavedCourses,
  type FromServiceWorker,
  type OfflinePlan,
  type SavedCourse,
  type ToServiceWorker,
} from "~/common/offline";

declare const self: ServiceWorkerGlobalScope;

const ASSETS = "learn-assets-v1";
/** The offline page and whose copies these are. */
const META = "learn-offline-meta-v1";
/** One cache per kept course: `learn-copy:<user>:<course>`. */
const COPY = "learn-copy:";
const META_USER = "/learn/__offline__/user";
const metaCourse = (user: string, courseId: string) => `/learn/__offline__/course/${user}/${courseId}`;
/** What a kept page may hold when it is served: no script runs in a copy. */
const COPY_CSP =
  "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; object-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'self'; frame-ancestors 'self'";

self.addEventListener("install", (event) => {
  void self.skipWaiting();
  event.waitUntil(keepOfflinePage());
});
clientsClaim();

// ---------------------------------------------------------------------------------------------
// Whose copies
// ---------------------------------------------------------------------------------------------

let knownUser: string | null | undefined;

async function currentUser(): Promise<string | null> {
  if (knownUser !== undefined) return knownUser;
  const meta = await caches.open(META);
  const stored = await meta.match(META_USER);
  knownUser = stored ? await stored.text() : null;
  return knownUser || null;
}

/** Another person (or nobody) signed in: every copy that is not theirs goes, at once. */
async function setUser(user: string | null) {
  if ((await currentUser()) === user) return;
  knownUser = user;
  const meta = await caches.open(META);
  await Promise.all(
    (await caches.keys())
      .filter((name) => name.startsWith(COPY) && (!user || !name.startsWith(`${COPY}${user}:`)))
      .map((name) => caches.delete(name)),
  );
  for (const request of await meta.keys()) {
    const path = new URL(request.url).pathname;
    if (
      path.startsWith("/learn/__offline__/course/") &&
      (!user || !path.startsWith(`/learn/__offline__/course/${user}/`))
    )
      await meta.delete(request);
  }
  if (user) await meta.put(META_USER, new Response(user));
  else await meta.delete(META_USER);
}

/** What a page of the app says of whose it is: a key, nobody, or nothing (a redirect, another server). */
async function notice(response: Response) {
  const who = response.headers.get(OFFLINE_USER_HEADER);
  if (who) await setUser(who === NO_USER ? null : who);
  const language = response.headers.get("Content-Language");
  if (language && language !== (await offlinePageLanguage())) await keepOfflinePage();
}

// ---------------------------------------------------------------------------------------------
// The offline page
// ---------------------------------------------------------------------------------------------

async function keepOfflinePage() {
  try {
    const response = await fetch(OFFLINE_PAGE_PATH, { credentials: "same-origin" });
    if (response.ok) {
      offlineLanguage = response.headers.get("Content-Language");
      await (await caches.open(META)).put(OFFLINE_PAGE_PATH, response);
    }
  } catch {
    // Offline while installing: kept at the next page that answers.
  }
}

let offlineLanguage: string | null | undefined;
async function offlinePageLanguage(): Promise<string | null> {
  if (offlineLanguage !== undefined) return offlineLanguage;
  const kept = await (await caches.open(META)).match(OFFLINE_PAGE_PATH);
  offlineLanguage = kept?.headers.get("Content-Language") ?? null;
  return offlineLanguage;
}

async function offlinePage(notSent: boolean): Promise<Response> {
  const kept = await (await caches.open(META)).match(OFFLINE_PAGE_PATH);
  const headers = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" };
  if (!kept)
    return new Response(
      '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline</title><h1>Offline</h1><p><a href="">Try again</a></p></html>',
      { status: 200, headers },
    );
  let html = offlineCopyHtml(await kept.text());
  const user = await currentUser();
  if (user) html = withSavedCourses(html, await savedCourses(user));
  if (notSent) html = html.replace(/(<[^<>]*\sdata-offline-not-sent(?:="")?)\s+hidden(?:="")?/, "$1");
  // 200: the page the learner reads (a 503 would count as a failed load in the browser's console).
  return new Response(html, {
    status: 200,
    headers: {
      ...headers,
      "Content-Security-Policy": COPY_CSP,
      "Content-Language": kept.headers.get("Content-Language") ?? "",
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Copies of courses
// ---------------------------------------------------------------------------------------------

async function savedCourses(user: string): Promise<SavedCourse[]> {
  const meta = await caches.open(META);
  const out: SavedCourse[] = [];
  for (const request of await meta.keys()) {
    if (!new URL(request.url).pathname.startsWith(`/learn/__offline__/course/${user}/`)) continue;
    const kept = await meta.match(request);
    if (kept) out.push((await kept.json()) as SavedCourse);
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The kept copy of a page of the signed-in learner's, if any. */
async function keptPage(url: string): Promise<Response | undefined> {
  const user = await currentUser();
  if (!user) return undefined;
  for (const name of await caches.keys()) {
    if (!name.startsWith(`${COPY}${user}:`)) continue;
    const hit = await (await caches.open(name)).match(url);
    if (hit) return hit;
  }
  return undefined;
}

class CopyError extends Error {
  constructor(readonly reason: Extract<FromServiceWorker, { type: "offline:error" }>["reason"]) {
    super(reason);
  }
}

/** Fetches a page to keep: it must be the app's page, of the same person, answered in full. */
async function fetchPage(path: string, user: string): Promise<{ html: string; response: Response }> {
  const response = await fetch(path, { headers: { [OFFLINE_COPY_HEADER]: "1" }, credentials: "same-origin" });
  if (response.redirected || !response.ok) throw new CopyError(response.status === 401 ? "signedOut" : "notAllowed");
  if (response.headers.get(OFFLINE_USER_HEADER) !== user) throw new CopyError("signedOut");
  return { html: await response.text(), response };
}

async function saveCourse(courseId: string, report: (m: FromServiceWorker) => void): Promise<SavedCourse> {
  let planResponse: Response;
  try {
    planResponse = await fetch(offlinePlanPath(courseId), {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
  } catch {
    throw new CopyError("network");
  }
  if (planResponse.status === 401 || planResponse.redirected) throw new CopyError("signedOut");
  if (!planResponse.ok) throw new CopyError("notAllowed");
  const plan = (await planResponse.json()) as OfflinePlan;
  await setUser(plan.user);
  // A fresh cache, filled completely before the old copy goes: a failed save leaves the old one.
  const name = `${COPY}${plan.user}:${plan.courseId}:${Date.now()}`;
  const cache = await caches.open(name);
  const assets = await caches.open(ASSETS);
  let bytes = 0;
  let files = 0;
  const styles = new Set<string>();
  const wanted = new Set<string>();
  let done = 0;
  const total = () => plan.pages.length + wanted.size + styles.size;
  try {
    for (const path of plan.pages) {
      const { html, response } = await fetchPage(path, plan.user);
      const copy = offlineCopyHtml(html);
      const resources = pageResources(copy, new URL(path, self.location.origin).href);
      resources.styles.forEach((s) => styles.add(s));
      resources.files.forEach((f) => wanted.add(f));
      const body = new Blob([copy], { type: "text/html" });
      bytes += body.size;
      await cache.put(
        path,
        new Response(body, {
          headers: {
            "Content-Type": "text/html; charset=utf-8",
            "Content-Language": response.headers.get("Content-Language") ?? "",
            [OFFLINE_USER_HEADER]: plan.user,
          },
        }),
      );
      report({ type: "offline:progress", done: ++done, total: total() });
    }
    for (const path of wanted) {
      const response = await fetch(path, { credentials: "same-origin" });
      // A file the learner may not open (403, 404) is left out, not the whole copy.
      if (response.ok && !response.redirected) {
        const blob = await response.blob();
        bytes += blob.size;
        files++;
        await cache.put(path, new Response(blob, { headers: response.headers }));
      }
      report({ type: "offline:progress", done: ++done, total: total() });
    }
    for (const path of styles) {
      if (!(await assets.match(path))) {
        const response = await fetch(path);
        if (response.ok) await assets.put(path, response);
      }
      report({ type: "offline:progress", done: ++done, total: total() });
    }
  } catch (error) {
    await caches.delete(name);
    if (error instanceof CopyError) throw error;
    throw new CopyError(error instanceof DOMException && error.name === "QuotaExceededError" ? "storage" : "network");
  }
  // The new copy replaces the old ones of the course.
  for (const old of await caches.keys())
    if (old !== name && old.startsWith(`${COPY}${plan.user}:${plan.courseId}:`)) await caches.delete(old);
  const course: SavedCourse = {
    courseId: plan.courseId,
    name: plan.name,
    savedAt: new Date().toISOString(),
    bytes,
    pages: plan.pages.length,
    files,
  };
  await (await caches.open(META)).put(metaCourse(plan.user, plan.courseId), Response.json(course));
  return course;
}

async function removeCourse(courseId: string) {
  const user = await currentUser();
  if (!user) return;
  for (const name of await caches.keys()) if (name.startsWith(`${COPY}${user}:${courseId}:`)) await caches.delete(name);
  await (await caches.open(META)).delete(metaCourse(user, courseId));
}

// ---------------------------------------------------------------------------------------------
// Writes made offline
// ---------------------------------------------------------------------------------------------

interface QueuedWrite {
  user: string;
  courseId: string;
  activityPathId: string;
  commandId: string;
}

const writes = new Queue("learn-offline-writes", {
  // A week: a write older than that is not sent (the course may have moved on).
  maxRetentionTime: 7 * 24 * 60,
  onSync: () => sendQueued(),
});

let sending: Promise<void> | null = null;

/** Sends the signed-in learner's queued writes in order, one at a time (never two runs at once). */
function sendQueued(): Promise<void> {
  sending ??= (async () => {
    try {
      const user = await currentUser();
      if (!user) return;
      const others = [];
      let entry;
      while ((entry = await writes.shiftRequest())) {
        const meta = entry.metadata as unknown as QueuedWrite | undefined;
        if (meta?.user !== user) {
          others.push(entry);
          continue;
        }
        let status: number | "network";
        try {
          const response = await fetch(entry.request.clone(), { redirect: "manual" });
          status = response.type === "opaqueredirect" ? 0 : response.status;
        } catch {
          status = "network";
        }
        // Sent, or refused for good (the server's answer set the learner's next page a toast saying why).
        if (sendOutcome(status) === "retry") {
          await writes.unshiftRequest(entry);
          break;
        }
      }
      // Another person's writes wait for them, in their order.
      for (const entry of others) await writes.pushRequest(entry);
    } finally {
      sending = null;
    }
  })();
  return sending;
}

async function queuedWrites(user: string): Promise<QueuedWrite[]> {
  return (await writes.getAll())
    .map((e) => e.metadata as unknown as QueuedWrite | undefined)
    .filter((m): m is QueuedWrite => m?.user === user);
}

/** A "Mark as done" of a kept page, made offline: queued once (its command id), then the page again. */
async function queueWrite(request: Request): Promise<Response | null> {
  const user = await currentUser();
  if (!user) return null;
  const form = await request.clone().formData();
  const courseId = /^\/learn\/courses\/([^/]+)\//.exec(new URL(request.url).pathname)?.[1];
  const commandId = String(form.get("commandId") ?? "");
  const activityPathId = String(form.get("activityPathId") || "") || (await pathOfForm(request.url, form));
  if (form.get("intent") !== "finishActivity" || !courseId || !commandId || !activityPathId) return null;
  if (!(await queuedWrites(user)).some((w) => w.commandId === commandId)) {
    const headers = new Headers(request.headers);
    headers.set(OFFLINE_REPLAY_HEADER, "1");
    headers.set("Accept", "application/json");
    await writes.pushRequest({
      request: new Request(request.url, {
        method: "POST",
        headers,
        body: await request.clone().arrayBuffer(),
        credentials: "same-origin",
        redirect: "manual",
      }),
      metadata: { user, courseId, activityPathId, commandId } satisfies QueuedWrite as unknown as Record<
        string,
        unknown
      >,
    });
  }
  // Back to the page the form came from, inside this course only.
  const target = safeRedirectWithin(form.get("back"), `/learn/courses/${courseId}`, {
    appOrigin: self.location.origin,
    fallback: new URL(request.url).pathname,
    allowHttp: true,
  });
  // eslint-disable-next-line local/redirect-targets -- `target` is safeRedirectWithin's answer (this course's pages).
  return Response.redirect(new URL(target, self.location.origin).href, 303);
}

/** A started activity's form names its workflow, not the activity: the activity is the page's. */
async function pathOfForm(url: string, form: FormData): Promise<string> {
  const back = String(form.get("back") ?? "");
  return new URL(back || url, self.location.origin).searchParams.get("activityPathId") ?? "";
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const sameOrigin = (url: URL) => url.origin === self.location.origin;
const COURSE_WRITES = /^\/learn\/courses\/[^/]+\/(view\/content|workflow\/[^/]+\/view)/;

/** A kept page as it is shown offline: marked as a copy, what waits to be sent marked as such. */
async function servedCopy(kept: Response, url: URL): Promise<Response> {
  const user = await currentUser();
  const courseId = /^\/learn\/courses\/([^/]+)/.exec(url.pathname)?.[1];
  const queued = user
    ? (await queuedWrites(user)).filter((w) => w.courseId === courseId).map((w) => w.activityPathId)
    : [];
  const html = showOfflineState(await kept.text(), queued);
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": COPY_CSP,
      "Cache-Control": "no-store",
      "Content-Language": kept.headers.get("Content-Language") ?? "",
    },
  });
}

// Pages: the network (after sending what waits), else the kept copy, else the offline page.
registerRoute(
  ({ request, url }) =>
    request.mode === "navigate" && sameOrigin(url) && (url.pathname === "/learn" || url.pathname.startsWith("/learn/")),
  async ({ request, url, event }) => {
    // A send under way counts too: its write has left the queue but may not have reached the server
    // (the page's `online` event starts one), and the page must not be read before it has.
    const user = await currentUser();
    if (sending || (user && (await queuedWrites(user)).length > 0))
      await Promise.race([sendQueued(), new Promise((r) => setTimeout(r, 10_000))]);
    try {
      const response = await fetch(request);
      (event as ExtendableEvent).waitUntil(notice(response));
      return response;
    } catch {
      const kept = await keptPage(url.pathname + url.search);
      return kept ? servedCopy(kept, url) : offlinePage(false);
    }
  },
  "GET",
);

// Writes from course pages: the network, else (offline) "Mark as done" is queued; anything else waits for the network.
registerRoute(
  ({ request, url }) => request.mode === "navigate" && sameOrigin(url) && COURSE_WRITES.test(url.pathname),
  async ({ request }) => {
    const copy = request.clone();
    try {
      return await fetch(request);
    } catch {
      return (await queueWrite(copy)) ?? offlinePage(true);
    }
  },
  "POST",
);

// Build assets: immutable, kept as fetched (a copy's stylesheet, its fonts).
registerRoute(
  ({ request, url }) => request.method === "GET" && sameOrigin(url) && url.pathname.startsWith("/learn/assets/"),
  new CacheFirst({
    cacheName: ASSETS,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 90 * 24 * 3600, purgeOnQuotaError: true }),
    ],
  }),
);

// A kept page's images, PDFs and files: from the network, else from the copy (offline only).
registerRoute(
  ({ request, url }) =>
    request.method === "GET" &&
    request.mode !== "navigate" &&
    sameOrigin(url) &&
    url.pathname.startsWith("/learn/") &&
    !url.pathname.endsWith(".data") &&
    (["image", "object", "embed", "video", "audio"].includes(request.destination) ||
      url.pathname.startsWith("/learn/files/")) &&
    !navigator.onLine,
  async ({ request, url }) => {
    try {
      return await fetch(request);
    } catch {
      return (await keptPage(url.pathname + url.search)) ?? Response.error();
    }
  },
);

// ---------------------------------------------------------------------------------------------
// The page's questions
// ---------------------------------------------------------------------------------------------

self.addEventListener("message", (event) => {
  const message = event.data as ToServiceWorker;
  const port = event.ports[0];
  const answer = (m: FromServiceWorker) => port?.postMessage(m);
  const work = (async () => {
    switch (message?.type) {
      case "offline:save":
        try {
          answer({ type: "offline:saved", course: await saveCourse(message.courseId, answer) });
        } catch (error) {
          answer({ type: "offline:error", reason: error instanceof CopyError ? error.reason : "network" });
        }
        return;
      case "offline:remove":
        await removeCourse(message.courseId);
        answer({ type: "offline:removed", courseId: message.courseId });
        return;
      case "offline:list": {
        const user = await currentUser();
        answer({ type: "offline:list", courses: user ? await savedCourses(user) : [] });
        return;
      }
      case "offline:replay":
        await sendQueued();
        return;
    }
  })();
  event.waitUntil(work);
});
