/**
 * Certificates as Open Badges 3.0 credentials (decision 020): each certificate is an
 * `OpenBadgeCredential` (a W3C Verifiable Credential, data model 2.0) secured as VC-JWT with the
 * platform's key; the issuer profile, its public keys (JWKS) and a Bitstring Status List of
 * revocations are published at stable URLs, so anyone verifies a credential offline with standard
 * JOSE tools and checks revocation with one fetch.
 */
import { createHash, createHmac } from "node:crypto";
import { gzipSync } from "node:zlib";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { publicJwk } from "./runtime";

const VC_CONTEXT = "https://www.w3.org/ns/credentials/v2";
const OB_CONTEXT = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json";
const OB_SCHEMA = "https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json";
/** Bitstring Status List: at least 16 KB of bits (131,072 entries), so one list hides who is revoked. */
const STATUS_LIST_BITS = 131_072;

/** The public URLs of the credential service, under the API's public paths. */
export function credentialUrls(appUrl: string) {
  const base = `${appUrl}/api/lms/v1/public/credentials`;
  return {
    issuer: `${base}/issuer`,
    jwks: `${base}/jwks.json`,
    /** One public key by its id: what a credential's `kid` names, and dereferences to (OB 3.0 §8.2.3). */
    key: (id: string) => `${base}/keys/${encodeURIComponent(id)}`,
    statusList: `${base}/status/1`,
    credential: (number: string) => `${base}/${encodeURIComponent(number)}`,
    publicPage: (number: string) => `${appUrl}/learn/certificate/${encodeURIComponent(number)}`,
  };
}

export interface CredentialKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
  /** A secret drawn from the private key (the recipients' identifiers are keyed with it). */
  secret: string;
}

let ephemeral: Promise<CredentialKey> | null = null;

/**
 * The platform's signing key (the embedded provider's, from DATA_DIR/secrets.json); a process with
 * none configured (tests) signs with a key of its own, published the same way.
 */
export async function credentialKey(jwk: JWK | undefined): Promise<CredentialKey> {
  if (jwk) return keyFrom(jwk);
  ephemeral ??= (async () => {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    return keyFrom({ ...(await exportJWK(privateKey)), alg: "RS256", kid: "ephemeral" });
  })();
  return ephemeral;
}

const imported = new Map<string, Promise<CredentialKey>>();
function keyFrom(jwk: JWK): Promise<CredentialKey> {
  const kid = jwk.kid ?? "platform";
  let key = imported.get(kid);
  if (!key) {
    key = (async () => ({
      privateKey: (await importJWK(jwk, "RS256")) as CryptoKey,
      publicJwk: { ...publicJwk(jwk), alg: "RS256", use: "sig", kid },
      kid,
      secret: createHash("sha256")
        .update(`credential secret|${jwk.d ?? kid}`)
        .digest("base64url"),
    }))();
    imported.set(kid, key);
  }
  return key;
}

/**
 * The credentials' key set (decision 020, issue 32 item 4): the current signing key and the ones kept
 * after a rotation (what they signed stays verifiable), each with its `kid` the URI of its own
 * document — the URI a credential's header names.
 */
export function credentialJwks(appUrl: string, current: CredentialKey, previous: readonly JWK[] = []) {
  const urls = credentialUrls(appUrl);
  const keys: JWK[] = [
    current.publicJwk,
    ...previous.map((k) => ({ ...publicJwk(k), alg: "RS256", use: "sig", kid: k.kid ?? "previous" })),
  ];
  return { keys: keys.map((k) => ({ ...k, kid: urls.key(String(k.kid)) })) };
}

export function issuerProfile(appUrl: string, name: string) {
  const urls = credentialUrls(appUrl);
  return {
    "@context": [VC_CONTEXT, OB_CONTEXT],
    id: urls.issuer,
    type: ["Profile"],
    name,
    url: `${appUrl}/learn`,
    description: "Issues the certificates of this learning platform as Open Badges 3.0 credentials (VC-JWT).",
  };
}

/**
 * A date as a VC `validFrom`/`validUntil` in whole seconds (`2026-11-23T10:15:00Z`): the JWT's `nbf`
 * and `exp` are whole seconds, and OB 3.0 §8.2.4 wants the two to say the same instant.
 */
function vcDate(d: Date): string {
  return new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace(/\.000Z$/, "Z");
}

/**
 * The recipient's identifier (OB 3.0 AchievementSubject `id`, the VC-JWT `sub`): a URN of a UUID made
 * from the holder's account by an HMAC keyed with the platform's secret signing key, so it is the same
 * on every credential of one holder, yet names no account and cannot be guessed from one (an LTI tool
 * knows the account ids). A new signing key gives new ids to credentials issued after it.
 */
