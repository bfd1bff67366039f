/**
 * `npm run db -- status | migrate | backup | restore` on the embedded database, as an operator runs it
 * (the compiled CLI, decision 053): a backup → a change → a restore brings back what was backed up,
 * and a database a running server holds is refused, never copied half-written.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "../../api/db/client";
import { lockDataDir } from "../../api/db/pglite-start";
import { shippedMigrations } from "../../api/db/schema-version";
import { ensureServerBuild } from "../fixtures/operator-cli";

let dataDir: string;
beforeAll(() => {
  ensureServerBuild();
  dataDir = mkdtempSync(join(tmpdir(), "db-command-"));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const db = (...args: string[]) => {
  const out = spawnSync(process.execPath, [join(import.meta.dirname, "../../build/node/ops-cli.js"), "db", ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "info" },
    encoding: "utf8",
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
};

async function marker(action: "create" | "exists"): Promise<boolean> {
  const database = await openDatabase({ dataDir: join(dataDir, "pglite") });
  try {
    if (action === "create") await database.db.execute(sql`create table restore_marker (x int)`);
    const found = await database.db.execute<{ t: string | null }>(sql`select to_regclass('restore_marker')::text as t`);
    return Boolean(found.rows[0]?.t);
  } finally {
    await database.close();
  }
}

it("status, migrate (logged by name), backup, restore", async () => {
  const before = db("status");
  expect(before.status).toBe(0);
  expect(before.stdout).toContain(`pending: ${shippedMigrations[0]!.tag}`);

  const migrated = db("migrate");
  expect(migrated.status).toBe(0);
  expect(migrated.stdout).toContain("pending: none");
  // The log's JSON lines (on stderr: stdout is the command's answer) name the migrations and their time.
  const applied = migrated.stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { msg: string; migration?: string; ms?: number });
  expect(applied.filter((l) => l.msg === "db: migration applied").map((l) => l.migration)).toEqual(
    shippedMigrations.map((m) => m.tag),
  );

  const file = join(dataDir, "backup.tgz");
  const backup = db("backup", file);
  expect(backup.status).toBe(0);
  expect(backup.stderr).toMatch(/signing keys, the session secret, the operator token/);
  expect(backup.stderr).toMatch(/does not hold the stored files/);
  expect(existsSync(file)).toBe(true);

  expect(await marker("create")).toBe(true);
  expect(db("restore", file).status).toBe(1); // without --yes: refused, nothing changed
  expect(await marker("exists")).toBe(true);
  const restored = db("restore", file, "--yes");
  expect(restored.status).toBe(0);
  expect(await marker("exists")).toBe(false);
  // The database that was replaced is kept beside it.
  expect(readdirSync(dataDir).some((n) => n.startsWith("pglite.before-restore-"))).toBe(true);
  expect(db("status").stdout).toContain("pending: none");
}, 120_000);

it("a database a running process holds is refused, with what to do", () => {
  const release = lockDataDir(join(dataDir, "pglite"));
  try {
    const refused = db("backup", join(dataDir, "while-running.tgz"));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/in use by process \d+.*stop it/is);
    expect(existsSync(join(dataDir, "while-running.tgz"))).toBe(false);
    expect(db("restore", join(dataDir, "backup.tgz"), "--yes").status).toBe(1);
  } finally {
    release();
  }
});

it("wrong arguments: the usage, status 2", () => {
  const wrong = db("backup");
  expect(wrong.status).toBe(2);
  expect(wrong.stderr).toContain("npm run db -- <command>");
});
