import { z } from "zod";
import { CERTIFICATE_NUMBER_PATTERN, normalizeCertificateNumber } from "../certificates";

const date = z.string().nullable();

/** The attempt a certificate was issued for; reveal policies apply as to any record (spec 4.7). */
const certificateResultSchema = z.object({
  id: z.string(),
  score: z.number().nullable(),
  maxScore: z.number().nullable(),
  normalizedScore: z.number().nullable(),
  grade: z.object({ name: z.string(), color: z.string() }).nullable(),
  passed: z.boolean().nullable(),
  finished: date,
});

/** What every form of a certificate carries about its issue. */
const issued = {
  normalizedPassingScore: z.number().nullable(),
  expirationDate: date,
  externalUrl: z.string().nullable(),
  certificatePdfUrl: z.string().nullable(),
  certificatePngUrl: z.string().nullable(),
  created: z.string(),
};

/** Spec 3 Certificate record, as its holder reads it (spec 7.6 certificate-records/query). */
export const certificateRecordSchema = z.object({
  id: z.string(),
  certificateNumber: z.string(),
  certificateTemplate: z.object({ id: z.string().nullable(), name: z.string() }),
  objectiveId: z.string(),
  userId: z.string(),
  objectiveRecordId: z.string(),
  objectiveRecord: certificateResultSchema,
  /** Revoked by the issuer: the public page and the credential's status list say so. */
  revoked: z.boolean(),
  ...issued,
});
export type CertificateRecord = z.infer<typeof certificateRecordSchema>;

/**
 * Spec 7.6 public/certificate-records/{id}: what a public share page shows (spec 2.7) and nothing
 * else — the holder by display name only, no user, record or tenant ids.
 */
export const publicCertificateSchema = z.object({
  id: z.string(),
  certificateNumber: z.string(),
  certificateTemplate: z.object({ name: z.string() }),
  student: z.object({ name: z.string() }),
  objective: z.object({ id: z.string(), name: z.string(), code: z.string(), description: z.string() }),
  result: certificateResultSchema.omit({ id: true }),
  revoked: z.boolean(),
  /** The Open Badges 3.0 credential (VC-JWT) anyone can verify (decision 020). */
  credentialUrl: z.string(),
  ...issued,
});
export type PublicCertificate = z.infer<typeof publicCertificateSchema>;

/** `certificate-records/query`: by number, or by course (and user); newest first; paged. */
export const certificateQuerySchema = z.object({
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

/** A certificate number in a path: anything that does not normalise is simply not found (after the same wait). */
export const certificateNumberPathSchema = z.object({ number: z.string().max(60) });
/** `public/credentials/keys/{id}`: a key of the issuer, by the id in a credential's `kid`. */
export const credentialKeyPathSchema = z.object({ id: z.string().max(200) });
/** `?format=json`: the credential in a VC 2.0 envelope instead of the compact JWS. */
export const credentialFormatQuerySchema = z.object({ format: z.string().optional() });
const CERTIFICATE_FILE_KINDS = ["pdf", "png"] as const;
/** A certificate's file: the holder's own, by record id. */
export const certificateFilePathSchema = z.object({ id: z.uuid(), kind: z.enum(CERTIFICATE_FILE_KINDS) });
/** A certificate's file by its public number. */
export const publicCertificateFilePathSchema = certificateNumberPathSchema.extend({
  kind: z.enum(CERTIFICATE_FILE_KINDS),
});
