/**
 * `npm run ops -- people import users.csv [enrolments.csv …] [--apply]` (alias `npm run people -- …`,
 * decision 049): people (email, first_name, middle_name, last_name, locale, time_zone, roles, units,
 * external_id) and enrolments (course_code, email or external_id, mandatory, due_date, availability_date,
 * availability_end_date, term, retake) from CSV files, each recognised by its header. A dry run unless
 * --apply; a file with problems lists them by line and writes nothing. Exit status 1 when a file has one.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { importPeopleCsv, type PeopleReport } from "../../api/people/import";
import { onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = "npm run people -- import users.csv [enrolments.csv …] [--apply]";

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

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { apply: { type: "boolean" } } });
  const [verb, ...files] = positionals;
  if (verb !== "import" || files.length === 0) throw new UsageError(USAGE);
  for (const file of files) if (!existsSync(file)) throw new UsageError(`No such file: ${file}\n${USAGE}`);
  const apply = values.apply ?? false;
  const texts = files.map((file) => readFileSync(file, "utf8"));
  // People before their enrolments, in the order given.
  const reports = await onDatabaseOrServer(ops, {
    database: async (database) => {
      const out: PeopleReport[] = [];
      for (const text of texts) out.push(await importPeopleCsv(database.db, text, { apply }));
      return out;
    },
    server: async (ask) => {
      const out: PeopleReport[] = [];
      for (const text of texts)
        out.push(await ask<PeopleReport>(`/people${apply ? "?apply=1" : ""}`, text, "text/csv; charset=utf-8"));
      return out;
    },
  });
  reports.forEach((report, i) => print(files[i]!, report));
  const failed = reports.filter((r) => r.problems.length > 0).length;
  if (failed) throw new Refused(`${failed} of ${files.length} file(s) had problems: nothing of them was imported.`);
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
