import { redirect } from "react-router";
import { log } from "~/services/logger.server";
import * as oidc from "openid-client";
import { decodeJwt } from "jose";
import { safeRedirect } from "#domain/redirect";
import { isSupportedLocale } from "#domain/locales";
import type { AppConfig, SessionStore } from "./config.server";
import { memoByConfig } from "./memo.server";
import { chosenLocale, localeCookie } from "./i18n.server";
import { pageUrl } from "./url.server";
import { createSession, endSession, readSession, seal, unseal } from "./session.server";
import { setToast } from "./toast.server";
import { createCookie } from "react-router";

/**
 * Sign-in with OpenID Connect (authorization code + PKCE + nonce) through openid-client, which
 * checks the ID token (signature, issuer, audience, nonce) — decision 017. The sign-ins under way
 * are kept in ONE sealed cookie holding at most MAX_PENDING entries (the newest), so however often
 * a page opens /oidc/login the cookie header stays small.
 */
const LOGIN_CALLBACK_PATH = "/learn/login-callback";
const MAX_PENDING = 3;
const PENDING_TTL_MS = 10 * 60_000;
/** A return target longer than this is not worth a cookie: the learner returns to the app root. */
const MAX_TARGET = 1024;

interface Pending {
  state: string;
  verifier: string;
  nonce: string;
  target: string;
  at: number;
  /** Started from one of the app's own pages (Sec-Fetch-Site same-origin or none, or no such header). */
  own?: boolean;
}

/**
 * The browser's return from a provider on another site arrives with Sec-Fetch-Site: cross-site —
 * the whole redirect chain counts — also on the redirect to where the learner was going. A page that
 * acts on a GET only when the learner came from the app's own pages (My courses' occflow enrolment,
 * spec 4.14) would refuse it. So a sign-in the learner started on the app's own pages leaves a short,
 * sealed note of its target: that one navigation counts as the learner's own.
 */
const CONTINUE_TTL_MS = 60_000;
const continueCookie = memoByConfig((config) =>
  createCookie("learn_continue", {
    path: "/learn",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    maxAge: CONTINUE_TTL_MS / 1000,
  }),
);

/** Whether the request came from the app's own pages: same origin, typed, or a continued own sign-in. */
export async function cameFromOwnPages(
  request: Request,
  url: URL,
  config: AppConfig,
): Promise<{ own: boolean; setCookie?: string }> {
  const site = request.headers.get("sec-fetch-site");
  if (!site || site === "same-origin" || site === "none") return { own: true };
  const raw: unknown = await continueCookie(config).parse(request.headers.get("Cookie"));
  const note = typeof raw === "string" ? unseal<{ target: string; at: number }>(raw, config) : null;
  const own = !!note && note.target === url.pathname + url.search && Date.now() - note.at < CONTINUE_TTL_MS;
  return own ? { own, setCookie: await continueCookie(config).serialize("", { maxAge: 0 }) } : { own: false };
}

/** Discovered once per configuration; a failed discovery is tried again on the next sign-in. */
const discovered = memoByConfig(() => ({ current: null as Promise<oidc.Configuration> | null }));
function clientConfig(config: AppConfig): Promise<oidc.Configuration> {
  const slot = discovered(config);
  slot.current ??= oidc
    .discovery(
      new URL(config.oidc.issuer),
      config.oidc.clientId,
      { client_secret: config.oidc.clientSecret },
      oidc.ClientSecretBasic(config.oidc.clientSecret),
      config.oidc.issuer.startsWith("http:") ? { execute: [oidc.allowInsecureRequests] } : undefined,
    )
    .catch((err: unknown) => {
      slot.current = null;
      throw err;
    });
  return slot.current;
}

const pendingCookie = memoByConfig((config) =>
  createCookie("learn_signin", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    maxAge: PENDING_TTL_MS / 1000,
  }),
);

async function readPending(request: Request, config: AppConfig): Promise<Pending[]> {
  try {
    const raw: unknown = await pendingCookie(config).parse(request.headers.get("Cookie"));
    const list = typeof raw === "string" ? unseal<Pending[]>(raw, config) : null;
    if (!Array.isArray(list)) return [];
    return list.filter((p) => typeof p?.state === "string" && Date.now() - p.at < PENDING_TTL_MS);
  } catch {
    return [];
  }
}

async function writePending(list: Pending[], config: AppConfig): Promise<string> {
  if (list.length === 0) return pendingCookie(config).serialize("", { maxAge: 0 });
  return pendingCookie(config).serialize(seal(list.slice(-MAX_PENDING), config));
}

/**
 * Cookies of the sign-in library this app used before (one `learn_oauth2:<uuid>` per start, never
 * cleared) and its return cookie: cleared whenever a sign-in starts or ends, so a browser they
 * filled up recovers.
 */
