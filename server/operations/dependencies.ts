/**
 * Whether the database and the storage answer now (decision 053): one
 * probe each, run at most once a second whoever asks — readiness (`/readyz`), the metrics (`db_up`,
 * `storage_up`) and the pages, which answer 503 "temporarily unavailable" rather than an error while
 * what they need is down. A change of state is one line of the log ("database unreachable",
 * "database reachable again after 31.2 s"), not one per request.
 */
import { rootLog } from "../../app/services/logger.server";
import { reasonOf } from "../../api/db/wait";

export interface ProbeOptions {
  /** A result is reused for this long. */
  everyMs?: number;
  /** A check that takes longer counts as down. */
  timeoutMs?: number;
  now?: () => number;
  /** Where the changes of state are written (the root logger by default). */
  log?: { warn(fields: object, msg: string): void; info(fields: object, msg: string): void };
}

export class DependencyProbe {
  private last: { at: number; result: Promise<string | null> } | null = null;
  private state: { up: boolean; since: number } | null = null;
  private readonly everyMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly log: NonNullable<ProbeOptions["log"]>;

  constructor(
    readonly name: "database" | "storage",
    private readonly check: () => Promise<unknown>,
    options: ProbeOptions = {},
  ) {
    this.everyMs = options.everyMs ?? 1_000;
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.now = options.now ?? (() => Date.now());
    this.log = options.log ?? rootLog;
  }

  /** Null when it answers, else why not; checked at most every `everyMs`. */
  status(): Promise<string | null> {
    const t = this.now();
    if (!this.last || t - this.last.at >= this.everyMs) this.last = { at: t, result: this.run(t) };
    return this.last.result;
  }

  /** Whether the last check (if recent) found it down, without checking: pages ask it on every request. */
  knownDown(): boolean {
    return this.state !== null && !this.state.up && this.last !== null && this.now() - this.last.at < this.everyMs * 5;
  }

  /** A failure seen elsewhere (a query, a read) asks for a check now rather than at the next second. */
  async downNow(): Promise<boolean> {
    if (this.last && this.now() - this.last.at >= 100) this.last = null;
    return (await this.status()) !== null;
  }

  private async run(at: number): Promise<string | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reason = await Promise.race([
      this.check().then(
        () => null,
        (err: unknown) => describe(err),
      ),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${this.timeoutMs} ms`), this.timeoutMs);
        timer.unref?.();
      }),
    ]).finally(() => clearTimeout(timer));
    this.record(reason, at);
    return reason;
  }

  private record(reason: string | null, at: number) {
    const up = reason === null;
    if (this.state?.up === up) return;
    const previous = this.state;
    this.state = { up, since: at };
    if (!up) this.log.warn({ dependency: this.name, reason }, `${this.name}: unreachable`);
    else if (previous)
      this.log.info(
        { dependency: this.name, downMs: at - previous.since },
        `${this.name}: reachable again after ${((at - previous.since) / 1000).toFixed(1)} s`,
      );
  }
}

function describe(err: unknown): string {
  const e = err as { reason?: unknown; message?: unknown; cause?: { message?: unknown } };
  if (typeof e?.reason === "string") return e.reason;
  // A query's failure: the driver's own message (drizzle's says only "Failed query: …").
  const inner = /^Failed query/.test(String(e?.message)) && typeof e?.cause?.message === "string" ? e.cause : e;
  const message = typeof inner?.message === "string" ? inner.message.split("\n")[0]!.slice(0, 200) : String(err);
  const code = reasonOf(err);
  return message.includes(code) ? message : `${code}: ${message}`;
}
