/**
 * Prometheus metrics (decision 037), with prom-client, on a port of their own (`METRICS_PORT`,
 * default 9464, on loopback unless `METRICS_HOST` says otherwise): `/metrics` is never served on the
 * learner-facing port, so what the proxy exposes cannot reach it.
 *
 * - `http_requests_total{method,route,status}` and `http_request_duration_seconds{method,route}`
 *   (a histogram): every answer of the front, by a route label with ids folded (`/learn/courses/:id`),
 * - `http_requests_refused_total{reason}`: overload (503 with Retry-After), body too large (413),
 *   target too long (414), rate-limited (429),
 * - `http_requests_in_flight`, `app_draining`,
 * - the process's own (prom-client's defaults): event-loop delay (`nodejs_eventloop_lag_*`), heap,
 *   garbage collection, CPU, open handles,
 * - `db_pool_connections{state}` (PostgreSQL's pool: total, idle, waiting),
 * - `jobs_pending{job}`: rows the background jobs have still to do, read at most every 10 s,
 * - `db_up` and `storage_up` (1 or 0, decision 053): the database and the storage answer, probed at
 *   most once a second; `http_requests_unavailable_total{dependency}`: the 503 pages given while one
 *   was down (counted apart from the overload refusals).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { HEALTH_PATHS } from "./health";
import type { DependencyProbe } from "./dependencies";
import { UNAVAILABLE_HEADER } from "../http/unavailable";
import { rootLog } from "../../app/services/logger.server";

export const DEFAULT_METRICS_PORT = 9464;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Anything that looks like an id or a value rather than a route's name (those are short, lowercase, and
 * have no digits but a version's): numbers, long tokens, e-mail addresses, tokens with digits or capitals.
 */
const VALUE = /^(\d+|[\w-]{24,}|[^/]*@[^/]*|[0-9a-f]{16,}|(?=.*\d)[\w.:-]{5,}|(?=.*[A-Z])[\w.:-]{8,})$/;

/**
 * The route label of a path: ids folded to `:id`, files under a package or the build's assets folded
 * to `*`, at most 10 segments — a bounded set of labels whatever the requests.
 */
export function routeLabel(path: string, status: number): string {
  if (status === 404) return "(not found)";
  const key = path.split("?")[0]!;
  let label = labels.get(key);
  if (label === undefined) {
    label = labelOf(key);
    // Bounded: paths with ids are many; the work saved is a few microseconds a request.
    if (labels.size >= 2_000) labels.clear();
    labels.set(key, label);
  }
  return label;
}

const labels = new Map<string, string>();

function labelOf(path: string): string {
  const segments = path.split("/").filter(Boolean).slice(0, 10);
  const out: string[] = [];
  for (const [i, segment] of segments.entries()) {
    let s: string;
    try {
      s = decodeURIComponent(segment);
    } catch {
      s = segment;
    }
    out.push(UUID.test(s) || VALUE.test(s) ? ":id" : s.length > 40 ? ":id" : s);
    const before = out.slice(0, i + 1).join("/");
    // Files of a SCORM package (on the content origin, decision 040, and from the API), build assets,
    // stored files: the rest of the path is a file name.
    if (/^(learn\/(assets|files)|scorm\/:id|api\/lms-storage\/v1\/scorm-content\/:id)$/.test(before)) {
      out.push("*");
      break;
    }
    if (out.length >= 10) break;
  }
  return `/${out.join("/")}`;
}

/** X-Unavailable of an answer, from `setHeader` or from `writeHead`'s headers (an object or a flat array). */
function unavailableHeader(res: ServerResponse, args: unknown[]): string | undefined {
  const name = UNAVAILABLE_HEADER.toLowerCase();
  const set = res.getHeader(name);
  if (typeof set === "string") return set === "database" || set === "storage" ? set : undefined;
  for (const arg of args.slice(1)) {
    let value: unknown;
    if (Array.isArray(arg)) {
      for (let i = 0; i + 1 < arg.length; i += 2) if (String(arg[i]).toLowerCase() === name) value = arg[i + 1];
    } else if (arg && typeof arg === "object")
      for (const [k, v] of Object.entries(arg)) if (k.toLowerCase() === name) value = v;
    if (value === "database" || value === "storage") return value;
  }
  return undefined;
}

const REFUSALS: Record<number, string> = { 413: "body_too_large", 414: "target_too_long", 429: "rate_limited" };

