/**
 * A PGlite client whose database runs in a worker thread (`pglite-worker.mjs`), shaped like the
 * part of PGlite that drizzle's pglite driver uses: `query`, `exec`, `transaction`, `close`.
 * See docs/decisions/011-database-thread.md.
 */
import { Worker } from "node:worker_threads";
import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";
import type {
  BodyChunk,
  FetchReply,
  FromThread,
  PullReply,
  SerializedError,
  ThreadBodyPull,
  ThreadCommand,
  ThreadNotification,
  ThreadReply,
  ToThread,
} from "./thread-protocol";

interface Queryable {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

/** An error from the worker, with PostgreSQL's fields (code, detail, constraint…) kept. */
function revive(error: SerializedError): Error {
  const out = new Error(error.message);
  for (const [key, value] of Object.entries(error)) {
    if (key === "message" || key === "stack") continue;
    (out as unknown as Record<string, unknown>)[key] = value;
  }
  if (typeof error.stack === "string")
    out.stack = `${out.stack}\n    --- in the database thread ---\n${error.stack.split("\n").slice(1).join("\n")}`;
  return out;
}

export class PGliteThread implements Queryable {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #channels = new Map<string, Set<(payload: string) => void>>();
  /** Request bodies the thread reads on demand: id → reader (issue 29 item 2). */
  readonly #requestBodies = new Map<number, ReadableStreamDefaultReader<Uint8Array>>();
  #nextRequestBody = 1;
  #next = 1;
  #closed: Error | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /**
   * Starts the thread and opens `dataDir` ("memory://" for a database in memory). `preload`: the URL
   * of the module the thread will host, loaded as soon as the database is open.
   */
  static async create(dataDir: string, options: { slowMs?: number; preload?: string } = {}): Promise<PGliteThread> {
    const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), {
      workerData: { dataDir, slowMs: options.slowMs, preload: options.preload },
    });
    const client = new PGliteThread(worker);
    const ready = new Promise<void>((resolve, reject) => {
      client.#pending.set(0, { resolve: () => resolve(), reject });
    });
    worker.on("message", (reply: FromThread) => {
      if ("notification" in reply) client.#notify(reply.notification);
      else if ("bodyPull" in reply) void client.#pullRequestBody(reply.bodyPull);
      else client.#settle(reply);
    });
    worker.on("error", (error) => client.#fail(error));
    worker.on("exit", (code) => client.#fail(new Error(`the database thread stopped (exit code ${code})`)));
    await ready;
    // Like a pooled socket to a database server: an idle client does not keep the process alive,
    // a client waiting for an answer does.
    worker.unref();
    return client;
  }

  #settle(reply: ThreadReply) {
    const waiting = this.#pending.get(reply.id);
    if (!waiting) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(revive(reply.error));
  }

  #notify({ channel, payload }: ThreadNotification["notification"]) {
    for (const callback of this.#channels.get(channel) ?? []) callback(payload);
  }

  /** LISTEN in the database thread: its PGlite delivers NOTIFYs in process, and the thread passes them on. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => void> {
    let callbacks = this.#channels.get(channel);
    if (!callbacks) {
      callbacks = new Set();
      this.#channels.set(channel, callbacks);
      await this.#send({ op: "listen", channel });
    }
    callbacks.add(callback);
    return () => void callbacks.delete(callback);
  }

  #fail(error: Error) {
    this.#closed ??= error;
    for (const waiting of this.#pending.values()) waiting.reject(error);
    this.#pending.clear();
  }

  #send<T>(message: ThreadCommand): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...message, id } satisfies ToThread);
    });
  }

  /**
   * Starts a request handler in the database thread (decision 012; the LMS API, `api/app-thread.ts`):
   * the thread imports `module` and calls its `createThreadHandler(client, options)` with a PGlite-shaped
   * client of its own; then `fetch` reaches the handler. `options` must survive a structured clone.
   */
  host(module: URL, options: unknown): Promise<void> {
    return this.#send({ op: "host", module: module.href, options });
  }

