import type { IncomingMessage, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { eq, sql } from "drizzle-orm";
import type { JWK } from "jose";
import type { Db } from "../db/client";
import { verifyPassword } from "../db/password";
import { users } from "../db/schema";
import { idpTranslator, type IdpT } from "./i18n";
import { negotiateLocale } from "../../domain/locales";
import { escapeHtml, loginPage, page, signUpPage, type SignUpValues } from "./pages";
import { registerLearner } from "./register";
import { LoginRateLimiter } from "./rate-limit";

import { LMS_API_RESOURCE } from "../runtime";

export { LMS_API_RESOURCE };
export const IDP_MOUNT = "/idp";

export interface IdentityProviderOptions {
  issuer: string;
  db: Db;
  client: { clientId: string; clientSecret: string; redirectUris: string[]; postLogoutRedirectUris: string[] };
  signingKey: JWK;
  cookieKeys: string[];
  showDemoHint: boolean;
  secureCookies: boolean;
  accessTokenTtlSeconds?: number;
}

/** A cookie's value, or null; a garbled encoding reads as absent, never as an error. */
function cookieValue(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join("="));
    } catch {
      return null;
    }
  }
  return null;
}

/** The app's `lng` cookie (React Router's cookie format: base64 of a JSON string), or null. */
function chosenLocale(req: IncomingMessage): string | null {
  const raw = cookieValue(req, "lng");
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64").toString("utf8"));
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

async function readForm(req: IncomingMessage, limit = 16 * 1024): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(res: ServerResponse, status: number, html: string, nonce: string, extra: Record<string, string> = {}) {
  res.writeHead(status, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    ...extra,
  });
  res.end(html);
}

/**
 * The embedded OpenID provider (oidc-provider) for local accounts: authorization code + PKCE,
 * JWT access tokens for the LMS API resource, a translated sign-in page with a failure rate limit,
 * and RP-initiated logout. Mounted at /idp by server.ts; absent when OIDC_ISSUER is configured.
 */
