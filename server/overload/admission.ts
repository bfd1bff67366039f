/**
 * Overload control at the HTTP front (decision 038, replacing the fixed in-flight cap of decision 031).
 *
 * Requests are admitted by the **time they wait**, not by how many there are. A request starts at
 * once while fewer than the concurrency limit are being served; otherwise it waits in a queue (first
 * come, first served — newest first once the oldest has waited three quarters of the limit) and
 * starts when one finishes. A request that has waited `maxWaitMs` without
 * starting is refused — 503 with `Retry-After`, a few hundred bytes in the learner's language — and so
 * is one that finds `maxQueue` requests already waiting. So an ordinary burst (50 busy clients) is
 * queued and served, and under a real overload (1,000 clients that never pause) the server keeps
 * serving at its capacity while the rest are refused after at most `maxWaitMs`. A refusal costs the
 * node about a quarter of a millisecond (most of it the socket write), so holding refusals (not
 * answering at once) keeps clients that ignore `Retry-After` from spending the CPU on being refused
 * again and again: a request that comes back on the same connection before its last refusal's
 * `Retry-After` has passed is refused, if no place frees for it, when that time has passed — not
 * sooner (decision 038, addendum 12). A new visitor is refused within `maxWaitMs` as before.
 *
 * The concurrency limit adapts (a Vegas limit, as in Netflix's concurrency-limits): it grows while the
 * time a request takes once started stays near the time it takes without load, and shrinks when that
 * time shows requests waiting for the CPU — more requests at once than the two threads can overlap
 * only make each one slower. Requests that wait on something else (a model, a slow client) do not
 * slow the others, so for them the limit grows.
 *
 * Cheap requests (build assets, static files, the configuration and the health checks) are not
 * weighed; event streams have places of their own (`streams.ts`). Server-only; `server.ts` wires it in before the app, the API
 * and the provider.
 */
import { AsyncResource } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { negotiateLocale } from "#domain/locale-negotiation";
import { retryAfterMeta } from "#domain/retry-after";
import { rootLog } from "../../app/services/logger.server";
import type { AddressOf } from "../http/client-address";
import { streamClient, type StreamPlaces } from "./streams";

export interface AdmissionOptions {
  /** Longest a request waits for its turn before it is refused (ms); 0 = the gate is off (no queue, no limit). */
  maxWaitMs: number;
  /** Most requests waiting at once (a memory bound); one more is refused at once. */
  maxQueue: number;
  /** Bounds of the adaptive concurrency limit (requests being served at once). */
  minConcurrency: number;
  maxConcurrency: number;
  /** What `Retry-After` says (seconds). */
  retryAfterSeconds: number;
}

/**
 * Defaults (decision 038): a request waits at most 1 s, so an answer comes within about 1 s plus
 * its own time, refusals included; 8–64 at once (two threads overlap a few CPU-bound requests; the
 * queue holds the rest, and requests waiting on I/O let the limit grow). Not fewer than 8: under a
 * storm the refusals' work lengthens every request's time, the limit falls to its floor, and at 4
 * the main thread sat idle a tenth of the time while its requests waited on the database (addendum 12).
 */
export const DEFAULT_ADMISSION: AdmissionOptions = {
  maxWaitMs: 1_000,
  maxQueue: 4_096,
  minConcurrency: 8,
  maxConcurrency: 64,
  retryAfterSeconds: 2,
};

/**
 * The options from the environment: OVERLOAD_MAX_WAIT_MS, OVERLOAD_MAX_QUEUE, OVERLOAD_MIN_CONCURRENCY,
 * OVERLOAD_MAX_CONCURRENCY, OVERLOAD_RETRY_AFTER (README); a value that is not a number ≥ 0 stops the server.
 */
