import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { eq, sql } from "drizzle-orm";
import { createApi } from "../../api/app";
import type { ExternalAccountPolicy } from "../../api/context";
import type { Database } from "../../api/db/client";
import { identityLinks, userRoles, users } from "../../api/db/schema";
import { seedDemo } from "../../demo/seed";
import { externalVerifier, LMS_API_RESOURCE, localVerifier, publicJwk } from "../../api/runtime";
import { forgetPrincipals } from "../../api/auth";
import { openTestDatabase } from "../fixtures/database";

/**
 * Issue 52 item 1 / Decision 049: with an external OpenID provider the API finds the person
 * by the token's issuer + subject — a link stored on her first sign-in — never by the e-mail address the
 * token carries. An unverified token with ada's address is not Ada; a verified one links to Ada only
 * when the deployment allows e-mail linking; an unknown subject becomes a learner, or is refused with a
 * 403 the app shows as a page (never a 401, which sends the browser round to the provider again).
 */
const ISSUER = "https://login.example.org/realms/acme";
const ME = "/api/platform/v1/users/me";
let database: Database;
let adaId: string;
let sign: (claims: Record<string, unknown>, issuer?: string) => Promise<string>;
let jwks: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  database = await openTestDatabase();
  const { userIds } = await seedDemo(database.db, { catalog: false });
  adaId = userIds.ada;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), alg: "RS256", kid: "ext" };
  jwks = createLocalJWKSet({ keys: [publicJwk(jwk)] });
  sign = (claims, issuer = ISSUER) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: "ext" })
      .setIssuer(issuer)
      .setAudience("lms")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
});
afterAll(() => database.close());

function apiWith(policy?: ExternalAccountPolicy) {
  forgetPrincipals();
  const api = createApi({
    database,
    verifyToken: externalVerifier(ISSUER, () => jwks, "lms"),
    externalAccounts: policy,
  });
  return async (token: string, path = ME) =>
    api.fetch(new Request(`http://lms.test${path}`, { headers: { Authorization: `Bearer ${token}` } }));
}

const linksOf = (subject: string) => database.db.select().from(identityLinks).where(eq(identityLinks.subject, subject));

