import { redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { safeRedirect } from "#domain/redirect";
import type { AppConfig } from "./config.server";
import { memoByConfig } from "./memo.server";
import { chosenLocale } from "./i18n.server";
import { pageUrl } from "./url.server";
import { isSupportedLocale } from "#domain/locales";
import { commitSession, destroySession, readSession, type SessionData } from "./session.server";
import { setToast } from "./toast.server";
import { createCookie } from "react-router";

export const LOGIN_CALLBACK_PATH = "/learn/login-callback";

/** Passes the learner's language to the provider's sign-in page (OIDC ui_locales). */
class LocaleAwareStrategy<User> extends OAuth2Strategy<User> {
  protected override authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    const url = new URL(request.url);
    const lng = url.searchParams.get("ui_locales");
    if (lng) params.set("ui_locales", lng);
    // The sign-up offer asks the embedded provider for its registration form (ignored by others).
    if (url.searchParams.get("provider") === "signup") params.set("signup", "1");
    return params;
  }
}

/** An account created in the last few minutes: the sign-in that just finished was a registration. */
const FRESH_ACCOUNT_SECONDS = 600;

function decodeJwtPayload(token: string): Record<string, unknown> {
  try {
    return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function createAuthenticator(config: AppConfig): Promise<Authenticator<SessionData>> {
  const strategy = await LocaleAwareStrategy.discover<SessionData, LocaleAwareStrategy<SessionData>>(
    config.oidc.issuer,
    {
      clientId: config.oidc.clientId,
      clientSecret: config.oidc.clientSecret,
      redirectURI: `${config.appUrl}${LOGIN_CALLBACK_PATH}`,
      scopes: config.oidc.scopes,
      cookie: {
        name: "learn_oauth2",
        path: "/",
        httpOnly: true,
        sameSite: "Lax",
        maxAge: 600,
        ...(config.secureCookies ? { secure: true as const } : {}),
      },
    },
    async ({ tokens }) => {
      const accessToken = tokens.accessToken();
      const data = tokens.data as { id_token?: string; expires_in?: number };
      const idToken = typeof data.id_token === "string" ? data.id_token : null;
      const claims = decodeJwtPayload(idToken ?? accessToken);
      const expiresAt =
        typeof data.expires_in === "number" ? tokens.accessTokenExpiresAt().getTime() : Date.now() + 3600_000;
      const act = decodeJwtPayload(accessToken).act as { sub?: string } | undefined;
      const createdAt = typeof claims.created_at === "number" ? claims.created_at : null;
      const fresh = createdAt !== null && Date.now() / 1000 - createdAt < FRESH_ACCOUNT_SECONDS;
      return {
        sub: String(claims.sub ?? ""),
        accessToken,
        idToken,
        expiresAt,
        impersonatedBy: act?.sub ?? null,
        ...(fresh ? { fresh: true } : {}),
      };
    },
  );
  const auth = new Authenticator<SessionData>();
  auth.use(strategy, "oidc");
  return auth;
}

/** Discovered once per configuration; a failed discovery is tried again on the next sign-in. */
const authenticators = memoByConfig(() => ({ current: null as Promise<Authenticator<SessionData>> | null }));
function getAuthenticator(config: AppConfig) {
  const slot = authenticators(config);
  slot.current ??= createAuthenticator(config).catch((err) => {
    slot.current = null;
    throw err;
  });
  return slot.current;
}

/** Where sign-in returns to, kept while the learner is at the provider. */
const returnCookie = memoByConfig((config) =>
  createCookie("learn_return", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    maxAge: 600,
  }),
);

/** Spec 5: a redirect target from a form or a query, kept only when it is the app's own. */
export function safeTarget(target: unknown, config: AppConfig): string {
  return safeRedirect(target, { appOrigin: config.appUrl, fallback: "/learn", allowHttp: !config.production });
}

/** GET /oidc/login?redirectUrl=…&provider=… (spec 7.1): sends the browser to the provider. */
export async function startLogin(request: Request, config: AppConfig): Promise<Response> {
  const url = new URL(request.url);
  const target = safeTarget(url.searchParams.get("redirectUrl"), config);
  const auth = await getAuthenticator(config);
  const start = new URL(LOGIN_CALLBACK_PATH, url);
  const provider = url.searchParams.get("provider");
  if (provider) start.searchParams.set("provider", provider);
  const lng = await chosenLocale(request);
  if (isSupportedLocale(lng)) start.searchParams.set("ui_locales", lng);
  try {
    await auth.authenticate("oidc", new Request(start, { headers: request.headers }));
  } catch (thrown) {
    if (thrown instanceof Response) {
      const headers = new Headers(thrown.headers);
      headers.append("Set-Cookie", await returnCookie(config).serialize(target));
      return new Response(null, { status: thrown.status, headers });
    }
    throw thrown;
  }
  throw new Error("The identity provider did not redirect");
}

/** /learn/login-callback: finishes sign-in and returns to where the learner was going. */
export async function finishLogin(request: Request, config: AppConfig): Promise<Response> {
  const url = new URL(request.url);
  if (!url.searchParams.has("code") && !url.searchParams.has("error")) {
    // A plain return (spec 2.1: query redirectUrl and optional provider) — nothing to exchange.
    return redirect(safeTarget(url.searchParams.get("redirectUrl"), config));
  }
  if (url.searchParams.has("error")) throw new Response("Sign-in was cancelled", { status: 401 });
  const auth = await getAuthenticator(config);
  let session: SessionData;
  try {
    session = await auth.authenticate("oidc", request);
  } catch (err) {
    if (err instanceof Response) throw err;
    console.warn("[auth] sign-in callback refused:", (err as Error).message);
    throw new Response("Sign-in failed", { status: 401 });
  }
  let target = safeTarget(
    (await returnCookie(config).parse(request.headers.get("Cookie"))) ?? url.searchParams.get("redirectUrl"),
    config,
  );
  const { fresh, ...stored } = session as SessionData & { fresh?: boolean };
  session = stored;
  const headers = new Headers();
  if (fresh) {
    // Spec 2.4: after registration My courses shows 'accountCreated' (and drops the parameter);
    // elsewhere the same message arrives as a flash toast.
    const next = new URL(target, url);
    if (next.pathname === "/learn" || next.pathname.startsWith("/learn/courses")) {
      next.pathname = next.pathname === "/learn" ? "/learn/courses" : next.pathname;
      next.searchParams.set("selfRegistered", "true");
      target = next.pathname + next.search;
    } else {
      headers.append("Set-Cookie", await setToast({ type: "success", key: "accountCreated" }, config));
    }
  }
  headers.append("Set-Cookie", await commitSession(session, config));
  headers.append("Set-Cookie", await returnCookie(config).serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", await createCookie("learn_oauth2", { path: "/" }).serialize("", { maxAge: 0 }));
  return redirect(target, { headers });
}

/** /oidc/logout: ends the app session, then the provider session (RP-initiated logout). */
export async function logout(request: Request, config: AppConfig): Promise<Response> {
  const session = await readSession(request, config);
  const headers = new Headers();
  headers.append("Set-Cookie", await destroySession(config));
  const issuer = config.oidc.issuer;
  let location = "/learn/open-catalog";
  try {
    const meta = (await (
      await fetch(new URL(".well-known/openid-configuration", issuer.endsWith("/") ? issuer : `${issuer}/`))
    ).json()) as { end_session_endpoint?: string };
    if (meta.end_session_endpoint) {
      const end = new URL(meta.end_session_endpoint);
      end.searchParams.set("client_id", config.oidc.clientId);
      end.searchParams.set("post_logout_redirect_uri", `${config.appUrl}/learn`);
      if (session?.idToken) end.searchParams.set("id_token_hint", session.idToken);
      const lng = await chosenLocale(request);
      if (isSupportedLocale(lng)) end.searchParams.set("ui_locales", lng);
      location = end.toString();
    }
  } catch (err) {
    console.warn("[auth] provider logout endpoint unavailable:", (err as Error).message);
  }
  return redirect(location, { headers });
}

export function loginUrl(request: Request): string {
  const url = pageUrl(request);
  const back = url.pathname.startsWith("/learn") ? url.pathname + url.search : "/learn";
  return `/oidc/login?redirectUrl=${encodeURIComponent(back)}`;
}
