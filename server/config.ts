/**
 * The launcher's configuration: every environment variable the server reads, parsed once into one
 * object (docs/configuration.md lists them). A bad value stops the server here with a message that
 * names it; nothing below the launcher reads `process.env`.
 */
import { resolve } from "node:path";
import { z } from "zod";
import type { ApiSettings } from "../api/context";
import { analyticsConfigFrom } from "../api/analytics-limits";
import { SCORM_LIMITS } from "../api/scorm/import";
import { storageConfigFrom, type StorageConfig } from "../api/files/object-store";
import { demoAccountsAllowed } from "../demo/demo-accounts";
import { testSupportEnabled } from "../demo/test-support";
import { DEFAULT_BODY_LIMIT_BYTES } from "./http/front";
import { DEFAULT_BODY_BUDGET, type BodyBudgetOptions } from "./http/body-rate";
import { trustedProxies } from "./http/client-address";
import { chatAttachmentRules } from "./http/chat-uploads";
import { defaultContentUrl } from "./http/content-origin";
import { rootLog } from "../app/services/logger.server";
import { admissionOptionsFrom, type AdmissionOptions } from "./overload/admission";
import { streamCapsFrom, type StreamCaps } from "./overload/streams";

type Env = Record<string, string | undefined>;

/** An http(s) origin: scheme, host and port, no path. */
function isOrigin(value: string): boolean {
  const u = URL.parse(value);
  return !!u && /^https?:$/.test(u.protocol) && u.pathname.replace(/\/$/, "") === "";
}

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int(`must be a whole number from ${min}`).min(min).max(max);

const schema = z.object({
  NODE_ENV: z.string().optional(),
  APP_ENV: z.enum(["dev", "test", "prod"]).optional(),
  PORT: wholeNumber(0, 65_535).default(3000),
  APP_URL: z.string().optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  PGLITE_THREAD: z.string().optional(),
  SESSION_SECRET: z.string().optional(),
  LMS_API_URL: z.string().optional(),
  OIDC_ISSUER: z.string().optional(),
  OIDC_AUDIENCE: z.string().optional(),
  /** Decision 049: a person an external provider signs in whom the LMS does not know — made a learner, or refused. */
  OIDC_NEW_ACCOUNTS: z.enum(["create", "refuse"]).default("create"),
  /** Decision 049: "verified" links an existing account by an address the provider says is verified. */
  OIDC_EMAIL_LINKING: z.enum(["off", "verified"]).default("off"),
  IDP_CLIENT_SECRET: z.string().optional(),
  IDP_EXTRA_APP_URLS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every(isOrigin), "every value must be an http(s) origin")
    .transform((list) => list.map((v) => new URL(v).origin)),
  DEMO_ACCOUNTS: z.string().optional(),
  SMTP_URL: z.string().optional(),
  SECRETS_REFRESH_MS: wholeNumber(1).default(30_000),
  CONTENT_URL: z.string().optional(),
  CONTENT_PORT: wholeNumber(0, 65_535).optional(),
  CONTENT_CSP_SOURCES: z
    .string()
    .default("")
    .transform((v) => v.split(/\s+/).filter(Boolean))
    .refine(
      (list) => list.every((s) => /^https:\/\/[a-z0-9.*-]+(:\d+)?$/i.test(s)),
      "every value must be an https origin",
    ),
  PROCTORING_URL: z.string().optional(),
  ANALYTICS_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^https?:\/\//.test(v), "must be an http(s) URL"),
  SCORM_MAX_BYTES: wholeNumber(1).default(SCORM_LIMITS.maxBytes),
  SCORM_MAX_ENTRIES: wholeNumber(1).default(SCORM_LIMITS.maxEntries),
  TUTOR_BASE_URL: z.string().optional(),
  TUTOR_MODEL: z.string().optional(),
  TUTOR_API_KEY: z.string().default(""),
  /** Decision 050: the proxies whose X-Forwarded-For names the client (addresses, CIDR ranges, `loopback`…). */
  TRUST_PROXY: z
    .string()
    .default("")
    .transform((v, ctx) => {
      try {
        return trustedProxies(v);
      } catch (err) {
        ctx.addIssue({
          code: "custom",
          message: `${(err as Error).message} (addresses, CIDR ranges, loopback, linklocal, uniquelocal)`,
        });
        return z.NEVER;
      }
    }),
  BODY_LIMIT_BYTES: wholeNumber(1).default(DEFAULT_BODY_LIMIT_BYTES),
  BODY_MIN_BYTES_PER_SECOND: wholeNumber(0).default(DEFAULT_BODY_BUDGET.minBytesPerSecond),
  BODY_READ_TIMEOUT_MS: wholeNumber(0).default(DEFAULT_BODY_BUDGET.readTimeoutMs),
  BODY_READERS_PER_ADDRESS: wholeNumber(0).default(DEFAULT_BODY_BUDGET.readersPerAddress),
  MEMORY_TRIM_AFTER_MB: wholeNumber(0).default(32),
  LISTEN_BACKLOG: wholeNumber(1).default(4_096),
  LISTEN_SOCKETS: wholeNumber(1, 256).default(64),
  /** Decision 053: whether a storage outage takes the node out of readiness ("gate") or is only reported. */
  READINESS_STORAGE: z.enum(["report", "gate"]).default("report"),
});

