/**
 * `npm run people -- import users.csv [enrolments.csv …] [--apply]` (issue 50 item 3, decision 049): people
 * (email, first_name, middle_name, last_name, locale, time_zone, roles, units, external_id) and enrolments
 * (course_code, email or external_id, mandatory, due_date, availability_date, availability_end_date, term,
 * retake) from CSV files, each recognised by its header. A dry run unless --apply: the report says what
 * would be made and changed; a file with problems lists them by line and writes nothing. With DATABASE_URL
 * it works on that database; with the embedded one it opens it when no server holds it, and otherwise
 * sends the files to the running server (loopback, the operator token of DATA_DIR/secrets.json).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, type Database } from "../db/client";
import { loadSecrets } from "../runtime";
import { importPeopleCsv, type PeopleReport } from "./import";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { apply: { type: "boolean" } } });
const [verb, ...files] = positionals;
if (verb !== "import" || files.length === 0) {
  console.error("Usage: npm run people -- import users.csv [enrolments.csv …] [--apply]");
  process.exit(2);
}
for (const file of files)
  if (!existsSync(file)) {
    console.error(`No such file: ${file}`);
    process.exit(2);
  }
const apply = values.apply ?? false;
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const port = Number(process.env.PORT ?? 3000);

async function viaServer(text: string): Promise<PeopleReport> {
  const { operatorToken } = await loadSecrets(dataDir);
  const res = await fetch(`http://127.0.0.1:${port}/operator/v1/people${apply ? "?apply=1" : ""}`, {
    method: "POST",
    headers: { "Content-Type": "text/csv; charset=utf-8", Authorization: `Bearer ${operatorToken}` },
    body: text,
  });
  const body = (await res.json()) as { result?: PeopleReport; error?: string };
  if (!res.ok || !body.result) throw new Error(body.error ?? `the server answered ${res.status}`);
  return body.result;
}

function print(file: string, report: PeopleReport) {
  console.log(`${file} (${report.kind}):`);
  for (const p of report.problems) console.log(`  line ${p.line}${p.column ? `, ${p.column}` : ""}: ${p.message}`);
  if (report.problems.length) {
    console.log(`  ${report.problems.length} problem(s): nothing imported.`);
    return;
  }
  for (const r of report.rows) if (r.outcome !== "unchanged") console.log(`  line ${r.line}: ${r.key} ${r.outcome}`);
  const { created, updated, unchanged } = report.counts;
  const made = [...report.made.units.map((u) => `unit "${u}"`), ...report.made.terms.map((t) => `term "${t}"`)];
  if (made.length) console.log(`  new: ${made.join(", ")}`);
  console.log(
    `  ${report.applied ? "imported" : "dry run (add --apply to import)"}: ${created} created, ${updated} updated, ${unchanged} unchanged`,
  );
}

let database: Database | null = null;
let failed = false;
try {
  try {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: resolve(dataDir, "pglite") });
    await database.migrate();
  } catch (err) {
    if (!/in use by process/.test((err as Error).message)) throw err;
    database = null;
  }
  // People before their enrolments, in the order given.
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const report = database ? await importPeopleCsv(database.db, text, { apply }) : await viaServer(text);
    print(file, report);
    if (report.problems.length) failed = true;
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  failed = true;
} finally {
  await database?.close();
}
process.exit(failed ? 1 : 0);
