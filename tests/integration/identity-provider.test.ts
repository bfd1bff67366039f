import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, exportJWK, generateKeyPair, type JWK } from "jose";
import { eq } from "drizzle-orm";
import type { Database } from "../../api/db/client";
import { openTestDatabase } from "../fixtures/database";
import { seedDemo } from "../../demo/seed";
import { oidcModels, pendingRegistrations, users } from "../../api/db/schema";
import { createIdentityProvider, IDP_MOUNT } from "../../identity/provider";
import { deleteExpiredModels } from "../../identity/adapter";
import { registerLearner } from "../../identity/register";
import { runOperatorCommand } from "../../identity/sessions/operator";

/**
 * The embedded provider over HTTP, as a browser and the app would use it (issue 17, items 2, 5, 14;
 * issue 11, item 4; decision 017). A "restart" is a new provider instance — nothing in memory — on
 * the same database; two instances at once stand for two nodes.
 */
const CLIENT = { clientId: "learner-app", clientSecret: "s3cret-for-tests" };
let database: Database;
let signingKey: JWK;
let port = 0;
let origin = "";
let server: Server | null = null;
let idp: ReturnType<typeof createIdentityProvider>;

async function startProvider(): Promise<void> {
  idp = createIdentityProvider({
    issuer: `${origin}${IDP_MOUNT}`,
    db: database.db,
    client: {
      ...CLIENT,
      redirectUris: [`${origin}/learn/login-callback`],
      postLogoutRedirectUris: [`${origin}/learn`],
    },
    signingKey,
    cookieKeys: ["cookie-key-for-tests-0123456789"],
    showDemoHint: false,
    secureCookies: false,
    mail: { appUrl: origin },
  });
  server = createServer((req, res) => void idp.handle(req, res));
  await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
  port = (server!.address() as AddressInfo).port;
}

