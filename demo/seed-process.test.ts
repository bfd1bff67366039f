import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seedInChild } from "./seed-process";

// Decision 038, addendum 11: a node on PostgreSQL seeds from a child process. One that cannot finish
// fails the node's start with a reason, not a node that serves without its data. (The seed itself,
// once among several nodes: tests/postgres/nodes.test.ts.)
describe("the demo seed's process", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "seed-child-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("a database it cannot reach: the start fails, naming the seed", { timeout: 60_000 }, async () => {
    const env = { ...process.env, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", DATA_DIR: dataDir };
    await expect(seedInChild({ accounts: true, env })).rejects.toThrow(
      /demo seed: its process ended with code 1 before it finished/,
    );
  });

  it("without DATABASE_URL it refuses: the embedded database seeds in its node", { timeout: 60_000 }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    await expect(seedInChild({ accounts: true, env })).rejects.toThrow(/ended with code 1/);
  });
});
