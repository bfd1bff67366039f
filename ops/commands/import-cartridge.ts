/**
 * `npm run ops -- import-cc course.imscc [--code CODE]` (alias `npm run content:import-cc -- …`, decision
 * 049): an IMS Common Cartridge (1.1–1.3) becomes a course — a new one, or the course with that code
 * updated in place — and the import's report is printed: what each item became (an LTI link launches
 * the registered tool serving its launch URL's host), what was kept as "not
 * available yet" and why, the files not served yet. A refused cartridge prints why and stores nothing.
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { importCartridge } from "../../api/cartridge/import";
import { CartridgeError } from "../../api/cartridge/manifest";
import { SCORM_LIMITS } from "../../api/scorm/import";
import { listStoredTools } from "../../api/lti/registry";
import { openFileStore, storageConfigFrom } from "../../api/files/object-store";
import { resolve } from "node:path";
import { onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = "npm run content:import-cc -- course.imscc [--code CODE]";

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { code: { type: "string" } } });
  const [zip] = positionals;
  if (!zip || positionals.length !== 1) throw new UsageError(USAGE);
  if (!existsSync(zip)) throw new UsageError(`No such file: ${zip}\n${USAGE}`);
  const limits = {
    maxBytes: Number(ops.env.SCORM_MAX_BYTES ?? SCORM_LIMITS.maxBytes),
    maxEntries: Number(ops.env.SCORM_MAX_ENTRIES ?? SCORM_LIMITS.maxEntries),
  };
  const report = await onDatabaseOrServer(ops, {
    database: async (database) =>
      importCartridge(database.db, {
        zipPath: zip,
        code: values.code,
        limits,
        tools: await listStoredTools(database.db),
        store: openFileStore(storageConfigFrom(ops.env, resolve(ops.dataDir, "storage"))),
      }),
    server: () => {
      throw new Refused(
        "The embedded database is in use by the running server: stop it first, use DATABASE_URL, or send the cartridge to POST /api/lms/v1/cartridges.",
      );
    },
  }).catch((err: unknown) => {
    throw err instanceof CartridgeError ? new Refused(err.message) : err;
  });
  console.log(
    `${report.course.code} "${report.course.name}" ${report.course.outcome} (Common Cartridge ${report.version})`,
  );
  for (const item of report.items)
    console.log(`  ${item.became.padEnd(12)} ${item.title}${item.reason ? ` — ${item.reason}` : ""}`);
  if (report.filesNotServed.length) console.log(`  files not served yet: ${report.filesNotServed.join(", ")}`);
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