  /**
   * The next chunk of a request body the thread reads, sent when the thread asks for it: nothing of a
   * body is read before the API's handler reads it (after its sign-in and permission checks), and a
   * body never piles up whole in either thread (issue 29 item 2).
   */
  async #pullRequestBody({ stream, seq }: ThreadBodyPull["bodyPull"]) {
    const reader = this.#requestBodies.get(stream);
    let message: BodyChunk;
    const transfer: ArrayBuffer[] = [];
    try {
      const step = reader ? await reader.read() : { done: true as const, value: undefined };
      if (step.done) {
        this.#requestBodies.delete(stream);
        message = { op: "body", seq, done: true };
      } else {
        // A copy owns its buffer, so it can be transferred (stream chunks may share a pooled one).
        const chunk = new Uint8Array(step.value).buffer;
        transfer.push(chunk);
        message = { op: "body", seq, done: false, chunk };
      }
    } catch (error) {
      this.#requestBodies.delete(stream);
      message = { op: "body", seq, error: error instanceof Error ? error.message : String(error) };
    }
    if (!this.#closed) this.#worker.postMessage(message satisfies ToThread, transfer);
  }

  /** Lets go of a request body the API did not read to its end (a refusal, an error). */
  #releaseRequestBody(stream: number | undefined) {
    if (stream === undefined) return;
    const reader = this.#requestBodies.get(stream);
    this.#requestBodies.delete(stream);
    void reader?.cancel().catch(() => undefined);
  }

  /**
   * One request to the API in the database thread. Its body crosses as the API reads it, one chunk
   * per pull (never read here first: an anonymous upload is refused before a byte of it is read). JSON
   * and text answers arrive whole; other bodies (files) stream, one chunk per pull, so a slow reader
   * never piles up a file in memory.
   */
  async fetch(request: Request): Promise<Response> {
    let bodyStream: number | undefined;
    if (request.body) {
      bodyStream = this.#nextRequestBody++;
      this.#requestBodies.set(bodyStream, request.body.getReader());
    }
    let reply: FetchReply;
    try {
      reply = await this.#send<FetchReply>({
        op: "fetch",
        method: request.method,
        url: request.url,
        headers: [...request.headers],
        bodyStream,
      });
    } finally {
      // The answer is decided: what the API did not read of the body is not read at all.
      this.#releaseRequestBody(bodyStream);
    }
    const init = { status: reply.status, headers: reply.headers };
    if (reply.stream === undefined) return new Response(reply.body, init);
    const stream = reply.stream;
    return new Response(
      new ReadableStream<Uint8Array>(
        {
          pull: async (controller) => {
            const next = await this.#send<PullReply>({ op: "pull", stream });
            if (next.done) controller.close();
            else controller.enqueue(new Uint8Array(next.chunk));
          },
          cancel: async () => {
            await this.#send({ op: "cancel", stream }).catch(() => undefined);
          },
        },
        { highWaterMark: 0 },
      ),
      init,
    );
  }

  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number): Promise<Results<T>> {
    // Drizzle's parsers (text for dates and intervals) are applied in the worker; functions do not cross threads.
    return this.#send({ op: "query", sql, params, rowMode: options.rowMode ?? "object", tx });
  }

  exec(sql: string, _options?: QueryOptions, tx?: number): Promise<Results[]> {
    return this.#send({ op: "exec", sql, tx });
  }

  /**
   * Runs `callback` in one transaction: committed when it resolves, rolled back when it throws.
   * While it is open the database runs only its statements (PGlite has one connection).
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.#send<number>({ op: "begin" });
    let closed = false;
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => this.query<R>(sql, params, options, id),
      exec: (sql: string, options?: QueryOptions) => this.exec(sql, options, id),
      sql: () => Promise.reject(new Error("tagged-template queries are not supported across threads")),
      listen: () => Promise.reject(new Error("listen is not supported across threads")),
      rollback: async () => {
        throw new Error("use a thrown error to roll back");
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      closed = true;
      await this.#send({ op: "end", tx: id, commit: false }).catch(() => undefined);
      throw error;
    }
    closed = true;
    await this.#send({ op: "end", tx: id, commit: true });
    return result;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#send({ op: "close" }).catch(() => undefined);
    this.#fail(new Error("the database is closed"));
    await this.#worker.terminate();
  }

  /** Drizzle's pglite driver types its client as PGlite; this object provides what it calls. */
  asPGlite(): PGlite {
    return this as unknown as PGlite;
  }
}
