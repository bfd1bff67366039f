/**
 * `npm run ops -- import-qti package.zip --course CODE [--activity ID] [--title "…"] [--cut 0.7] [--survey]
 * [--anonymous]` (alias `npm run content:import-qti -- …`, issue 48, decision 055): a QTI 3.0 package (a test
 * or items), a QTI 2.1/2.2 one or a single item becomes a course's activity (its root activity unless
 * --activity names another), delivered and scored by the server. Through a running server the zip is
 * streamed to it. A refused package prints the file, the line when known and why, and stores nothing.
 */
import { createReadStream, existsSync } from "node:fs";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { readQtiZip, storeQtiPackage } from "../../api/assessment/import";
import { SCORM_LIMITS } from "../../api/scorm/import";
import { ScormPackageError } from "../../api/scorm/manifest";
import { onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE =
  'npm run content:import-qti -- package.zip --course CODE [--activity ID] [--title "…"] [--cut 0.7] [--survey] [--anonymous]';

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      course: { type: "string" },
      activity: { type: "string" },
      title: { type: "string" },
      cut: { type: "string" },
      survey: { type: "boolean" },
      anonymous: { type: "boolean" },
    },
  });
  const [zip] = positionals;
  if (!zip || !values.course || positionals.length !== 1) throw new UsageError(USAGE);
  if (!existsSync(zip)) throw new UsageError(`No such file: ${zip}\n${USAGE}`);
  const cut = values.cut === undefined ? null : Number(values.cut);
  if (cut !== null && !(cut >= 0 && cut <= 1))
    throw new UsageError(`--cut is a share of the maximum, 0 to 1.\n${USAGE}`);
  const limits = {
    maxBytes: Number(ops.env.SCORM_MAX_BYTES ?? SCORM_LIMITS.maxBytes),
    maxEntries: Number(ops.env.SCORM_MAX_ENTRIES ?? SCORM_LIMITS.maxEntries),
  };
  const options = {
    courseCode: values.course,
    activityId: values.activity,
    title: values.title,
    cutValue: cut,
    survey: values.survey ?? false,
    anonymous: values.anonymous ?? false,
  };
  const query = new URLSearchParams(
    Object.entries({
      course: options.courseCode,
      activity: options.activityId,
      title: options.title,
      cut: cut === null ? undefined : String(cut),
      survey: values.survey ? "true" : undefined,
      anonymous: values.anonymous ? "true" : undefined,
    }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  try {
    const result = await onDatabaseOrServer(ops, {
      database: async (database) =>
        storeQtiPackage(database.db, await readQtiZip(zip, options.title ?? options.courseCode, limits), options),
      server: (ask) =>
        ask(`/qti-packages?${query}`, Readable.toWeb(createReadStream(zip)) as ReadableStream, "application/zip"),
    });
    console.log(JSON.stringify(result, null, 2));
  } catch (err) {
    throw err instanceof ScormPackageError ? new Refused(err.message) : err;
  }
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
