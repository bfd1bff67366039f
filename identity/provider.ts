import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "../api/db/log";
import { createHash, randomBytes } from "node:crypto";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { compactVerify, importJWK, type JWK } from "jose";
import type { Db } from "../api/db/client";
import { verifyPassword } from "./password";
import { impersonations, oidcModels, pendingRegistrations, users } from "../api/db/schema";
import { drizzleAdapter } from "./adapter";
import { idpTranslator, type IdpT } from "./i18n";
import { negotiateLocale } from "../domain/locale-negotiation";
import { isSupportedLocale, parseSupportedLocales, SUPPORTED_LOCALES, type Locale } from "../domain/locales";
import { defaultTenantId, readSettings } from "../api/settings";
import {
  confirmPage,
  escapeHtml,
  forgotPage,
  loginPage,
  messagePage,
  page,
  resetPage,
  signUpPage,
  type SignUpValues,
} from "./pages";
import { checkRegistration, type CheckResult } from "./register";
import { clientKey, resetLimits, signInLimits, signUpLimits } from "./rate-limit";
import {
  confirmSignUp,
  linkTarget,
  requestPasswordReset,
  requestSignUp,
  signUpTarget,
  resetPassword,
  RESET_LINK_MINUTES,
  SIGNUP_LINK_HOURS,
} from "./account-links";
import { sendPendingMail } from "../api/mail/outbox";
import type { MailOptions } from "../api/mail/transport";
import { revokeSessionsOf } from "./sessions/store";
import { revokeAccountModels } from "./adapter";

import { LMS_API_RESOURCE } from "../api/runtime";

export { LMS_API_RESOURCE };
export const IDP_MOUNT = "/idp";

export interface IdentityProviderOptions {
  issuer: string;
  db: Db;
  client: { clientId: string; clientSecret: string; redirectUris: string[]; postLogoutRedirectUris: string[] };
  signingKey: JWK;
  /** Keys of earlier rotations: still published, so tokens they signed verify until they expire. */
  previousSigningKeys?: JWK[];
  cookieKeys: string[];
  showDemoHint: boolean;
  secureCookies: boolean;
  accessTokenTtlSeconds?: number;
  /**
   * The demo accounts' password when this server refuses demo accounts (APP_URL not on loopback
   * and no DEMO_ACCOUNTS=1): a sign-in with it is refused like a wrong password (decision 017).
   */
  refusedPassword?: string | null;
  /**
   * How the provider's e-mails (sign-up links, password resets) go out — queued in the outbox
   * and sent at once in the background (the jobs retry what fails). `appUrl` makes the links.
   */
  mail: MailOptions;
  /** Who sent a request, for the sign-in, sign-up and reset limits: the socket's address unless a trusted proxy says. */
  clientAddress?: (req: IncomingMessage) => string;
}

interface TenantPage {
  defaultLocale: string | null;
  languages: Locale[];
  portalName: string | null;
}

