/**
 * Load shedding at the HTTP front (decision 031): beyond its capacity the server refuses new work at
 * once — 503 with `Retry-After`, a few hundred bytes, in the learner's language — instead of queueing
 * it without bound. Two signals decide: the number of requests in flight (the queue the process has
 * already taken on) and the event-loop delay (how late the process runs its timers, i.e. how long a
 * request that is admitted now would wait for its first turn). Cheap requests (build assets, static
 * files, the health check) are always served: they cost less than the refusal would save.
 * Server-only; `server.ts` wires it in before the app, the API and the provider.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { negotiateLocale } from "#domain/locale-negotiation";

export interface SheddingOptions {
  /** Requests in flight (admitted and not yet answered) beyond which new ones are refused; 0 = no limit. */
  maxInFlight: number;
  /** Event-loop delay (ms, the last sample) beyond which new requests are refused; 0 = no limit. */
  maxEventLoopDelayMs: number;
  /** What `Retry-After` says (seconds). */
  retryAfterSeconds: number;
}

/** Defaults chosen in decision 031: 32 in flight is 0.3–1 s of queue at 30–100 pages/s on 2 cores. */
export const DEFAULT_SHEDDING: SheddingOptions = { maxInFlight: 32, maxEventLoopDelayMs: 1_000, retryAfterSeconds: 2 };

/** The event-loop delay as the shedder sees it: the latest sample, in milliseconds. */
export interface DelaySource {
  delayMs(): number;
}

/**
 * `perf_hooks.monitorEventLoopDelay`, read every `windowMs`: the 99th percentile of the delays seen
 * in the last window (then the histogram starts over), so a load that stopped stops counting within
 * one window. The reading timer's own lateness counts too: on Node 24 a `reset()` also drops the
 * histogram's pending sample, so a single long turn that ends a window (the turn the reading timer
 * itself waited for) would otherwise not be seen. The interval is unref'd: it never keeps the
 * process alive.
 */
export function eventLoopDelaySource(windowMs = 250): DelaySource & { stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let last = 0;
  let expected = performance.now() + windowMs;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = Math.max(0, now - expected);
    expected = now + windowMs;
    // Nanoseconds; an empty window (no sample yet) reads as 0.
    const p99 = histogram.count > 0 ? histogram.percentile(99) / 1e6 : 0;
    histogram.reset();
    last = Math.max(p99, late);
  }, windowMs);
  timer.unref();
  return {
    delayMs: () => last,
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

export type Admission = { admitted: true; release: () => void } | { admitted: false; reason: "inFlight" | "delay" };

export interface ShedderStats {
  inFlight: number;
  admitted: number;
  refused: number;
}

/** Counts requests in flight and decides, per new request, whether to take it on. */
export class LoadShedder {
  private inFlight = 0;
  private admittedCount = 0;
  private refusedCount = 0;

  constructor(
    readonly options: SheddingOptions,
    private readonly delay: DelaySource,
  ) {}

  /** Take the request on (call `release` once when its answer is finished or the client left) or refuse it. */
  admit(): Admission {
    const { maxInFlight, maxEventLoopDelayMs } = this.options;
    let reason: "inFlight" | "delay" | null = null;
    if (maxInFlight > 0 && this.inFlight >= maxInFlight) reason = "inFlight";
    // The delay only refuses when something is in flight: an idle process with a late timer (a GC
    // pause, a slow start) has nothing to shed and would otherwise refuse the first request after it.
    else if (maxEventLoopDelayMs > 0 && this.inFlight > 0 && this.delay.delayMs() > maxEventLoopDelayMs)
      reason = "delay";
    if (reason) {
      this.refusedCount++;
      return { admitted: false, reason };
    }
    this.inFlight++;
    this.admittedCount++;
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
      },
    };
  }

  stats(): ShedderStats {
    return { inFlight: this.inFlight, admitted: this.admittedCount, refused: this.refusedCount };
  }
}

const CHEAP_EXTENSIONS = /\.(?:js|css|map|woff2?|ttf|png|jpe?g|gif|svg|ico|webp|avif|webmanifest|txt)$/i;

/**
 * Requests that are always served: build assets and static files (served from disk by
 * `serveStatic`, no session, no database) and the health check. Their answer costs about what a
 * refusal costs, and a page that was admitted needs them.
 */
