import { z } from "zod";

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