function clearLegacyCookies(request: Request, headers: Headers, config: AppConfig) {
  const names = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((part) => part.split("=")[0].trim())
    .filter((name) => name.startsWith("learn_oauth2") || name === "learn_return");
  const secure = config.secureCookies ? "; Secure" : "";
  for (const name of [...new Set(names)].slice(0, 100)) {
    headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
  }
}

/** Spec 5: a redirect target from a form or a query, kept only when it is the app's own. */
export function safeTarget(target: unknown, config: AppConfig): string {
  return safeRedirect(target, { appOrigin: config.appUrl, fallback: "/learn", allowHttp: !config.production });
}

/** GET /oidc/login?redirectUrl=…&provider=… (spec 7.1): sends the browser to the provider. */
export async function startLogin(request: Request, config: AppConfig): Promise<Response> {
  const url = new URL(request.url);
  const safe = safeTarget(url.searchParams.get("redirectUrl"), config);
  const target = safe.length > MAX_TARGET ? "/learn" : safe;
  const client = await clientConfig(config);
  const entry: Pending = {
    state: oidc.randomState(),
    verifier: oidc.randomPKCECodeVerifier(),
    nonce: oidc.randomNonce(),
    target,
    at: Date.now(),
    own: [null, "same-origin", "none"].includes(request.headers.get("sec-fetch-site")),
  };
  const params: Record<string, string> = {
    redirect_uri: `${config.appUrl}${LOGIN_CALLBACK_PATH}`,
    scope: config.oidc.scopes.join(" "),
    response_type: "code",
    state: entry.state,
    nonce: entry.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(entry.verifier),
    code_challenge_method: "S256",
  };
  const lng = await chosenLocale(request);
  if (isSupportedLocale(lng)) params.ui_locales = lng;
  // The sign-up offer asks the embedded provider for its registration form (ignored by others).
  // Its e-mailed link carries where the learner was going (another browser may open it).
  if (url.searchParams.get("provider") === "signup") {
    params.signup = "1";
    params.signup_target = target;
  }
  // "Forgot password?" from an e-mail, and the e-mailed sign-up and reset links of the
  // embedded provider — a new sign-in, whoever is signed in here now.
  if (url.searchParams.get("provider") === "forgot") params.forgot = "1";
  for (const name of ["confirm", "reset"] as const) {
    const token = url.searchParams.get(name);
    if (token && config.oidc.embedded && /^[\w-]{43}$/.test(token)) {
      params[name] = token;
      params.prompt = "login";
    }
  }
  // An operator's impersonation link (`npm run sessions -- impersonate`): the embedded provider
  // opens a session as the learner for the ticket's holder.
  const ticket = url.searchParams.get("impersonation");
  if (ticket && config.oidc.embedded && /^[\w-]{20,100}$/.test(ticket)) {
    params.impersonation = ticket;
    params.prompt = "login";
  }
  const headers = new Headers({
    // eslint-disable-next-line local/redirect-targets -- the provider's authorization endpoint (OIDC discovery of the configured issuer)
    Location: oidc.buildAuthorizationUrl(client, params).href,
    "Cache-Control": "no-store",
  });
  clearLegacyCookies(request, headers, config);
  headers.append("Set-Cookie", await writePending([...(await readPending(request, config)), entry], config));
  return new Response(null, { status: 302, headers });
}

/** Why a sign-in did not finish: the 401 page says so and offers to try again. */
export interface SignInFailure {
  reason: "cancelled" | "failed";
  /** Where "Sign in again" starts: a new sign-in back to the same target. */
  retry: string;
  /** Clears the spent sign-in state. */
  headers: Headers;
}

/**
 * /learn/login-callback: finishes sign-in (a new session row) and returns to where the learner was
 * going — or a failure, which the route shows as the 401 page (spec 2.10).
 */
