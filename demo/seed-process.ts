/**
 * Seeds the demo on PostgreSQL from a child process (`seed-child.ts`; decision 038, addendum 11), so
 * the node that serves never holds what seeding used. The embedded database seeds in its node:
 * PGlite's directory has one owner.
 */
import { fork } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "../api/db/client";
import type { FileStore } from "../api/files/object-store";
import { isEmpty, seedIfEmpty } from "./seed";

/** Set by the server build (scripts/build-server.mjs): the compiled child lies beside the bundle. */
declare const SERVER_BUILD: boolean | undefined;

/** The child's script and flags: compiled JavaScript in the server build, the TypeScript source through tsx otherwise. */
function childScript(): { script: string; execArgv: string[] } {
  if (typeof SERVER_BUILD !== "undefined" && SERVER_BUILD)
    return { script: join(import.meta.dirname, "seed-child.js"), execArgv: [] };
  return { script: fileURLToPath(new URL("./seed-child.ts", import.meta.url)), execArgv: ["--import", "tsx"] };
}

/**
 * A node's demo seed at start, under the lock every node of the database shares (decision 019): on
 * PostgreSQL from a child process when the database is empty, on PGlite in this process. True when
 * this node created the demo data.
 */
export function seedOnStart(
  database: Database,
  options: { accounts: boolean; store: FileStore; env?: NodeJS.ProcessEnv },
): Promise<boolean> {
  return database.exclusive("seed", async () =>
    database.kind === "postgres"
      ? (await isEmpty(database.db)) && seedInChild(options)
      : seedIfEmpty(database.db, { accounts: options.accounts, store: options.store }),
  );
}

/**
 * Runs the seed in a child with this node's environment (`env`: another, in tests); true when it
 * created the demo data.
 */
export function seedInChild(options: { accounts: boolean; env?: NodeJS.ProcessEnv }): Promise<boolean> {
  const { script, execArgv } = childScript();
  return new Promise((resolve, reject) => {
    let seeded: boolean | null = null;
    const child = fork(script, [], {
      execArgv,
      env: { ...(options.env ?? process.env), SEED_DEMO_ACCOUNTS: options.accounts ? "1" : "0" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.on("message", (message: { seeded?: unknown }) => {
      if (typeof message?.seeded === "boolean") seeded = message.seeded;
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0 && seeded !== null) resolve(seeded);
      else reject(new Error(`demo seed: its process ended with ${signal ?? `code ${code}`} before it finished`));
    });
  });
}
