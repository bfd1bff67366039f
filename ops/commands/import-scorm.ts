/**
 * `npm run ops -- import-scorm package.zip --course CODE [--activity ID] [--title "…"]` (alias
 * `npm run content:import-scorm -- …`, decision 025): a SCORM 1.2 or 2004 package becomes a course's
 * activity (its root activity unless --activity names another). Through a running server the zip is
 * streamed to it. A refused package prints why and stores nothing.
 */
import { createReadStream, existsSync } from "node:fs";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { openFileStore, storageConfigFrom } from "../../api/files/object-store";
import { importScormPackage, SCORM_LIMITS } from "../../api/scorm/import";
import { ScormPackageError } from "../../api/scorm/manifest";
import { onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = 'npm run content:import-scorm -- package.zip --course CODE [--activity ID] [--title "…"]';

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { course: { type: "string" }, activity: { type: "string" }, title: { type: "string" } },
  });
  const [zip] = positionals;
  if (!zip || !values.course || positionals.length !== 1) throw new UsageError(USAGE);
  if (!existsSync(zip)) throw new UsageError(`No such file: ${zip}\n${USAGE}`);
  const limits = {
    maxBytes: Number(ops.env.SCORM_MAX_BYTES ?? SCORM_LIMITS.maxBytes),
    maxEntries: Number(ops.env.SCORM_MAX_ENTRIES ?? SCORM_LIMITS.maxEntries),
  };
  const options = { courseCode: values.course, activityId: values.activity, title: values.title };
  const query = new URLSearchParams(
    Object.entries({ course: options.courseCode, activity: options.activityId, title: options.title }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );
  try {
    const result = await onDatabaseOrServer(ops, {
      database: (database) =>
        importScormPackage(database.db, {
          ...options,
          zipPath: zip,
          store: openFileStore(storageConfigFrom(ops.env, resolve(ops.dataDir, "storage"))),
          limits,
        }),
      server: (ask) =>
        ask(`/scorm-packages?${query}`, Readable.toWeb(createReadStream(zip)) as ReadableStream, "application/zip"),
    });
    console.log(JSON.stringify(result, null, 2));
  } catch (err) {
    throw err instanceof ScormPackageError ? new Refused(err.message) : err;
  }
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
