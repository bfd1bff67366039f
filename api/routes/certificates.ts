import { Hono, type MiddlewareHandler } from "hono";
import { normalizeCertificateNumber } from "../../domain/certificates";
import {
  certificateNumberPathSchema,
  credentialKeyPathSchema,
  certificateQuerySchema,
  certificateRecordSchema,
  credentialFormatQuerySchema,
  publicCertificateSchema,
} from "../../domain/contract/certificates";
import { listOf } from "../../domain/contract/common";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { ApiError, message, notFound } from "../errors";
import { toCertificateRecord, toPublicCertificate } from "../mappers/certificates";
import { certificateCredential, issuerName, statusList } from "../queries/credentials";
import {
  loadCertificate,
  loadCertificateByNumber,
  queryCertificates,
  revokedStatusIndexes,
} from "../queries/certificates";
import { countLookup, evenly } from "../public-lookups";
import { credentialJwks, credentialKey, credentialUrls, envelope, issuerProfile, signCredential } from "../credentials";
import { idParams, validParams, validQuery } from "../validate";
import { operations } from "../openapi";

const op = operations("certificates");
/** Counts a public lookup per address before anything else: found or not, bad number or good. */
const countedLookup: MiddlewareHandler<ApiEnv> = async (c, next) => {
  await countLookup(c);
  await next();
};

/** Public credential documents change only on revocation: short caching, revocation shows within a minute. */
const PUBLIC_CACHE = "public, max-age=60";

