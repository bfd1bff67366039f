/**
 * `npm run ops -- db <command>` (alias `npm run db -- …`): the database's migrations, backups and
 * restores (decision 053, issue 53 item 6; docs/operations/upgrades.md and backups.md).
 *
 * - `status`: the migrations applied, pending, and unknown to this build (a newer build migrated it);
 *   exit status 1 when the schema is newer than this build, so a deployment script can stop there.
 * - `migrate`: applies this build's pending migrations, with their names and time — the first step of
 *   an upgrade, before the nodes are rolled (a node then finds nothing to do).
 * - `backup <file>`: PostgreSQL: `pg_dump -Fc`; embedded: PGlite's own dump of the data directory
 *   (`dumpDataDir`), consistent because this command holds the directory — refused while a server
 *   runs on it. Either holds the deployment's secrets (signing keys, session secret, operator token,
 *   LTI secrets): it is a secret itself. Neither holds the stored files (DATA_DIR/storage or the bucket).
 * - `restore <file> --yes`: PostgreSQL: `pg_restore --clean --if-exists` into DATABASE_URL, with every
 *   node stopped; embedded: the dump into DATA_DIR/pglite, the old directory kept beside it.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, type Database } from "../../api/db/client";
import { lockDataDir } from "../../api/db/pglite-start";
import { schemaStatus, shippedMigrations, type SchemaStatus } from "../../api/db/schema-version";
import { Refused, UsageError, type OperatorEnv } from "../database-or-server";

const USAGE = `npm run db -- <command>   (or npm run ops -- db <command>)
  status                    migrations applied, pending, and any this build does not know
  migrate                   applies this build's pending migrations (upgrade step 1: docs/operations/upgrades.md)
  backup <file>             PostgreSQL: pg_dump -Fc; embedded: a dump of DATA_DIR/pglite (the server stopped)
  restore <file> --yes      PostgreSQL: pg_restore --clean into DATABASE_URL (every node stopped);
                            embedded: the dump into DATA_DIR/pglite, the old one kept beside it`;

/** Printed with every backup and restore (docs/operations/backups.md). */
const SECRETS_WARNING =
  "This backup holds the deployment's secrets — the identity provider's signing keys, the session secret, the operator token " +
  "and the LTI tools' secrets (on PostgreSQL; with the embedded database they are in DATA_DIR/secrets.json, copy it too) — " +
  "and every learner's data: store it encrypted, as a secret. It does not hold the stored files (SCORM packages, chat files, " +
  "certificates: DATA_DIR/storage or the S3 bucket): back those up with the storage's own tools.";

function describeStatus(status: SchemaStatus, kind: string): string {
  const lines = [
    `database: ${kind}`,
    `this build ships ${shippedMigrations.length} migrations, up to ${shippedMigrations.at(-1)?.tag}`,
    `applied: ${status.applied.length}${status.applied.length ? ` (last ${status.applied.at(-1)!.tag})` : ""}`,
  ];
  if (status.pending.length) lines.push(`pending: ${status.pending.map((m) => m.tag).join(", ")}`);
  else lines.push("pending: none");
  if (status.unknown.length)
    lines.push(
      `NEWER THAN THIS BUILD: ${status.unknown.length} migration(s) this build does not ship (${status.unknown
        .map((m) => m.appliedAt)
        .join(", ")}): run the newer build`,
    );
  return lines.join("\n");
}

/** The database itself, never the running server: these commands work on files and schemas. */
async function withDatabase<T>(ops: OperatorEnv, work: (database: Database) => Promise<T>): Promise<T> {
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: ops.env.DATABASE_URL, dataDir: embeddedDir(ops) });
  } catch (err) {
    if (/in use by process/.test((err as Error).message))
      throw new Refused(
        `${(err as Error).message}\nThe running server migrates the embedded database when it starts; to back it up, stop it ` +
          "(a copy of a directory PGlite is writing is not consistent), run this again, then start it.",
      );
    throw err;
  }
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

