/**
 * `npm run certificates -- <command>`: the operator's tool for issued certificates (issue 32 item 4,
 * decision 041, README).
 *
 *   list [--user <email>] [--revoked] [--limit N]   newest first: number, holder, course, dates, revocation
 *   revoke <number> --reason "<why>"               sets the certificate's bit in the revocation status
 *                                                  list; the public page and verifiers see it within a
 *                                                  minute (their cache times). Final; a second revoke
 *                                                  changes nothing.
 *
 * With DATABASE_URL it works on that database. With the embedded PGlite database (DATA_DIR) it opens
 * it when no server holds it, and otherwise asks the running server (loopback, the operator token of
 * DATA_DIR/secrets.json). A refusal prints why and changes nothing (exit status 1).
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "./db/client";
import { loadSecrets } from "./runtime";
import {
  certificateCommand,
  CertificateCommandError,
  runCertificateCommand,
  type CertificateCommand,
} from "./certificate-revocation";

const USAGE =
  'Usage: npm run certificates -- list [--user <email>] [--revoked] [--limit N] | revoke <number> --reason "…"';
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    user: { type: "string" },
    revoked: { type: "boolean" },
    limit: { type: "string" },
    reason: { type: "string" },
  },
});
const dataDir = resolve(process.env.DATA_DIR ?? "./data");
const port = Number(process.env.PORT ?? 3000);
const appUrl = (process.env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, "");

const [name, number] = positionals;
const parsed = certificateCommand.safeParse(
  name === "list"
    ? {
        command: name,
        user: values.user,
        revoked: values.revoked ?? false,
        ...(values.limit ? { limit: Number(values.limit) } : {}),
      }
    : { command: name, number, reason: values.reason },
);
if (!parsed.success || (name === "revoke" && positionals.length !== 2)) {
  console.error(
    `${USAGE}\n${(parsed.error?.issues ?? []).map((i) => `  ${i.path.join(".") || "command"}: ${i.message}`).join("\n")}`,
  );
  process.exit(2);
}

/** Asks the server that holds the embedded database to run the command. */
async function viaServer(command: CertificateCommand): Promise<unknown> {
  const { operatorToken } = await loadSecrets(dataDir);
  const res = await fetch(`http://127.0.0.1:${new URL(appUrl).port || port}/operator/v1/certificates`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify(command),
  });
  const body = (await res.json()) as { result?: unknown; error?: string };
  if (!res.ok) throw new CertificateCommandError(body.error ?? `the server answered ${res.status}`);
  return body.result;
}

async function run(command: CertificateCommand): Promise<unknown> {
  let database;
  try {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: resolve(dataDir, "pglite") });
  } catch (err) {
    if (!/in use by process/.test((err as Error).message)) throw err;
    return viaServer(command);
  }
  try {
    await database.migrate();
    return await runCertificateCommand(database.db, command, new Date());
  } finally {
    await database.close();
  }
}

try {
  console.log(JSON.stringify(await run(parsed.data), null, 2));
} catch (err) {
  console.error(err instanceof CertificateCommandError ? `Refused: ${err.message}` : err);
  process.exit(1);
}