export function certificateRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/certificate-records/*", requireUser);

  // Spec 7.6: the signed-in learner's certificates, by number or by course (and user), newest first.
  // Another learner's certificates are never listed: a userId other than the caller's finds nothing.
  r.get(
    "/certificate-records/query",
    op({
      summary:
        "The signed-in learner's certificates, newest first: by certificateNumber (LA-2026-000123), or by objectiveId with optional userId (must be the caller's; another user's id finds nothing). Certificates whose result is hidden (reveal policy, protected results) are left out until it is shown",
      response: listOf(certificateRecordSchema),
    }),
    validQuery(certificateQuerySchema),
    async (c) => {
      const q = c.req.valid("query");
      if (!q.certificateNumber && !q.objectiveId) {
        throw new ApiError(400, {
          "": [message("invalidFilter", "Filter by certificateNumber, or by objectiveId (and userId).")],
        });
      }
      const me = c.var.user.id;
      if (q.userId && q.userId.toLowerCase() !== me) return c.json({ data: [] });
      const rows = await queryCertificates(c.var.db, me, q, { limit: q.take, offset: q.skip }, c.var.now);
      return c.json({ data: rows.map((row) => toCertificateRecord(row.c, row.result)) });
    },
  );

  const appUrl = (c: { var: ApiEnv["Variables"] }) => c.var.deps.appUrl ?? "http://localhost:3000";

  // Spec 7.6 / 6: a certificate's public page needs no sign-in; it shows the holder's name only.
  r.get(
    "/public/certificate-records/:id",
    op({
      summary: "A certificate's public share page data: holder's display name, course, result, dates; no sign-in",
      auth: "none",
      response: publicCertificateSchema,
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await loadCertificate(c.var.db, id, c.var.now);
      if (!row) throw notFound("certificate");
      return c.json(toPublicCertificate(row, credentialUrls(appUrl(c)).credential(row.c.certificateNumber)));
    },
  );

  // The public page's lookup by number — limited per address, the same time found or not.
  r.get(
    "/public/certificate-records/by-number/:number",
    op({
      summary:
        "The public page's lookup by certificate number: limited per address (429), answered in the same time found or not",
      auth: "none",
      response: publicCertificateSchema,
      errors: { 429: "Too many lookups from this address" },
    }),
    countedLookup,
    validParams(certificateNumberPathSchema),
    async (c) => {
      const number = normalizeCertificateNumber(c.req.valid("param").number);
      const row = await evenly(async () => (number ? loadCertificateByNumber(c.var.db, number, c.var.now) : undefined));
      if (!row) throw notFound("certificate");
      return c.json(toPublicCertificate(row, credentialUrls(appUrl(c)).credential(row.c.certificateNumber)));
    },
  );

  // Decision 020: the issuer's profile and public keys, at stable URLs, for offline verification.
  r.get(
    "/public/credentials/issuer",
    op({
      summary: "The issuer's profile (Open Badges 3.0 Profile), for offline verification (decision 020)",
      auth: "none",
    }),
    async (c) => {
      c.header("Cache-Control", "public, max-age=3600");
      return c.json(issuerProfile(appUrl(c), await issuerName(c.var.db)));
    },
  );
  // The key set at a stable URL, and each key at the URI a credential's `kid` names (OB 3.0 §8.2.3).
  const keySet = async (c: { var: ApiEnv["Variables"] }) =>
    credentialJwks(appUrl(c), await credentialKey(c.var.deps.signingKey), c.var.deps.previousSigningKeys);
  r.get(
    "/public/credentials/jwks.json",
    op({ summary: "The issuer's public keys (JWKS) that sign the credentials, previous keys included", auth: "none" }),
    async (c) => {
      c.header("Cache-Control", "public, max-age=3600");
      return c.json(await keySet(c));
    },
  );
  r.get(
    "/public/credentials/keys/:id",
    op({
      summary: "One of the issuer's keys at the URI a credential's kid names (OB 3.0 §8.2.3)",
      auth: "none",
      answer: { type: "application/jwk+json", description: "The public key" },
    }),
    validParams(credentialKeyPathSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const key = (await keySet(c)).keys.find((k) => k.kid === credentialUrls(appUrl(c)).key(id));
      if (!key) throw notFound("key");
      c.header("Cache-Control", "public, max-age=3600");
      return c.body(JSON.stringify(key), 200, { "Content-Type": "application/jwk+json" });
    },
  );

  // The Bitstring Status List of revocations, signed like the credentials (VC-JWT).
  r.get(
    "/public/credentials/status/1",
    op({
      summary:
        "The Bitstring Status List of revocations, signed like the credentials (VC-JWT; ?format=json: enveloped)",
      auth: "none",
      answer: { type: "application/vc+jwt", description: "The signed status list credential" },
    }),
    validQuery(credentialFormatQuerySchema),
    async (c) => {
      const [revoked, name, key] = await Promise.all([
        revokedStatusIndexes(c.var.db),
        issuerName(c.var.db),
        credentialKey(c.var.deps.signingKey),
      ]);
      const jwt = await signCredential(
        statusList(appUrl(c), name, revoked, c.var.now),
        key,
        credentialUrls(appUrl(c)).key(key.kid),
      );
      c.header("Cache-Control", PUBLIC_CACHE);
      if (c.req.valid("query").format === "json") return c.json(envelope(jwt));
      return c.body(jwt, 200, { "Content-Type": "application/vc+jwt" });
    },
  );

  // One certificate's OpenBadgeCredential: the compact JWS (application/vc+jwt), or ?format=json for
  // the same JWS in a VC 2.0 EnvelopedVerifiableCredential, as a download.
  r.get(
    "/public/credentials/:number",
    op({
      summary:
        "One certificate's OpenBadgeCredential: the compact JWS (application/vc+jwt), or ?format=json for it in a VC 2.0 EnvelopedVerifiableCredential, as a download",
      auth: "none",
      answer: { type: "application/vc+jwt", description: "The signed credential" },
      errors: { 429: "Too many lookups from this address" },
    }),
    countedLookup,
    validParams(certificateNumberPathSchema),
    validQuery(credentialFormatQuerySchema),
    async (c) => {
      const number = normalizeCertificateNumber(c.req.valid("param").number);
      const row = await evenly(async () => (number ? loadCertificateByNumber(c.var.db, number, c.var.now) : undefined));
      if (!row) throw notFound("certificate");
      const jwt = await certificateCredential(c.var.db, appUrl(c), row, c.var.deps.signingKey);
      c.header("Cache-Control", PUBLIC_CACHE);
      if (c.req.valid("query").format === "json") {
        c.header("Content-Disposition", `attachment; filename="${row.c.certificateNumber}.credential.json"`);
        return c.json(envelope(jwt));
      }
      return c.body(jwt, 200, { "Content-Type": "application/vc+jwt" });
    },
  );

  return r;
}
