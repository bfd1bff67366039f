import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema";
import { PGliteThread } from "./pglite-thread";

export type Db = ReturnType<typeof drizzlePglite<typeof schema>>;
/** The transaction `db.transaction` hands its callback (what commands run in). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Counts the statements sent, so tests can prove a page's query count does not grow with data. */
  queryCount(): number;
  /** The database thread, when PGlite runs in one (it can also host the API: decision 012). */
  thread?: PGliteThread;
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * PGlite has one connection and does not honour PostgreSQL's postmaster.pid: two processes on one
 * data directory would both write to it and corrupt it. A lock file beside the directory holds the
 * owner's pid; a lock left by a process that no longer runs (kill -9) is taken over.
 */
const heldHere = new Set<string>();

export function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir.replace(/\/+$/, "")}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(lockFile);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(lockFile);
        process.off("exit", release);
        try {
          if (readFileSync(lockFile, "utf8") === String(process.pid)) unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(lockFile, "utf8").trim());
      // Our own pid counts only if this process took the lock: after a restart in a container the
      // server often gets the same pid its killed predecessor had.
      const inUse =
        owner === process.pid ? heldHere.has(lockFile) : Number.isInteger(owner) && owner > 0 && isAlive(owner);
      if (inUse) {
        throw new Error(
          `The database in ${dataDir} is in use by process ${owner}. Stop it, or give this one another DATA_DIR.`,
        );
      }
      unlinkSync(lockFile); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
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
}): Promise<Database> {
  let count = 0;
  const logger = { logQuery: () => void count++ };
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzlePg(pool, { schema, logger }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      migrate: () => migratePg(db as never, { migrationsFolder }),
      close: () => pool.end(),
      queryCount: () => count,
    };
  }
  const dataDir = options.dataDir ?? "memory://";
  let unlock = () => {};
  if (!dataDir.startsWith("memory://")) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite;
  let thread: PGliteThread | undefined;
  try {
    const slow =
      process.env.DB_SLOW_MS === undefined || process.env.DB_SLOW_MS === ""
        ? undefined
        : Number(process.env.DB_SLOW_MS);
    thread = options.thread ? await PGliteThread.create(dataDir, { slowMs: slow }) : undefined;
    client = thread ? thread.asPGlite() : await PGlite.create(dataDir);
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client, { schema, logger });
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: async () => {
      await client.close();
      unlock();
    },
    queryCount: () => count,
    thread,
  };
}
