/**
 * PGlite in its own thread (docs/decisions/011-database-thread.md), with its data statements
 * prepared and, when started, the LMS API beside it (docs/decisions/012-api-thread-and-prepared-statements.md).
 *
 * PGlite is PostgreSQL compiled to WebAssembly: it runs every statement, and decodes every result
 * row, synchronously on the thread that owns it. In the server's main thread that work competed
 * with rendering; here it runs beside it. The main thread talks to this worker through
 * `pglite-thread.ts`, which looks like a PGlite client to drizzle.
 *
 * The messages in and out are the types of `thread-protocol.ts` (both sides import them; this file
 * is type-checked against them by `tsconfig.workers.json`).
 *
 * Plain JavaScript so that it loads in any Node process (tsx, vitest, plain node) without a loader;
 * `host` (decision 012) imports the module it names (the LMS API's `api/app-thread.ts`), registering
 * tsx in this thread if the module is TypeScript and no loader runs here. This room imports nothing
 * of the API: what it hosts comes in the message.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, types, parse as pgParse, protocol } from "@electric-sql/pglite";
import { Parser as ProtocolParser } from "pg-protocol/dist/parser.js";
import pino from "pino";
import { pgliteOptions } from "./pglite-options.mjs";

/** Slow statements (DB_SLOW_MS) as JSON lines, like every other log line (decision 037). */
const slowLog = pino(
  { base: { pid: process.pid, thread: "database" }, formatters: { level: (label) => ({ level: label }) } },
  pino.destination({ fd: 1, sync: true }),
);

if (!parentPort) throw new Error("pglite-worker.mjs runs as a worker thread");
const port = parentPort;

/**
 * @typedef {import("./thread-protocol").ToThread} ToThread
 * @typedef {import("./thread-protocol").ThreadRequest} ThreadRequest
 * @typedef {import("./thread-protocol").BodyChunk} BodyChunk
 * @typedef {import("./thread-protocol").FromThread} FromThread
 * @typedef {import("./thread-protocol").FetchReply} FetchReply
 * @typedef {import("./thread-protocol").PullReply} PullReply
 * @typedef {import("./thread-protocol").SerializedError} SerializedError
 * @typedef {import("./thread-protocol").StatementResult} StatementResult
 */

/**
 * Posts to the main thread; buffers in `transfer` move instead of being copied.
 * @param {FromThread} message
 * @param {ArrayBuffer[]} [transfer]
 */
const send = (message, transfer = []) => port.postMessage(message, transfer);

// Drizzle reads dates, times and intervals as the text PostgreSQL sends (drizzle-orm/pglite/session.js).
const identity = (value) => value;
const parsers = {
  [types.TIMESTAMP]: identity,
  [types.TIMESTAMPTZ]: identity,
  [types.INTERVAL]: identity,
  [types.DATE]: identity,
  1231: identity, // numeric[]
  1115: identity, // timestamp[]
  1185: identity, // timestamptz[]
  1187: identity, // interval[]
  1182: identity, // date[]
};

// Prepared statements keep one generic plan instead of planning each run again (decision 012):
// the app's statements are short lookups on ids, user and tenant, for which the generic plan is the
// custom one, and planning cost more than executing (2.5 of 6 ms for a page of My courses).
// PGLITE_PLAN_CACHE_MODE=auto restores PostgreSQL's own choice.
const PLAN_CACHE_MODES = new Set(["auto", "force_generic_plan", "force_custom_plan"]);
const planCacheMode = process.env.PGLITE_PLAN_CACHE_MODE || "force_generic_plan";
if (!PLAN_CACHE_MODES.has(planCacheMode))
  throw new Error(`PGLITE_PLAN_CACHE_MODE must be one of ${[...PLAN_CACHE_MODES].join(", ")}`);
/** @type {PGlite} */
let db;
/** The reader of each type the app reads (PGlite's, with the overrides above), for `readRows`. */
let columnParsers;
try {
  db = await PGlite.create(workerData.dataDir, pgliteOptions());
} catch (error) {
  send({ id: 0, ok: false, error: serializeError(error) });
  process.exit(1);
}

await db.exec(`set plan_cache_mode = ${planCacheMode}`);
columnParsers = { ...db.parsers, ...parsers };

/** Open transactions: id → { tx, finish: { resolve, reject }, settled }. */
const transactions = new Map();
/** The reason a transaction callback throws to make PGlite roll back. */
const ROLLBACK = Symbol("rollback");
let nextTx = 1;

