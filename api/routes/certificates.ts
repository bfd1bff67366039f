import { Hono } from "hono";
import { z } from "zod";
import { CERTIFICATE_NUMBER_PATTERN, normalizeCertificateNumber } from "../../domain/certificates";
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
import { params, query, idParams } from "../validate";

const certificateQuerySchema = z.object({
  certificateNumber: z
    .string()
    .max(40)
    .transform((v, ctx) => {
      const n = normalizeCertificateNumber(v);
      if (!n || !CERTIFICATE_NUMBER_PATTERN.test(n)) {
        ctx.addIssue({ code: "custom", message: "certificateNumber must look like LA-7K3Q-9XWM-4TZR-1B8D." });
        return z.NEVER;
      }
      return n;
    })
    .optional(),
  objectiveId: z.uuid("objectiveId must be a course id (uuid).").optional(),
  userId: z.uuid("userId must be a user id (uuid).").optional(),
  sort: z.enum(["-created"], "sort must be -created (newest first).").default("-created"),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(100).default(50),
});

/** A number in a path: anything that does not normalise is simply not found (after the same wait). */
const numberParams = z.object({ number: z.string().max(60) });

/** Public credential documents change only on revocation: short caching, revocation shows within a minute. */
const PUBLIC_CACHE = "public, max-age=60";

export function certificateRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/certificate-records/*", requireUser);

  // Spec 7.6: the signed-in learner's certificates, by number or by course (and user), newest first.
  // Another learner's certificates are never listed: a userId other than the caller's finds nothing.
  r.get("/certificate-records/query", async (c) => {
    const q = query(c, certificateQuerySchema);
    if (!q.certificateNumber && !q.objectiveId) {
      throw new ApiError(400, {
        "": [message("invalidFilter", "Filter by certificateNumber, or by objectiveId (and userId).")],
      });
    }
    const me = c.var.user.id;
    if (q.userId && q.userId.toLowerCase() !== me) return c.json({ data: [] });
    const rows = await queryCertificates(c.var.db, me, q, { limit: q.take, offset: q.skip }, c.var.now);
    return c.json({ data: rows.map((row) => toCertificateRecord(row.c, row.result)) });
  });

  const appUrl = (c: { var: ApiEnv["Variables"] }) => c.var.deps.appUrl ?? "http://localhost:3000";

  // Spec 7.6 / 6: a certificate's public page needs no sign-in; it shows the holder's name only.
  r.get("/public/certificate-records/:id", async (c) => {
    const { id } = params(c, idParams);
    const row = await loadCertificate(c.var.db, id, c.var.now);
    if (!row) throw notFound("certificate");
    return c.json(toPublicCertificate(row, credentialUrls(appUrl(c)).credential(row.c.certificateNumber)));
  });

  // Issue 12: the public page's lookup by number — limited per address, the same time found or not.
  r.get("/public/certificate-records/by-number/:number", async (c) => {
    await countLookup(c);
    const number = normalizeCertificateNumber(params(c, numberParams).number);
    const row = await evenly(async () => (number ? loadCertificateByNumber(c.var.db, number, c.var.now) : undefined));
    if (!row) throw notFound("certificate");
    return c.json(toPublicCertificate(row, credentialUrls(appUrl(c)).credential(row.c.certificateNumber)));
  });

  // Decision 020: the issuer's profile and public keys, at stable URLs, for offline verification.
  r.get("/public/credentials/issuer", async (c) => {
    c.header("Cache-Control", "public, max-age=3600");
    return c.json(issuerProfile(appUrl(c), await issuerName(c.var.db)));
  });
  // The key set at a stable URL, and each key at the URI a credential's `kid` names (OB 3.0 §8.2.3).
  const keySet = async (c: { var: ApiEnv["Variables"] }) =>
    credentialJwks(appUrl(c), await credentialKey(c.var.deps.signingKey), c.var.deps.previousSigningKeys);
  r.get("/public/credentials/jwks.json", async (c) => {
    c.header("Cache-Control", "public, max-age=3600");
    return c.json(await keySet(c));
  });
  r.get("/public/credentials/keys/:id", async (c) => {
    const { id } = params(c, z.object({ id: z.string().max(200) }));
    const key = (await keySet(c)).keys.find((k) => k.kid === credentialUrls(appUrl(c)).key(id));
    if (!key) throw notFound("key");
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(JSON.stringify(key), 200, { "Content-Type": "application/jwk+json" });
  });

  // The Bitstring Status List of revocations, signed like the credentials (VC-JWT).
  r.get("/public/credentials/status/1", async (c) => {
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
    if (c.req.query("format") === "json") return c.json(envelope(jwt));
    return c.body(jwt, 200, { "Content-Type": "application/vc+jwt" });
  });

  // One certificate's OpenBadgeCredential: the compact JWS (application/vc+jwt), or ?format=json for
  // the same JWS in a VC 2.0 EnvelopedVerifiableCredential, as a download.
  r.get("/public/credentials/:number", async (c) => {
    await countLookup(c);
    const number = normalizeCertificateNumber(params(c, numberParams).number);
    const row = await evenly(async () => (number ? loadCertificateByNumber(c.var.db, number, c.var.now) : undefined));
    if (!row) throw notFound("certificate");
    const jwt = await certificateCredential(c.var.db, appUrl(c), row, c.var.deps.signingKey);
    c.header("Cache-Control", PUBLIC_CACHE);
    if (c.req.query("format") === "json") {
      c.header("Content-Disposition", `attachment; filename="${row.c.certificateNumber}.credential.json"`);
      return c.json(envelope(jwt));
    }
    return c.body(jwt, 200, { "Content-Type": "application/vc+jwt" });
  });

  return r;
}