describe("an external provider's person is her issuer + subject", () => {
  it("an unverified e-mail matching ada's is refused (403, the app's page), not signed in as Ada", async () => {
    const call = apiWith({ newAccounts: "create", emailLinking: "verified" });
    const token = await sign({
      sub: "ada@example.com+unverified",
      email: "ada@example.com",
      email_verified: false,
    });
    const res = await call(token);
    expect(res.status).toBe(403);
    const body = (await res.json()) as { errors: Record<string, { code: string; params?: { reason?: string } }[]> };
    expect(body.errors[""][0]).toMatchObject({ code: "accountNotProvisioned", params: { reason: "emailNotLinked" } });
    expect(await linksOf("ada@example.com+unverified")).toEqual([]);
    // No account was made with her address either.
    const [{ n }] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(sql`lower(${users.email}) = 'ada@example.com'`);
    expect(n).toBe(1);
  });

  it("a verified e-mail matching ada's with e-mail linking off (the default) is refused too", async () => {
    const call = apiWith();
    const token = await sign({ sub: "ada-at-acme", email: "Ada@Example.com", email_verified: true });
    expect((await call(token)).status).toBe(403);
    expect(await linksOf("ada-at-acme")).toEqual([]);
  });

  it("a verified e-mail with linking on links Ada's account once, audited; afterwards the link alone finds her", async () => {
    const call = apiWith({ newAccounts: "create", emailLinking: "verified" });
    const token = await sign({ sub: "ada-at-acme", email: "Ada@Example.com", email_verified: true });
    const res = await call(token);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(adaId);
    expect(await linksOf("ada-at-acme")).toEqual([
      expect.objectContaining({ issuer: ISSUER, userId: adaId, how: "email", email: "ada@example.com" }),
    ]);
    // The same subject, whatever address its token carries later, is still Ada; no second link.
    forgetPrincipals();
    const later = await sign({ sub: "ada-at-acme", email: "someone.else@example.com" });
    const again = await apiWith()(later);
    expect(((await again.json()) as { id: string }).id).toBe(adaId);
    expect(await linksOf("ada-at-acme")).toHaveLength(1);
  });

  it("the same subject at another issuer is another person", async () => {
    const other = createApi({
      database,
      verifyToken: externalVerifier("https://other.example", () => jwks, "lms"),
      externalAccounts: { newAccounts: "refuse", emailLinking: "off" },
    });
    forgetPrincipals();
    const token = await sign(
      { sub: "ada-at-acme", email: "ada@example.com", email_verified: true },
      "https://other.example",
    );
    const res = await other.fetch(
      new Request(`http://lms.test${ME}`, { headers: { Authorization: `Bearer ${token}` } }),
    );
    expect(res.status).toBe(403);
  });

  it("an unknown subject becomes a learner of the default tenant at her first sign-in, once however many calls race", async () => {
    const call = apiWith();
    const token = await sign({
      sub: "f3a9c2",
      email: "Grace.Hopper@Acme.example",
      email_verified: true,
      given_name: "Grace",
      family_name: "Hopper",
      locale: "de",
    });
    // A page's first calls arrive together.
    const answers = await Promise.all([call(token), call(token), call(token), call(token, `${ME}/permissions`)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const me = (await answers[0].json()) as { id: string };
    expect(me).toMatchObject({
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace.hopper@acme.example",
      roles: ["Learner"],
    });
    const ids = await Promise.all(answers.slice(1, 3).map(async (r) => ((await r.json()) as { id: string }).id));
    expect(ids).toEqual([me.id, me.id]);
    expect(await linksOf("f3a9c2")).toEqual([expect.objectContaining({ userId: me.id, how: "created" })]);
    const [made] = await database.db.select().from(users).where(eq(users.id, me.id));
    expect(made.locale).toBe("de");
    expect(await database.db.select().from(userRoles).where(eq(userRoles.userId, me.id))).toEqual([
      { userId: me.id, role: "Learner" },
    ]);
  });

  it("a name only as `name` is split into first and last names", async () => {
    const res = await apiWith()(await sign({ sub: "kj-77", email: "kj@acme.example", name: "Katherine G. Johnson" }));
    expect(await res.json()).toMatchObject({ first_name: "Katherine G.", last_name: "Johnson" });
  });

  it("when accounts must be provisioned, an unknown subject is refused with the page's code and nothing is made", async () => {
    const call = apiWith({ newAccounts: "refuse", emailLinking: "off" });
    const res = await call(await sign({ sub: "nobody-1", email: "nobody@acme.example", email_verified: true }));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      errors: { "": [{ code: "accountNotProvisioned", params: { reason: "notProvisioned" } }] },
    });
    expect(await linksOf("nobody-1")).toEqual([]);
    expect(await database.db.select().from(users).where(eq(users.email, "nobody@acme.example"))).toEqual([]);
  });

  it("a token without an address cannot make an account: refused, not a 500", async () => {
    const res = await apiWith()(await sign({ sub: "no-mail" }));
    expect(res.status).toBe(403);
    expect(await linksOf("no-mail")).toEqual([]);
  });

  it("a known subject costs one statement more than the embedded provider's user (the link), nothing written", async () => {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const local = createApi({
      database,
      verifyToken: localVerifier("https://idp.test", { ...(await exportJWK(privateKey)), alg: "RS256", kid: "l" }),
    });
    const localToken = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256", kid: "l" })
      .setSubject(adaId)
      .setIssuer("https://idp.test")
      .setAudience(LMS_API_RESOURCE)
      .setExpirationTime("1h")
      .sign(privateKey);
    const count = async (send: () => Promise<Response>) => {
      await send(); // warm: what the route remembers
      forgetPrincipals();
      const before = database.queryCount();
      expect((await send()).status).toBe(200);
      return database.queryCount() - before;
    };
    const embedded = await count(() =>
      Promise.resolve(
        local.fetch(new Request(`http://lms.test${ME}`, { headers: { Authorization: `Bearer ${localToken}` } })),
      ),
    );
    const call = apiWith();
    const token = await sign({ sub: "f3a9c2", email: "grace.hopper@acme.example" });
    expect(await count(() => call(token))).toBe(embedded + 1);
  });
});
