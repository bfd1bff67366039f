/**
 * Opening the embedded database's directory: its lock file, and the database thread started early.
 *
 * The server's production entry (`server-entry.ts`) starts the database thread before it loads the
 * rest of the server, so PostgreSQL starting in its thread (WebAssembly, then the data directory)
 * overlaps the second the main thread spends loading the server's modules (issue 27 item 3: start to
 * first answer). `openDatabase` then takes the thread already starting instead of starting one.
 * Kept to Node's own modules and the thread's client, so the entry stays small.
 */
import { requireFreeSpace } from "./disk-space";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { PGliteThread } from "./pglite-thread";

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

/** DB_SLOW_MS: statements slower than this many milliseconds are logged (unset: none). */
export function slowMsFromEnv(value = process.env.DB_SLOW_MS): number | undefined {
  return value === undefined || value === "" ? undefined : Number(value);
}

/** A database thread started before `openDatabase` asked for it, with its directory's lock. */
export interface EarlyStart {
  dataDir: string;
  unlock: () => void;
  thread: Promise<PGliteThread>;
}

/**
 * Where the early start waits to be taken. A global, not a module variable: the entry and the server
 * are separate bundles, each with its own copy of this module.
 */
const EARLY = Symbol.for("learner-app.early-database-thread");
const slot = globalThis as { [EARLY]?: EarlyStart };

/**
 * Locks `dataDir` and starts its database thread now; `openDatabase` takes it. Throws as
 * `openDatabase` would (a directory in use). `preload`: the URL of the module the thread will host.
 */
export function startEarly(dataDir: string, options: { preload?: string } = {}): void {
  requireFreeSpace(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  const thread = PGliteThread.create(dataDir, { slowMs: slowMsFromEnv(), preload: options.preload });
  // Awaited by openDatabase, which reports a failure; until then it is not an unhandled rejection.
  thread.catch(() => {});
  slot[EARLY] = { dataDir, unlock, thread };
}

/** The thread started early for `dataDir`, once (then it is the caller's); undefined when none was. */
export function takeEarlyStart(dataDir: string): EarlyStart | undefined {
  const started = slot[EARLY];
  if (!started || started.dataDir !== dataDir) return undefined;
  delete slot[EARLY];
  return started;
}

/** The embedded database's directory: `pglite` in DATA_DIR (default ./data). */
export function embeddedDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR ?? "./data", "pglite");
}