const embeddedDir = (ops: OperatorEnv) => resolve(ops.dataDir, "pglite");

/** Runs a PostgreSQL client program; its output goes to ours. */
function run(program: string, args: string[]): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(program, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", (err: NodeJS.ErrnoException) =>
      fail(
        err.code === "ENOENT"
          ? new Refused(
              `${program} is not installed: install PostgreSQL's client programs (e.g. apt-get install postgresql-client)`,
            )
          : err,
      ),
    );
    child.on("exit", (code) => (code === 0 ? ok() : fail(new Refused(`${program} exited with status ${code}`))));
  });
}

async function main(args: string[], ops: OperatorEnv): Promise<void> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { yes: { type: "boolean" } } });
  const [name, file] = positionals;
  const url = ops.env.DATABASE_URL;
  switch (name) {
    case "status": {
      const status = await withDatabase(ops, (d) => schemaStatus(d.db));
      console.log(describeStatus(status, url ? "PostgreSQL (DATABASE_URL)" : `embedded, ${embeddedDir(ops)}`));
      if (status.unknown.length) throw new Refused("the database's schema is newer than this build");
      return;
    }
    case "migrate": {
      const status = await withDatabase(ops, async (d) => {
        await d.migrate();
        return schemaStatus(d.db);
      });
      console.log(describeStatus(status, url ? "PostgreSQL (DATABASE_URL)" : `embedded, ${embeddedDir(ops)}`));
      return;
    }
    case "backup": {
      if (!file || positionals.length !== 2) throw new UsageError(USAGE);
      const target = resolve(file);
      if (existsSync(target)) throw new Refused(`${target} exists: name a new file`);
      if (url) await run("pg_dump", ["--format=custom", `--file=${target}`, `--dbname=${url}`]);
      else
        await withDatabase(ops, async (d) => {
          const client = (d.db as unknown as { $client: { dumpDataDir(c: "gzip"): Promise<Blob> } }).$client;
          writeFileSync(target, new Uint8Array(await (await client.dumpDataDir("gzip")).arrayBuffer()), {
            mode: 0o600,
          });
        });
      console.log(`backup written: ${target} (${(statSync(target).size / 1024 / 1024).toFixed(1)} MB)`);
      console.error(SECRETS_WARNING);
      return;
    }
    case "restore": {
      if (!file || positionals.length !== 2) throw new UsageError(USAGE);
      const source = resolve(file);
      if (!existsSync(source)) throw new Refused(`${source} does not exist`);
      if (!values.yes)
        throw new Refused(
          `restoring replaces the database's data with ${source}: stop every node first, then run it again with --yes`,
        );
      if (url)
        await run("pg_restore", [
          "--clean",
          "--if-exists",
          "--no-owner",
          "--single-transaction",
          `--dbname=${url}`,
          source,
        ]);
      else await restoreEmbedded(ops, source);
      console.log(`restored from ${source}; the next start applies any migration this build adds`);
      console.error(SECRETS_WARNING);
      return;
    }
    default:
      throw new UsageError(USAGE);
  }
}

/** The dump into DATA_DIR/pglite: the old directory is moved aside (never deleted), the dump opened there. */
async function restoreEmbedded(ops: OperatorEnv, source: string): Promise<void> {
  const dir = embeddedDir(ops);
  let unlock: () => void;
  try {
    unlock = lockDataDir(dir); // a server running on it: refused, naming its process
  } catch (err) {
    throw new Refused((err as Error).message);
  }
  unlock();
  const aside = existsSync(dir) ? `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}` : null;
  if (aside) renameSync(dir, aside);
  try {
    const database = await openDatabase({ dataDir: dir, loadDataDir: new Blob([readFileSync(source)]) });
    await database.close();
  } catch (err) {
    if (aside) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(aside, dir);
    }
    throw err;
  }
  if (aside) console.log(`the database that was there is kept in ${aside}`);
}

/** The area of `npm run ops`. */
export const command = { usage: USAGE, main };
