import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../api/db/client";
import { openTestDatabase } from "../fixtures/database";
import { seedDemo } from "../../demo/seed";
import { appSessions, oidcModels, users } from "../../api/db/schema";
import { createSessionStore } from "../../identity/sessions/store";
import { runOperatorCommand } from "../../identity/sessions/operator";
import { demoAccountsAllowed, disableDemoPasswordAccounts } from "../../demo/demo-accounts";
import { verifyPassword } from "../../identity/password";
import { registerLearner } from "../../identity/register";
import { parseAppConfig } from "../../app/services/config.server";
import { createSession, endSession, readSession } from "../../app/services/session.server";

/**
 * Sessions as rows (issue 17, item 2; decision 017): what the cookie carries, what the table keeps,
 * and that sign-out, an operator's revoke and a password change take effect on the next request.
 */
let database: Database;
let store: ReturnType<typeof createSessionStore>;
let adaId = "";
const config = parseAppConfig({
  APP_URL: "http://localhost:3000",
  SESSION_SECRET: "a-session-secret-for-tests",
  OIDC_ISSUER: "http://localhost:3000/idp",
  OIDC_CLIENT_ID: "learner-app",
  OIDC_CLIENT_SECRET: "secret",
});

const request = (setCookie: string) =>
  new Request("http://localhost:3000/learn/courses", { headers: { Cookie: setCookie.split(";")[0] } });

async function signIn(sub: string, email: string, expiresAt = Date.now() + 3600_000) {
  const setCookie = await createSession(
    { sub, email, accessToken: `access-token-of-${sub}`, idToken: "id.token.x", expiresAt },
    config,
    store,
  );
  return request(setCookie);
}

beforeAll(async () => {
  // The migrated dump (PGlite), or a database of its own on PostgreSQL: not initdb and every migration.
  database = await openTestDatabase();
  const { userIds } = await seedDemo(database.db, { catalog: false });
  adaId = userIds.ada;
  store = createSessionStore(database.db);
});
afterAll(() => database.close());

describe("a session is a row; the cookie carries a random id", () => {
  it("keeps neither the id nor the tokens readable in the table, and reads it back in one query", async () => {
    const setCookie = await createSession(
      {
        sub: adaId,
        email: "ada@example.com",
        accessToken: "secret-access-token",
        idToken: "id.tok.en",
        expiresAt: Date.now() + 60_000,
      },
      config,
      store,
    );
    expect(setCookie).toMatch(/^learn_session=[^;]+; /);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const rows = await database.db.select().from(appSessions).where(eq(appSessions.subject, adaId));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain("secret-access-token");
    expect(setCookie).not.toContain(rows[0].idHash);

    const before = database.queryCount();
    const session = await readSession(request(setCookie), config, store);
    expect(database.queryCount() - before).toBe(1);
    expect(session).toMatchObject({ sub: adaId, accessToken: "secret-access-token", idToken: "id.tok.en" });
  });

  it("refuses a tampered, unknown or garbled cookie", async () => {
    const good = await signIn(adaId, "ada@example.com");
    const value = good.headers.get("Cookie")!;
    for (const cookie of [value.slice(0, -2) + "xx", "learn_session=abc", "learn_session=%E0%A4%A", "learn_session="]) {
      expect(
        await readSession(new Request("http://localhost:3000/", { headers: { Cookie: cookie } }), config, store),
      ).toBeNull();
    }
  });

  it("an expired session reads as signed out", async () => {
    const req = await signIn(adaId, "ada@example.com", Date.now() - 1);
    expect(await readSession(req, config, store)).toBeNull();
  });
});

