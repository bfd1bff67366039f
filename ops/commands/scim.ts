/**
 * `npm run ops -- scim token create --label <client> [--tenant <domain>] | token list | token revoke <id>`
 * (decision 059): the bearer tokens SCIM clients (Entra ID, Okta, Keycloak) provision people with, at
 * `<APP_URL>/scim/v2`. A new token is printed once; only its hash is stored.
 */
import { parseArgs } from "node:util";
import { runScimTokenCommand, scimTokenCommand, ScimTokenError } from "../../api/scim/tokens";
import { issueLines, onDatabaseOrServer, Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = `npm run ops -- scim token <command>
  create --label <client> [--tenant <domain>]   a new token for a SCIM client (shown once)
  list                                          the tokens: label, tenant, made, last used, revoked
  revoke <id>                                   the token stops working at once`;

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { label: { type: "string" }, tenant: { type: "string" } },
  });
  const [noun, verb, id] = positionals;
  if (noun !== "token") throw new UsageError(USAGE);
  const parsed = scimTokenCommand.safeParse({ command: verb, label: values.label, tenant: values.tenant, id });
  if (!parsed.success) throw new UsageError(`${USAGE}\n${issueLines(parsed.error.issues)}`);
  try {
    const result = await onDatabaseOrServer(ops, {
      database: (database) => runScimTokenCommand(database.db, parsed.data),
      server: (ask) => ask("/scim-tokens", parsed.data),
    });
    if (parsed.data.command === "create") {
      const made = result as { id: string; token: string };
      console.log(`SCIM token ${made.id} (shown once; give it to the client with ${ops.appUrl}/scim/v2):`);
      console.log(made.token);
    } else console.log(JSON.stringify(result, null, 2));
  } catch (err) {
    throw err instanceof ScimTokenError ? new Refused(err.message) : err;
  }
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