export interface ServerConfig {
  dev: boolean;
  appEnv: "dev" | "test" | "prod";
  port: number;
  /** Public origin of the app, without a trailing slash. */
  appUrl: string;
  dataDir: string;
  /** The content origin where SCORM packages run (decision 040). */
  content: {
    url: string;
    host: string;
    /** The port this process serves it on; null when another process or a proxy brings it. */
    port: number | null;
    /** Origins packages may load from besides their own (CONTENT_CSP_SOURCES). */
    sources: string[];
  };
  /** An external LMS API, or null: the embedded one. */
  lmsApiUrl: string | null;
  /** An external OpenID provider, or null: the embedded one at /idp. */
  oidc: { issuer: string; audience?: string } | null;
  idp: { clientSecret?: string; extraAppUrls: string[] };
  /** Demo accounts (password "demo"): on a loopback APP_URL or with DEMO_ACCOUNTS=1 (decision 017). */
  demoAllowed: boolean;
  /** The browser tests' learner fixture endpoint (decision 014). */
  testSupport: boolean;
  database: { url?: string; thread: boolean };
  sessionSecret?: string;
  smtpUrl?: string;
  secretsRefreshMs: number;
  proctoringUrl?: string;
  /** TRUST_PROXY: the proxies believed when they name the client (empty: the socket's address counts). */
  trustProxy: string[];
  bodyLimitBytes: number;
  /** How bodies are read before the overload gate (decision 050). */
  bodyBudget: BodyBudgetOptions;
  memoryTrimAfterMb: number;
  listen: { backlog: number; sockets: number };
  storage: StorageConfig;
  /** READINESS_STORAGE: the storage's part in `/readyz`. */
  readinessStorage: "report" | "gate";
  admission: AdmissionOptions;
  /** Places of the long-lived streams (decision 050). */
  streams: StreamCaps;
  /** The API's settings that come from the environment (the keys are added at start). */
  api: Pick<
    ApiSettings,
    | "dataDir"
    | "appUrl"
    | "scormLimits"
    | "tutorModel"
    | "analyticsUrl"
    | "chatAttachments"
    | "analyticsRetentionDays"
    | "analyticsAnonymousPerHour"
    | "jobs"
    | "externalAccounts"
  >;
  /** The environment as given: the web app's own parser and the operations read their variables from it. */
  env: Env;
}