export function recipientId(userId: string, secret: string): string {
  const h = createHmac("sha256", secret).update(`credential recipient|${userId}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80; // version 8 (RFC 9562: custom)
  h[8] = (h[8]! & 0x3f) | 0x80; // variant 10
  const hex = h.subarray(0, 16).toString("hex");
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface CredentialFacts {
  number: string;
  /** The recipient's identifier (`recipientId`). */
  recipient: string;
  statusListIndex: number;
  templateName: string;
  holderName: string;
  holderEmail: string;
  course: { id: string; name: string; code: string; description: string };
  issued: Date;
  expires: Date | null;
  result: { grade: string | null; percent: number | null };
  issuerName: string;
}

/**
 * The credential: an OpenBadgeCredential whose subject is identified by a salted hash of the holder's
 * e-mail (OB 3.0 IdentityObject), so the credential names its holder without exposing the address.
 */
export function buildCredential(appUrl: string, f: CredentialFacts) {
  const urls = credentialUrls(appUrl);
  const salt = createHash("sha256").update(`${f.number}|salt`).digest("hex").slice(0, 16);
  const identityHash = `sha256$${createHash("sha256")
    .update(f.holderEmail.toLowerCase() + salt)
    .digest("hex")}`;
  const achievementId = `${appUrl}/learn/open-catalog/${f.course.id}/view/details`;
  return {
    "@context": [VC_CONTEXT, OB_CONTEXT],
    id: urls.credential(f.number),
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: f.templateName,
    description: `${f.templateName}: ${f.course.name} (${f.course.code}), certificate ${f.number}`,
    issuer: { id: urls.issuer, type: ["Profile"], name: f.issuerName, url: `${appUrl}/learn` },
    validFrom: vcDate(f.issued),
    ...(f.expires ? { validUntil: vcDate(f.expires) } : {}),
    credentialSubject: {
      id: f.recipient,
      type: ["AchievementSubject"],
      name: f.holderName,
      identifier: [{ type: "IdentityObject", identityHash, identityType: "emailAddress", hashed: true, salt }],
      achievement: {
        id: achievementId,
        type: ["Achievement"],
        achievementType: "Certificate",
        name: f.course.name,
        humanCode: f.course.code,
        description: f.course.description || f.course.name,
        criteria: { narrative: `Pass the course ${f.course.name} (${f.course.code}).` },
      },
      ...(f.result.grade || f.result.percent !== null
        ? {
            result: [
              {
                type: ["Result"],
                ...(f.result.grade ? { value: f.result.grade } : { value: `${f.result.percent}%` }),
                status: "Completed",
              },
            ],
          }
        : {}),
    },
    credentialStatus: {
      id: `${urls.statusList}#${f.statusListIndex}`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: String(f.statusListIndex),
      statusListCredential: urls.statusList,
    },
    credentialSchema: [{ id: OB_SCHEMA, type: "1EdTechJsonSchemaValidator2019" }],
  };
}

/**
 * VC-JWT (OB 3.0 § 8.2): the credential is the JWT's payload. The header: `alg` RS256, `typ` "JWT",
 * and `kid` the URI that dereferences to the public key (`credentialUrls().key`, also in the JWKS).
 * The registered claims mirror the credential: `iss` its issuer's id, `jti` its id, `sub` its
 * subject's id, `nbf` its validFrom and `exp` its validUntil (whole seconds, as the dates are).
 */
export async function signCredential(
  credential: {
    id: string;
    issuer: { id: string } | string;
    validFrom: string;
    validUntil?: string;
    credentialSubject: { id?: string };
  },
  key: CredentialKey,
  keyUri: string,
): Promise<string> {
  const issuer = typeof credential.issuer === "string" ? credential.issuer : credential.issuer.id;
  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  const jwt = new SignJWT(credential as unknown as Record<string, unknown>)
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: keyUri })
    .setIssuer(issuer)
    .setJti(credential.id)
    .setNotBefore(seconds(credential.validFrom))
    .setIssuedAt(seconds(credential.validFrom));
  if (credential.credentialSubject.id) jwt.setSubject(credential.credentialSubject.id);
  if (credential.validUntil) jwt.setExpirationTime(seconds(credential.validUntil));
  return jwt.sign(key.privateKey);
}

/** VC data model 2.0 § 4.13: the signed credential as JSON (an enveloped credential). */
export function envelope(jwt: string) {
  return { "@context": VC_CONTEXT, id: `data:application/vc+jwt,${jwt}`, type: "EnvelopedVerifiableCredential" };
}

/** The bitstring (GZIP, base64url, multibase "u" prefix) with the revoked indexes set. */
function encodeStatusList(revoked: readonly number[], bits = STATUS_LIST_BITS): string {
  const size = Math.max(bits, ...revoked.map((i) => i + 1));
  const bytes = new Uint8Array(Math.ceil(size / 8));
  // Bit 0 is the most significant bit of the first byte (Bitstring Status List § 3.2).
  for (const i of revoked) bytes[i >> 3] |= 0x80 >> (i & 7);
  return `u${gzipSync(bytes).toString("base64url")}`;
}

export function statusListCredential(appUrl: string, issuerName: string, revoked: readonly number[], now: Date) {
  const urls = credentialUrls(appUrl);
  return {
    "@context": [VC_CONTEXT],
    id: urls.statusList,
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: { id: urls.issuer, name: issuerName },
    validFrom: vcDate(now),
    credentialSubject: {
      id: `${urls.statusList}#list`,
      type: "BitstringStatusList",
      statusPurpose: "revocation",
      encodedList: encodeStatusList(revoked),
    },
  };
}
