import { mkdirSync } from "node:fs";
import { log } from "./log";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { CHANGES_CHANNEL, parseChange, type ChangeFeed, type DataChange } from "../../domain/contract/changes";
import * as schema from "./schema";
import { PGliteThread } from "./pglite-thread";
import { lockDataDir, slowMsFromEnv, takeEarlyStart } from "./pglite-start";
import { pgliteOptions } from "./pglite-options.mjs";
import { preparedStatementsFromEnv, preparingClient } from "./pg-prepared";
import { migrateLogged } from "./schema-version";
import { explainOpenFailure, requireFreeSpace } from "./disk-space";

export type Db = ReturnType<typeof import("drizzle-orm/pglite").drizzle<typeof schema>>;
/** The transaction `db.transaction` hands its callback (what commands run in). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs the migrations once, however many nodes start together (under `exclusive("migrate")`). */
  migrate(): Promise<void>;
  /**
   * Runs `work` while this node holds the lock `name`, which every node on the same database shares
   * (a PostgreSQL advisory lock on a connection of its own; PGlite has one process per database, so
   * there it just runs). Startup work that must happen once — migrations, the demo seed — runs in it.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Notices of data that nodes remember for a while (decision 019): LISTEN/NOTIFY on `learner_changes`. */
  changes: ListeningFeed;
  close(): Promise<void>;
  /** Counts the statements sent, so tests can prove a page's query count does not grow with data. */
  queryCount(): number;
  /** The database thread, when PGlite runs in one (it can also host the API: decision 012). */
  thread?: PGliteThread;
  /** PostgreSQL's pool now (the metrics' `db_pool_connections`); absent on PGlite. */
  pool?: () => { total: number; idle: number; waiting: number };
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** A change feed that can say when it hears: `listening()` starts listening and resolves once LISTEN is on. */
export interface ListeningFeed extends ChangeFeed {
  listening(): Promise<void>;
}

/** What PGlite and the database thread both offer for LISTEN (PGlite delivers its own NOTIFYs in process). */
interface Listener {
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
}

/**
 * The change feed of PGlite (decision 019): one node, so the channel is in process — PGlite's own
 * LISTEN, started when the first listener subscribes.
 */
export function pgliteChanges(client: Listener): ListeningFeed {
  const listeners = new Set<(change: DataChange) => void>();
  let started: Promise<void> | null = null;
  const listening = () =>
    (started ??= client
      .listen(CHANGES_CHANNEL, (payload) => {
        const change = parseChange(payload);
        for (const l of listeners) l(change);
      })
      .then(
        () => undefined,
        (error: unknown) => log().error({ err: error }, "db: LISTEN failed"),
      ));
  return {
    subscribe(listener) {
      listeners.add(listener);
      void listening();
      return () => void listeners.delete(listener);
    },
    listening,
  };
}

const RELISTEN_MS = 1_000;

/**
 * The change feed of a PostgreSQL server: a connection of its own (not the pool's) that LISTENs on
 * `learner_changes`, opened when the first listener subscribes. When it breaks, notices may have been
 * missed: listeners hear "all" (forget everything), and it listens again a second later.
 */
