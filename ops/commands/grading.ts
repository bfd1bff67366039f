/**
 * `npm run ops -- grading <command>` (alias `npm run grading -- …`): the grading queue and grading a hand-in
 * from the shell (issue 49, decision 058), as the grader `--as` names, with the API's rules. JSON on stdout.
 */
import { parseArgs } from "node:util";
import { gradingCommand, GradingCommandError, runGradingCommand } from "../../api/commands/grading";
import { issueLines, onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = `npm run grading -- <command> --as <grader's e-mail>
  list [--course CODE] [--limit N]                          hand-ins awaiting grading, oldest first
  grade <hand-in id> --score N [--comment "…"] [--release]   saves a grade (a draft unless --release)`;

/** The arguments as the command's input (exported for its tests). */
export function parseGradingArgs(args: string[]) {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      as: { type: "string" },
      course: { type: "string" },
      limit: { type: "string" },
      score: { type: "string" },
      comment: { type: "string" },
      release: { type: "boolean" },
    },
  });
  const [name, handIn] = positionals;
  const number = (v: string | undefined) => (v === undefined ? undefined : Number(v.replace(",", ".")));
  const parsed = gradingCommand.safeParse(
    name === "list"
      ? { command: name, as: values.as, course: values.course, limit: number(values.limit) }
      : {
          command: name,
          as: values.as,
          handIn,
          score: number(values.score),
          comment: values.comment,
          release: values.release ?? false,
        },
  );
  if (!parsed.success) throw new UsageError(`${USAGE}\n${issueLines(parsed.error.issues)}`);
  if (positionals.length !== (name === "list" ? 1 : 2)) throw new UsageError(USAGE);
  return parsed.data;
}

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const input = parseGradingArgs(args);
  try {
    const result = await onDatabaseOrServer(ops, {
      database: (database) => runGradingCommand(database.db, input, new Date()),
      server: (ask) => ask("/grading", input),
    });
    console.log(JSON.stringify(result, null, 2));
  } catch (err) {
    throw err instanceof GradingCommandError ? new Refused(err.message) : err;
  }
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
