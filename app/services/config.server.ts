import { createContext, type RouterContextProvider } from "react-router";
import { z } from "zod";
import type { ChangeFeed } from "#domain/contract/changes";

/**
 * The app's configuration and its way to the LMS API, handed to every request by the server
 * (`server.ts` → `getLoadContext` → a `RouterContextProvider`; decision 015). Nothing in `app/` reads
 * `process.env` or a global: loaders, actions and services get both from the request's context.
 */
const schema = z.object({
  APP_ENV: z.enum(["dev", "test", "prod"]).default("dev"),
  APP_URL: z.url().default("http://localhost:3000"),
  SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters"),
  OIDC_ISSUER: z.url(),
  OIDC_CLIENT_ID: z.string().min(1),
  OIDC_CLIENT_SECRET: z.string().min(1),
  OIDC_SCOPES: z.string().default("openid profile email lms"),
  LMS_API_URL: z.url().optional(),
  CONTENT_URL: z.url({ protocol: /^https?$/ }).default("http://127.0.0.1:3001"),
  PLATFORM_URL: z.string().default("/platform"),
  ADMIN_URL: z.string().default("/admin"),
  SIGN_UP_URL: z.string().optional(),
  PROCTORING_URL: z.url({ protocol: /^https?$/ }).optional(),
  ANALYTICS_SEARCH_TEXT: z.enum(["0", "1"]).default("0"),
  BENCH_BARE: z.string().optional(),
});

export interface AppConfig {
  appEnv: "dev" | "test" | "prod";
  /** Public origin of the app, without a trailing slash. */
  appUrl: string;
  sessionSecret: string;
  oidc: { issuer: string; clientId: string; clientSecret: string; scopes: string[]; embedded: boolean };
  /** The content origin where SCORM packages run (CONTENT_URL, issue 29 item 1, decision 040). */
  contentOrigin: string;
  /** An external LMS API (spec 7), or null for the embedded one in this process. */
  lmsApiUrl: string | null;
  platformUrl: string;
  adminUrl: string;
  signUpUrl: string | null;
  /**
   * The proctoring service's page that frames the wrapper of a proctored activity (issue 14 item 8),
   * or null: then the learner opens the wrapper directly.
   */
  proctoringUrl: string | null;
  /** ANALYTICS_SEARCH_TEXT=1: `my_courses_search` carries the words searched, not only their length. */
  analyticsSearchText: boolean;
  /** `/learn/bench-bare` exists (the benchmark's baseline page). */
  benchBare: boolean;
  /** Cookies carry `Secure` (the app is served over https). */
  secureCookies: boolean;
  /** Production rules: no stack traces, no http redirect targets. */
  production: boolean;
}

/**
 * Reads the configuration from environment variables (and what the server adds: generated secrets,
 * the embedded provider's client); a bad value stops the server with a message naming it.
 */
export function parseAppConfig(
  source: Record<string, string | undefined>,
  extra: { oidcEmbedded?: boolean } = {},
): AppConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const appUrl = e.APP_URL.replace(/\/$/, "");
  return {
    appEnv: e.APP_ENV,
    appUrl,
    sessionSecret: e.SESSION_SECRET,
    oidc: {
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
      scopes: e.OIDC_SCOPES.split(/\s+/).filter(Boolean),
      embedded: extra.oidcEmbedded ?? false,
    },
    lmsApiUrl: e.LMS_API_URL ? e.LMS_API_URL.replace(/\/$/, "") : null,
    contentOrigin: new URL(e.CONTENT_URL).origin,
    platformUrl: e.PLATFORM_URL,
    adminUrl: e.ADMIN_URL,
    signUpUrl: e.SIGN_UP_URL ?? null,
    proctoringUrl: e.PROCTORING_URL ?? null,
    analyticsSearchText: e.ANALYTICS_SEARCH_TEXT === "1",
    benchBare: e.BENCH_BARE === "1",
    secureCookies: appUrl.startsWith("https:"),
    production: e.APP_ENV === "prod",
  };
}

/** How the app sends a request to the LMS API: in-process to the embedded API, or over HTTP. */
export type Transport = (request: Request) => Promise<Response> | Response;

/**
 * Where the app keeps its sign-in sessions (decision 017): rows in the server's database, reached
 * through the load context like the LMS transport. Ids arrive hashed and tokens sealed.
 */
export interface SessionStore {
  create(
    idHash: string,
    row: { subject: string; email: string | null; impersonatedBy: string | null; tokens: string; expiresAt: Date },
  ): Promise<void>;
  /** The live session (not revoked, not expired), or null. */
  find(idHash: string): Promise<{ subject: string; tokens: string; lastSeenAt: Date } | null>;
  touch(idHash: string): Promise<void>;
  revoke(idHash: string): Promise<void>;
}

export interface AppLoadContext {
  config: AppConfig;
  lmsTransport: Transport;
  sessions: SessionStore;
  /**
   * Notices of changed data from the embedded database (decision 019), which the app's caches
   * follow: every node's writes arrive here. Absent with an external LMS API.
   */
  changes?: ChangeFeed;
  /** The visitor's address (the socket's), for the API's per-address limits on public lookups. */
  clientIp?: string;
  /**
   * The embedded provider's sign-out on the server (issue 29 item 4): ends the provider session that
   * issued this ID token, in the sign-out's own request. Absent with an external provider.
   */
  providerSignOut?: (idToken: string) => Promise<number>;
  /** Aborted when the server starts to drain (SIGTERM, decision 037): event streams end with a retry hint. */
  shutdown?: AbortSignal;
}

/** The key of the load context; `server.ts` reads it from the server build's entry module. */
export const appLoadContext = createContext<AppLoadContext>();

export function appConfig(context: Readonly<RouterContextProvider>): AppConfig {
  return context.get(appLoadContext).config;
}

export function sessionStore(context: Readonly<RouterContextProvider>): SessionStore {
  return context.get(appLoadContext).sessions;
}

export function lmsTransport(context: Readonly<RouterContextProvider>): Transport {
  return context.get(appLoadContext).lmsTransport;
}

export function providerSignOut(context: Readonly<RouterContextProvider>): AppLoadContext["providerSignOut"] {
  return context.get(appLoadContext).providerSignOut;
}

export function clientIp(context: Readonly<RouterContextProvider>): string | undefined {
  return context.get(appLoadContext).clientIp;
}