export function isCheapRequest(method: string | undefined, url: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const path = url.split("?", 1)[0] ?? url;
  if (path === "/config-ui/config.json") return true;
  if (path.startsWith("/learn/assets/")) return true;
  // Files at the top of build/client (favicon, manifest); /learn/files/… are learners' files (session, API).
  return path.startsWith("/learn/") && path.indexOf("/", "/learn/".length) === -1 && CHEAP_EXTENSIONS.test(path);
}

/** The refusal's texts per locale (`locales/<locale>/overload.json`, top-level key `overload`). */
export type OverloadTexts = Record<string, { title: string; text: string }>;

/** Reads `<localesDir>/<locale>/overload.json` of every locale, once at start. */
export function loadOverloadTexts(localesDir: string): OverloadTexts {
  return Object.fromEntries(
    readdirSync(localesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => {
        const file = JSON.parse(readFileSync(join(localesDir, d.name, "overload.json"), "utf8")) as {
          overload: OverloadTexts[string];
        };
        return [d.name, file.overload];
      }),
  );
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/**
 * The refusal: 503 with `Retry-After`, `no-store`, and a short page in the learner's language (the
 * `lng` cookie, then Accept-Language; the choice is cached per header pair, so a refusal costs no
 * negotiation) or the API's JSON error shape for a JSON client.
 */
export function createOverloadResponder(texts: OverloadTexts, retryAfterSeconds: number) {
  const cache = new Map<string, { status: 503; headers: Record<string, string>; body: Buffer }>();
  const render = (locale: string, json: boolean) => {
    const t = texts[locale] ?? texts["en-US"] ?? { title: "503 Service Unavailable", text: "Please try again." };
    const headers: Record<string, string> = {
      "Retry-After": String(retryAfterSeconds),
      "Cache-Control": "no-store",
      "Content-Language": locale,
      "X-Content-Type-Options": "nosniff",
    };
    if (json) {
      headers["Content-Type"] = "application/problem+json";
      const payload = {
        status: 503,
        title: t.title,
        errors: { "": [{ code: "overloaded", message: t.text, params: { seconds: retryAfterSeconds } }] },
      };
      return { status: 503 as const, headers, body: Buffer.from(JSON.stringify(payload)) };
    }
    headers["Content-Type"] = "text/html; charset=utf-8";
    const dir = locale === "ar" || locale === "he" ? ' dir="rtl"' : "";
    const html =
      `<!DOCTYPE html><html lang="${locale}"${dir}><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t.title)}</title>` +
      `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.text.replace("{{seconds}}", String(retryAfterSeconds)))}</p></html>`;
    return { status: 503 as const, headers, body: Buffer.from(html) };
  };
  return (request: { cookie?: string; acceptLanguage?: string; accept?: string }) => {
    const json = Boolean(request.accept?.includes("json") && !request.accept.includes("text/html"));
    const lng = /(?:^|;\s*)lng=([^;]*)/.exec(request.cookie ?? "")?.[1];
    const key = `${json ? "j" : "h"}\t${lng ?? ""}\t${request.acceptLanguage ?? ""}`;
    let answer = cache.get(key);
    if (!answer) {
      const locale = negotiateLocale({ chosen: [lng], acceptLanguage: request.acceptLanguage });
      answer = render(locale, json);
      // Bounded: a client sending a new header each time costs one negotiation, not memory.
      if (cache.size >= 500) cache.clear();
      cache.set(key, answer);
    }
    return answer;
  };
}

/**
 * The front's gate, for Node's request listener: answers the request with the refusal and returns
 * true when it is shed; otherwise counts it in flight until its answer is finished (or the client
 * left) and returns false, and the caller serves it.
 */
export function shedRequests(shedder: LoadShedder, respond: ReturnType<typeof createOverloadResponder>) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (isCheapRequest(req.method, req.url ?? "/")) return false;
    const admission = shedder.admit();
    if (admission.admitted) {
      // A live stream (server-sent events, decision 027) stays open as long as its page: it is weighed
      // when it is admitted, not counted as work in flight for hours.
      if (/text\/event-stream/i.test(req.headers.accept ?? "")) admission.release();
      else res.once("close", admission.release);
      return false;
    }
    const answer = respond({
      cookie: req.headers.cookie,
      acceptLanguage: req.headers["accept-language"],
      accept: req.headers.accept,
    });
    // The body of a refused request (if any) is not read: the connection closes after the answer
    // rather than parse a body nobody wants; a body-less request keeps its keep-alive connection.
    const hasBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
    res.writeHead(answer.status, hasBody ? { ...answer.headers, Connection: "close" } : answer.headers);
    res.end(answer.body);
    return true;
  };
}