/** The app's `lng` cookie as the app writes it (React Router's format: base64 of a JSON string; i18n.server.ts). */
function localeCookieHeader(locale: string, secure: boolean): string {
  const value = encodeURIComponent(Buffer.from(JSON.stringify(locale)).toString("base64"));
  return `lng=${value}; Max-Age=${365 * 24 * 3600}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

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

/**
 * `formAction`: where the provider's forms may lead — itself, and the client's redirect origins, since
 * a browser checks form-action on the redirects after a submit too (the sign-in form ends at the
 * app's callback, on another origin when this provider is another app's external one).
 */
function sendPage(
  formAction: string,
  res: ServerResponse,
  status: number,
  html: string,
  nonce: string,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    ...extra,
  });
  res.end(html);
}

/** A browser's request whose initiator is another origin (Sec-Fetch-Site, else Origin). */
function crossOriginBrowserPost(req: IncomingMessage, issuer: string): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = req.headers.origin;
  return origin !== undefined && (origin === "null" || origin !== new URL(issuer).origin);
}

/**
 * A navigation the browser says came from this origin (Sec-Fetch-Site: same-origin; without it, a
 * Referer of this origin): the app's own sign-out redirect, never another site's link.
 */
function sameOriginNavigation(req: IncomingMessage, issuer: string): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin";
  const referer = URL.parse(String(req.headers.referer ?? ""));
  return referer !== null && referer.origin === new URL(issuer).origin;
}

/**
 * The embedded OpenID provider (oidc-provider) for local accounts: authorization code + PKCE,
 * JWT access tokens for the LMS API resource, a translated sign-in page with a failure rate limit,
 * and RP-initiated logout. Mounted at /idp by server.ts; absent when OIDC_ISSUER is configured.
 */
export function createIdentityProvider(options: IdentityProviderOptions) {
  const formAction = [
    "'self'",
    ...new Set([new URL(options.issuer).origin, ...options.client.redirectUris.map((u) => new URL(u).origin)]),
  ].join(" ");
  const send = (...args: Parameters<typeof sendPage> extends [string, ...infer R] ? R : never) =>
    sendPage(formAction, ...args);
  const { db } = options;
  const addressOf = options.clientAddress ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? "unknown");
  const signIn = signInLimits({ db });
  const signUpLimit = signUpLimits({ db });
  const resetLimit = resetLimits({ db });
  /** Sends what the outbox holds now, off the answer's path (the background jobs retry what fails). */
  const sendMailSoon = () =>
    void sendPendingMail(db, options.mail).catch((error: unknown) =>
      log().warn({ err: error }, "idp: sending mail failed"),
    );
  /**
   * The tenant's languages and portal name, read from its settings at most every 30 s (the pages are
   * rendered before anyone is signed in: the first tenant is the visitors' one, as for public settings).
   */
  let tenantCache: { expires: number; value: Promise<TenantPage> } | null = null;
  const tenantPage = (): Promise<TenantPage> => {
    if (tenantCache && tenantCache.expires > Date.now()) return tenantCache.value;
    const value = (async (): Promise<TenantPage> => {
      const tenantId = await defaultTenantId(db);
      if (!tenantId) return { defaultLocale: null, languages: [...SUPPORTED_LOCALES], portalName: null };
      const s = await readSettings(db, tenantId);
      return {
        defaultLocale: s["platform.common.locale"] || null,
        languages: parseSupportedLocales(s["platform.common.supported_locales"]),
        portalName: s["platform.common.portal_name"],
      };
    })().catch((err: unknown) => {
      log().warn({ err }, "idp: tenant settings unavailable");
      return { defaultLocale: null, languages: [...SUPPORTED_LOCALES], portalName: null };
    });
    tenantCache = { expires: Date.now() + 30_000, value };
    return value;
  };
  /**
   * Issue 25 item 3: the pages' language by the app's rule (domain/locale-negotiation.ts) — the `lng`
   * cookie (chosen in the app or on these pages), the client's `ui_locales`, then the browser's
   * Accept-Language among the tenant's languages, the tenant's default, en-US.
   */
  const localeOf = async (ctxOrReq: { headers: IncomingMessage["headers"] }, uiLocales?: string | null) => {
    const tenant = await tenantPage();
    return idpTranslator(
      negotiateLocale({
        chosen: [chosenLocale(ctxOrReq as IncomingMessage), uiLocales],
        acceptLanguage: ctxOrReq.headers["accept-language"] as string | undefined,
        tenantDefault: tenant.defaultLocale,
        supported: tenant.languages,
      }),
      { portalName: tenant.portalName, languages: tenant.languages },
    );
  };

  /** Consumes the account's "registered, not greeted yet" row; true once after a sign-up. */
  async function consumeRegistration(userId: string): Promise<boolean> {
    const gone = await db
      .delete(pendingRegistrations)
      .where(eq(pendingRegistrations.userId, userId))
      .returning({ userId: pendingRegistrations.userId });
    return gone.length > 0;
  }

  /**
   * An RP-initiated logout from the app's own client whose ID token hint (already verified by the
   * provider: signature, issuer, audience) names this session's account — and its session id, when
   * the token carries one.
   */
  function ownLogout(ctx: KoaContextWithOIDC): boolean {
    const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: string; sid?: string } } | undefined;
    const session = ctx.oidc.session;
    if (!hint?.payload || !session?.accountId) return false;
    if (ctx.oidc.client?.clientId !== options.client.clientId) return false;
    if (hint.payload.sub !== session.accountId) return false;
    return !hint.payload.sid || hint.payload.sid === session.sidFor(options.client.clientId);
  }

  /** What the provider's own confirmation would do on "Yes, sign me out": grants revoked, session gone. */
  async function endProviderSession(ctx: KoaContextWithOIDC): Promise<void> {
    const { session, provider } = ctx.oidc;
    const params = ctx.oidc.params ?? {};
    await Promise.all(
      Object.values(session!.authorizations ?? {}).map(async ({ grantId }) => {
        if (!grantId) return;
        await Promise.all([
          provider.AccessToken.revokeByGrantId(grantId),
          provider.RefreshToken.revokeByGrantId(grantId),
          provider.AuthorizationCode.revokeByGrantId(grantId),
          provider.Grant.adapter.destroy(grantId),
        ]);
      }),
    );
    await session!.destroy();
    ctx.cookies.set(provider.cookieName("session"), null, configuration.cookies!.long as never);
    const target = new URL(
      typeof params.post_logout_redirect_uri === "string"
        ? params.post_logout_redirect_uri
        : `${options.issuer}/session/end/success`,
    );
    if (typeof params.state === "string" && params.post_logout_redirect_uri)
      target.searchParams.set("state", params.state);
    provider.emit("end_session.success", ctx);
    ctx.status = 303;
    // eslint-disable-next-line local/redirect-targets -- a post-logout URI the provider checked against the client's registered ones
    ctx.redirect(target.href);
  }

  /**
   * Takes an operator's one-time impersonation ticket: unused, unexpired, marked used now (atomically,
   * so two tabs cannot both use it). Returns the impersonation and its target, or null.
   */
  async function takeTicket(ticket: string): Promise<{ id: string; targetUserId: string; adminUserId: string } | null> {
    const rows = await db
      .update(impersonations)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(impersonations.ticketHash, sha256(ticket)),
          isNull(impersonations.usedAt),
          gt(impersonations.expiresAt, sql`now()`),
        ),
      )
      .returning({
        id: impersonations.id,
        targetUserId: impersonations.targetUserId,
        adminUserId: impersonations.adminUserId,
      });
    return rows[0] ?? null;
  }

  /** A grant of its own for an impersonation, tied to its audit row (`act` is read from there). */
  async function impersonationGrant(ctx: KoaContextWithOIDC, impersonationId: string) {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client!.clientId,
      accountId: ctx.oidc.session!.accountId!,
    });
    grant.addOIDCScope("openid profile email");
    grant.addResourceScope(LMS_API_RESOURCE, "lms");
    const grantId = await grant.save();
    await db.update(impersonations).set({ grantId }).where(eq(impersonations.id, impersonationId));
    return grant;
  }

  const configuration: Configuration = {
    // Sessions, grants, codes and interactions in the database: a restart keeps everyone signed in,
    // and every node on one PostgreSQL shares them (decision 017).
    adapter: drizzleAdapter(db),
    clients: [
      {
        client_id: options.client.clientId,
        client_secret: options.client.clientSecret,
        redirect_uris: options.client.redirectUris,
        post_logout_redirect_uris: options.client.postLogoutRedirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        // The ID token names when its session signed in (auth_time): the app's sign-out ends that session.
        require_auth_time: true,
      },
    ],
    // The first key signs; the others are only published (signing-key rotation, README).
    jwks: { keys: [options.signingKey, ...(options.previousSigningKeys ?? [])] as never },
    cookies: {
      keys: options.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: "lax", secure: options.secureCookies },
      short: { signed: true, httpOnly: true, sameSite: "lax", secure: options.secureCookies },
    },
    pkce: { required: () => true },
    // `signup=1` (sent by the app for its sign-up offer) opens the registration form instead of sign-in.
    // `impersonation=<ticket>`: an operator's one-time impersonation link (`npm run sessions -- impersonate`).
    // `confirm=<token>` / `reset=<token>`: an e-mailed sign-up or password-reset link;
    // `forgot=1` opens "Forgot password?".
    extraParams: ["signup", "signup_target", "impersonation", "confirm", "reset", "forgot"],
    scopes: ["openid", "profile", "email", "offline_access"],
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "locale", "zoneinfo", "registered"],
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
          // The app's own sign-out, with an ID token of this very session as hint: the learner
          // already chose to sign out, so the provider's session ends without asking again.
          if (ownLogout(ctx)) return endProviderSession(ctx);
          const t = await localeOf(ctx.req);
          const nonce = randomBytes(16).toString("base64");
          // With JavaScript the confirmation submits itself — only when the learner came from this
          // origin (the app's own sign-out). A navigation from another site (a link, a redirect) shows
          // the question and waits for the learner's press (issue 29 item 4: it signed them out unasked).
          const ownOrigin = sameOriginNavigation(ctx.req, options.issuer);
          const body = `<div class="card"><h1>${escapeHtml(t.t("signingOut"))}</h1>${form.replace("<form", `<form aria-label="${escapeHtml(t.t("signOut"))}"`)}
<button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>${escapeHtml(t.t("signOut"))}</button></div>`;
          const script = `document.getElementById("op.logoutForm").insertAdjacentHTML("beforeend",'<input type="hidden" name="logout" value="yes">');document.getElementById("op.logoutForm").submit();`;
          ctx.set(
            "Content-Security-Policy",
            `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'`,
          );
          ctx.type = "html";
          ctx.body = ownOrigin ? page(t, nonce, t.t("signOut"), body, script) : page(t, nonce, t.t("signOut"), body);
        },
        async postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
          const t = await localeOf(ctx.req);
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
      const impersonation = (ctx.oidc.result as { impersonation?: { id: string } } | undefined)?.impersonation;
      if (impersonation) return impersonationGrant(ctx, impersonation.id);
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
      // Decision 059: a deactivated account (SCIM active: false) has no session at the provider either.
      if (!u || u.deactivatedAt) return undefined;
      return {
        accountId: u.id,
        async claims(use: string) {
          return {
            sub: u.id,
            email: u.email,
            email_verified: true,
            name: [u.firstName, u.middleName, u.lastName].filter(Boolean).join(" "),
            given_name: u.firstName,
            family_name: u.lastName,
            zoneinfo: u.timezone ?? undefined,
            // Issue 25 item 3: the language the learner chose last; the app uses it where they chose none.
            locale: u.locale ?? undefined,
            // Spec 2.4 'selfRegistered': the first ID token after a sign-up says so, once (the
            // registration row is consumed here, so the app's callback sees it exactly once).
            ...(use === "id_token" && (await consumeRegistration(u.id)) ? { registered: true } : {}),
          };
        },
      };
    },
    // The API's access tokens carry the user's e-mail and names, as Keycloak's do: an app that uses this
    // provider as its external one, with its own embedded API (OIDC_ISSUER without LMS_API_URL), links
    // or makes her account there at her first sign-in (decision 049). RFC 8693: the access tokens of an
    // impersonation grant name the administrator acting.
    async extraTokenClaims(_ctx, token) {
      const grantId = "grantId" in token ? token.grantId : undefined;
      const accountId = "accountId" in token ? token.accountId : undefined;
      const [acting, account] = await Promise.all([
        grantId
          ? db
              .select({ admin: impersonations.adminUserId })
              .from(impersonations)
              .where(eq(impersonations.grantId, grantId))
              .limit(1)
          : Promise.resolve([]),
        accountId
          ? db
              .select({
                email: users.email,
                givenName: users.firstName,
                familyName: users.lastName,
                locale: users.locale,
              })
              .from(users)
              .where(eq(users.id, accountId))
              .limit(1)
          : Promise.resolve([]),
      ]);
      if (!acting[0] && !account[0]) return undefined;
      return {
        // What an app that has never seen the person makes her account from (decision 049); the address
        // is verified here (a sign-up link or an account an operator made).
        ...(account[0]
          ? {
              email: account[0].email,
              email_verified: true,
              given_name: account[0].givenName,
              family_name: account[0].familyName,
              ...(account[0].locale ? { locale: account[0].locale } : {}),
            }
          : {}),
        ...(acting[0] ? { act: { sub: acting[0].admin } } : {}),
      };
    },
    async renderError(ctx, out) {
      const t = await localeOf(ctx.req);
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
  provider.on("server_error", (_ctx, err) => log().error({ err }, "idp: server error"));
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
        languageAction: `${IDP_MOUNT}/interaction/${uid}`,
        forgotHref: `${IDP_MOUNT}/interaction/${uid}/forgot`,
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
    password = "",
  ) {
    const nonce = randomBytes(16).toString("base64");
    send(
      res,
      status,
      signUpPage(t, nonce, {
        action: `${IDP_MOUNT}/interaction/${uid}/signup`,
        loginHref: `${IDP_MOUNT}/interaction/${uid}?login=1`,
        values,
        password,
        errors,
        languageAction: `${IDP_MOUNT}/interaction/${uid}/signup`,
      }),
      nonce,
    );
  }

  async function signUp(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    t: IdpT,
    target: unknown,
  ): Promise<void> {
    const empty = { firstName: "", lastName: "", email: "" };
    if (req.method !== "POST") return renderSignUp(res, uid, t, empty, {});
    const form = await readForm(req);
    if (!form) return renderSignUp(res, uid, t, empty, { form: t.t("required") }, 413);
    const ip = clientKey(addressOf(req));
    const input = {
      firstName: form.get("firstName") ?? "",
      lastName: form.get("lastName") ?? "",
      email: form.get("email") ?? "",
    };
    // No password here: it is chosen on the e-mailed link's page, by whoever holds the mailbox (decision 050).
    const checked = checkRegistration(input, { password: false });
    if (!checked.ok) return renderSignUp(res, uid, t, checked.values, fieldErrors(t, checked.errors), checked.status);
    // Counted per address and per e-mail (shared by every node) before any password is hashed.
    const wait = await signUpLimit(ip, checked.values.email);
    if (wait > 0) {
      res.setHeader("Retry-After", String(wait));
      const minutes = Math.max(1, Math.ceil(wait / 60));
      return renderSignUp(res, uid, t, checked.values, { form: t.t("tooManyAttempts", { minutes }) }, 429);
    }
    // Nothing is made yet — a new address gets the link that makes the account and signs in,
    // a known one a message saying so; the answer here is the same for both (decision 036).
    await requestSignUp(db, checked.values, {
      locale: t.locale,
      appUrl: options.mail.appUrl,
      target: signUpTarget(target),
    });
    sendMailSoon();
    const nonce = randomBytes(16).toString("base64");
    send(
      res,
      200,
      messagePage(t, nonce, {
        title: t.t("checkEmailTitle"),
        status: true,
        paragraphs: [t.t("signUpSent", { email: checked.values.email, hours: SIGNUP_LINK_HOURS }), t.t("checkSpam")],
        links: [{ href: `${IDP_MOUNT}/interaction/${uid}?login=1`, label: t.t("backToSignIn") }],
      }),
      nonce,
    );
  }

  /** "Forgot password?" — limited, and answered the same whether or not the address has an account. */
  async function forgot(req: IncomingMessage, res: ServerResponse, uid: string, t: IdpT): Promise<void> {
    const render = (status: number, email: string, error: string | null, extra: Record<string, string> = {}) => {
      const nonce = randomBytes(16).toString("base64");
      send(
        res,
        status,
        forgotPage(t, nonce, {
          action: `${IDP_MOUNT}/interaction/${uid}/forgot`,
          loginHref: `${IDP_MOUNT}/interaction/${uid}?login=1`,
          email,
          error,
        }),
        nonce,
        extra,
      );
    };
    if (req.method !== "POST") return render(200, "", null);
    const form = await readForm(req);
    if (!form) return render(413, "", t.t("invalidEmail"));
    const email = (form.get("email") ?? "").trim().toLowerCase().slice(0, 254);
    const checked = checkRegistration({ firstName: "-", lastName: "-", email }, { password: false });
    if (!checked.ok) return render(400, email, t.t(email ? "invalidEmail" : "fieldRequired"));
    const wait = await resetLimit(clientKey(addressOf(req)), email);
    if (wait > 0) {
      const minutes = Math.max(1, Math.ceil(wait / 60));
      return render(429, email, t.t("tooManyAttempts", { minutes }), { "Retry-After": String(wait) });
    }
    await requestPasswordReset(db, email, { locale: t.locale, appUrl: options.mail.appUrl });
    sendMailSoon();
    const nonce = randomBytes(16).toString("base64");
    send(
      res,
      200,
      messagePage(t, nonce, {
        title: t.t("checkEmailTitle"),
        status: true,
        paragraphs: [t.t("forgotSent", { email, minutes: RESET_LINK_MINUTES }), t.t("checkSpam")],
        links: [{ href: `${IDP_MOUNT}/interaction/${uid}?login=1`, label: t.t("backToSignIn") }],
      }),
      nonce,
    );
  }

  /** A link that expired or was used: said plainly, with the way to a new one. */
  function linkInvalid(res: ServerResponse, uid: string, t: IdpT, again: { href: string; label: string }) {
    const nonce = randomBytes(16).toString("base64");
    send(
      res,
      410,
      messagePage(t, nonce, {
        title: t.t("linkInvalidTitle"),
        paragraphs: [t.t("linkInvalidText")],
        links: [again, { href: `${IDP_MOUNT}/interaction/${uid}?login=1`, label: t.t("backToSignIn") }],
      }),
      nonce,
    );
  }

  /**
   * The sign-up link — GET shows the form (link checkers open links; nothing is made), POST
   * with the password its holder chooses makes the account and signs in (decision 050).
   */
  async function confirm(req: IncomingMessage, res: ServerResponse, uid: string, t: IdpT, token: string) {
    const again = { href: `${IDP_MOUNT}/interaction/${uid}/signup`, label: t.t("signUpAgain") };
    const render = (status: number, email: string, error: string | null) => {
      const nonce = randomBytes(16).toString("base64");
      send(
        res,
        status,
        confirmPage(t, nonce, { action: `${IDP_MOUNT}/interaction/${uid}/confirm`, email, error }),
        nonce,
      );
    };
    if (req.method === "POST") {
      const target = await linkTarget(db, "signup", token);
      const form = await readForm(req);
      if (!form) return render(413, target?.email ?? "", t.t("tooLong", { length: 1024 }));
      const done = await confirmSignUp(db, token, form.get("password") ?? "");
      if (!done.ok && done.reason === "password") {
        if (!target) return linkInvalid(res, uid, t, again);
        return render(400, target.email, done.code === "tooLong" ? t.t("tooLong", { length: 1024 }) : t.t(done.code));
      }
      if (done.ok)
        return void (await provider.interactionFinished(
          req,
          res,
          { login: { accountId: done.userId } },
          { mergeWithLastSubmission: false },
        ));
      if (done.reason === "taken") {
        const nonce = randomBytes(16).toString("base64");
        return send(
          res,
          409,
          messagePage(t, nonce, {
            title: t.t("linkInvalidTitle"),
            paragraphs: [t.t("accountExistsNow")],
            links: [
              { href: `${IDP_MOUNT}/interaction/${uid}?login=1`, label: t.t("backToSignIn") },
              { href: `${IDP_MOUNT}/interaction/${uid}/forgot`, label: t.t("forgotLink") },
            ],
          }),
          nonce,
        );
      }
      return linkInvalid(res, uid, t, again);
    }
    const target = await linkTarget(db, "signup", token);
    if (!target) return linkInvalid(res, uid, t, again);
    render(200, target.email, null);
  }

  /** The reset link — a new password; it ends the account's other sessions and signs in. */
  async function reset(req: IncomingMessage, res: ServerResponse, uid: string, t: IdpT, token: string) {
    const again = { href: `${IDP_MOUNT}/interaction/${uid}/forgot`, label: t.t("requestNewLink") };
    const target = await linkTarget(db, "reset", token);
    if (!target) return linkInvalid(res, uid, t, again);
    const render = (status: number, error: string | null) => {
      const nonce = randomBytes(16).toString("base64");
      send(
        res,
        status,
        resetPage(t, nonce, { action: `${IDP_MOUNT}/interaction/${uid}/reset`, email: target.email, error }),
        nonce,
      );
    };
    if (req.method !== "POST") return render(200, null);
    const form = await readForm(req);
    if (!form) return render(413, t.t("tooLong", { length: 1024 }));
    const done = await resetPassword(db, token, form.get("password") ?? "");
    if (!done.ok) {
      if (done.reason === "invalid") return linkInvalid(res, uid, t, again);
      return render(400, done.code === "tooLong" ? t.t("tooLong", { length: 1024 }) : t.t(done.code));
    }
    // Decision 017: a password change ends every session of the account, the app's and the provider's.
    await Promise.all([revokeSessionsOf(db, { subject: done.userId }), revokeAccountModels(db, done.userId)]);
    log().info({ userId: done.userId }, "idp: password reset by e-mailed link; the account's sessions ended");
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: done.userId } },
      { mergeWithLastSubmission: false },
    );
  }

  function fieldErrors(t: IdpT, errors: Extract<CheckResult, { ok: false }>["errors"]) {
    return Object.fromEntries(
      Object.entries(errors).map(([k, v]) => [
        k,
        v.code === "tooLong" ? t.t("tooLong", { length: v.length ?? 0 }) : t.t(v.code),
      ]),
    );
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const m = /^\/interaction\/([\w-]+)(\/login|\/signup|\/forgot|\/confirm|\/reset)?$/.exec(path);
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
    // Issue 25 item 3: the page's language menu (GET ?lng=…): kept in the app's cookie, then the page again.
    const query = new URLSearchParams((req.url ?? "").split("?")[1] ?? "");
    const lng = query.get("lng");
    if (lng !== null && (req.method === "GET" || req.method === "HEAD") && sub !== "/login") {
      const tenant = await tenantPage();
      query.delete("lng");
      const rest = query.toString();
      const headers: Record<string, string> = { Location: `${IDP_MOUNT}${path}${rest ? `?${rest}` : ""}` };
      if (isSupportedLocale(lng) && tenant.languages.includes(lng))
        headers["Set-Cookie"] = localeCookieHeader(lng, options.secureCookies);
      res.writeHead(303, headers);
      return void res.end();
    }
    const t = await localeOf(req, details.params.ui_locales as string | undefined);
    const prompt = details.prompt.name;
    if (prompt === "consent") {
      const result = { consent: {} };
      return void (await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true }));
    }
    const ticket = details.params.impersonation;
    if (typeof ticket === "string" && ticket && !sub && req.method === "GET") {
      const taken = await takeTicket(ticket);
      if (!taken) {
        const nonce = randomBytes(16).toString("base64");
        return send(
          res,
          403,
          page(
            t,
            nonce,
            t.t("errorTitle"),
            `<div class="card"><h1>${escapeHtml(t.t("errorTitle"))}</h1><p>${escapeHtml(t.t("impersonationInvalid"))}</p><p><a href="/learn">${escapeHtml(t.t("backToApp"))}</a></p></div>`,
          ),
          nonce,
        );
      }
      log().info(
        { impersonation: taken.id, admin: taken.adminUserId, target: taken.targetUserId },
        "idp: impersonation ticket used: the administrator acts as the target",
      );
      return void (await provider.interactionFinished(
        req,
        res,
        { login: { accountId: taken.targetUserId }, impersonation: { id: taken.id } },
        { mergeWithLastSubmission: false },
      ));
    }
    if (sub === "/signup") return signUp(req, res, uid, t, details.params.signup_target);
    if (sub === "/forgot") return forgot(req, res, uid, t);
    // The e-mailed links arrive as the sign-in request's `confirm` / `reset` (from the app's /oidc/login).
    const linkToken = (name: "confirm" | "reset") =>
      typeof details.params[name] === "string" ? (details.params[name] as string) : null;
    const confirmToken = linkToken("confirm");
    const resetToken = linkToken("reset");
    const showLogin = (req.url ?? "").includes("login=1");
    if (sub === "/confirm" && confirmToken) return confirm(req, res, uid, t, confirmToken);
    if (sub === "/reset" && resetToken) return reset(req, res, uid, t, resetToken);
    if (!sub && !showLogin && (req.method === "GET" || req.method === "HEAD")) {
      if (confirmToken) return confirm(req, res, uid, t, confirmToken);
      if (resetToken) return reset(req, res, uid, t, resetToken);
      if (details.params.forgot === "1") return forgot(req, res, uid, t);
    }
    if (sub === "/confirm" || sub === "/reset") {
      res.writeHead(303, { Location: `${IDP_MOUNT}/interaction/${uid}` });
      return void res.end();
    }
    if (!isLogin) {
      const wantsSignUp = details.params.signup === "1" && !(req.url ?? "").includes("login=1");
      if (wantsSignUp && (req.method === "GET" || req.method === "HEAD"))
        return signUp(req, res, uid, t, details.params.signup_target);
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
    const ip = clientKey(addressOf(req));
    const blocked = await signIn.blockedFor(ip, email);
    if (blocked > 0) {
      const minutes = Math.max(1, Math.ceil(blocked / 60));
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
        { "Retry-After": String(blocked) },
      );
    }
    if (!email || !password) return renderLogin(req, res, uid, t, email, t.t("required"), 400);
    const rows = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .limit(1);
    // A server that refuses demo accounts refuses their password too (decision 017).
    const refused = options.refusedPassword != null && password === options.refusedPassword;
    const ok = (await verifyPassword(password, rows[0]?.passwordHash)) && !refused && !rows[0]?.deactivatedAt;
    if (!ok || !rows[0]) {
      await signIn.fail(ip, email);
      return renderLogin(req, res, uid, t, email, t.t("invalidCredentials"), 401);
    }
    await signIn.succeed(ip, email);
    // Issue 25 item 3: a language chosen (in the app or on this page, or asked by the client) is saved to
    // the learner's profile, so it follows them to another browser.
    const chosen = [chosenLocale(req), ...String(details.params.ui_locales ?? "").split(" ")].find(isSupportedLocale);
    if (chosen && chosen !== rows[0].locale)
      await db.update(users).set({ locale: chosen }).where(eq(users.id, rows[0].id));
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: rows[0].id } },
      { mergeWithLastSubmission: false },
    );
  }

  /**
   * The app's sign-out, on the server and in the same request (issue 29 item 4): the provider session
   * that issued `idToken` — the account's sessions for the app's client that signed in at its
   * `auth_time`, all of them when it names none — ends with its grants and their tokens, as the
   * provider's own "Yes, sign me out" would; the browser need not follow any redirect for it. The
   * token is the app's own (from its session row); its signature is checked, its expiry is not (a
   * sign-out after the ID token's hour still ends the session). Returns how many sessions ended.
   */
  async function endSessionFor(idToken: string): Promise<number> {
    let claims: { sub?: string; auth_time?: number; iss?: string; aud?: string | string[] };
    try {
      // The public halves of the keys this provider signs with (and signed with before a rotation).
      const publicOf = ({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }: JWK) => pub;
      const keys = await Promise.all(
        [options.signingKey, ...(options.previousSigningKeys ?? [])].map((k) => importJWK(publicOf(k), "RS256")),
      );
      const verified = await Promise.any(keys.map((k) => compactVerify(idToken, k)));
      claims = JSON.parse(new TextDecoder().decode(verified.payload)) as typeof claims;
    } catch {
      return 0;
    }
    const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (claims.iss !== options.issuer || !audience.includes(options.client.clientId) || !claims.sub) return 0;
    const rows = await db
      .select({ id: oidcModels.id, payload: oidcModels.payload })
      .from(oidcModels)
      .where(and(eq(oidcModels.model, "Session"), eq(oidcModels.accountId, claims.sub)));
    let ended = 0;
    for (const row of rows) {
      const session = row.payload as { loginTs?: number; authorizations?: Record<string, { grantId?: string }> };
      const authorization = session.authorizations?.[options.client.clientId];
      if (!authorization) continue;
      if (typeof claims.auth_time === "number" && session.loginTs !== claims.auth_time) continue;
      await Promise.all(
        Object.values(session.authorizations ?? {}).map(async ({ grantId }) => {
          if (!grantId) return;
          await Promise.all([
            provider.AccessToken.revokeByGrantId(grantId),
            provider.RefreshToken.revokeByGrantId(grantId),
            provider.AuthorizationCode.revokeByGrantId(grantId),
            provider.Grant.adapter.destroy(grantId),
          ]);
        }),
      );
      await db.delete(oidcModels).where(and(eq(oidcModels.model, "Session"), eq(oidcModels.id, row.id)));
      ended++;
    }
    return ended;
  }

  /** Node handler for everything under /idp. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const original = req.url ?? "/";
    // A browser's POST from another origin (a sign-in form, the sign-out confirmation) is refused
    // before anything runs (issue 29 item 4, the security baseline); the app's server-to-server calls
    // (the token endpoint) carry neither Origin nor Sec-Fetch-Site.
    if (req.method === "POST" && crossOriginBrowserPost(req, options.issuer)) {
      const t = await localeOf(req);
      const nonce = randomBytes(16).toString("base64");
      return send(
        res,
        403,
        page(
          t,
          nonce,
          t.t("errorTitle"),
          `<div class="card"><h1>${escapeHtml(t.t("errorTitle"))}</h1><p>${escapeHtml(t.t("errorText"))}</p><p><a href="/learn">${escapeHtml(t.t("backToApp"))}</a></p></div>`,
        ),
        nonce,
      );
    }
    const path = original.slice(IDP_MOUNT.length) || "/";
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
    req.url = path;
    try {
      if (path.startsWith("/interaction/")) return await interaction(req, res, path.split("?")[0]);
      callback(req, res);
    } catch (err) {
      log().error({ err }, "idp: interaction failed");
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Sign-in failed. Please try again.");
      }
    }
  }

  return { provider, handle, endSessionFor };
}