export function admissionOptionsFrom(env: Record<string, string | undefined>): AdmissionOptions {
  const number = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === "") return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, got "${value}"`);
    return n;
  };
  for (const gone of ["OVERLOAD_MAX_IN_FLIGHT", "OVERLOAD_MAX_DELAY_MS"])
    if (env[gone] !== undefined)
      rootLog.warn(
        { variable: gone },
        "overload: this variable is no longer read: requests are admitted by their wait (OVERLOAD_MAX_WAIT_MS)",
      );
  const d = DEFAULT_ADMISSION;
  const minConcurrency = Math.max(1, Math.round(number("OVERLOAD_MIN_CONCURRENCY", d.minConcurrency)));
  return {
    maxWaitMs: number("OVERLOAD_MAX_WAIT_MS", d.maxWaitMs),
    maxQueue: Math.round(number("OVERLOAD_MAX_QUEUE", d.maxQueue)),
    minConcurrency,
    maxConcurrency: Math.max(minConcurrency, Math.round(number("OVERLOAD_MAX_CONCURRENCY", d.maxConcurrency))),
    retryAfterSeconds: Math.max(1, Math.round(number("OVERLOAD_RETRY_AFTER", d.retryAfterSeconds))),
  };
}

// ---------------------------------------------------------------------------------------------
// The adaptive concurrency limit
// ---------------------------------------------------------------------------------------------

export interface VegasOptions {
  initial: number;
  min: number;
  max: number;
  /** Windows between two resets of the no-load time, per unit of limit (Netflix's probe multiplier). */
  probeMultiplier?: number;
  /** Random source for the probe's jitter (tests). */
  random?: () => number;
}

/**
 * Netflix's Vegas limit (concurrency-limits `VegasLimit`, after TCP Vegas; written here from its
 * published description, defaults as there). Per window of samples: the shortest average time seen
 * is the no-load time; `queue = limit × (1 − noLoad ÷ time)` estimates how many of the requests in
 * progress are only waiting for the CPU. With log10(limit) as the unit: a queue under 1 unit grows the
 * limit by 6 units, under 3 by 1, over 6 shrinks it by 1; else it holds. It does not grow while
 * fewer than half of it are in use (the demand, not the server, is the limit then), and the no-load
 * time is measured again now and then (every `probeMultiplier × limit` windows, jittered) so it
 * follows a change in what requests cost.
 */
export class VegasLimit {
  private estimated: number;
  private noLoad = 0;
  private probeCount = 0;
  private probeJitter: number;
  readonly options: Required<VegasOptions>;

  constructor(options: VegasOptions) {
    this.options = { probeMultiplier: 30, random: Math.random, ...options };
    this.estimated = options.initial;
    this.probeJitter = this.jitter();
  }

  get limit(): number {
    return Math.max(1, Math.floor(this.estimated));
  }

  private jitter(): number {
    return 0.5 + this.options.random() * 0.5;
  }

  /** One window: the average time of the requests that finished in it (ms) and the most in progress during it. */
  update(rtt: number, inUse: number): number {
    if (!(rtt > 0)) return this.limit;
    this.probeCount++;
    if (this.probeCount >= this.probeJitter * this.options.probeMultiplier * this.estimated) {
      this.probeJitter = this.jitter();
      this.probeCount = 0;
      this.noLoad = rtt;
      return this.limit;
    }
    if (this.noLoad === 0 || rtt < this.noLoad) {
      this.noLoad = rtt;
      return this.limit;
    }
    const limit = this.estimated;
    if (inUse * 2 < limit) return this.limit;
    const queue = Math.ceil(limit * (1 - this.noLoad / rtt));
    const unit = Math.max(1, Math.log10(limit));
    let next = limit;
    if (queue <= unit) next = limit + 6 * unit;
    else if (queue < 3 * unit) next = limit + unit;
    else if (queue > 6 * unit) next = limit - unit;
    this.estimated = Math.max(this.options.min, Math.min(this.options.max, next));
    return this.limit;
  }
}

// ---------------------------------------------------------------------------------------------
// Admission: start now, wait in the queue, or be refused
// ---------------------------------------------------------------------------------------------

/** What the gate does with one request: start it (maybe later; `done` its ticket when answered) or refuse it. */
export interface Candidate {
  start(ticket: Ticket): void;
  refuse(): void;
  /** The client's connection (its socket): a refusal is remembered on it for `Retry-After` seconds. */
  connection?: object;
}

/** The request's part after admission: `done` once its answer is finished (or the client left). */
export interface Ticket {
  /** `timed: false` for what is no measure of the server's work (an event stream let go once started). */
  done(timed?: boolean): void;
}

interface Waiting {
  candidate: Candidate;
  arrived: number;
  /** When it is refused if it has not started: `maxWaitMs` after it came, or later (held, see `deadlineOf`). */
  deadline: number;
  gone: boolean;
}

export interface AdmissionStats {
  limit: number;
  inProgress: number;
  waiting: number;
  started: number;
  refused: number;
  /** Of `started`, how many waited in the queue first. */
  queued: number;
}

/**
 * Past this share of `maxWaitMs` waited by the oldest request, the queue serves the newest first. An
 * ordinary burst (50 busy clients) drains well within it and is served in order.
 */
const LIFO_AFTER = 0.75;

/** Samples per window of the limit (and at most a second per window). */
const WINDOW = { minSamples: 10, minMs: 250, maxMs: 1_000 };

/** The waiting requests in one order; one taken off through the other order (`gone`) is skipped. */
class Line {
  private items: Waiting[] = [];
  private head = 0;

  /** At the end; with `byDeadline`, before those due later (a held request passes a few at most). */
  add(entry: Waiting, byDeadline = false): void {
    let at = this.items.length;
    if (byDeadline) while (at > this.head && this.items[at - 1]!.deadline > entry.deadline) at--;
    if (at === this.items.length) this.items.push(entry);
    else this.items.splice(at, 0, entry);
  }

  first(): Waiting | undefined {
    while (this.head < this.items.length && this.items[this.head]!.gone) this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return this.items[this.head];
  }

  last(): Waiting | undefined {
    while (this.items.length > this.head && this.items[this.items.length - 1]!.gone) this.items.pop();
    return this.items.length > this.head ? this.items[this.items.length - 1] : undefined;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

export class AdmissionControl {
  readonly limiter: VegasLimit;
  private inProgress = 0;
  /** The waiting requests in the order they came (served from either end)… */
  private byArrival = new Line();
  /** …and in the order they are to be refused (the same, but for held requests). */
  private byDeadline = new Line();
  /** When each connection last got a refusal (decision 038, addendum 12). */
  private lastRefused = new WeakMap<object, number>();
  private waiting = 0;
  private counts = { started: 0, refused: 0, queued: 0 };
  private window = { started: 0, samples: 0, sum: 0, peak: 0 };
  private sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(
    readonly options: AdmissionOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    const initial = options.minConcurrency;
    this.limiter = new VegasLimit({ initial, min: options.minConcurrency, max: options.maxConcurrency });
    this.window.started = now();
  }

  /**
   * Starts the candidate now (synchronously), queues it, or refuses it. The returned function is for
   * a client that left: it takes a waiting request off the queue (and does nothing otherwise).
   */
  admit(candidate: Candidate): () => void {
    const nothing = () => {};
    if (this.options.maxWaitMs <= 0) {
      candidate.start({ done: nothing });
      return nothing;
    }
    this.expire();
    if (this.inProgress < this.limiter.limit && this.waiting === 0) {
      this.begin(candidate);
      return nothing;
    }
    if (this.waiting >= this.options.maxQueue) {
      this.refuse(candidate);
      return nothing;
    }
    const arrived = this.now();
    const entry: Waiting = { candidate, arrived, deadline: this.deadlineOf(candidate, arrived), gone: false };
    this.byArrival.add(entry);
    this.byDeadline.add(entry, true);
    this.waiting++;
    this.sweep();
    // A place is free while only held requests wait (they are not started): this one takes it.
    if (this.inProgress < this.limiter.limit) this.pump();
    return () => {
      if (!entry.gone) this.take(entry);
    };
  }

  stats(): AdmissionStats {
    return { limit: this.limiter.limit, inProgress: this.inProgress, waiting: this.waiting, ...this.counts };
  }

  /** Stops the queue's timer (tests); waiting requests are refused. */
  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    for (let e = this.byDeadline.first(); e; e = this.byDeadline.first()) {
      this.take(e);
      this.refuse(e.candidate);
    }
  }

  private take(entry: Waiting): void {
    entry.gone = true;
    if (--this.waiting === 0) {
      this.byArrival.clear();
      this.byDeadline.clear();
    }
  }

  private refuse(candidate: Candidate): void {
    this.counts.refused++;
    if (candidate.connection) this.lastRefused.set(candidate.connection, this.now());
    candidate.refuse();
  }

  /**
   * `maxWaitMs` after it came; for a client that comes back on the same connection before the
   * `Retry-After` of its last refusal has passed, that time if it is later. Such a client, if no
   * place frees for it, gets its next refusal when it should have asked again, not sooner: a client
   * that ignores `Retry-After` is refused every `Retry-After` seconds instead of every `maxWaitMs`,
   * which leaves the CPU to the requests being served (decision 038, addendum 12). It is not
   * started once it has waited `maxWaitMs` (`pump`), so holding it never makes an answer later.
   */
  private deadlineOf(candidate: Candidate, arrived: number): number {
    const deadline = arrived + this.options.maxWaitMs;
    const last = candidate.connection ? this.lastRefused.get(candidate.connection) : undefined;
    if (last === undefined) return deadline;
    return Math.max(deadline, last + this.options.retryAfterSeconds * 1_000);
  }

  private begin(candidate: Candidate, queued = false): void {
    this.inProgress++;
    this.counts.started++;
    if (queued) this.counts.queued++;
    this.window.peak = Math.max(this.window.peak, this.inProgress);
    const started = this.now();
    let finished = false;
    candidate.start({
      done: (timed = true) => {
        if (finished) return;
        finished = true;
        this.inProgress--;
        if (timed) this.sample(this.now() - started);
        this.pump();
      },
    });
  }

  /** Refuses the waiting requests whose deadline has come. */
  private expire(): void {
    const now = this.now();
    for (let e = this.byDeadline.first(); e && e.deadline <= now; e = this.byDeadline.first()) {
      this.take(e);
      this.refuse(e.candidate);
    }
  }

  private pump(): void {
    this.expire();
    while (this.inProgress < this.limiter.limit) {
      // Adaptive LIFO (as in Facebook's and Netflix's servers): while the oldest request has already
      // waited most of `maxWaitMs`, the queue does not drain, and first come first served would give
      // every request it serves that whole wait. The newest then goes first, and the oldest — refused
      // at `maxWaitMs` either way — are refused no sooner than before (decision 038, addendum 4).
      // Nothing that has waited `maxWaitMs` starts: a held request (addendum 12) only waits for its
      // refusal then, and the newest are served instead.
      const now = this.now();
      const oldest = this.byArrival.first();
      if (!oldest) break;
      const next = now - oldest.arrived >= this.options.maxWaitMs * LIFO_AFTER ? this.byArrival.last()! : oldest;
      if (now - next.arrived >= this.options.maxWaitMs) break;
      this.take(next);
      this.begin(next.candidate, true);
    }
    if (this.waiting === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /** While anything waits, a timer refuses what waited too long even when nothing finishes. */
  private sweep(): void {
    if (this.sweeper) return;
    const every = Math.max(10, Math.min(100, this.options.maxWaitMs / 10));
    this.sweeper = setInterval(() => this.pump(), every);
    this.sweeper.unref();
  }

  private sample(ms: number): void {
    const w = this.window;
    w.samples++;
    w.sum += ms;
    const now = this.now();
    const age = now - w.started;
    if ((w.samples >= WINDOW.minSamples && age >= WINDOW.minMs) || age >= WINDOW.maxMs) {
      this.limiter.update(w.sum / w.samples, Math.max(w.peak, this.inProgress + 1));
      this.window = { started: now, samples: 0, sum: 0, peak: this.inProgress };
    }
  }
}

const CHEAP_EXTENSIONS = /\.(?:js|css|map|woff2?|ttf|png|jpe?g|gif|svg|ico|webp|avif|webmanifest|txt)$/i;
/** Health checks: answered whatever the load, or a balancer would take a busy node out. */
const ALWAYS_SERVED = new Set(["/config-ui/config.json", "/healthz", "/readyz"]);

/**
 * Requests that are always served: build assets and static files (served from disk by
 * `serveStatic`, no session, no database) and the health checks. Their answer costs about what a
 * refusal costs, and a page that was admitted needs them.
 */
export function isCheapRequest(method: string | undefined, url: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const path = url.split("?", 1)[0] ?? url;
  if (ALWAYS_SERVED.has(path)) return true;
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
      `<meta name="viewport" content="width=device-width, initial-scale=1">${retryAfterMeta(retryAfterSeconds)}` +
      `<title>${escapeHtml(t.title)}</title>` +
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
 * The front's gate, for Node's request listener: `gate(req, res, handler)` returns false when the
 * caller may serve the request now; true when the gate took it — refused, or queued, in which case the
 * gate calls `handler(req, res)` again when its turn comes (the gate then returns false for it). The
 * request counts as being served until its answer is finished or the client left. A stream (its route
 * says so, decision 050) never waits for nor holds a place: it takes one of the streams' own.
 */
export function admissionGate(
  control: AdmissionControl,
  respond: ReturnType<typeof createOverloadResponder>,
  /** Streams (decision 050): what the router says is one, and their own places; none without. */
  streams?: { isStream: (req: IncomingMessage) => boolean; places: StreamPlaces; addressOf?: AddressOf },
) {
  const admitted = new WeakSet<IncomingMessage>();
  const refuse = (req: IncomingMessage, res: ServerResponse) => {
    if (res.headersSent || res.destroyed) return;
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
  };
  return (
    req: IncomingMessage,
    res: ServerResponse,
    handler: (req: IncomingMessage, res: ServerResponse) => void,
  ): boolean => {
    if (admitted.has(req) || isCheapRequest(req.method, req.url ?? "/")) return false;
    if (streams?.isStream(req)) {
      // A stream takes one of the streams' places, never the pages': served now, or refused at once.
      const giveBack = streams.places.take(streamClient(req, streams.addressOf));
      if (!giveBack) {
        refuse(req, res);
        return true;
      }
      admitted.add(req);
      res.once("close", giveBack);
      return false;
    }
    // A queued request starts later, from another request's end or the queue's timer: in its own
    // asynchronous context (its request id for the logs, decision 037), not theirs.
    const resume = AsyncResource.bind(() => handler(req, res));
    let deciding = true;
    const leave = control.admit({
      start: (ticket) => {
        admitted.add(req);
        res.once("close", () => ticket.done());
        if (deciding) return; // started at once: the caller serves it
        if (res.destroyed) ticket.done(false);
        else resume();
      },
      refuse: () => refuse(req, res),
      connection: req.socket,
    });
    deciding = false;
    if (admitted.has(req)) return false;
    if (!res.writableEnded) res.once("close", leave);
    return true;
  };
}