async function stopProvider(): Promise<void> {
  const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
  server!.closeAllConnections();
  await closed;
  // Let the client's pooled keep-alive sockets see the close before the next request.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** A browser's cookie jar for one origin, enough for the provider's cookies. */
class Browser {
  jar = new Map<string, string>();
  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url.startsWith("http") ? url : `${origin}${url}`, {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = pair.split("=");
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value.join("=") === "") this.jar.delete(name);
      else this.jar.set(name, value.join("="));
    }
    return res;
  }
  post(url: string, form: Record<string, string>) {
    return this.get(url, {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }
}

interface Started {
  location: string;
  verifier: string;
  nonce: string;
}

async function authorize(browser: Browser, extra: Record<string, string> = {}): Promise<Started & { res: Response }> {
  const verifier = randomBytes(32).toString("base64url");
  const nonce = randomBytes(16).toString("base64url");
  const url = new URL(`${origin}${IDP_MOUNT}/auth`);
  url.search = new URLSearchParams({
    client_id: CLIENT.clientId,
    redirect_uri: `${origin}/learn/login-callback`,
    response_type: "code",
    scope: "openid profile email",
    state: "st",
    nonce,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    ...extra,
  }).toString();
  const res = await browser.get(url.href);
  return { res, location: res.headers.get("location") ?? "", verifier, nonce };
}

/** Follows redirects inside the provider until it leaves for the app (or shows a page). */
async function follow(browser: Browser, res: Response): Promise<Response> {
  let current = res;
  for (let i = 0; i < 10 && current.status >= 300 && current.status < 400; i++) {
    const next = current.headers.get("location")!;
    if (next.startsWith(`${origin}/learn`)) return current;
    current = await browser.get(next);
  }
  return current;
}

async function signIn(browser: Browser, email: string, password: string, extra: Record<string, string> = {}) {
  const started = await authorize(browser, extra);
  const page = await follow(browser, started.res);
  expect(page.status).toBe(200);
  const uid = /\/interaction\/([\w-]+)\/login/.exec(await page.text())![1];
  const done = await follow(browser, await browser.post(`${IDP_MOUNT}/interaction/${uid}/login`, { email, password }));
  return { ...started, callback: new URL(done.headers.get("location")!) };
}

async function exchange(code: string, verifier: string) {
  const res = await fetch(`${origin}${IDP_MOUNT}/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: `${origin}/learn/login-callback`,
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; id_token: string };
}

beforeAll(async () => {
  // The migrated dump (PGlite), or a database of its own on PostgreSQL: not initdb and every migration.
  database = await openTestDatabase();
  await seedDemo(database.db, { catalog: false });
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  signingKey = { ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "k1" };
  // Find a free port first: the issuer names it, and a restart must come back on the same one.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  origin = `http://127.0.0.1:${port}`;
  await startProvider();
});
afterAll(async () => {
  await stopProvider();
  await database.close();
});

describe("the embedded provider's state lives in the database", () => {
  it("a restart keeps the learner signed in: the next authorization is silent, and codes of the old process are redeemed", async () => {
    const browser = new Browser();
    const first = await signIn(browser, "ada@example.com", "demo");
    expect(first.callback.searchParams.get("code")).toBeTruthy();
    const stored = await database.db.select({ model: oidcModels.model }).from(oidcModels);
    expect(stored.map((r) => r.model)).toEqual(expect.arrayContaining(["Session", "Grant", "AuthorizationCode"]));

    await stopProvider();
    await startProvider(); // nothing in memory now

    const tokens = await exchange(first.callback.searchParams.get("code")!, first.verifier);
    expect(decodeJwt(tokens.id_token).nonce).toBe(first.nonce);
    const again = await authorize(browser);
    const landed = await follow(browser, again.res);
    expect(landed.headers.get("location")).toMatch(new RegExp(`^${origin}/learn/login-callback\\?code=`));
  });

  it("the app's own sign-out (valid id_token_hint) ends the provider session without a confirmation page", async () => {
    const browser = new Browser();
    const { callback, verifier } = await signIn(browser, "grace@example.com", "demo");
    const { id_token } = await exchange(callback.searchParams.get("code")!, verifier);
    const end = new URL(`${origin}${IDP_MOUNT}/session/end`);
    end.search = new URLSearchParams({
      id_token_hint: id_token,
      post_logout_redirect_uri: `${origin}/learn`,
      client_id: CLIENT.clientId,
    }).toString();
    const res = await browser.get(end.href);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${origin}/learn`);
    // The provider session is gone: the next authorization asks for the password.
    const next = await follow(browser, (await authorize(browser)).res);
    expect(next.status).toBe(200);
    expect(await next.text()).toContain('name="password"');
  });

  it("a logout without the app's hint (e.g. another site's link) still asks", async () => {
    const browser = new Browser();
    await signIn(browser, "grace@example.com", "demo");
    const res = await browser.get(`${IDP_MOUNT}/session/end`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("op.logoutForm");
    const next = await follow(browser, (await authorize(browser)).res);
    expect(next.headers.get("location")).toMatch(/\/learn\/login-callback\?code=/);
  });

  it("issue 29: the app's sign-out ends the provider session on the server — that session only — with no redirect followed", async () => {
    // Sessions are told apart by their sign-in second (auth_time): a second after the other tests' own.
    await new Promise((r) => setTimeout(r, 1100));
    const laptop = new Browser();
    const first = await signIn(laptop, "grace@example.com", "demo");
    const { id_token } = await exchange(first.callback.searchParams.get("code")!, first.verifier);
    // A second session of the same account, signed in a second later (another device).
    await new Promise((r) => setTimeout(r, 1100));
    const phone = new Browser();
    await signIn(phone, "grace@example.com", "demo");
    // What POST /oidc/logout calls before it answers; the browser follows nothing afterwards.
    expect(await idp.endSessionFor(id_token)).toBe(1);
    const again = await follow(laptop, (await authorize(laptop)).res);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('name="password"');
    const other = await follow(phone, (await authorize(phone)).res);
    expect(other.headers.get("location")).toMatch(/\/learn\/login-callback\?code=/);
    // A forged or foreign token ends nothing.
    expect(await idp.endSessionFor(`${id_token.slice(0, -4)}AAAA`)).toBe(0);
    expect(await idp.endSessionFor("not.a.token")).toBe(0);
  });

  it("issue 29: another site's link to /session/end asks and waits; its POST of the confirmation is refused", async () => {
    const browser = new Browser();
    await signIn(browser, "grace@example.com", "demo");
    const crossSite = await browser.get(`${IDP_MOUNT}/session/end`, { headers: { "sec-fetch-site": "cross-site" } });
    const page = await crossSite.text();
    expect(page).toContain("op.logoutForm");
    expect(page).not.toContain(".submit()");
    // The app's own sign-out (a same-origin navigation) still goes through by itself.
    const own = await browser.get(`${IDP_MOUNT}/session/end`, { headers: { "sec-fetch-site": "same-origin" } });
    const ownPage = await own.text();
    expect(ownPage).toContain(".submit()");
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(ownPage)![1]!;
    for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      const res = await browser.get(`${IDP_MOUNT}/session/end/confirm`, {
        method: "POST",
        body: new URLSearchParams({ xsrf, logout: "yes" }),
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      });
      expect(res.status).toBe(403);
    }
    const next = await follow(browser, (await authorize(browser)).res);
    expect(next.headers.get("location")).toMatch(/\/learn\/login-callback\?code=/);
  });

  it("expired records are deleted by the clean-up", async () => {
    await database.db
      .insert(oidcModels)
      .values({ model: "Interaction", id: "old", payload: {}, expiresAt: new Date(Date.now() - 1000) });
    expect(await deleteExpiredModels(database.db)).toBeGreaterThanOrEqual(1);
    expect(await database.db.select().from(oidcModels).where(eq(oidcModels.id, "old"))).toEqual([]);
  });
});

describe("registration is marked when it happens (spec 2.4)", () => {
  it("a fresh account that did not sign up is not 'registered'; a sign-up is, in the first ID token only", async () => {
    const learner = await registerLearner(database.db, {
      firstName: "Reg",
      lastName: "Istered",
      email: `reg-${Date.now()}@example.com`,
      password: "a long password",
    });
    if (!learner.ok || !learner.userId) throw new Error("not registered");
    const [row] = await database.db.select().from(users).where(eq(users.id, learner.userId));

    const b1 = new Browser();
    const s1 = await signIn(b1, row.email, "a long password");
    const t1 = await exchange(s1.callback.searchParams.get("code")!, s1.verifier);
    expect(decodeJwt(t1.id_token).registered).toBe(true);
    expect(await database.db.select().from(pendingRegistrations)).toEqual([]);

    const b2 = new Browser();
    const s2 = await signIn(b2, row.email, "a long password");
    const t2 = await exchange(s2.callback.searchParams.get("code")!, s2.verifier);
    expect(decodeJwt(t2.id_token).registered).toBeUndefined();

    // ada was made by the seed moments ago (the old rule guessed from created_at): no greeting.
    const b3 = new Browser();
    const s3 = await signIn(b3, "ada@example.com", "demo");
    const t3 = await exchange(s3.callback.searchParams.get("code")!, s3.verifier);
    expect(decodeJwt(t3.id_token).registered).toBeUndefined();
    expect(decodeJwt(t3.id_token).created_at).toBeUndefined();
  });
});

describe("impersonation (issue 11, item 4)", () => {
  it("an administrator's one-time ticket opens a session as the learner whose access token carries act", async () => {
    const made = (await runOperatorCommand(
      database.db,
      { command: "impersonate", admin: "admin@example.com", as: "ada@example.com" },
      origin,
    )) as { url: string };
    const ticket = new URL(made.url).searchParams.get("impersonation")!;
    const browser = new Browser();
    const started = await authorize(browser, { impersonation: ticket, prompt: "login" });
    const done = await follow(browser, started.res);
    const callback = new URL(done.headers.get("location")!);
    const tokens = await exchange(callback.searchParams.get("code")!, started.verifier);
    const [ada, admin] = await Promise.all(
      ["ada@example.com", "admin@example.com"].map(
        async (email) => (await database.db.select().from(users).where(eq(users.email, email)))[0],
      ),
    );
    expect(decodeJwt(tokens.id_token).sub).toBe(ada.id);
    expect(decodeJwt(tokens.access_token).act).toEqual({ sub: admin.id });

    // Used once: a second browser with the same ticket gets an error page, not a session.
    const other = new Browser();
    const again = await follow(other, (await authorize(other, { impersonation: ticket, prompt: "login" })).res);
    expect(again.status).toBe(403);
    expect(await again.text()).toContain("This impersonation link is invalid, expired or already used.");
  });

  it("only an Administrator may impersonate", async () => {
    await expect(
      runOperatorCommand(
        database.db,
        { command: "impersonate", admin: "grace@example.com", as: "ada@example.com" },
        origin,
      ),
    ).rejects.toThrow(/not an Administrator/);
  });
});
