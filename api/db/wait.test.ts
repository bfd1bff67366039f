/** A node started while the database is down waits for it, and stops only for what waiting cannot cure (issue 53 item 2). */
import { createServer } from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { DatabaseRefused, isUnreachable, waitForDatabase } from "./wait";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("waitForDatabase", () => {
  it("tries again with a growing delay until the database answers", async () => {
    const delays: number[] = [];
    let tries = 0;
    const attempts = await waitForDatabase(
      async () => {
        if (++tries < 7) throw refused();
      },
      { firstDelayMs: 500, maxDelayMs: 4_000, sleep: async (ms) => void delays.push(ms) },
    );
    expect(attempts).toBe(7);
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 4_000, 4_000]);
  });

  it.each([
    ["28P01", /user or password/],
    ["3D000", /does not exist/],
    ["42P01", /cannot be used/],
  ])("%s is not waited for: it stops the start with what to do", async (code, message) => {
    const error = Object.assign(new Error("no"), { code });
    await expect(waitForDatabase(() => Promise.reject(error), { sleep: async () => {} })).rejects.toThrow(message);
    await expect(waitForDatabase(() => Promise.reject(error))).rejects.toBeInstanceOf(DatabaseRefused);
  });

  it("a try that hangs counts as failed", async () => {
    let tries = 0;
    const hang = () => (++tries === 1 ? new Promise(() => {}) : Promise.resolve());
    await expect(waitForDatabase(hang, { tryTimeoutMs: 20, sleep: async () => {} })).resolves.toBe(2);
  });
});

describe("isUnreachable, on the errors pg really gives", () => {
  it("a port nobody listens on", async () => {
    const probe = createServer();
    const port = await new Promise<number>((r) =>
      probe.listen(0, "127.0.0.1", () => r((probe.address() as { port: number }).port)),
    );
    await new Promise((r) => probe.close(r));
    const client = new pg.Client({ connectionString: `postgres://u:p@127.0.0.1:${port}/x` });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUnreachable(error)).toBe(true);
  });
  it("a server that closes the connection at once", async () => {
    const server = createServer((socket) => socket.destroy());
    const port = await new Promise<number>((r) =>
      server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port)),
    );
    const client = new pg.Client({ connectionString: `postgres://u:p@127.0.0.1:${port}/x` });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    server.close();
    expect(isUnreachable(error)).toBe(true);
  });
  it("a syntax error is not", () =>
    expect(isUnreachable(Object.assign(new Error("x"), { code: "42601" }))).toBe(false));
});