describe("revocation takes effect on the next request", () => {
  it("sign-out revokes the row: the same cookie, replayed, is a visitor's", async () => {
    const req = await signIn(adaId, "ada@example.com");
    expect(await readSession(req, config, store)).not.toBeNull();
    const clear = await endSession(req, config, store);
    expect(clear).toMatch(/Max-Age=0/);
    expect(await readSession(req, config, store)).toBeNull();
  });

  it("an operator's revoke --user ends that user's sessions (app and provider), nobody else's", async () => {
    const ada1 = await signIn(adaId, "ada@example.com");
    const ada2 = await signIn(adaId, "ADA@example.com");
    const grace = await signIn("grace-sub", "grace@example.com");
    await database.db.insert(oidcModels).values([
      { model: "Session", id: "s-ada", payload: { accountId: adaId }, accountId: adaId },
      { model: "Grant", id: "g-ada", payload: { accountId: adaId }, accountId: adaId },
      { model: "AccessToken", id: "t-ada", payload: { grantId: "g-ada" }, grantId: "g-ada" },
    ]);
    const result = await runOperatorCommand(database.db, { command: "revoke", user: "Ada@Example.com" }, "");
    // ada's two sessions here and the earlier tests' ones.
    expect(result).toMatchObject({ providerRecords: 3 });
    expect((result as { appSessions: number }).appSessions).toBeGreaterThanOrEqual(2);
    expect(await readSession(ada1, config, store)).toBeNull();
    expect(await readSession(ada2, config, store)).toBeNull();
    expect(await readSession(grace, config, store)).not.toBeNull();
    expect(
      await database.db
        .select()
        .from(oidcModels)
        .where(sql`${oidcModels.id} in ('s-ada','g-ada','t-ada')`),
    ).toEqual([]);
  });

  it("revoke --all ends every session", async () => {
    const a = await signIn("x-sub", "x@example.com");
    const b = await signIn("y-sub", "y@example.com");
    await runOperatorCommand(database.db, { command: "revoke-all" }, "");
    expect(await readSession(a, config, store)).toBeNull();
    expect(await readSession(b, config, store)).toBeNull();
    expect((await runOperatorCommand(database.db, { command: "list" }, "")) as { sessions: unknown[] }).toEqual({
      sessions: [],
    });
  });

  it("a password change ends the user's sessions", async () => {
    const reg = await registerLearner(database.db, {
      firstName: "Pat",
      lastName: "Word",
      email: "pat@example.com",
      password: "the first password",
    });
    if (!reg.ok || !reg.userId) throw new Error("not registered");
    const req = await signIn(reg.userId, "pat@example.com");
    await runOperatorCommand(
      database.db,
      { command: "set-password", user: "pat@example.com", password: "a second password" },
      "",
    );
    expect(await readSession(req, config, store)).toBeNull();
    const [u] = await database.db.select().from(users).where(eq(users.id, reg.userId));
    expect(await verifyPassword("a second password", u.passwordHash)).toBe(true);
  });
});

describe("demo accounts (issue 17, item 12)", () => {
  it.each([
    ["http://localhost:3000", undefined, true],
    ["http://127.0.0.1:3000", undefined, true],
    ["http://[::1]:3000", undefined, true],
    ["http://app.localhost:3000", undefined, true],
    ["https://learn.example.com", undefined, false],
    ["https://learn.example.com", "1", true],
    ["https://learn.example.com", "0", false],
    ["http://127.0.0.1.example.com", undefined, false],
    ["http://10.0.0.5:3000", undefined, false],
  ])("APP_URL %s with DEMO_ACCOUNTS=%s allows demo accounts: %s", (url, flag, allowed) => {
    expect(demoAccountsAllowed(url, flag)).toBe(allowed);
  });

  it("disables every account with the demo password, and no other", async () => {
    const other = await registerLearner(database.db, {
      firstName: "Real",
      lastName: "Person",
      email: "real@example.com",
      password: "not the demo one",
    });
    if (!other.ok || !other.userId) throw new Error("not registered");
    const disabled = await disableDemoPasswordAccounts(database.db);
    expect(disabled.sort()).toEqual([
      "ada@example.com",
      "admin@example.com",
      "grace@example.com",
      "katherine@example.com",
      "margaret@example.com",
      "rita@example.com",
    ]);
    const rows = await database.db.select({ email: users.email, hash: users.passwordHash }).from(users);
    for (const row of rows) {
      if (disabled.includes(row.email)) expect(row.hash).toBeNull();
    }
    expect(rows.find((r) => r.email === "real@example.com")?.hash).toBeTruthy();
    expect(await disableDemoPasswordAccounts(database.db)).toEqual([]);
  });
});
