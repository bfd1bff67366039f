/**
 * `npm run sessions -- <command>`: the operator's tool for sign-in sessions (decision 017, README).
 *
 *   list                                          live app sessions, newest first
 *   revoke --user <email>                         ends that user's sessions (app and provider)
 *   revoke --all                                  ends everyone's
 *   set-password --user <email>                   new password from standard input; ends their sessions
 *   impersonate --admin <email> --as <email> [--reason <text>]
 *                                                 prints a one-time link (10 minutes) that signs the
 *                                                 browser that opens it in as the learner, audited
 *   rotate-signing-key                            new provider signing key; the old one stays published
 *
 * With DATABASE_URL it works on that database, where the signing keys live too (decision 037): running
 * nodes follow a rotation within a minute. With the embedded PGlite database (DATA_DIR) it opens
 * it when no server holds it, and otherwise asks the running server (loopback, the operator token of
 * DATA_DIR/secrets.json).
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createInterface } from "node:readline";
import { openDatabase } from "../db/client";
import { loadSecrets, rotateSigningKey } from "../runtime";
import { rotateStoredSigningKey } from "../stored-secrets";
import { operatorCommand, OperatorError, runOperatorCommand, type OperatorCommand } from "./operator";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    user: { type: "string" },
    all: { type: "boolean" },
    admin: { type: "string" },
    as: { type: "string" },
    reason: { type: "string" },
  },
});

const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const port = Number(process.env.PORT ?? 3000);
const appUrl = (process.env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, "");

async function readLine(prompt: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  process.stderr.write(prompt);
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return "";
}

async function parseCommand(): Promise<OperatorCommand | "rotate-signing-key"> {
  const [name] = positionals;
  if (name === "rotate-signing-key") return name;
  const raw =
    name === "revoke" && values.all
      ? { command: "revoke-all" }
      : name === "set-password"
        ? { command: name, user: values.user, password: await readLine("New password: ") }
        : { command: name, user: values.user, admin: values.admin, as: values.as, reason: values.reason };
  const parsed = operatorCommand.safeParse(raw);
  if (!parsed.success) {
    console.error(
      `Usage: npm run sessions -- list | revoke --user <email> | revoke --all | set-password --user <email> | impersonate --admin <email> --as <email> [--reason <text>] | rotate-signing-key\n${parsed.error.issues.map((i) => `  ${i.path.join(".") || "command"}: ${i.message}`).join("\n")}`,
    );
    process.exit(2);
  }
  return parsed.data;
}

/** Asks the server that holds the embedded database to run the command. */
async function viaServer(command: OperatorCommand): Promise<unknown> {
  const { operatorToken } = await loadSecrets(dataDir);
  const local = `http://127.0.0.1:${new URL(appUrl).port || port}`;
  const res = await fetch(`${local}/operator/v1/sessions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify(command),
  });
  const body = (await res.json()) as { result?: unknown; error?: string };
  if (!res.ok) throw new OperatorError(body.error ?? `the server answered ${res.status}`);
  return body.result;
}

async function run(command: OperatorCommand): Promise<unknown> {
  let database;
  try {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: resolve(dataDir, "pglite") });
  } catch (err) {
    if (!/in use by process/.test((err as Error).message)) throw err;
    return viaServer(command);
  }
  try {
    await database.migrate();
    return await runOperatorCommand(database.db, command, appUrl);
  } finally {
    await database.close();
  }
}

const command = await parseCommand();
try {
  if (command === "rotate-signing-key" && process.env.DATABASE_URL) {
    const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    try {
      await database.migrate();
      const { kid, kept } = await rotateStoredSigningKey(database.db);
      console.log(
        `New signing key ${kid} in the database; still published: ${kept.join(", ")}. Every node signs with it within a minute (no restart).`,
      );
    } finally {
      await database.close();
    }
  } else if (command === "rotate-signing-key") {
    const { kid, kept } = await rotateSigningKey(dataDir);
    console.log(`New signing key ${kid}; still published: ${kept.join(", ")}. Restart the server (every node) now.`);
  } else {
    console.log(JSON.stringify(await run(command), null, 2));
  }
} catch (err) {
  console.error(err instanceof OperatorError ? err.message : err);
  process.exit(1);
}