/**
 * @param {unknown} error
 * @returns {SerializedError}
 */
function serializeError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  // DatabaseError carries code, detail, constraint…: keep every own field.
  /** @type {SerializedError} */
  const out = { message: error.message, name: error.name, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function") continue;
    out[key] = typeof value === "object" && value !== null ? String(value) : value;
  }
  return out;
}

/** The connection a message runs on: the open transaction it names, or the database. */
function target(message) {
  if (message.tx === undefined) return db;
  const open = transactions.get(message.tx);
  if (!open) throw new Error(`transaction ${message.tx} is not open`);
  return open.tx;
}

/** @returns {StatementResult} */
function strip(result) {
  // Only what drizzle reads; fields keep name and type so callers can map rows.
  return {
    rows: result.rows,
    affectedRows: result.affectedRows,
    fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  };
}

/** DB_SLOW_MS: statements that take at least this long are logged (operators' first look at the database). */
const slowMs = Number.isFinite(workerData.slowMs) ? workerData.slowMs : null;

// ---------------------------------------------------------------------------------------------
// Prepared statements (decision 012)
//
// PGlite's query() runs every statement as an unnamed one: PostgreSQL parses and plans it each
// time, and PGlite steps through the protocol in five separate calls into WebAssembly. Planning
// the My courses page query alone took 3–5 ms of its 8. Data statements (select, insert, update,
// delete, with) are therefore parsed once as named statements; each run is then one Bind, Execute,
// Sync batch, and PostgreSQL keeps the plan (a generic one once it is no worse than custom ones).
// Statements are not transactional, so they survive rollbacks; DDL clears the cache, and a
// statement PostgreSQL refuses to reuse ("cached plan must not change result type") is parsed again.
// ---------------------------------------------------------------------------------------------

const { serialize } = protocol;
const PREPARABLE = /^\s*(select|with|insert|update|delete|values)\b/i;
const PLAIN_READ = /^\s*select\b/i;
/** Statements after which cached plans and descriptions may be stale. */
const SCHEMA_CHANGE =
  /^\s*(create|alter|drop|truncate|comment|reindex|cluster|grant|revoke|import|set\s+search_path)\b/i;
/** Most statements kept at once (the app has about a hundred distinct ones; filters add shapes). */
const STATEMENT_LIMIT = 500;
/** sql → { name, paramTypes, rowDescription }; Map order is least recently used first. */
const statements = new Map();
/** Names of statements dropped from the cache, closed before the next Parse. */
let toClose = [];
let nextStatement = 1;

function batch(parts) {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function forgetStatements() {
  for (const statement of statements.values()) toClose.push(statement.name);
  statements.clear();
}

/** The statement for `sql`, parsed (and described) on first use. Runs inside the query mutex. */
async function statementFor(sql) {
  const known = statements.get(sql);
  if (known) {
    statements.delete(sql);
    statements.set(sql, known);
    return known;
  }
  const parts = toClose.map((name) => serialize.close({ type: "S", name }));
  toClose = [];
  const name = `s${nextStatement++}`;
  parts.push(serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync());
  const messages = await db.execProtocolStream(batch(parts), { syncToFs: false });
  const rowDescription = /** @type {import("pg-protocol/dist/messages").RowDescriptionMessage | null} */ (
    messages.find((m) => m.name === "rowDescription") ?? null
  );
  const fields = rowDescription ? rowDescription.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) : [];
  const statement = {
    name,
    paramTypes: pgParse.parseDescribeStatementResults(messages),
    rowDescription,
    // A read that cannot NOTIFY: its answer is read by `readRows` (a write may fire a trigger that
    // notifies, which PGlite's own parser hands to this thread's listeners).
    plainRead: PLAIN_READ.test(sql) && !/notify/i.test(sql),
    fields,
    // Each column's reader, looked up once here rather than for every value of every row.
    readers: fields.map((f) => columnParsers[f.dataTypeID] ?? null),
  };
  statements.set(sql, statement);
  if (statements.size > STATEMENT_LIMIT) {
    const [oldest, dropped] = /** @type {[string, { name: string }]} */ (statements.entries().next().value);
    statements.delete(oldest);
    toClose.push(dropped.name);
  }
  return statement;
}

