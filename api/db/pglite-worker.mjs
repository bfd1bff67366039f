/**
 * PGlite in its own thread (docs/decisions/011-database-thread.md).
 *
 * PGlite is PostgreSQL compiled to WebAssembly: it runs every statement, and decodes every result
 * row, synchronously on the thread that owns it. In the server's main thread that work competed
 * with rendering; here it runs beside it. The main thread talks to this worker through
 * `pglite-thread.ts`, which looks like a PGlite client to drizzle.
 *
 * Messages in:  { id, op: "query", sql, params, rowMode, tx? } | { id, op: "exec", sql, tx? }
 *               { id, op: "begin" } | { id, op: "end", tx, commit } | { id, op: "close" }
 * Messages out: { id, ok: true, result } | { id, ok: false, error }
 *
 * Plain JavaScript so that it loads in any Node process (tsx, vitest, plain node) without a loader.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, types } from "@electric-sql/pglite";

if (!parentPort) throw new Error("pglite-worker.mjs runs as a worker thread");
const port = parentPort;

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

/** @type {PGlite} */
let db;
try {
  db = await PGlite.create(workerData.dataDir);
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: serializeError(error) });
  process.exit(1);
}

/** Open transactions: id → { tx, finish: { resolve, reject }, settled }. */
const transactions = new Map();
/** The reason a transaction callback throws to make PGlite roll back. */
const ROLLBACK = Symbol("rollback");
let nextTx = 1;

function serializeError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  // DatabaseError carries code, detail, constraint…: keep every own field.
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

async function query(message) {
  const started = slowMs === null ? 0 : performance.now();
  const result = await target(message).query(message.sql, message.params, { rowMode: message.rowMode, parsers });
  if (slowMs !== null) {
    const ms = performance.now() - started;
    if (ms >= slowMs) {
      const text = process.env.DB_SLOW_FULL ? `${message.sql} -- ${JSON.stringify(message.params)}` : message.sql.replace(/\s+/g, " ").slice(0, 300);
      console.warn(`[db] ${ms.toFixed(1)} ms, ${result.rows.length} rows: ${text}`);
    }
  }
  return strip(result);
}

async function handle(message) {
  switch (message.op) {
    case "query":
      return query(message);
    case "exec":
      return (await target(message).exec(message.sql)).map(strip);
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
    case "close":
      await db.close();
      return null;
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

port.on("message", (message) => {
  handle(message).then(
    (result) => port.postMessage({ id: message.id, ok: true, result }),
    (error) => port.postMessage({ id: message.id, ok: false, error: serializeError(error) }),
  );
});
port.postMessage({ id: 0, ok: true, result: "ready" });
