import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../api/db/client";
import { openTestDatabase } from "../tests/fixtures/database";
import {
  clientKey,
  RESET_LIMITS,
  resetLimits,
  SIGN_IN_LIMITS,
  SIGN_UP_LIMITS,
  signInLimits,
  signUpLimits,
} from "./rate-limit";

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

describe("nobody locks anybody else out (the client is stopped, the account only slowed)", () => {
  it("five wrong passwords for rita from an attacker's client leave her own client free", async () => {
    const l = signInLimits(database);
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) await l.fail("6.6.6.6", "rita@x");
    expect(await l.blockedFor("6.6.6.6", "rita@x")).toBeGreaterThan(60);
    expect(await l.blockedFor("7.7.7.7", "rita@x")).toBe(0);
  });

  it("failures from many clients slow the account down for at most a minute, never lock it", async () => {
    const l = signInLimits(database);
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountPerMinute; i++) await l.fail(`9.9.9.${i}`, "grace@x");
    const wait = await l.blockedFor("8.8.8.8", "grace@x");
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
  });

  it("an IPv6 client is its /64: another address of the same network is the same client", async () => {
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe(clientKey("2001:db8:1:2:bbbb::9"));
    expect(clientKey("2001:db8:1:3::1")).not.toBe(clientKey("2001:db8:1:2::1"));
    expect(clientKey("::ffff:10.1.2.3")).toBe("10.1.2.3");
    const l = signInLimits(database);
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) await l.fail(clientKey(`2001:db8:5:5::${i + 1}`), "ada6@x");
    expect(await l.blockedFor(clientKey("2001:db8:5:5::ffff"), "ada6@x")).toBeGreaterThan(0);
  });

  it("three 'forgot password' requests from a stranger do not stop the owner's", async () => {
    const reset = resetLimits(database);
    for (let i = 0; i < RESET_LIMITS.perEmail; i++) expect(await reset("6.6.6.7", "rita@x")).toBe(0);
    expect(await reset("6.6.6.7", "rita@x")).toBeGreaterThan(0);
    expect(await reset("7.7.7.8", "rita@x")).toBe(0);
  });
});

describe("sign-up rate limit (shared)", () => {
  it("refuses the 4th sign-up of one e-mail within the hour from one client, on any node; another client is free", async () => {
    const nodeA = signUpLimits(database);
    const nodeB = signUpLimits(database);
    for (let i = 0; i < SIGN_UP_LIMITS.perEmail; i++) expect(await (i % 2 ? nodeA : nodeB)("10.0.0.1", "c@x")).toBe(0);
    expect(await nodeA("10.0.0.1", "C@X")).toBeGreaterThan(0);
    expect(await nodeB("10.0.0.2", "c@x")).toBe(0);
  });

  it("refuses the 11th sign-up from one address within the hour", async () => {
    const l = signUpLimits(database);
    for (let i = 0; i < SIGN_UP_LIMITS.perAddress; i++) expect(await l("5.5.5.5", `n${i}@x`)).toBe(0);
    expect(await l("5.5.5.5", "another@x")).toBeGreaterThan(0);
  });
});
