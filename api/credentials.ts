/**
 * Certificates as Open Badges 3.0 credentials (issue 12, decision 020): each certificate is an
 * `OpenBadgeCredential` (a W3C Verifiable Credential, data model 2.0) secured as VC-JWT with the
 * platform's key; the issuer profile, its public keys (JWKS) and a Bitstring Status List of
 * revocations are published at stable URLs, so anyone verifies a credential offline with standard
 * JOSE tools and checks revocation with one fetch.
 */
import { createHash } from "node:crypto";
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
    statusList: `${base}/status/1`,
    credential: (number: string) => `${base}/${encodeURIComponent(number)}`,
    publicPage: (number: string) => `${appUrl}/learn/certificate/${encodeURIComponent(number)}`,
  };
}

export interface CredentialKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
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
    }))();
    imported.set(kid, key);
  }
  return key;
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

export interface CredentialFacts {
  number: string;
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
    validFrom: f.issued.toISOString(),
    ...(f.expires ? { validUntil: f.expires.toISOString() } : {}),
    credentialSubject: {
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
 * VC-JWT (OB 3.0 § 8.2): the credential is the JWT's payload, with the registered claims iss, jti,
 * sub, nbf and exp mirroring its fields; the header names the key (kid) published in the JWKS.
 */
export async function signCredential(
  credential: { id: string; issuer: { id: string } | string; validFrom: string; validUntil?: string },
  key: CredentialKey,
  subject?: string,
): Promise<string> {
  const issuer = typeof credential.issuer === "string" ? credential.issuer : credential.issuer.id;
  const jwt = new SignJWT(credential as unknown as Record<string, unknown>)
    .setProtectedHeader({ alg: "RS256", typ: "vc+jwt", kid: key.kid })
    .setIssuer(issuer)
    .setJti(credential.id)
    .setNotBefore(Math.floor(Date.parse(credential.validFrom) / 1000))
    .setIssuedAt(Math.floor(Date.parse(credential.validFrom) / 1000));
  if (subject) jwt.setSubject(subject);
  if (credential.validUntil) jwt.setExpirationTime(Math.floor(Date.parse(credential.validUntil) / 1000));
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
    validFrom: now.toISOString(),
    credentialSubject: {
      id: `${urls.statusList}#list`,
      type: "BitstringStatusList",
      statusPurpose: "revocation",
      encodedList: encodeStatusList(revoked),
    },
  };
}
