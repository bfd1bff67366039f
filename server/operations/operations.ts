/**
 * What an operator needs of every node (decision 037), put together for server.ts in one place:
 * health endpoints answered before anything else, a request id and a log line for every request,
 * Prometheus metrics on a port of their own, and a drain on SIGTERM/SIGINT.
 *
 * Configuration (the README's table): METRICS_PORT (9464; 0 = off), METRICS_HOST (127.0.0.1),
 * DRAIN_DELAY_MS (0), DRAIN_TIMEOUT_MS (10000), LOG_LEVEL (info).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { DEFAULT_DRAIN, Drain } from "./drain";
import { healthEndpoints, type ReadinessCheck } from "./health";
import { inRequest, requestIdFrom, rootLog, withRequestIdHeader } from "../../app/services/logger.server";
import { createMetrics, DEFAULT_METRICS_PORT, type MetricsSources } from "./metrics";

export interface OperationsOptions {
  env: Record<string, string | undefined>;
  /** The database half of readiness: null when ready, else why not. */
  databaseNotReady: () => Promise<string | null>;
  pool?: MetricsSources["pool"];
  pendingJobs?: MetricsSources["pendingJobs"];
  /** The database's and the storage's probes (decision 053). */
  dependencies?: MetricsSources["dependencies"];
  /** The storage's part in readiness. */
  storage?: ReadinessCheck["storage"];
  /** Runs last when draining: close the database. */
  close: () => Promise<void>;
}

function envNumber(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got "${value}"`);
  return n;
}

/**
 * A budget for the lines of 503 answers (refused for overload, or while the database is not ready):
 * a storm brings them by the hundred a second, each costing the node CPU it needs for the requests
 * it serves and drowning the lines that matter. The first `perSecond` of each second are written
 * one by one; the rest are counted, and a second after the first one left out `summarize` is told
 * how many (decision 038, addendum 12). Returns whether this answer gets its line.
 */
export function refusalLineBudget(
  perSecond: number,
  summarize: (notLogged: number) => void,
  now: () => number = () => performance.now(),
): () => boolean {
  let windowStart = -Infinity;
  let written = 0;
  let notLogged = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    if (notLogged > 0) summarize(notLogged);
    notLogged = 0;
  };
  return () => {
    const t = now();
    if (t - windowStart >= 1_000) {
      windowStart = t;
      written = 0;
    }
    if (written < perSecond) {
      written++;
      return true;
    }
    notLogged++;
    if (!timer) {
      timer = setTimeout(flush, 1_000);
      timer.unref();
    }
    return false;
  };
}

/** 503 lines written one by one per second (`refusalLineBudget`). */
const REFUSAL_LINES_PER_SECOND = 20;

export function createOperations(options: OperationsOptions) {
  const { env } = options;
  const drain = new Drain({
    delayMs: envNumber(env, "DRAIN_DELAY_MS", DEFAULT_DRAIN.delayMs),
    timeoutMs: envNumber(env, "DRAIN_TIMEOUT_MS", DEFAULT_DRAIN.timeoutMs),
  });
  const metricsPort = envNumber(env, "METRICS_PORT", DEFAULT_METRICS_PORT);
  const metricsHost = env.METRICS_HOST || "127.0.0.1";
  const health = healthEndpoints({
    database: options.databaseNotReady,
    draining: () => drain.draining,
    storage: options.storage,
  });
  const metrics = createMetrics({
    pool: options.pool,
    pendingJobs: options.pendingJobs,
    dependencies: options.dependencies,
    draining: () => drain.draining,
    inFlight: () => drain.inFlight,
  });
  let metricsServer: Server | null = null;
  const refusalLine = refusalLineBudget(REFUSAL_LINES_PER_SECOND, (notLogged) =>
    rootLog.warn({ status: 503, notLogged }, "503 answers in the last second beyond those logged one by one"),
  );

  return {
    /** Aborted when the drain starts (the load context's `shutdown`: event streams end on it). */
    shutdown: drain.shutdown,
    /** The LMS transport with the request id on every call. */
    withRequestId: withRequestIdHeader,
    /**
     * The front of every request: health checks are answered here; anything else gets its id, is
     * counted, timed and logged, and runs `handle` in its request scope.
     */
    serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
      return (req: IncomingMessage, res: ServerResponse) => {
        if (health(req, res)) return;
        const id = requestIdFrom(req.headers["x-request-id"]);
        req.headers["x-request-id"] = id;
        res.setHeader("X-Request-Id", id);
        drain.track(req, res);
        metrics.track(req, res);
        const started = performance.now();
        res.once("finish", () => {
          if (res.statusCode === 503 && !refusalLine()) return;
          rootLog.info(
            {
              reqId: id,
              method: req.method,
              path: (req.url ?? "/").split("?")[0]!.slice(0, 300),
              status: res.statusCode,
              ms: Math.round((performance.now() - started) * 10) / 10,
            },
            "request",
          );
        });
        inRequest(id, () => handle(req, res));
      };
    },
    /** Starts the metrics port, and drains `server` on SIGTERM or SIGINT (a second signal exits at once). */
    start(server: Server) {
      if (metricsPort > 0) metricsServer = metrics.listen(metricsPort, metricsHost);
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        process.on(signal, () => {
          if (drain.draining) {
            rootLog.warn({ signal }, "drain: second signal, exiting now");
            process.exit(1);
          }
          rootLog.info({ signal }, "drain: signal received");
          void drain
            .run(server, async () => {
              metricsServer?.close();
              await options.close();
            })
            .finally(() => process.exit(0));
        });
      }
    },
  };
}