async function runPrepared(statementSql, params, rowMode, inTransaction, retried = false) {
  const statement = await statementFor(statementSql);
  const values = (params ?? []).map((param, i) => {
    if (param === null || param === undefined) return null;
    const serializer = db.serializers[statement.paramTypes[i]];
    return serializer ? serializer(param) : param.toString();
  });
  let result;
  try {
    const bound = batch([
      serialize.bind({ statement: statement.name, values }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    if (statement.plainRead) result = await readRows(statement, bound, rowMode);
    else {
      const messages = await db.execProtocolStream(bound, { syncToFs: false });
      const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
      result = pgParse.parseResults(described, db.parsers, { rowMode, parsers })[0];
    }
  } catch (error) {
    // After DDL, PostgreSQL refuses a cached plan whose result columns changed: parse it again,
    // unless a transaction is open (the error has aborted it; the caller sees the error).
    if (!retried && /** @type {{ code?: string }} */ (error)?.code === "0A000" && !inTransaction) {
      statements.delete(statementSql);
      toClose.push(statement.name);
      return runPrepared(statementSql, params, rowMode, inTransaction, true);
    }
    throw error;
  }
  if (!inTransaction) await db.syncToFs();
  return result;
}

/**
 * The answer of a read (a prepared statement's Bind, Execute, Sync: `bound`), parsed by
 * node-postgres's protocol parser (decision 038, addendum 9). PGlite's own parser copies every field
 * of every row into an ArrayBuffer of its own before decoding it: a third of this thread's time on a
 * page of the catalog. PGlite's raw call hands over the answer's bytes as they are; the first error
 * is thrown once the answer is read, as PGlite's parser does.
 */
async function readRows(statement, bound, rowMode) {
  const parser = new ProtocolParser();
  const { fields, readers } = statement;
  const rows = [];
  let affectedRows = 0;
  let error = null;
  const onMessage = (message) => {
    if (message.name === "dataRow") {
      const raw = message.fields;
      const row = rowMode === "array" ? new Array(raw.length) : {};
      for (let i = 0; i < raw.length; i++) {
        const text = raw[i];
        const read = readers[i];
        const value = text === null ? null : read ? read(text, fields[i].dataTypeID) : text;
        if (rowMode === "array") row[i] = value;
        else row[fields[i].name] = value;
      }
      rows.push(row);
    } else if (message.name === "commandComplete") {
      const words = message.text.split(" ");
      if (AFFECTING.has(words[0])) affectedRows += Number.parseInt(words.at(-1), 10) || 0;
    } else if (message.name === "error") error ??= message;
  };
  await db.execProtocolRawStream(bound, {
    syncToFs: false,
    // The bytes are a view of PGlite's memory, reused after this call: the parser reads a copy.
    onRawData: (data) => parser.parse(Buffer.from(data), onMessage),
  });
  if (error) throw error;
  return { rows, affectedRows, fields };
}

/** The commands whose count PostgreSQL reports as rows changed. */
const AFFECTING = new Set(["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"]);

/** A data statement through a named prepared statement, with PGlite's own locking around it. */
function preparedQuery(statementSql, params, rowMode, inTransaction) {
  const run = () =>
    db._runExclusiveQuery(() =>
      runPrepared(statementSql, params, rowMode, inTransaction).catch((error) => {
        // The same fields PGlite's query() adds to its errors.
        if (error && typeof error === "object") Object.assign(error, { query: statementSql, params });
        throw error;
      }),
    );
  // Inside a transaction its callback holds the transaction lock; outside, take it like query() does.
  return inTransaction ? run() : db._runExclusiveTransaction(run);
}

/**
 * One statement on the database (`tx` null) or in an open PGlite transaction: prepared when it is a
 * data statement, else through PGlite's own query(); DDL forgets the prepared statements.
 */
async function runStatement(statementSql, params, rowMode, tx) {
  const started = slowMs === null ? 0 : performance.now();
  const prepared = PREPARABLE.test(statementSql);
  const result = prepared
    ? await preparedQuery(statementSql, params, rowMode, tx !== null)
    : await (tx ?? db).query(statementSql, params, { rowMode, parsers });
  if (!prepared && SCHEMA_CHANGE.test(statementSql)) forgetStatements();
  if (slowMs !== null) {
    const ms = performance.now() - started;
    if (ms >= slowMs) {
      const text = process.env.DB_SLOW_FULL
        ? `${statementSql} -- ${JSON.stringify(params)}`
        : statementSql.replace(/\s+/g, " ").slice(0, 300);
      slowLog.warn({ ms: Number(ms.toFixed(1)), rows: result.rows.length, sql: text }, "db: slow statement");
    }
  }
  return result;
}

/** @param {Extract<ThreadRequest, { op: "query" }>} message */
async function query(message) {
  const tx = message.tx === undefined ? null : target(message);
  return strip(await runStatement(message.sql, message.params, message.rowMode, tx));
}

// ---------------------------------------------------------------------------------------------
// The embedded LMS API in this thread (decision 012)
//
// With `host`, the API's Hono app runs here, beside the database it reads: routing, token
// checks, validation, SQL building, row mapping and JSON all leave the rendering thread, and rows
// no longer cross threads (one JSON body does). The main thread sends `fetch` with the request's
// method, URL, headers and body; JSON and text answers come back whole, other bodies (files) in
// chunks the main thread pulls one at a time.
// ---------------------------------------------------------------------------------------------

/** A PGlite-shaped client for the API in this thread: the same prepared statements and locks. */
function localClient() {
  const on = (tx) => ({
    query: (statementSql, params, options = {}) =>
      runStatement(statementSql, params ?? [], options.rowMode ?? "object", tx),
    exec: async (statementSql) => {
      const results = await (tx ?? db).exec(statementSql);
      forgetStatements();
      return results;
    },
  });
  return {
    ...on(null),
    // The API here hears the same notices as the main thread (decision 019).
    listen: (channel, callback) => db.listen(channel, callback),
    transaction: (callback) =>
      db.transaction((tx) =>
        callback({
          ...on(tx),
          rollback: () => tx.rollback(),
          get closed() {
            return tx.closed;
          },
        }),
      ),
    close: async () => {},
  };
}

/** Channels whose notices go to the main thread. */
const forwarded = new Set();

/** (request: Request) => Promise<Response>, once `host` has run. */
let api = null;
/** Bodies being pulled by the main thread: id → reader. */
const bodies = new Map();
let nextBody = 1;
const WHOLE_BODY = /json|^text\/(?!event-stream)/i;
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** @param {Extract<ThreadRequest, { op: "host" }>} message */
async function host(message) {
  let module;
  try {
    module = await import(message.module);
  } catch (error) {
    // Started without a TypeScript loader (vitest, plain node): register tsx for this thread. Node
    // 24 strips types by itself but does not resolve extensionless imports (ERR_MODULE_NOT_FOUND).
    const code = /** @type {{ code?: string }} */ (error)?.code;
    if (code !== "ERR_UNKNOWN_FILE_EXTENSION" && code !== "ERR_MODULE_NOT_FOUND") throw error;
    // (A failed import stays cached under its URL, hence the query string.)
    const { register } = await import("tsx/esm/api");
    register();
    module = await import(`${message.module}?tsx`);
  }
  api = await module.createThreadHandler(localClient(), message.options);
}

/** Chunks of request bodies asked of the main thread: seq → { resolve, reject }. */
const bodyPulls = new Map();
let nextBodyPull = 1;

/**
 * A request's body as the main thread holds it (issue 29 item 2): each read asks for one chunk, so
 * nothing is read before the API's handler reads it — after its sign-in and permission checks.
 */
function requestBody(stream) {
  const next = () =>
    new Promise((resolve, reject) => {
      const seq = nextBodyPull++;
      bodyPulls.set(seq, { resolve, reject });
      send({ bodyPull: { stream, seq } });
    });
  return new ReadableStream(
    {
      async pull(controller) {
        const step = await next();
        if (step.done) controller.close();
        else controller.enqueue(new Uint8Array(step.chunk));
      },
    },
    { highWaterMark: 0 },
  );
}

/** @param {BodyChunk} message */
function bodyChunk(message) {
  const waiting = bodyPulls.get(message.seq);
  if (!waiting) return;
  bodyPulls.delete(message.seq);
  if ("error" in message) waiting.reject(new Error(message.error));
  else waiting.resolve(message);
}

/**
 * @param {Extract<ThreadRequest, { op: "fetch" }>} message
 * @returns {Promise<FetchReply>}
 */
async function fetchApi(message) {
  if (!api) throw new Error("nothing is hosted in the database thread");
  const body = message.bodyStream === undefined ? undefined : requestBody(message.bodyStream);
  const response = await api(
    // `duplex` (a streamed body) is Node's and the fetch standard's, not yet in TypeScript's RequestInit.
    new Request(
      message.url,
      /** @type {RequestInit} */ ({ method: message.method, headers: message.headers, body, duplex: "half" }),
    ),
  );
  const head = { status: response.status, headers: [...response.headers] };
  if (!response.body || NULL_BODY_STATUS.has(response.status) || message.method === "HEAD") {
    await response.body?.cancel();
    return { ...head, body: null };
  }
  if (WHOLE_BODY.test(response.headers.get("content-type") ?? ""))
    return { ...head, body: await response.arrayBuffer() };
  const id = nextBody++;
  bodies.set(id, response.body.getReader());
  return { ...head, stream: id };
}

/**
 * @param {Extract<ThreadRequest, { op: "pull" }>} message
 * @returns {Promise<PullReply>}
 */
async function pullBody(message) {
  const reader = bodies.get(message.stream);
  if (!reader) return { done: true };
  try {
    const { done, value } = await reader.read();
    if (done) {
      bodies.delete(message.stream);
      return { done: true };
    }
    // A copy owns its buffer, so it can be transferred (stream chunks may share a pooled one).
    return { done: false, chunk: new Uint8Array(value).buffer };
  } catch (error) {
    bodies.delete(message.stream);
    throw error;
  }
}

/** @param {ThreadRequest} message */
async function handle(message) {
  switch (message.op) {
    case "query":
      return query(message);
    case "exec": {
      const results = await target(message).exec(message.sql);
      forgetStatements();
      return results.map(strip);
    }
    case "begin": {
      const id = nextTx++;
      let finish;
      const done = new Promise((resolve, reject) => (finish = { resolve, reject }));
      let started;
      const begun = new Promise((resolve) => (started = resolve));
      const settled = db.transaction(async (tx) => {
        transactions.set(id, { tx, finish, settled });
        started();
        await done;
      });
      settled.catch(() => {}); // observed by "end"
      // BEGIN itself may fail: then the transaction settles before it starts.
      await Promise.race([begun, settled]);
      return id;
    }
    case "end": {
      const open = transactions.get(message.tx);
      if (!open) throw new Error(`transaction ${message.tx} is not open`);
      if (message.commit) open.finish.resolve();
      else open.finish.reject(ROLLBACK);
      try {
        await open.settled;
      } catch (error) {
        if (error !== ROLLBACK) throw error;
      } finally {
        transactions.delete(message.tx);
      }
      return null;
    }
    case "listen":
      // The main thread's listeners of a channel (decision 019): NOTIFYs are passed on as they come.
      if (!forwarded.has(message.channel)) {
        forwarded.add(message.channel);
        await db.listen(message.channel, (payload) => send({ notification: { channel: message.channel, payload } }));
      }
      return null;
    case "host":
      return host(message);
    case "fetch":
      return fetchApi(message);
    case "pull":
      return pullBody(message);
    case "cancel": {
      const reader = bodies.get(message.stream);
      bodies.delete(message.stream);
      await reader?.cancel();
      return null;
    }
    case "close":
      for (const reader of bodies.values()) reader.cancel().catch(() => {});
      bodies.clear();
      await db.close();
      return null;
    default:
      throw new Error(`unknown operation ${/** @type {{ op?: unknown }} */ (message).op}`);
  }
}

/** Buffers in a reply move to the main thread instead of being copied. */
function transferables(result) {
  if (result === null || typeof result !== "object") return [];
  if (result.body instanceof ArrayBuffer) return [result.body];
  if (result.chunk instanceof ArrayBuffer) return [result.chunk];
  return [];
}

port.on("message", (/** @type {ToThread} */ message) => {
  if (message.op === "body") return bodyChunk(message);
  handle(message).then(
    (result) => send({ id: message.id, ok: true, result }, transferables(result)),
    (error) => send({ id: message.id, ok: false, error: serializeError(error) }),
  );
});
send({ id: 0, ok: true, result: "ready" });
// The module this thread will host (workerData.preload, the server build's API): loaded now, while the
// main thread is still loading its own modules, so `host` finds it in the module cache (decision 038,
// addendum 2). A failure is left for `host` to report: a failed import stays cached under its URL.
if (typeof workerData.preload === "string") import(workerData.preload).catch(() => {});
