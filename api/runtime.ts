import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { writeFileAtomicSync } from "./files/temporary";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type JWK,
  type JWTPayload,
} from "jose";
import type { TokenClaims, VerifyToken } from "./context";

/** The audience of access tokens for the LMS API (the embedded provider issues them for it). */
export const LMS_API_RESOURCE = "urn:learner-app:lms-api";

export interface Secrets {
  sessionSecret: string;
  idpCookieKey: string;
  signingKey: JWK;
  /** Signing keys still published in the JWKS after a rotation, so tokens they signed stay valid. */
  previousSigningKeys?: JWK[];
  /** Lets `npm run sessions` on this machine ask the running server to act (decision 017). */
  operatorToken: string;
}

/**
 * Secrets the embedded services need, generated on first start and kept in DATA_DIR so sessions
 * and tokens survive restarts. SESSION_SECRET from the environment wins for the session key.
 */
export async function loadSecrets(dataDir: string): Promise<Secrets> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "secrets.json");
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Secrets;
    if (stored.operatorToken) return stored;
    // Written by a version without the operator token: add one.
    const upgraded = { ...stored, operatorToken: randomBytes(32).toString("base64url") };
    writeFileAtomicSync(file, JSON.stringify(upgraded), { mode: 0o600 });
    return upgraded;
  }
  const signingKey = await newSigningKey();
  const secrets: Secrets = {
    sessionSecret: randomBytes(32).toString("base64url"),
    idpCookieKey: randomBytes(32).toString("base64url"),
    signingKey,
    operatorToken: randomBytes(32).toString("base64url"),
  };
  // Whole or not at all: a half-written secrets file would stop every later start.
  writeFileAtomicSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

/**
 * Rotates the embedded provider's signing key in `DATA_DIR/secrets.json` without signing anybody out:
 * a new key signs from the next start on, the current one stays published (JWKS) and accepted until
 * the tokens it signed have expired; keys older than that are dropped. Restart the server (every
 * node, with the same file) after it.
 */
export async function rotateSigningKey(dataDir: string): Promise<{ kid: string; kept: string[] }> {
  const secrets = await loadSecrets(dataDir);
  const signingKey = await newSigningKey();
  const previousSigningKeys = [secrets.signingKey, ...(secrets.previousSigningKeys ?? [])].slice(0, 1);
  writeFileAtomicSync(join(dataDir, "secrets.json"), JSON.stringify({ ...secrets, signingKey, previousSigningKeys }), {
    mode: 0o600,
  });
  return { kid: String(signingKey.kid), kept: previousSigningKeys.map((k) => String(k.kid)) };
}

export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: randomBytes(8).toString("hex") };
}

export function publicJwk(key: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = key;
  return pub;
}

/**
 * Verifies tokens signed by the embedded provider without a network round trip: by the current
 * signing key or one kept after a rotation.
 */
export function localVerifier(issuer: string, key: JWK, previous: JWK[] = []): VerifyToken {
  const jwks = createLocalJWKSet({ keys: [key, ...previous].map(publicJwk) });
  return async (token) => {
    const { payload } = await jwtVerify(token, jwks, { issuer, audience: LMS_API_RESOURCE });
    return {
      sub: String(payload.sub),
      email: typeof payload.email === "string" ? payload.email : undefined,
      exp: payload.exp,
      iat: payload.iat,
    };
  };
}

/** What an external provider's access token says of the person (decision 049). */
function externalClaims(payload: JWTPayload): TokenClaims {
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim().slice(0, 300) : undefined);
  return {
    sub: String(payload.sub),
    email: text(payload.email),
    exp: payload.exp,
    iat: payload.iat,
    external: {
      issuer: String(payload.iss),
      // Only a literal true (or "true", as some providers write it) counts as verified.
      emailVerified: payload.email_verified === true || payload.email_verified === "true",
      givenName: text(payload.given_name),
      familyName: text(payload.family_name),
      name: text(payload.name),
      locale: text(payload.locale),
      zoneinfo: text(payload.zoneinfo),
    },
  };
}

/** Verifies an external provider's tokens against a key set (its published JWKS, or a test's keys). */
export function externalVerifier(
  issuer: string,
  keys: () => Parameters<typeof jwtVerify>[1],
  audience?: string,
): VerifyToken {
  return async (token) => {
    const { payload } = await jwtVerify(token, keys() as never, { issuer, ...(audience ? { audience } : {}) });
    return externalClaims(payload);
  };
}

/** Verifies tokens of an external provider against its published JWKS (found by discovery). */
function remoteVerifier(issuer: string, audience: string | undefined): VerifyToken {
  let jwks: ReturnType<typeof createRemoteJWKSet> | null = null;
  const verify = externalVerifier(issuer, () => jwks!, audience);
  return async (token) => {
    if (!jwks) {
      const res = await fetch(
        new URL(".well-known/openid-configuration", issuer.endsWith("/") ? issuer : `${issuer}/`),
      );
      const meta = (await res.json()) as { jwks_uri: string };
      jwks = createRemoteJWKSet(new URL(meta.jwks_uri));
    }
    return verify(token);
  };
}

/** How the API checks tokens, in a form that can cross to the database thread (decision 012). */
export type VerifierConfig =
  | { kind: "local"; issuer: string; key: JWK; previousKeys?: JWK[] }
  | { kind: "remote"; issuer: string; audience?: string };

export function verifierFrom(config: VerifierConfig): VerifyToken {
  return config.kind === "local"
    ? localVerifier(config.issuer, config.key, config.previousKeys)
    : remoteVerifier(config.issuer, config.audience);
}
