/**
 * The messages between the main thread (`pglite-thread.ts`) and the database thread
 * (`pglite-worker.mjs`, which imports these types through JSDoc and is type-checked against them by
 * `tsconfig.workers.json`). Two protocols cross the one `postMessage`: SQL (query, exec, transactions,
 * LISTEN) and HTTP (the hosted LMS API's requests, with their bodies pulled chunk by chunk in both
 * directions). Everything here survives a structured clone; buffers are transferred, not copied.
 */

/** What the main thread asks; `id` pairs the request with its `ThreadReply`. */
export type ThreadRequest = { id: number } & (
  | { op: "query"; sql: string; params: unknown[]; rowMode: "object" | "array"; tx?: number }
  | { op: "exec"; sql: string; tx?: number }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "listen"; channel: string }
  /** Imports `module` and calls its `createThreadHandler(client, options)`: the LMS API beside the database. */
  | { op: "host"; module: string; options: unknown }
  /** One request to the hosted API; `bodyStream` names a request body the thread pulls with `ThreadBodyPull`. */
  | { op: "fetch"; method: string; url: string; headers: [string, string][]; bodyStream?: number }
  /** The next chunk of an answer's body (`FetchReply.stream`). */
  | { op: "pull"; stream: number }
  | { op: "cancel"; stream: number }
  | { op: "close" }
);

/** A request without its id, as the main thread writes it before numbering it. */
export type ThreadCommand = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/** A chunk of a request body the thread asked for (`ThreadBodyPull`): sent by the main thread, unnumbered. */
export type BodyChunk =
  | { op: "body"; seq: number; done: true }
  | { op: "body"; seq: number; done: false; chunk: ArrayBuffer }
  | { op: "body"; seq: number; error: string };

/** Everything the main thread posts to the database thread. */
export type ToThread = ThreadRequest | BodyChunk;

/** An error as it crosses: PostgreSQL's fields (code, detail, constraint…) kept as strings or numbers. */
export type SerializedError = Record<string, unknown> & { message: string; name?: string; stack?: string };

/** The answer to the request of the same id; id 0 is the thread's "ready" (or its failure to open). */
export type ThreadReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError };

/** A NOTIFY the thread's PGlite delivered on a channel the main thread listens to. */
export type ThreadNotification = { notification: { channel: string; payload: string } };

/** The thread asks for the next chunk of a request's body: bodies cross as the API reads them. */
export type ThreadBodyPull = { bodyPull: { stream: number; seq: number } };

/** Everything the database thread posts to the main thread. */
export type FromThread = ThreadReply | ThreadNotification | ThreadBodyPull;

/** The result of `fetch`: JSON and text bodies whole, other bodies as a stream to `pull`. */
export type FetchReply = { status: number; headers: [string, string][]; body?: ArrayBuffer | null; stream?: number };

/** The result of `pull`. */
export type PullReply = { done: true } | { done: false; chunk: ArrayBuffer };

/** What drizzle reads of a statement's result (the result of `query`, each result of `exec`). */
export interface StatementResult {
  rows: unknown[];
  affectedRows?: number;
  fields: { name: string; dataTypeID: number }[];
}
