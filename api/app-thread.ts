/**
 * The embedded LMS API as the database thread hosts it (`db/pglite-worker.mjs`, decision 012): the
 * same Hono app as in process, on a drizzle instance over that thread's own PGlite client. The main
 * thread calls `startApiInThread`; the database thread imports this module and calls
 * `createThreadHandler`. Like `server/`, this is where the API is put together (test support
 * comes from the demo room above the API).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { createApi } from "./app";
import type { ApiDeps, ApiSettings } from "./context";
import { startJobs } from "./jobs/run";
import { pgliteChanges, type Database } from "./db/client";
import type { PGliteThread } from "./db/pglite-thread";
import { testSupportMount } from "../demo/test-support";
import * as schema from "./db/schema";
import { verifierFrom, type VerifierConfig } from "./runtime";
import { openFileStore, type StorageConfig } from "./files/object-store";

/** What the main thread sends the database thread to build the API from: plain data only. */
export interface ThreadApiOptions extends ApiSettings {
  verifier: VerifierConfig;
  /** Where stored files live (decision 037); none → DATA_DIR/storage. Built again in the thread. */
  storage?: StorageConfig;
  /** Mounts /api/test-support (decision 014). */
  testSupport?: boolean;
}

/** Set by the server build (scripts/build-server.mjs): this code runs bundled, compiled modules lie beside it. */
declare const SERVER_BUILD: boolean | undefined;

/**
 * The module the database thread imports: this one. Run as TypeScript (tsx, vitest) that is this
 * file; in the server build this code is bundled into build/node/server.js, and the thread hosts
 * `app-thread.js`, this module compiled beside the bundle, so no transpiler runs in production.
 */
function hostedModule(): URL {
  if (typeof SERVER_BUILD !== "undefined" && SERVER_BUILD)
    return pathToFileURL(join(import.meta.dirname, "app-thread.js"));
  return new URL(import.meta.url);
}

/** Starts the API in the database thread: afterwards `thread.fetch` reaches it. */
export function startApiInThread(thread: PGliteThread, options: ThreadApiOptions): Promise<void> {
  return thread.host(hostedModule(), options);
}

/** @public The database thread calls it by name (`host` in db/pglite-worker.mjs). */
export function createThreadHandler(
  client: unknown,
  options: ThreadApiOptions,
): (request: Request) => Promise<Response> {
  let count = 0;
  const db = drizzle(client as PGlite, { schema, logger: { logQuery: () => void count++ } });
  const database: Database = {
    db,
    kind: "pglite",
    // The main thread owns the schema and the data directory: it migrates and closes.
    migrate: () => Promise.reject(new Error("migrations run from the main thread")),
    exclusive: (_name, work) => work(),
    // The worker's client LISTENs on this thread's PGlite (decision 019).
    changes: pgliteChanges(client as Parameters<typeof pgliteChanges>[0]),
    close: async () => {},
    queryCount: () => count,
  };
  const { verifier, storage, testSupport, ...settings } = options;
  const deps: ApiDeps = {
    ...settings,
    database,
    verifyToken: verifierFrom(verifier),
    files: storage ? openFileStore(storage) : undefined,
    internalRoutes: testSupportMount(testSupport),
  };
  const api = createApi(deps);
  // The thread that hosts the API runs its background jobs too (decision 021).
  if (deps.jobs) startJobs(deps);
  return async (request) => api.fetch(request);
}
