/**
 * What every operator command needs: the database itself, or — while a server holds the embedded one —
 * that server, asked on this machine's port with the operator token of DATA_DIR/secrets.json
 * (`ops/routes.ts` answers). With DATABASE_URL the database is always opened directly.
 */
import { resolve } from "node:path";
import { openDatabase, type Database } from "../api/db/client";
import { loadSecrets } from "../api/runtime";

export interface OperatorEnv {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  appUrl: string;
  /** The running server on this machine (loopback, APP_URL's port or PORT). */
  serverUrl: string;
}

export function operatorEnv(env: NodeJS.ProcessEnv = process.env): OperatorEnv {
  const dataDir = resolve(env.DATA_DIR ?? "./data");
  const port = Number(env.PORT ?? 3000);
  const appUrl = (env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  return { env, dataDir, appUrl, serverUrl: `http://127.0.0.1:${new URL(appUrl).port || port}` };
}

/** A command refused, by the database's rules or by the server: its reason, exit status 1. */
export class Refused extends Error {}

/** Wrong arguments: the usage, exit status 2. */
export class UsageError extends Error {}

/** Sends one command to the running server's operator endpoint; its refusal becomes `Refused`. */
export type AskServer = <T>(path: string, body: unknown, contentType?: string) => Promise<T>;

function askServer(ops: OperatorEnv): AskServer {
  return async <T>(path: string, body: unknown, contentType = "application/json") => {
    const { operatorToken } = await loadSecrets(ops.dataDir);
    const json = contentType === "application/json";
    const res = await fetch(`${ops.serverUrl}/operator/v1${path}`, {
      method: "POST",
      headers: { "Content-Type": contentType, Authorization: `Bearer ${operatorToken}` },
      body: json ? JSON.stringify(body) : (body as BodyInit),
      ...(json ? {} : { duplex: "half" }),
    } as RequestInit);
    const answer = (await res.json().catch(() => ({}))) as { result?: T; error?: string };
    if (!res.ok) throw new Refused(answer.error ?? `the server answered ${res.status}`);
    return answer.result as T;
  };
}

const serverAnswers = (ops: OperatorEnv) =>
  fetch(`${ops.serverUrl}/healthz`).then(
    (res) => res.ok,
    () => false,
  );

/**
 * Runs the command on the database (migrated first) when this process can open it, else on the server
 * that holds it; when another command holds it and no server answers, waits for it up to 30 s.
 */
export async function onDatabaseOrServer<T>(
  ops: OperatorEnv,
  work: { database: (database: Database) => Promise<T>; server: (ask: AskServer) => Promise<T> },
): Promise<T> {
  const until = Date.now() + 30_000;
  for (;;) {
    let database: Database | undefined;
    try {
      database = await openDatabase({ databaseUrl: ops.env.DATABASE_URL, dataDir: resolve(ops.dataDir, "pglite") });
    } catch (err) {
      if (!/in use by process/.test((err as Error).message)) throw err;
    }
    if (database) {
      try {
        await database.migrate();
        return await work.database(database);
      } finally {
        await database.close();
      }
    }
    if (await serverAnswers(ops)) return work.server(askServer(ops));
    if (Date.now() > until)
      throw new Refused(
        `The database in ${ops.dataDir} is held by another process, and no server answers at ${ops.serverUrl}: try again when it is done.`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Zod issues as the lines under a usage text. */
export const issueLines = (issues: readonly { path: PropertyKey[]; message: string }[], prefix = "") =>
  issues.map((i) => `  ${prefix}${i.path.map(String).join(".") || "command"}: ${i.message}`).join("\n");
