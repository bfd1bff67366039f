import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../api/db/client";
import { openTestDatabase } from "../tests/fixtures/database";
import { SIGN_IN_LIMITS, SIGN_UP_LIMITS, signInLimits, signUpLimits } from "./rate-limit";

/** Two limiters over one database stand for two nodes: they count together (issue 17, item 11). */
let database: Database;
beforeAll(async () => {
  // The migrated dump (PGlite), or a database of its own on PostgreSQL: not initdb and every migration.
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe("sign-in rate limit (shared)", () => {
  it("blocks an e-mail after 5 failures from one address, counted across nodes; another address is free", async () => {
    const nodeA = signInLimits(database);
    const nodeB = signInLimits(database);
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) {
      expect(await (i % 2 ? nodeA : nodeB).blockedFor("1.1.1.1", "a@x")).toBe(0);
      await (i % 2 ? nodeB : nodeA).fail("1.1.1.1", "a@x");
    }
    const wait = await nodeA.blockedFor("1.1.1.1", "A@X");
    expect(wait).toBeGreaterThan(SIGN_IN_LIMITS.windowSeconds - 5);
    expect(wait).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowSeconds);
    expect(await nodeB.blockedFor("2.2.2.2", "a@x")).toBe(0);
  });

  it("a success clears the e-mail's failures; many e-mails from one address are limited too", async () => {
    const l = signInLimits(database);
    for (let i = 0; i < 4; i++) await l.fail("3.3.3.3", "b@x");
    await l.succeed("3.3.3.3", "b@x");
    expect(await l.blockedFor("3.3.3.3", "b@x")).toBe(0);
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) await l.fail("4.4.4.4", `u${i}@x`);
    expect(await l.blockedFor("4.4.4.4", "fresh@x")).toBeGreaterThan(0);
  });
});

describe("sign-up rate limit (shared)", () => {
  it("refuses the 4th sign-up of one e-mail within the hour, from any address and node", async () => {
    const nodeA = signUpLimits(database);
    const nodeB = signUpLimits(database);
    for (let i = 0; i < SIGN_UP_LIMITS.perEmail; i++)
      expect(await (i % 2 ? nodeA : nodeB)(`10.0.0.${i}`, "c@x")).toBe(0);
    expect(await nodeA("10.0.0.99", "C@X")).toBeGreaterThan(0);
  });

  it("refuses the 11th sign-up from one address within the hour", async () => {
    const l = signUpLimits(database);
    for (let i = 0; i < SIGN_UP_LIMITS.perAddress; i++) expect(await l("5.5.5.5", `n${i}@x`)).toBe(0);
    expect(await l("5.5.5.5", "another@x")).toBeGreaterThan(0);
  });
});
