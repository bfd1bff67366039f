/**
 * Draining on SIGTERM (decision 037): a node that is told to stop finishes what it started and takes
 * nothing new, so a rolling restart behind a proxy loses no request.
 *
 * 1. Readiness answers "not ready" at once (`draining`), and every answer from now on says
 *    `Connection: close`, so neither a proxy nor a browser sends another request on it.
 * 2. After `delayMs` (DRAIN_DELAY_MS: time for a load balancer that polls readiness to take the node
 *    out; 0 behind nginx, which moves on when a connection is refused) the listening socket closes and
 *    idle keep-alive connections with it.
 * 3. Event streams end with a retry hint (`shutdown` is aborted): browsers reconnect, through the
 *    proxy, to another node, and resume from their last event id.
 * 4. Requests in flight get up to `timeoutMs` (DRAIN_TIMEOUT_MS) to finish; then what is left is cut.
 * 5. `cleanup` runs (the database is closed), and the process exits. A second signal exits at once.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { rootLog } from "../../app/services/logger.server";

export const DEFAULT_DRAIN = { delayMs: 0, timeoutMs: 10_000 };

export class Drain {
  private readonly open = new Set<ServerResponse>();
  private readonly controller = new AbortController();
  private started = false;
  private idle: (() => void) | null = null;
  private server: Server | null = null;

  constructor(private readonly options: { delayMs: number; timeoutMs: number }) {}

  /** Aborted when draining starts: event streams end on it. */
  get shutdown(): AbortSignal {
    return this.controller.signal;
  }

  get draining(): boolean {
    return this.started;
  }

  /** Requests being answered now. */
  get inFlight(): number {
    return this.open.size;
  }

  /** Counts a request until its answer is sent or its connection closes. */
  track(_req: IncomingMessage, res: ServerResponse): void {
    if (this.started) res.setHeader("Connection", "close");
    this.open.add(res);
    const done = () => {
      this.open.delete(res);
      // A keep-alive connection that just went idle is closed at once, not at its timeout.
      if (this.started) setImmediate(() => this.server?.closeIdleConnections());
      if (this.open.size === 0) this.idle?.();
    };
    res.once("finish", done);
    res.once("close", done);
  }

  /** Starts draining `server`; resolves when it is done (the caller exits). */
  async run(server: Server, cleanup: () => Promise<void>): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.server = server;
    const started = Date.now();
    rootLog.info({ inFlight: this.open.size, ...this.options }, "drain: started, readiness says not ready");
    for (const res of this.open) if (!res.headersSent) res.setHeader("Connection", "close");
    if (this.options.delayMs > 0) await new Promise((r) => setTimeout(r, this.options.delayMs));
    const closed = new Promise<void>((r) => server.close(() => r()));
    server.closeIdleConnections();
    this.controller.abort();
    const finished = this.open.size === 0 ? true : await this.settle();
    if (!finished) {
      rootLog.warn({ cut: this.open.size }, "drain: requests still in flight after the timeout are cut");
      server.closeAllConnections();
    }
    await closed;
    try {
      await cleanup();
    } catch (err) {
      rootLog.error({ err }, "drain: clean-up failed");
    }
    rootLog.info({ ms: Date.now() - started }, "drain: done");
  }

  /** True when every request finished within the timeout. */
  private settle(): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.open.size === 0), this.options.timeoutMs);
      this.idle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}
