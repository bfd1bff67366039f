/**
 * `npm run courses -- import DIR [--code CODE] [--dry-run]` and `export CODE DIR` (alias of `npm run ops --
 * courses …`, issue 50 item 2, decision 062): a course folder (docs/course-folders.md) into the database —
 * a new course, or the course with its code updated in place — and a course back out as a folder, so a
 * team can keep its courses in git. A refused folder prints the file and the field and changes nothing.
 * While the server holds the embedded database, the server does it (`/operator/v1/course-folders`, on
 * this machine: the folder's path is this machine's).
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openFileStore, storageConfigFrom } from "../../api/files/object-store";
import { demoAccountsAllowed } from "../../demo/demo-accounts";
import { demoTools } from "../../demo/tools/registry";
import { z } from "zod";
import type { Db } from "../../api/db/client";
import type { FileStore } from "../../api/files/object-store";
import { onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";
import type { CourseFolderReport } from "../../demo/course-folder/import";
import type { CourseFolderExport } from "../../demo/course-folder/export";

const USAGE = `npm run courses -- import DIR [--code CODE] [--dry-run]
       npm run courses -- export CODE DIR`;

/** What the command asks of the database, here or in the running server (ops/routes.ts). */
export const courseFolderCommand = z.discriminatedUnion("command", [
  z.strictObject({
    command: z.literal("import"),
    dir: z.string().min(1),
    code: z.string().optional(),
    dryRun: z.boolean().optional(),
  }),
  z.strictObject({ command: z.literal("export"), code: z.string().min(1), dir: z.string().min(1) }),
]);
type CourseFolderCommand = z.infer<typeof courseFolderCommand>;

/**
 * Runs a command on a database: the folder modules are loaded only now (they read the demo's data
 * files, which other operator commands do not need).
 */
export async function runCourseFolderCommand(
  db: Db,
  cmd: CourseFolderCommand,
  deps: { store: FileStore; givenTools: string[] },
): Promise<CourseFolderReport | CourseFolderExport> {
  const { DemoContentError } = await import("../../demo/content/files");
  try {
    if (cmd.command === "import") {
      const { importCourseFolder } = await import("../../demo/course-folder/import");
      return await importCourseFolder(db, { ...cmd, store: deps.store, givenTools: deps.givenTools });
    }
    const { exportCourseFolder } = await import("../../demo/course-folder/export");
    return await exportCourseFolder(db, { ...cmd, store: deps.store });
  } catch (err) {
    throw err instanceof DemoContentError ? new Refused(err.message) : err;
  }
}

function print(result: CourseFolderReport | CourseFolderExport) {
  if ("dir" in result) {
    console.log(`${result.code} written to ${result.dir}: ${result.files.join(", ")}`);
    return;
  }
  const r = result as CourseFolderReport;
  const { created, updated, removed } = r.activities;
  console.log(
    `${r.course.code} "${r.course.name}" ${r.dryRun ? `would be ${r.course.outcome} (dry run: nothing written)` : r.course.outcome}: ` +
      `${created} activities created, ${updated} updated, ${removed} removed`,
  );
  if (r.made.length) console.log(`  new in the catalog: ${r.made.join(", ")}`);
  if (r.files.length) console.log(`  files stored: ${r.files.join(", ")}`);
}

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { code: { type: "string" }, "dry-run": { type: "boolean" } },
  });
  const [verb, a, b] = positionals;
  let cmd: CourseFolderCommand;
  if (verb === "import" && a && !b)
    cmd = { command: "import", dir: resolve(a), code: values.code, dryRun: values["dry-run"] };
  else if (verb === "export" && a && b && values.code === undefined && !values["dry-run"])
    cmd = { command: "export", code: a, dir: resolve(b) };
  else throw new UsageError(USAGE);
  const result = await onDatabaseOrServer(ops, {
    database: (database) =>
      runCourseFolderCommand(database.db, cmd, {
        store: openFileStore(storageConfigFrom(ops.env, resolve(ops.dataDir, "storage"))),
        givenTools: demoAccountsAllowed(ops.appUrl, ops.env.DEMO_ACCOUNTS)
          ? demoTools(ops.appUrl).map((t) => t.key)
          : [],
      }),
    server: (ask) => ask<CourseFolderReport | CourseFolderExport>("/course-folders", cmd),
  });
  print(result);
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
