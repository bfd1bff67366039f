/**
 * `npm run content:import-cc -- course.imscc [--code CODE]` (issue 50 item 1, decision 049): imports an IMS
 * Common Cartridge (1.1–1.3) as a course — a new one, or the course with that code updated in place — and
 * prints the import's report: what each item became, what was kept as "not available yet" and why, the files
 * not served yet. With DATABASE_URL it works on that database; with the embedded one it opens it (stop the
 * server first: the embedded database has one process). A refused cartridge prints why and stores nothing.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../db/client";
import { SCORM_LIMITS } from "../scorm/import";
import { importCartridge } from "./import";
import { CartridgeError } from "./manifest";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { code: { type: "string" } } });
const [zip] = positionals;
if (!zip) {
  console.error("Usage: npm run content:import-cc -- course.imscc [--code CODE]");
  process.exit(2);
}
if (!existsSync(zip)) {
  console.error(`No such file: ${zip}`);
  process.exit(2);
}
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const limits = {
  maxBytes: Number(process.env.SCORM_MAX_BYTES ?? SCORM_LIMITS.maxBytes),
  maxEntries: Number(process.env.SCORM_MAX_ENTRIES ?? SCORM_LIMITS.maxEntries),
};
let database;
try {
  database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: resolve(dataDir, "pglite") });
} catch (err) {
  console.error(
    /in use by process/.test((err as Error).message)
      ? "The embedded database is in use by the running server: stop it first (or use DATABASE_URL)."
      : (err as Error).message,
  );
  process.exit(1);
}
try {
  await database.migrate();
  const report = await importCartridge(database.db, { zipPath: zip, code: values.code, limits });
  console.log(
    `${report.course.code} "${report.course.name}" ${report.course.outcome} (Common Cartridge ${report.version})`,
  );
  for (const item of report.items)
    console.log(`  ${item.became.padEnd(12)} ${item.title}${item.reason ? ` — ${item.reason}` : ""}`);
  if (report.filesNotServed.length) console.log(`  files not served yet: ${report.filesNotServed.join(", ")}`);
} catch (err) {
  console.error(err instanceof CartridgeError ? `Refused: ${err.message}` : err);
  process.exitCode = 1;
} finally {
  await database.close();
}