export interface MetricsSources {
  /** PostgreSQL's pool (absent on PGlite). */
  pool?: () => { total: number; idle: number; waiting: number };
  /** Rows the background jobs have still to do, by job. */
  pendingJobs?: () => Promise<Record<string, number>>;
  draining: () => boolean;
  inFlight: () => number;
  /** The database's and the storage's probes (`db_up`, `storage_up`). */
  dependencies?: DependencyProbe[];
}

export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "http_requests_total",
    help: "Requests answered, by method, route and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer (until the last byte was handed to the socket), by method and route.",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refused = new Counter({
    name: "http_requests_refused_total",
    help: "Requests refused before any work: overload (503), body too large, target too long, rate-limited.",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "http_requests_in_flight",
    help: "Requests being answered now (open event streams included).",
    registers: [registry],
    collect() {
      this.set(sources.inFlight());
    },
  });
  new Gauge({
    name: "app_draining",
    help: "1 while the node drains (SIGTERM), else 0.",
    registers: [registry],
    collect() {
      this.set(sources.draining() ? 1 : 0);
    },
  });
  if (sources.pool) {
    const pool = sources.pool;
    new Gauge({
      name: "db_pool_connections",
      help: "PostgreSQL pool connections: total, idle, and requests waiting for one.",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const p = pool();
        this.set({ state: "total" }, p.total);
        this.set({ state: "idle" }, p.idle);
        this.set({ state: "waiting" }, p.waiting);
      },
    });
  }
  for (const probe of sources.dependencies ?? []) {
    new Gauge({
      name: probe.name === "database" ? "db_up" : "storage_up",
      help: `1 when the ${probe.name} answers, else 0 (probed at most once a second).`,
      registers: [registry],
      async collect() {
        this.set((await probe.status()) === null ? 1 : 0);
      },
    });
  }
  const unavailable = new Counter({
    name: "http_requests_unavailable_total",
    help: "503 answers given because the database or the storage could not be used, by dependency.",
    labelNames: ["dependency"] as const,
    registers: [registry],
  });
  if (sources.pendingJobs) {
    const read = sources.pendingJobs;
    let cached: { at: number; value: Promise<Record<string, number>> } | null = null;
    new Gauge({
      name: "jobs_pending",
      help: "Work the background jobs have still to do (rows), by job; read at most every 10 s.",
      labelNames: ["job"] as const,
      registers: [registry],
      async collect() {
        if (!cached || Date.now() - cached.at > 10_000) cached = { at: Date.now(), value: read() };
        try {
          for (const [job, n] of Object.entries(await cached.value)) this.set({ job }, n);
        } catch (err) {
          cached = null;
          rootLog.warn({ err }, "metrics: pending jobs not read");
        }
      },
    });
  }

  return {
    registry,
    /** Times one request; its labels are known when the answer is sent. */
    track(req: IncomingMessage, res: ServerResponse): void {
      const start = process.hrtime.bigint();
      const path = req.url ?? "/";
      // Which dependency a 503 names (X-Unavailable): headers given to writeHead are not readable after.
      let down: string | undefined;
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
        if (args[0] === 503) down = unavailableHeader(res, args);
        return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
      } as typeof res.writeHead;
      res.once("finish", () => {
        const status = res.statusCode;
        const route = routeLabel(path, status);
        const method = req.method ?? "GET";
        requests.inc({ method, route, status: String(status) });
        duration.observe({ method, route }, Number(process.hrtime.bigint() - start) / 1e9);
        // A 503 is the overload control's, unless it says the database or the storage is down.
        if (status === 503 && down) unavailable.inc({ dependency: down });
        else if (status === 503 && !HEALTH_PATHS.has(path.split("?")[0]!)) refused.inc({ reason: "overload" });
        else if (REFUSALS[status]) refused.inc({ reason: REFUSALS[status] });
      });
    },
    /** Serves `/metrics` on its own port; a port that cannot be had is logged, not fatal. */
    listen(port: number, host: string): Server {
      const server = createServer((req, res) => {
        if ((req.url ?? "").split("?")[0] !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
          res.writeHead(404, { "Content-Type": "text/plain" });
          res.end("Not found: see /metrics\n");
          return;
        }
        registry.metrics().then(
          (text) => {
            res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
            res.end(req.method === "HEAD" ? undefined : text);
          },
          (err: unknown) => {
            rootLog.error({ err }, "metrics: collection failed");
            res.writeHead(500, { "Content-Type": "text/plain" });
            res.end("metrics collection failed\n");
          },
        );
      });
      server.on("error", (err) => rootLog.error({ err, port, host }, "metrics: could not listen; no metrics served"));
      server.listen(port, host, () => rootLog.info({ url: `http://${host}:${port}/metrics` }, "metrics: serving"));
      return server;
    },
  };
}
