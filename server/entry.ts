/**
 * The production server's entry, `build/node/server.js` (decision 038, addendum 2).
 *
 * With the embedded database it starts the database thread first — its lock, PGlite's WebAssembly,
 * PostgreSQL opening the data directory — and only then loads the server (`server-main.js`, the
 * bundle of `server.ts`), whose modules take the main thread about a second. The two overlap on two
 * cores instead of following each other; `openDatabase` takes the thread already starting
 * (`api/db/pglite-start.ts`), and the thread has loaded the API it is about to host meanwhile. Development (`tsx server/index.ts`) starts the composition root directly.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { embeddedDataDir, startEarly } from "../api/db/pglite-start";
import { redactLine, safeError } from "../domain/log-policy";

/** A bundle beside this one, by a specifier the bundler does not follow. */
const beside = (file: string) => pathToFileURL(join(import.meta.dirname, file)).href;

/**
 * A failure at start (a bad setting, a database that refuses this build) is the log's last line, in
 * JSON like every other (decision 053), and the exit status 1 a supervisor sees.
 */
function fatal(error: unknown): never {
  const err = safeError(error);
  const line = { level: "fatal", time: new Date().toISOString(), pid: process.pid, err, msg: err.message };
  process.stdout.write(`${redactLine(JSON.stringify(line))}\n`);
  process.exit(1);
}
process.on("uncaughtException", fatal);
process.on("unhandledRejection", fatal);

// The thread loads the API it will host (app-thread.js) as soon as its database is open; with an
// external LMS API (LMS_API_URL) it holds the app's sessions only, and hosts nothing.
// A full disk (DiskFull) is the fatal line, with the folder and the space needed.
if (!process.env.DATABASE_URL && process.env.PGLITE_THREAD !== "0") {
  try {
    startEarly(embeddedDataDir(), { preload: process.env.LMS_API_URL ? undefined : beside("app-thread.js") });
  } catch (error) {
    fatal(error);
  }
}

await import(beside("server-main.js")).catch(fatal);
