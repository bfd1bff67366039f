import type { Hono } from "hono";
import type { JWK } from "jose";
import type { Database, Db } from "./db/client";
import type { TutorModelConfig } from "./tutor-model";
import type { WriteLimiters, WriteLimitOptions } from "./write-limits";
import type { CountCache } from "./queries/count-cache";
import type { LtiRegistryOptions } from "./lti/registry";
import type { AttachmentRules } from "../domain/chat-attachments";
import type { FileStore } from "./files/object-store";

export interface TokenClaims {
  sub: string;
  email?: string;
  exp?: number;
  /** When the token was issued (seconds): one issued before the user's `tokensValidAfter` is refused. */
  iat?: number;
  /**
   * Set for a token of an external OpenID provider (decision 049): its issuer, and what it says of the
   * person — the account here is found by issuer + subject, made or linked on her first sign-in.
   */
  external?: {
    issuer: string;
    emailVerified: boolean;
    givenName?: string;
    familyName?: string;
    name?: string;
    locale?: string;
    zoneinfo?: string;
  };
}

export type VerifyToken = (token: string) => Promise<TokenClaims>;

/**
 * What the API is configured with, as plain data: the same object whether the API is built in this
 * process or in the database thread (it crosses `postMessage` as it is).
 */
export interface ApiSettings {
  /** DATA_DIR, for private file storage ($DATA_DIR/storage) unless `files` says otherwise. */
  dataDir?: string;
  /** Public origin of the app (APP_URL): links in e-mails, certificate QR codes, credential ids. */
  appUrl?: string;
  /** The platform's signing key (credentials, decision 020); none → a key of the process's own. */
  signingKey?: JWK;
  /** Keys kept after a rotation: still published (LTI platform JWKS) so what they signed stays valid. */
  previousSigningKeys?: JWK[];
  /** The LTI tool registry (decision 023): the database's tools and the demo tools. */
  lti?: LtiRegistryOptions;
  /** Settings of the background jobs the composition root starts (`startApiJobs`). */
  jobs?: { smtpUrl?: string; intervalMs?: number };
  /** Key of the personal calendar feed links (decision 022); without it, one per process. */
  calendarFeedKey?: string;
  /** Key of the e-mails' unsubscribe links (decision 042); without it, one per process. */
  mailLinkKey?: string;
  /** The tutor's OpenAI-compatible model (TUTOR_BASE_URL…); none: extractive answers (decision 028). */
  tutorModel?: TutorModelConfig;
  /**
   * Key (base64url) of the grants that let the content origin read a package's files (decision 040),
   * derived from the session secret so every node shares it; without it, one per process.
   */
  contentKey?: string;
  /** The most bytes and files a SCORM package may unpack to (SCORM_MAX_BYTES, SCORM_MAX_ENTRIES). */
  scormLimits?: { maxBytes: number; maxEntries: number };
  /** ANALYTICS_URL: where the collector forwards the events it stores (decision 029). */
  analyticsUrl?: string;
  /** ANALYTICS_RETENTION_DAYS: events older than this are deleted by the jobs (0 keeps them; decision 039). */
  analyticsRetentionDays?: number;
  /** ANALYTICS_ANONYMOUS_PER_HOUR: page views visitors of one address store in an hour (decision 039). */
  analyticsAnonymousPerHour?: number;
  /** What files a chat message may carry (CHAT_ATTACHMENT_*); none: the defaults (decision 027). */
  chatAttachments?: AttachmentRules;
  /**
   * People an external OpenID provider signs in whom this LMS does not know yet (decision 049):
   * `newAccounts` "create" makes a learner at her first sign-in, "refuse" shows her a page saying she
   * has no account (OIDC_NEW_ACCOUNTS); `emailLinking` "verified" links an existing account whose
   * address the provider says is verified (OIDC_EMAIL_LINKING; default "off").
   */
  externalAccounts?: ExternalAccountPolicy;
}

export interface ExternalAccountPolicy {
  newAccounts: "create" | "refuse";
  emailLinking: "off" | "verified";
}

/** The settings and the live objects the API is built from. */
export interface ApiDeps extends ApiSettings {
  database: Database;
  verifyToken: VerifyToken;
  /** Injectable clock so availability and reveal rules can be tested at fixed instants. */
  now?: () => Date;
  /** Where stored files live (decision 037): a bucket or a folder; none → $DATA_DIR/storage. */
  files?: FileStore;
  /**
   * Routes that are not part of the LMS API, mounted under /api by their path (test support, decision
   * 014: the browser tests' server only). The composition roots decide.
   */
  internalRoutes?: Record<string, Hono<ApiEnv>>;
  /** Other numbers for the per-user write limits (`api/write-limits.ts`); tests only. */
  writeLimits?: WriteLimitOptions;
}

export interface Principal {
  id: string;
  tenantId: string;
  email: string;
  /** The tenant's licensed features by name (read with the user: no statement of its own). */
  features: Record<string, boolean>;
}

export type ApiEnv = {
  Variables: {
    db: Db;
    deps: ApiDeps;
    user: Principal;
    now: Date;
    writeLimits: WriteLimiters;
    /** List totals remembered until their data changes (decision 038). */
    counts: CountCache;
  };
};
