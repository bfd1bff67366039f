/**
 * Forwarding the collector's events to ANALYTICS_URL (issue 16 item 8, decision 029): batches of at
 * most 50 posted as JSON, in order, from a bounded queue (the oldest are dropped past 1,000, and said),
 * retried with exponential backoff on a network failure, a 5xx or a 429; never in the way of a request —
 * the collector answers as soon as the events are stored.
 */
import { log } from "./db/log";

interface ForwarderOptions {
  maxQueue?: number;
  batchSize?: number;
  attempts?: number;
  /** The first retry's wait; each next one doubles it. */
  backoffMs?: number;
  timeoutMs?: number;
}

export function createForwarder(url: string, options: ForwarderOptions = {}) {
  const { maxQueue = 1000, batchSize = 50, attempts = 5, backoffMs = 500, timeoutMs = 5000 } = options;
  const queue: unknown[] = [];
  /** How many events at the head of the queue are being sent (never dropped while in flight). */
  let inFlight = 0;
  let running: Promise<void> | null = null;

  async function send(batch: unknown[]): Promise<boolean> {
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ events: batch }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (res.ok) return true;
        // A refusal of the batch itself will not change on a retry.
        if (res.status < 500 && res.status !== 429) return false;
      } catch {
        // The network or the timeout: try again.
      }
    }
    return false;
  }

  async function drain() {
    while (queue.length > 0) {
      const batch = queue.slice(0, batchSize);
      inFlight = batch.length;
      const sent = await send(batch);
      queue.splice(0, batch.length);
      inFlight = 0;
      if (!sent) log().warn({ events: batch.length, to: new URL(url).origin }, "analytics: events not forwarded");
    }
  }

  return {
    enqueue(events: unknown[]) {
      for (const event of events) queue.push(event);
      const over = queue.length - maxQueue;
      if (over > 0) {
        queue.splice(inFlight, over);
        log().warn({ dropped: over }, "analytics: forwarding queue full, oldest events dropped");
      }
      running ??= drain().finally(() => (running = null));
    },
    /** Resolves when the queue is empty (tests, shutdown). */
    idle: () => running ?? Promise.resolve(),
  };
}

type Forwarder = ReturnType<typeof createForwarder>;
const forwarders = new WeakMap<object, Forwarder>();

/** One forwarder per API instance (its deps), or null without ANALYTICS_URL. */
export function forwarderOf(deps: { analyticsUrl?: string }): Forwarder | null {
  if (!deps.analyticsUrl) return null;
  let f = forwarders.get(deps);
  if (!f) forwarders.set(deps, (f = createForwarder(deps.analyticsUrl)));
  return f;
}