function postgresChanges(
  Client: typeof pg.Client,
  connectionString: string,
): ListeningFeed & { close(): Promise<void> } {
  const listeners = new Set<(change: DataChange) => void>();
  const emit = (change: DataChange) => {
    for (const l of listeners) l(change);
  };
  let client: pg.Client | null = null;
  let started = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let onListening: () => void = () => {};
  const listeningNow = new Promise<void>((resolve) => (onListening = resolve));
  const start = () => {
    if (started) return;
    started = true;
    void connect();
  };

  const connect = async () => {
    timer = null;
    if (closed) return;
    const c = new Client({ connectionString });
    client = c;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      void c.end().catch(() => {});
      if (client === c) client = null;
      if (closed) return;
      if (failures++ === 0) log().error({ err: error }, "db: the LISTEN connection broke; listening again");
      emit({ kind: "all" });
      timer = setTimeout(() => void connect(), RELISTEN_MS);
    };
    c.on("error", onLost);
    c.on("end", () => onLost());
    c.on("notification", (n) => {
      if (n.channel === CHANGES_CHANNEL) emit(parseChange(n.payload ?? ""));
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (failures > 0) emit({ kind: "all" }); // what changed while we were not listening
      failures = 0;
      onListening();
    } catch (error) {
      onLost(error as Error);
    }
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => void listeners.delete(listener);
    },
    listening() {
      start();
      return listeningNow;
    },
    async close() {
      onListening(); // nobody waits for a feed that is closed
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/**
 * Holds the advisory lock `name` on a connection of its own while `work` runs: a second node that
 * asks for it waits until the first has finished (and a node that dies releases it with its
 * connection). Keys are 64-bit hashes of "learner-app:<name>".
 */
async function withAdvisoryLock<T>(pool: pg.Pool, name: string, work: () => Promise<T>): Promise<T> {
  const key = `learner-app:${name}`;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const { rows } = await client.query<{ ok: boolean }>("select pg_try_advisory_lock(hashtextextended($1, 0)) as ok", [
      key,
    ]);
    if (!rows[0]?.ok) {
      log().info({ lock: name }, "db: another node holds the lock; waiting for it to finish");
      await client.query("select pg_advisory_lock(hashtextextended($1, 0))", [key]);
    }
    try {
      return await work();
    } finally {
      await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch((error: Error) => {
        broken = error;
      });
    }
  } catch (error) {
    broken ??= error as Error;
    throw error;
  } finally {
    // A connection whose unlock failed is not given back to the pool: closing it releases the lock.
    client.release(broken);
  }
}

/**
 * PGlite in `dataDir` by default (or in memory with "memory://"); a PostgreSQL server when a
 * connection string is given. Both run the same drizzle migrations (docs/decisions/003-database-and-api-in-process.md).
 * `thread: true` runs PGlite in a worker thread (decision 011), which the server does.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  thread?: boolean;
  /** PGlite in memory started from a dump of a data directory (`dumpDataDir`), not from initdb: tests. */
  loadDataDir?: Blob;
}): Promise<Database> {
  let count = 0;
  const logger = { logQuery: () => void count++ };
  // Each mode imports only its own driver (decision 038): `pg` is ≈3 MB of heap a PGlite node never
  // uses, and PGlite's module is not needed by a node on PostgreSQL or by the thread's host.
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import("pg"),
      import("drizzle-orm/node-postgres"),
      import("drizzle-orm/node-postgres/migrator"),
    ]);
    // Repeated data statements are prepared per connection and planned once (decision 038, addendum 4).
    const statements = preparedStatementsFromEnv();
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      Client: statements.prepared ? preparingClient(pg.Client, statements.prepared) : pg.Client,
      ...(statements.planCacheMode === "auto" ? {} : { options: `-c plan_cache_mode=${statements.planCacheMode}` }),
      // A connection starts its prepared statements afresh now and then.
      maxUses: 20_000,
    });
    // An idle connection the server closed (a restart, a failover) is dropped from the pool; without
    // a listener its error would end the process.
    let closing = false;
    pool.on("error", (error) => {
      if (!closing) log().error({ err: error }, "db: idle connection lost");
    });
    const db = drizzlePg(pool, { schema, logger }) as unknown as Db;
    const changes = postgresChanges(pg.Client, options.databaseUrl);
    const exclusive = <T>(name: string, work: () => Promise<T>) => withAdvisoryLock(pool, name, work);
    return {
      db,
      kind: "postgres",
      // Two nodes started together on an empty database both created the same tables (one died with
      // "duplicate key … (typname)"): the lock lets one migrate; the other then finds nothing to do.
      // A build older than the schema refuses, and the migrations run are logged (schema-version.ts).
      migrate: () =>
        exclusive("migrate", () => migrateLogged(db, () => migratePg(db as never, { migrationsFolder }))).then(
          () => undefined,
        ),
      exclusive,
      changes,
      close: async () => {
        closing = true;
        await changes.close();
        await pool.end();
      },
      queryCount: () => count,
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  const dataDir = options.dataDir ?? "memory://";
  // The production entry may have locked the directory and started its thread already (pglite-start.ts).
  const early = options.thread ? takeEarlyStart(dataDir) : undefined;
  let unlock = early?.unlock ?? (() => {});
  if (!early && !dataDir.startsWith("memory://")) {
    // A full disk stops the start here with the folder and the space needed (disk-space.ts).
    requireFreeSpace(dataDir);
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite;
  let thread: PGliteThread | undefined;
  try {
    thread = early
      ? await early.thread
      : options.thread
        ? await PGliteThread.create(dataDir, { slowMs: slowMsFromEnv() })
        : undefined;
    client = thread
      ? thread.asPGlite()
      : await (
          await import("@electric-sql/pglite")
        ).PGlite.create(dataDir, {
          ...pgliteOptions(),
          loadDataDir: options.loadDataDir,
        });
  } catch (error) {
    unlock();
    throw dataDir.startsWith("memory://") ? error : explainOpenFailure(error, dataDir);
  }
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const db = drizzlePglite(client, { schema, logger });
  return {
    db,
    kind: "pglite",
    migrate: () => migrateLogged(db, () => migratePglite(db, { migrationsFolder })).then(() => undefined),
    // One process owns a PGlite directory (the lock file above), so there is nobody to wait for.
    exclusive: (_name, work) => work(),
    changes: pgliteChanges(thread ?? client),
    close: async () => {
      await client.close();
      unlock();
    },
    queryCount: () => count,
    thread,
  };
}
