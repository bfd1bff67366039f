/**
 * The deployment's secrets in the database (decision 037): nodes started together on an
 * empty PostgreSQL database agree on one set, made once; a secrets.json found beside the first node is
 * taken over; `npm run sessions -- rotate-signing-key` rotates the key there and running nodes follow.
 * The embedded PGlite keeps its file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { openDatabase, type Database } from "../../api/db/client";
import { deploymentSecrets } from "../../api/db/schema";
import { loadSecrets } from "../../api/runtime";
import {
  followSigningKeys,
  loadDeploymentSecrets,
  loadStoredSecrets,
  rotateStoredSigningKey,
} from "../../api/stored-secrets";
import { openTestDatabase, testDatabaseUrl } from "../fixtures/database";
import { operatorCommand } from "../fixtures/operator-cli";

/** This file runs in both vitest projects: PostgreSQL keeps the secrets in the database, PGlite in the file. */
const onPostgres = testDatabaseUrl() !== null;

let database: Database & { url?: string };
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), "secrets-test-"));
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

describe("on PostgreSQL", () => {
  it.runIf(onPostgres)("nodes that start together make one set of secrets, and read it afterwards", async () => {
    await database.db.delete(deploymentSecrets);
    const others = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: database.url })));
    try {
      const loaded = await Promise.all([database, ...others].map((d) => loadStoredSecrets(d)));
      for (const s of loaded.slice(1)) expect(s).toEqual(loaded[0]);
      expect(loaded[0].signingKey.kid).toBeTruthy();
      expect(await database.db.select().from(deploymentSecrets)).toHaveLength(4);
      // A node started later reads them; nothing is written again.
      expect(await loadStoredSecrets(others[0])).toEqual(loaded[0]);
      // And nothing goes to DATA_DIR: a data folder of its own, or a shared one, stays empty.
      const dir = folder();
      expect(await loadDeploymentSecrets(others[1], dir)).toEqual(loaded[0]);
      expect(existsSync(join(dir, "secrets.json"))).toBe(false);
    } finally {
      await Promise.all(others.map((d) => d.close()));
    }
  });

  it.runIf(onPostgres)(
    "a secrets.json beside the first node is taken over, so nobody is signed out by the move",
    async () => {
      await database.db.delete(deploymentSecrets);
      const dir = folder();
      const file = await loadSecrets(dir);
      expect(await loadDeploymentSecrets(database, dir)).toEqual({ ...file, previousSigningKeys: [] });
    },
  );

  it.runIf(onPostgres)(
    "rotate-signing-key rotates in the database (the CLI too); a running node follows",
    async () => {
      await database.db.delete(deploymentSecrets);
      const first = await loadStoredSecrets(database);
      const heard: string[] = [];
      const follower = followSigningKeys(
        database.db,
        first.signingKey,
        (keys) => heard.push(String(keys.signingKey.kid)),
        50,
      );
      try {
        const { kid, kept } = await rotateStoredSigningKey(database.db);
        expect(kept).toEqual([first.signingKey.kid]);
        const after = await loadStoredSecrets(database);
        expect(after.signingKey.kid).toBe(kid);
        expect(after.previousSigningKeys?.map((k) => k.kid)).toEqual([first.signingKey.kid]);
        expect(after.sessionSecret).toBe(first.sessionSecret);
        // At once when asked (a token signed by a key the node does not know yet), else on the timer.
        await follower.check();
        expect(heard).toEqual([kid]);

        // The operator's command against DATABASE_URL.
        const [program, argv] = operatorCommand("sessions", ["rotate-signing-key"]);
        const { stdout } = await promisify(execFile)(program, argv, {
          env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: folder(), LOG_LEVEL: "warn" },
        });
        expect(stdout).toMatch(/^New signing key \S+ in the database; still published: /m);
        const rotated = await loadStoredSecrets(database);
        expect(rotated.signingKey.kid).not.toBe(kid);
        expect(rotated.previousSigningKeys?.map((k) => k.kid)).toEqual([kid]);
        await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(2);
      } finally {
        follower.stop();
      }
    },
    60_000,
  );
});

describe("on the embedded PGlite", () => {
  it.runIf(!onPostgres)("the secrets stay in DATA_DIR/secrets.json", async () => {
    const dir = folder();
    const secrets = await loadDeploymentSecrets(database, dir);
    expect(existsSync(join(dir, "secrets.json"))).toBe(true);
    expect(await loadSecrets(dir)).toEqual(secrets);
    expect(await database.db.select().from(deploymentSecrets)).toEqual([]);
  });
});