export async function finishLogin(
  request: Request,
  config: AppConfig,
  store: SessionStore,
  /** Called once the session exists, with its access token (issue 31: the learner's language is noted). */
  onSignedIn?: (accessToken: string) => void,
): Promise<Response | SignInFailure> {
  const url = new URL(request.url);
  if (!url.searchParams.has("code") && !url.searchParams.has("error") && !url.searchParams.has("state")) {
    // A plain return (spec 2.1: query redirectUrl and optional provider) — nothing to exchange.
    return redirect(safeTarget(url.searchParams.get("redirectUrl"), config));
  }
  const pending = await readPending(request, config);
  const state = url.searchParams.get("state");
  const entry = pending.find((p) => p.state === state);
  const rest = pending.filter((p) => p !== entry);
  const headers = new Headers({ "Cache-Control": "no-store" });
  clearLegacyCookies(request, headers, config);
  headers.append("Set-Cookie", await writePending(rest, config));
  const retry = `/oidc/login?redirectUrl=${encodeURIComponent(entry?.target ?? "/learn")}`;
  const fail = (reason: SignInFailure["reason"]): SignInFailure => ({ reason, retry, headers });
  if (url.searchParams.has("error"))
    return fail(url.searchParams.get("error") === "access_denied" ? "cancelled" : "failed");
  if (!entry) {
    log().warn("auth: sign-in callback refused: no sign-in under way for this state");
    return fail("failed");
  }
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    const client = await clientConfig(config);
    const callback = new URL(`${config.appUrl}${LOGIN_CALLBACK_PATH}${url.search}`);
    tokens = await oidc.authorizationCodeGrant(client, callback, {
      pkceCodeVerifier: entry.verifier,
      expectedState: entry.state,
      expectedNonce: entry.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    log().warn({ err }, "auth: sign-in callback refused");
    return fail("failed");
  }
  const claims: Record<string, unknown> = tokens.claims() ?? { sub: "" };
  const accessClaims = (() => {
    try {
      return decodeJwt(tokens.access_token);
    } catch {
      return {};
    }
  })();
  const act = accessClaims.act as { sub?: unknown } | undefined;
  const expiresIn = tokens.expiresIn() ?? 3600;
  const cookie = await createSession(
    {
      sub: String(claims.sub),
      email: typeof claims.email === "string" ? claims.email : null,
      accessToken: tokens.access_token,
      idToken: tokens.id_token ?? null,
      expiresAt: Date.now() + expiresIn * 1000,
      impersonatedBy: typeof act?.sub === "string" ? act.sub : null,
    },
    config,
    store,
  );
  onSignedIn?.(tokens.access_token);
  // Issue 25 item 3: the language saved in the learner's profile (the ID token's `locale` claim, sent by
  // the embedded provider as by Keycloak) is their choice on a browser that has made none.
  const saved = typeof claims.locale === "string" ? claims.locale : null;
  if (isSupportedLocale(saved) && !isSupportedLocale(await chosenLocale(request)))
    headers.append("Set-Cookie", await localeCookie.serialize(saved));
  let target = entry.target;
  if (claims.registered === true) {
    // Spec 2.4: after registration My courses shows 'accountCreated' (and drops the parameter);
    // elsewhere the same message arrives as a flash toast. The provider says so once (decision 017).
    const next = new URL(target, url);
    if (next.pathname === "/learn" || next.pathname.startsWith("/learn/courses")) {
      next.pathname = next.pathname === "/learn" ? "/learn/courses" : next.pathname;
      next.searchParams.set("selfRegistered", "true");
      target = next.pathname + next.search;
    } else {
      headers.append("Set-Cookie", await setToast({ type: "success", key: "accountCreated" }, config));
    }
  }
  headers.append("Set-Cookie", cookie);
  // A sign-up finished by its e-mailed link (opened from a mail site, cross-site) continues where she
  // was going as her own step: the link's token is hers alone, and she confirmed on the provider's page.
  if (entry.own || claims.registered === true)
    headers.append("Set-Cookie", await continueCookie(config).serialize(seal({ target, at: Date.now() }, config)));
  return redirect(safeTarget(target, config), { headers });
}

/**
 * POST /oidc/logout: revokes the app's session row. With the embedded provider its session ends too, on
 * the server and in this same request (issue 29 item 4: a learner whose browser never followed the
 * redirect to the provider — a closed tab, a flaky network — stayed signed in there for 14 days), and
 * the browser goes to "You are signed out". With an external provider the browser goes through its end-session
 * endpoint with the ID token as hint. Without a session it just clears the cookie and goes to the app root.
 */
export async function logout(
  request: Request,
  config: AppConfig,
  store: SessionStore,
  providerSignOut?: (idToken: string) => Promise<number>,
): Promise<Response> {
  const session = await readSession(request, config, store);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await endSession(request, config, store));
  // Signing out ends on "You are signed out", with the open catalog a click away.
  let location = "/learn/signed-out";
  if (session?.idToken && providerSignOut) {
    await providerSignOut(session.idToken).catch((err: unknown) =>
      log().warn({ err }, "auth: the provider's session was not ended"),
    );
  } else if (session?.idToken) {
    try {
      const client = await clientConfig(config);
      if (client.serverMetadata().end_session_endpoint) {
        const params: Record<string, string> = {
          id_token_hint: session.idToken,
          post_logout_redirect_uri: `${config.appUrl}/learn/signed-out`,
          client_id: config.oidc.clientId,
        };
        const lng = await chosenLocale(request);
        if (isSupportedLocale(lng)) params.ui_locales = lng;
        location = oidc.buildEndSessionUrl(client, params).href;
      }
    } catch (err) {
      log().warn({ err }, "auth: provider logout endpoint unavailable");
    }
  }
  // eslint-disable-next-line local/redirect-targets -- "/learn/signed-out" or the provider's end-session endpoint (OIDC discovery)
  headers.set("Location", location);
  return new Response(null, { status: 303, headers });
}

export function loginUrl(request: Request): string {
  const url = pageUrl(request);
  const back = url.pathname.startsWith("/learn") ? url.pathname + url.search : "/learn";
  return `/oidc/login?redirectUrl=${encodeURIComponent(back)}`;
}
