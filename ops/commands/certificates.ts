/**
 * `npm run ops -- certificates <command>` (alias `npm run certificates -- …`): issued certificates
 * (decision 041). A revocation sets the certificate's bit in the status list; the public page and
 * verifiers see it within a minute (their cache times). It is final: a second revoke changes nothing.
 */
import { parseArgs } from "node:util";
import { certificateCommand, CertificateCommandError, runCertificateCommand } from "../../api/certificate-revocation";
import { issueLines, onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = `npm run certificates -- <command>
  list [--user <email>] [--revoked] [--limit N]   newest first: number, holder, course, dates, revocation
  revoke <number> --reason "<why>"               revokes it for good`;

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      user: { type: "string" },
      revoked: { type: "boolean" },
      limit: { type: "string" },
      reason: { type: "string" },
    },
  });
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
  if (!parsed.success) throw new UsageError(`${USAGE}\n${issueLines(parsed.error.issues)}`);
  if (name === "revoke" && positionals.length !== 2) throw new UsageError(USAGE);
  try {
    const result = await onDatabaseOrServer(ops, {
      database: (database) => runCertificateCommand(database.db, parsed.data, new Date()),
      server: (ask) => ask("/certificates", parsed.data),
    });
    console.log(JSON.stringify(result, null, 2));
  } catch (err) {
    throw err instanceof CertificateCommandError ? new Refused(err.message) : err;
  }
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
