/**
 * `npm run ops -- <area> <command> …`: the operators' commands, one file each under ops/commands/.
 * The older names stay as aliases: `npm run sessions | lti:tool | certificates | people | courses | content:import-scorm |
 * content:import-cc | content:import-qti | db`.
 * Each works on DATABASE_URL's database, or on the embedded one when no process holds it, and otherwise
 * asks the running server on this machine (ops/database-or-server.ts). Exit status: 0 done, 1 refused
 * (the reason on standard error, nothing changed), 2 wrong arguments (the usage).
 */
import "./log-to-stderr";
import { command as certificates } from "./commands/certificates";
import { command as courses } from "./commands/courses";
import { command as db } from "./commands/db";
import { command as grading } from "./commands/grading";
import { command as importCartridge } from "./commands/import-cartridge";
import { command as importScorm } from "./commands/import-scorm";
import { command as importQti } from "./commands/import-qti";
import { command as lti } from "./commands/lti";
import { command as people } from "./commands/people";
import { command as scim } from "./commands/scim";
import { command as sessions } from "./commands/sessions";
import { operatorEnv, Refused, UsageError } from "./database-or-server";

const AREAS = {
  sessions,
  lti,
  certificates,
  grading,
  people,
  courses,
  "import-scorm": importScorm,
  "import-qti": importQti,
  "import-cc": importCartridge,
  db,
  scim,
} as const;

const USAGE = `Usage: npm run ops -- <area> <command> … (--help after an area for its commands)
  sessions       sign-in sessions, passwords, impersonation, the provider's signing key
  lti            the LTI tool registry and the activities that launch each tool
  certificates   issued certificates: list, revoke
  grading        the grading queue, and grading a hand-in (as a named Instructor)
  people         people and enrolments from CSV files
  courses        a course folder into a course (import), a course into a folder (export)
  import-scorm   a SCORM package into a course's activity
  import-qti     a QTI test (3.0, or 2.1/2.2) into a course's activity, scored by the server
  import-cc      an IMS Common Cartridge as a course
  db             the database: migration status, migrate, backup, restore
  scim           the bearer tokens of SCIM clients (provisioning people and units)`;

const [name, ...args] = process.argv.slice(2);
const area = name && Object.hasOwn(AREAS, name) ? AREAS[name as keyof typeof AREAS] : null;
if (!area) {
  const help = !name || name === "--help" || name === "-h";
  (help ? console.log : console.error)(help ? USAGE : `Unknown area "${name}".\n${USAGE}`);
  process.exit(help ? 0 : 2);
}
if (args.includes("--help") || args.includes("-h")) {
  console.log(`Usage: ${area.usage}`);
  process.exit(0);
}
try {
  await area.main(args, operatorEnv());
} catch (err) {
  if (err instanceof UsageError) {
    console.error(`Usage: ${err.message}`);
    process.exit(2);
  }
  if (err instanceof Refused) {
    console.error(`Refused: ${err.message}`);
    process.exit(1);
  }
  // parseArgs: an option the command does not know.
  if ((err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    console.error(`${(err as Error).message}\nUsage: ${area.usage}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
}
