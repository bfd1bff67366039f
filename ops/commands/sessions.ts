/**
 * `npm run ops -- sessions <command>` (alias `npm run sessions -- …`): sign-in sessions (decision 017).
 * With DATABASE_URL the signing keys are in the database too (decision 037): running nodes follow a
 * rotation within SECRETS_REFRESH_MS. With PGlite a rotation rewrites DATA_DIR/secrets.json.
 */
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { openDatabase } from "../../api/db/client";
import { rotateSigningKey } from "../../api/runtime";
import { operatorCommand, OperatorError, runOperatorCommand } from "../../identity/sessions/operator";
import { rotateStoredSigningKey } from "../../api/stored-secrets";
import { issueLines, onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = `npm run sessions -- <command>
  list                                          live app sessions, newest first (no tokens)
  revoke --user <email> | revoke --all          ends that user's (everyone's) app and provider sessions
  set-password --user <email>                   new password from standard input; ends their sessions
  impersonate --admin <email> --as <email> [--reason <text>]
                                                a one-time link (10 minutes) that signs in as the learner, audited
  rotate-signing-key                            a new provider signing key; the old one stays published`;

async function readLine(prompt: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  process.stderr.write(prompt);
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return "";
}

async function rotate(ops: OperatorEnv): Promise<string> {
  if (!ops.env.DATABASE_URL) {
    const { kid, kept } = await rotateSigningKey(ops.dataDir);
    return `New signing key ${kid}; still published: ${kept.join(", ")}. Restart the server (every node) now.`;
  }
  const database = await openDatabase({ databaseUrl: ops.env.DATABASE_URL });
  try {
    await database.migrate();
    const { kid, kept } = await rotateStoredSigningKey(database.db);
    return `New signing key ${kid} in the database; still published: ${kept.join(", ")}. Every node signs with it within a minute (no restart).`;
  } finally {
    await database.close();
  }
}

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      user: { type: "string" },
      all: { type: "boolean" },
      admin: { type: "string" },
      as: { type: "string" },
      reason: { type: "string" },
    },
  });
  const [name] = positionals;
  if (name === "rotate-signing-key") return console.log(await rotate(ops));
  const parsed = operatorCommand.safeParse(
    name === "revoke" && values.all
      ? { command: "revoke-all" }
      : name === "set-password"
        ? { command: name, user: values.user, password: await readLine("New password: ") }
        : { command: name, user: values.user, admin: values.admin, as: values.as, reason: values.reason },
  );
  if (!parsed.success) throw new UsageError(`${USAGE}\n${issueLines(parsed.error.issues)}`);
  try {
    const result = await onDatabaseOrServer(ops, {
      database: (database) => runOperatorCommand(database.db, parsed.data, ops.appUrl),
      server: (ask) => ask("/sessions", parsed.data),
    });
    console.log(JSON.stringify(result, null, 2));
  } catch (err) {
    throw err instanceof OperatorError ? new Refused(err.message) : err;
  }
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
