// PGlite's start options, shared by the database thread (pglite-worker.mjs) and the in-thread client
// (client.ts). Plain JavaScript: the worker runs before tsx is registered.
import { PGlite } from "@electric-sql/pglite";

const SIZE = /^\d+(kB|MB|GB)$/;

/**
 * PostgreSQL's `shared_buffers` for PGlite (PGLITE_SHARED_BUFFERS, default 32MB). PostgreSQL's own
 * default, 128MB, is memory the process keeps for good once touched; PGlite reads its files through
 * Node's file system, so pages that leave the buffer stay in the operating system's cache. Measured
 * on the bench's data set (10,000 courses): a PGlite instance at 434 MB resident after scanning the
 * big tables with 128MB, 290 MB with 32MB.
 * @param {string | undefined} value
 * @returns {{ startParams: string[] }}
 */
export function pgliteOptions(value = process.env.PGLITE_SHARED_BUFFERS) {
  const sharedBuffers = value === undefined || value === "" ? "32MB" : value;
  if (!SIZE.test(sharedBuffers))
    throw new Error(`PGLITE_SHARED_BUFFERS must be a size such as 32MB (got ${JSON.stringify(value)})`);
  return { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`] };
}
