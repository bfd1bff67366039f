/**
 * The deployment's generated secrets in PostgreSQL (decision 037), for several nodes that share
 * nothing but the database: the first node to start creates them under the advisory lock
 * "secrets"; every other node, started at the same moment or later, reads the same rows. A deployment
 * that kept them in `DATA_DIR/secrets.json` (before this) has that file's values taken over, so
 * nobody is signed out by the move. `rotate-signing-key` rotates them here; running nodes pick up the
 * new key within `SECRETS_REFRESH_MS` (server.ts) — no restart, nothing to copy.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { inArray, sql } from "drizzle-orm";
import type { JWK } from "jose";
import type { Database, Db } from "./db/client";
import { deploymentSecrets } from "./db/schema";
import { log } from "./db/log";
import { loadSecrets, newSigningKey, type Secrets } from "./runtime";

const NAMES = ["session-secret", "idp-cookie-key", "signing-keys", "operator-token"] as const;
type Name = (typeof NAMES)[number];

interface SigningKeys {
  current: JWK;
  previous: JWK[];
}

type Values = {
  "session-secret": string;
  "idp-cookie-key": string;
  "signing-keys": SigningKeys;
  "operator-token": string;
};

async function readValues(db: Db): Promise<Partial<Values>> {
  const rows = await db
    .select({ name: deploymentSecrets.name, value: deploymentSecrets.value })
    .from(deploymentSecrets)
    .where(inArray(deploymentSecrets.name, [...NAMES]));
  return Object.fromEntries(rows.map((r) => [r.name, r.value])) as Partial<Values>;
}

const complete = (v: Partial<Values>): v is Values => NAMES.every((n) => v[n] !== undefined);

const toSecrets = (v: Values): Secrets => ({
  sessionSecret: v["session-secret"],
  idpCookieKey: v["idp-cookie-key"],
  signingKey: v["signing-keys"].current,
  previousSigningKeys: v["signing-keys"].previous,
  operatorToken: v["operator-token"],
});

/**
 * The secrets stored in the database, created once if missing: from `takeOver` (the values of an
 * existing secrets.json) or new. Nodes that start together wait for each other on the lock, and a
 * row that another node wrote first is never overwritten.
 */
export async function loadStoredSecrets(database: Database, takeOver?: Secrets | null): Promise<Secrets> {
  const found = await readValues(database.db);
  if (complete(found)) return toSecrets(found);
  return database.exclusive("secrets", async () => {
    const now = await readValues(database.db);
    if (complete(now)) return toSecrets(now);
    const fresh: Values = {
      "session-secret": takeOver?.sessionSecret ?? randomBytes(32).toString("base64url"),
      "idp-cookie-key": takeOver?.idpCookieKey ?? randomBytes(32).toString("base64url"),
      "signing-keys": takeOver
        ? { current: takeOver.signingKey, previous: takeOver.previousSigningKeys ?? [] }
        : { current: await newSigningKey(), previous: [] },
      "operator-token": takeOver?.operatorToken ?? randomBytes(32).toString("base64url"),
    };
    const missing = NAMES.filter((n) => now[n] === undefined);
    await database.db
      .insert(deploymentSecrets)
      .values(missing.map((name) => ({ name, value: fresh[name] })))
      .onConflictDoNothing();
    log().info(
      { created: missing, takenOver: Boolean(takeOver) },
      takeOver ? "secrets: taken over from secrets.json into the database" : "secrets: created in the database",
    );
    const stored = await readValues(database.db);
    if (!complete(stored)) throw new Error("the deployment's secrets could not be stored");
    return toSecrets(stored);
  });
}

/** The signing keys as stored now (a node compares them with its own to follow a rotation). */
async function storedSigningKeys(db: Db): Promise<{ signingKey: JWK; previousSigningKeys: JWK[] } | null> {
  const { "signing-keys": keys } = await readValues(db);
  return keys ? { signingKey: keys.current, previousSigningKeys: keys.previous } : null;
}

/**
 * A new signing key in the database; the current one is kept (published, accepted) until the next
 * rotation, as with secrets.json. Row-locked, so two operators rotating at once rotate twice, in turn.
 */
export async function rotateStoredSigningKey(db: Db): Promise<{ kid: string; kept: string[] }> {
  const next = await newSigningKey();
  return db.transaction(async (tx) => {
    const result = await tx.execute<{ value: SigningKeys }>(
      sql`select value from ${deploymentSecrets} where name = ${"signing-keys" satisfies Name} for update`,
    );
    const current = result.rows[0]?.value;
    if (!current) throw new Error("no signing key is stored yet: start the server once first");
    const value: SigningKeys = { current: next, previous: [current.current] };
    await tx
      .update(deploymentSecrets)
      .set({ value, updatedAt: new Date() })
      .where(sql`${deploymentSecrets.name} = ${"signing-keys" satisfies Name}`);
    return { kid: String(next.kid), kept: [String(current.current.kid)] };
  });
}

/**
 * Follows a rotation made on the database by another process: every `everyMs` the stored keys are read
 * (one primary-key read), and `onChange` gets them when the current key is another than this node's.
 * `check()` reads them at once (a token signed by a key this node does not know yet).
 */
export function followSigningKeys(
  db: Db,
  current: JWK,
  onChange: (keys: { signingKey: JWK; previousSigningKeys: JWK[] }) => void,
  everyMs: number,
): { check(): Promise<void>; stop(): void } {
  let kid = current.kid;
  let reading: Promise<void> | null = null;
  let again: Promise<void> | null = null;
  const read = () =>
    storedSigningKeys(db)
      .then(
        (keys) => {
          if (!keys || keys.signingKey.kid === kid) return;
          kid = keys.signingKey.kid;
          log().info({ kid }, "secrets: the signing key was rotated; this node follows");
          onChange(keys);
        },
        (err: unknown) => log().warn({ err }, "secrets: the signing keys could not be read"),
      )
      .finally(() => (reading = null));
  // Asked (a token signed by a key this node does not know): a read already under way may have begun
  // before the rotation, so the answer is a read that begins after the asking — one more, shared by
  // everyone who asks meanwhile.
  const check = (): Promise<void> => {
    if (!reading) return (reading = read());
    return (again ??= reading.then(() => {
      again = null;
      return check();
    }));
  };
  // The timer only reads when no read is under way.
  const timer = setInterval(() => void (reading ?? check()), everyMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}

/** The secrets of this node: the database's on PostgreSQL (taking over a secrets.json found there), else the file's. */
export async function loadDeploymentSecrets(database: Database, dataDir: string): Promise<Secrets> {
  if (database.kind !== "postgres") return loadSecrets(dataDir);
  return loadStoredSecrets(database, existsSync(join(dataDir, "secrets.json")) ? await loadSecrets(dataDir) : null);
}
