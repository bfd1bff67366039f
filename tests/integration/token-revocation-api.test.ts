import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { forgetPrincipals } from "../../api/auth";
import { users } from "../../api/db/schema";
import { revokeAccountModels } from "../../identity/adapter";
import { createTestApi, type TestApi } from "../fixtures/api";

/**
 * An access token taken before a password reset (or an operator's revoke) works nowhere after it
 * (decision 050): the tokens are signed, not looked up, so the user's row says from when they count.
 */
let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const path = "/api/lms/v1/users/me/objective-workflow-aggregates/term-ids";

describe("tokens issued before a reset are refused", () => {
  it("a token from before the reset gets 401; one issued after it works", async () => {
    const before = await t.token("grace");
    expect((await t.request("GET", path, { token: before })).status).toBe(200);
    // The reset comes a second later than the token (iat counts whole seconds).
    await t.database.db
      .update(users)
      .set({ tokensValidAfter: new Date(Math.floor(Date.now() / 1000) * 1000 + 1000) })
      .where(eq(users.id, t.users.grace));
    forgetPrincipals();
    const refused = await t.request("GET", path, { token: before });
    expect(refused.status).toBe(401);
    await t.database.db.update(users).set({ tokensValidAfter: null }).where(eq(users.id, t.users.grace));
  });

  it("the provider's revoke of an account (a reset, an operator's revoke) sets the time; a new sign-in works", async () => {
    await revokeAccountModels(t.database.db, t.users.rita);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, t.users.rita));
    expect(row!.tokensValidAfter).toBeInstanceOf(Date);
    forgetPrincipals();
    const after = await t.token("rita");
    expect((await t.request("GET", path, { token: after })).status).toBe(200);
  });
});
