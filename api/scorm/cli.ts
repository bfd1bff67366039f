/**
 * `npm run content:import-scorm -- package.zip --course CODE [--activity ID] [--title "…"]` (issue 15
 * item 1, decision 025): imports a SCORM 1.2 or 2004 package into a course's activity (its root
 * activity unless --activity names another). With DATABASE_URL it works on that database; with the
 * embedded one it opens it when no server holds it, and otherwise sends the zip to the running server
 * (loopback, the operator token of DATA_DIR/secrets.json). A refused package prints why and stores nothing.
 */
import { createReadStream, existsSync } from "node:fs";
import { openFileStore, storageConfigFrom } from "../files/object-store";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { openDatabase } from "../db/client";
import { loadSecrets } from "../runtime";
import { importScormPackage, SCORM_LIMITS } from "./import";
import { ScormPackageError } from "./manifest";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { course: { type: "string" }, activity: { type: "string" }, title: { type: "string" } },
});
const [zip] = positionals;
if (!zip || !values.course) {
  console.error('Usage: npm run content:import-scorm -- package.zip --course CODE [--activity ID] [--title "…"]');
  process.exit(2);
}
if (!existsSync(zip)) {
  console.error(`No such file: ${zip}`);
  process.exit(2);
}
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const port = Number(process.env.PORT ?? 3000);
const limits = {
  maxBytes: Number(process.env.SCORM_MAX_BYTES ?? SCORM_LIMITS.maxBytes),
  maxEntries: Number(process.env.SCORM_MAX_ENTRIES ?? SCORM_LIMITS.maxEntries),
};
const options = { courseCode: values.course, activityId: values.activity, title: values.title };

async function viaServer(): Promise<unknown> {
  const { operatorToken } = await loadSecrets(dataDir);
  const query = new URLSearchParams(
    Object.entries({ course: options.courseCode, activity: options.activityId, title: options.title }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );
  const res = await fetch(`http://127.0.0.1:${port}/operator/v1/scorm-packages?${query}`, {
    method: "POST",
    headers: { "Content-Type": "application/zip", Authorization: `Bearer ${operatorToken}` },
    body: Readable.toWeb(createReadStream(zip)) as ReadableStream,
    duplex: "half",
  } as RequestInit);
  const body = (await res.json()) as { result?: unknown; error?: string };
  if (!res.ok) throw new ScormPackageError("refused", body.error ?? `the server answered ${res.status}`);
  return body.result;
}

async function run(): Promise<unknown> {
  let database;
  try {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: resolve(dataDir, "pglite") });
  } catch (err) {
    if (!/in use by process/.test((err as Error).message)) throw err;
    return viaServer();
  }
  try {
    await database.migrate();
    return await importScormPackage(database.db, {
      ...options,
      zipPath: zip,
      store: openFileStore(storageConfigFrom(process.env, resolve(dataDir, "storage"))),
      limits,
    });
  } finally {
    await database.close();
  }
}

try {
  console.log(JSON.stringify(await run(), null, 2));
} catch (err) {
  console.error(err instanceof ScormPackageError ? `Refused: ${err.message}` : err);
  process.exit(1);
}