export function createIdentityProvider(options: IdentityProviderOptions) {
  const { db } = options;
  const limiter = new LoginRateLimiter();
  const localeOf = (ctxOrReq: { headers: IncomingMessage["headers"] }, uiLocales?: string | null) =>
    idpTranslator(
      negotiateLocale({
        chosen: [uiLocales, chosenLocale(ctxOrReq as IncomingMessage)],
        acceptLanguage: ctxOrReq.headers["accept-language"] as string | undefined,
      }),
    );

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.client.clientId,
        client_secret: options.client.clientSecret,
        redirect_uris: options.client.redirectUris,
        post_logout_redirect_uris: options.client.postLogoutRedirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [options.signingKey as never] },
    cookies: {
      keys: options.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: "lax", secure: options.secureCookies },
      short: { signed: true, httpOnly: true, sameSite: "lax", secure: options.secureCookies },
    },
    pkce: { required: () => true },
    // `signup=1` (sent by the app for its sign-up offer) opens the registration form instead of sign-in.
    extraParams: ["signup"],
    scopes: ["openid", "profile", "email", "offline_access"],
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "locale", "zoneinfo", "created_at"],
    },
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 8 * 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: KoaContextWithOIDC, form: string) {
          const t = localeOf(ctx.req);
          const nonce = randomBytes(16).toString("base64");
          // With JavaScript the confirmation submits itself; without it the learner presses the button.
          const body = `<div class="card"><h1>${escapeHtml(t.t("signingOut"))}</h1>${form.replace("<form", `<form aria-label="${escapeHtml(t.t("signOut"))}"`)}
<button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>${escapeHtml(t.t("signOut"))}</button></div>`;
          const script = `document.getElementById("op.logoutForm").insertAdjacentHTML("beforeend",'<input type="hidden" name="logout" value="yes">');document.getElementById("op.logoutForm").submit();`;
          ctx.set(
            "Content-Security-Policy",
            `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self' ${new URL(options.issuer).origin}; frame-ancestors 'none'`,
          );
          ctx.type = "html";
          ctx.body = page(t, nonce, t.t("signOut"), body, script);
        },
        async postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
          const t = localeOf(ctx.req);
          const nonce = randomBytes(16).toString("base64");
          ctx.set("Content-Security-Policy", `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'`);
          ctx.type = "html";
          ctx.body = page(
            t,
            nonce,
            t.t("signedOut"),
            `<div class="card"><h1>${escapeHtml(t.t("signedOut"))}</h1><p><a href="/learn">${escapeHtml(t.t("backToApp"))}</a></p></div>`,
          );
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => LMS_API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== LMS_API_RESOURCE) throw new Error("unknown resource");
          return {
            scope: "lms",
            audience: LMS_API_RESOURCE,
            accessTokenFormat: "jwt",
            accessTokenTTL: options.accessTokenTtlSeconds ?? 8 * 3600,
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${IDP_MOUNT}/interaction/${interaction.uid}` },
    // First-party client: no consent screen; the grant covers what the app asks for.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) {
        const found = await ctx.oidc.provider.Grant.find(grantId);
        if (found) return found;
      }
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope("openid profile email offline_access");
      grant.addResourceScope(LMS_API_RESOURCE, "lms");
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, sub) {
      const rows = await db.select().from(users).where(eq(users.id, sub)).limit(1);
      const u = rows[0];
      if (!u) return undefined;
      return {
        accountId: u.id,
        async claims() {
          return {
            sub: u.id,
            email: u.email,
            email_verified: true,
            name: [u.firstName, u.middleName, u.lastName].filter(Boolean).join(" "),
            given_name: u.firstName,
            family_name: u.lastName,
            zoneinfo: u.timezone ?? undefined,
            // Lets the app tell a fresh registration (spec 2.4 'selfRegistered') from a sign-in.
            created_at: Math.floor(u.createdAt.getTime() / 1000),
          };
        },
      };
    },
    async renderError(ctx, out) {
      const t = localeOf(ctx.req);
      const nonce = randomBytes(16).toString("base64");
      ctx.set("Content-Security-Policy", `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'`);
      ctx.type = "html";
      ctx.body = page(
        t,
        nonce,
        t.t("errorTitle"),
        `<div class="card"><h1>${escapeHtml(t.t("errorTitle"))}</h1><p>${escapeHtml(t.t("errorText"))}</p><p><code>${escapeHtml(String(out.error))}</code></p><p><a href="/learn">${escapeHtml(t.t("backToApp"))}</a></p></div>`,
      );
    },
  };

  const provider = new Provider(options.issuer, configuration);
  provider.on("server_error", (_ctx, err) => console.error("[idp] server error", err));
  const callback = provider.callback();

  async function renderLogin(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    t: IdpT,
    email: string,
    error: string | null,
    status = 200,
  ) {
    const nonce = randomBytes(16).toString("base64");
    send(
      res,
      status,
      loginPage(t, nonce, {
        action: `${IDP_MOUNT}/interaction/${uid}/login`,
        email,
        error,
        showDemoHint: options.showDemoHint,
        signUpHref: `${IDP_MOUNT}/interaction/${uid}/signup`,
      }),
      nonce,
    );
  }

  function renderSignUp(
    res: ServerResponse,
    uid: string,
    t: IdpT,
    values: SignUpValues,
    errors: Parameters<typeof signUpPage>[2]["errors"],
    status = 200,
  ) {
    const nonce = randomBytes(16).toString("base64");
    send(
      res,
      status,
      signUpPage(t, nonce, {
        action: `${IDP_MOUNT}/interaction/${uid}/signup`,
        loginHref: `${IDP_MOUNT}/interaction/${uid}?login=1`,
        values,
        errors,
      }),
      nonce,
    );
  }

  async function signUp(req: IncomingMessage, res: ServerResponse, uid: string, t: IdpT): Promise<void> {
    const empty = { firstName: "", lastName: "", email: "" };
    if (req.method !== "POST") return renderSignUp(res, uid, t, empty, {});
    const form = await readForm(req);
    if (!form) return renderSignUp(res, uid, t, empty, { form: t.t("required") }, 413);
    const ip = req.socket.remoteAddress ?? "unknown";
    if (limiter.blockedFor(ip, "signup") > 0)
      return renderSignUp(res, uid, t, empty, { form: t.t("tooManyAttempts", { minutes: 15 }) }, 429);
    const result = await registerLearner(db, {
      firstName: form.get("firstName") ?? "",
      lastName: form.get("lastName") ?? "",
      email: form.get("email") ?? "",
      password: form.get("password") ?? "",
    });
    if (!result.ok) {
      const errors = Object.fromEntries(
        Object.entries(result.errors).map(([k, v]) => [
          k,
          v.code === "tooLong" ? t.t("tooLong", { length: v.length ?? 0 }) : t.t(v.code),
        ]),
      );
      return renderSignUp(res, uid, t, result.values, errors, result.status);
    }
    limiter.fail(ip, "signup");
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: result.userId } },
      { mergeWithLastSubmission: false },
    );
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const m = /^\/interaction\/([\w-]+)(\/login|\/signup)?$/.exec(path);
    if (!m) return void callback(req, res);
    const [, uid, sub] = m;
    const isLogin = sub === "/login";
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      // Expired or unknown interaction (e.g. an old bookmark): start over from the app.
      res.writeHead(303, { Location: "/oidc/login" });
      return void res.end();
    }
    if (details.uid !== uid) {
      res.writeHead(303, { Location: "/oidc/login" });
      return void res.end();
    }
    const t = localeOf(req, details.params.ui_locales as string | undefined);
    const prompt = details.prompt.name;
    if (prompt === "consent") {
      const result = { consent: {} };
      return void (await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true }));
    }
    if (sub === "/signup") return signUp(req, res, uid, t);
    if (!isLogin) {
      const wantsSignUp = details.params.signup === "1" && !(req.url ?? "").includes("login=1");
      if (wantsSignUp && (req.method === "GET" || req.method === "HEAD")) return signUp(req, res, uid, t);
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { Allow: "GET" });
        return void res.end();
      }
      return renderLogin(req, res, uid, t, (details.params.login_hint as string) ?? "", null);
    }
    if (req.method !== "POST") {
      res.writeHead(303, { Location: `${IDP_MOUNT}/interaction/${uid}` });
      return void res.end();
    }
    const form = await readForm(req);
    if (!form) return renderLogin(req, res, uid, t, "", t.t("invalidCredentials"), 413);
    const email = (form.get("email") ?? "").trim().slice(0, 254);
    const password = (form.get("password") ?? "").slice(0, 1024);
    const ip = req.socket.remoteAddress ?? "unknown";
    const blocked = limiter.blockedFor(ip, email);
    if (blocked > 0) {
      const minutes = Math.max(1, Math.ceil(blocked / 60_000));
      const nonce = randomBytes(16).toString("base64");
      return send(
        res,
        429,
        loginPage(t, nonce, {
          action: `${IDP_MOUNT}/interaction/${uid}/login`,
          email,
          error: t.t("tooManyAttempts", { minutes }),
          showDemoHint: options.showDemoHint,
        }),
        nonce,
        { "Retry-After": String(Math.ceil(blocked / 1000)) },
      );
    }
    if (!email || !password) return renderLogin(req, res, uid, t, email, t.t("required"), 400);
    const rows = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .limit(1);
    const ok = await verifyPassword(password, rows[0]?.passwordHash);
    if (!ok || !rows[0]) {
      limiter.fail(ip, email);
      return renderLogin(req, res, uid, t, email, t.t("invalidCredentials"), 401);
    }
    limiter.succeed(ip, email);
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: rows[0].id } },
      { mergeWithLastSubmission: false },
    );
  }

  /** Node handler for everything under /idp. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const original = req.url ?? "/";
    const path = original.slice(IDP_MOUNT.length) || "/";
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
    req.url = path;
    try {
      if (path.startsWith("/interaction/")) return await interaction(req, res, path.split("?")[0]);
      callback(req, res);
    } catch (err) {
      console.error("[idp] interaction failed", err);
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Sign-in failed. Please try again.");
      }
    }
  }

  return { provider, handle, limiter };
}