export function parseServerConfig(env: Env): ServerConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const dev = e.NODE_ENV !== "production";
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  if (!URL.parse(appUrl)) throw new Error(`APP_URL: "${appUrl}" is not a URL`);
  const dataDir = resolve(e.DATA_DIR);
  if (e.LMS_API_URL && !e.OIDC_ISSUER)
    throw new Error(
      "LMS_API_URL is set, so the embedded identity provider is off: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too.",
    );

  // CONTENT_URL names the content origin (a host name of its own in production); unset, it is this
  // server's next port under the other loopback name. CONTENT_PORT is the port this process serves it on.
  const fallback = e.CONTENT_URL ? null : defaultContentUrl(appUrl, e.CONTENT_PORT ?? e.PORT + 1);
  const contentUrl = (e.CONTENT_URL ?? fallback!.url).replace(/\/$/, "");
  if (!isOrigin(contentUrl)) throw new Error(`CONTENT_URL: "${contentUrl}" is not an http(s) origin`);
  if (new URL(contentUrl).origin === new URL(appUrl).origin)
    throw new Error("CONTENT_URL must be another origin than APP_URL (decision 040)");
  const contentPort =
    e.CONTENT_PORT !== undefined
      ? e.CONTENT_PORT || null // 0: another process serves the content origin
      : e.CONTENT_URL
        ? (() => {
            const u = new URL(contentUrl);
            return u.port && Number(u.port) !== e.PORT ? Number(u.port) : null;
          })()
        : e.PORT + 1;
  if (fallback?.warning) rootLog.warn({ contentUrl }, fallback.warning);

  const appEnv = e.APP_ENV ?? (dev ? "dev" : "prod");
  const analytics = analyticsConfigFrom(env);
  return {
    dev,
    appEnv,
    port: e.PORT,
    appUrl,
    dataDir,
    content: {
      url: contentUrl,
      host: new URL(contentUrl).host.toLowerCase(),
      port: contentPort,
      sources: e.CONTENT_CSP_SOURCES,
    },
    lmsApiUrl: e.LMS_API_URL || null,
    oidc: e.OIDC_ISSUER ? { issuer: e.OIDC_ISSUER, audience: e.OIDC_AUDIENCE } : null,
    idp: { clientSecret: e.IDP_CLIENT_SECRET, extraAppUrls: e.IDP_EXTRA_APP_URLS },
    demoAllowed: demoAccountsAllowed(appUrl, e.DEMO_ACCOUNTS),
    testSupport: testSupportEnabled({ ...env, APP_ENV: appEnv }),
    database: { url: e.DATABASE_URL, thread: e.PGLITE_THREAD !== "0" },
    sessionSecret: e.SESSION_SECRET,
    smtpUrl: e.SMTP_URL,
    secretsRefreshMs: e.SECRETS_REFRESH_MS,
    proctoringUrl: e.PROCTORING_URL || undefined,
    trustProxy: e.TRUST_PROXY,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    bodyBudget: {
      minBytesPerSecond: e.BODY_MIN_BYTES_PER_SECOND,
      readTimeoutMs: e.BODY_READ_TIMEOUT_MS,
      readersPerAddress: e.BODY_READERS_PER_ADDRESS,
      graceMs: Math.min(DEFAULT_BODY_BUDGET.graceMs, e.BODY_READ_TIMEOUT_MS || DEFAULT_BODY_BUDGET.graceMs),
    },
    memoryTrimAfterMb: e.MEMORY_TRIM_AFTER_MB,
    listen: { backlog: e.LISTEN_BACKLOG, sockets: e.LISTEN_SOCKETS },
    storage: storageConfigFrom(env, resolve(dataDir, "storage")),
    readinessStorage: e.READINESS_STORAGE,
    admission: admissionOptionsFrom(env),
    streams: streamCapsFrom(env),
    api: {
      dataDir,
      appUrl,
      scormLimits: { maxBytes: e.SCORM_MAX_BYTES, maxEntries: e.SCORM_MAX_ENTRIES },
      tutorModel:
        e.TUTOR_BASE_URL && e.TUTOR_MODEL
          ? { baseUrl: e.TUTOR_BASE_URL, apiKey: e.TUTOR_API_KEY, model: e.TUTOR_MODEL }
          : undefined,
      analyticsUrl: e.ANALYTICS_URL,
      chatAttachments: chatAttachmentRules(env),
      analyticsRetentionDays: analytics.retentionDays,
      analyticsAnonymousPerHour: analytics.anonymousPerHour,
      jobs: { smtpUrl: e.SMTP_URL },
      externalAccounts: { newAccounts: e.OIDC_NEW_ACCOUNTS, emailLinking: e.OIDC_EMAIL_LINKING },
    },
    env,
  };
}
