// Mappers turn table rows into the API's contract shapes; they run no SQL. This one: certificate records (spec 7.6).
import type { CertificateRecord, PublicCertificate } from "../../domain/contract/certificates";
import type { ObjectiveRecord } from "../../domain/contract/courses";
import type { certificateRecords } from "../db/schema";
import { iso } from "./common";

type CertificateRow = typeof certificateRecords.$inferSelect;

/** The result a certificate shows: its record as the reveal rule lets the learner see it (`toRecord`). */
export function toCertificateResult(rec: ObjectiveRecord) {
  return {
    id: rec.id,
    score: rec.score,
    maxScore: rec.maxScore,
    normalizedScore: rec.normalizedScore,
    grade: rec.grade ? { name: rec.grade.name, color: rec.grade.color } : null,
    passed: rec.passed,
    finished: rec.finished,
  };
}
export type CertificateResult = ReturnType<typeof toCertificateResult>;

const STORAGE = "/api/lms-storage/v1";

/**
 * What every form of a certificate carries about its issue. The files are made once, on first
 * demand or by the background job (decision 020), so their URLs are known before they exist: the
 * holder's (signed in, own certificates only) or the public share form's.
 */
const issued = (c: CertificateRow, files: "own" | "public") => {
  const base =
    files === "own"
      ? `${STORAGE}/certificate-records/${c.id}`
      : `${STORAGE}/public/certificates/${encodeURIComponent(c.certificateNumber)}`;
  return {
    normalizedPassingScore: c.normalizedPassingScore,
    expirationDate: iso(c.expirationDate),
    externalUrl: c.externalUrl,
    certificatePdfUrl: `${base}/pdf`,
    certificatePngUrl: `${base}/png`,
    created: c.created.toISOString(),
    revoked: c.revokedAt !== null,
  };
};

/** A certificate as its holder lists it. */
export function toCertificateRecord(cert: CertificateRow, result: CertificateResult): CertificateRecord {
  return {
    id: cert.id,
    certificateNumber: cert.certificateNumber,
    certificateTemplate: { id: cert.certificateTemplateId, name: cert.templateName },
    objectiveId: cert.objectiveId,
    userId: cert.userId,
    objectiveRecordId: cert.objectiveRecordId,
    objectiveRecord: result,
    ...issued(cert, "own"),
  };
}

/** A certificate's public page (spec 7.6 / 6): the holder's name only, no ids of the learner's records. */
export function toPublicCertificate(
  row: {
    c: CertificateRow;
    result: CertificateResult;
    student: { firstName: string; middleName: string | null; lastName: string };
    objective: PublicCertificate["objective"];
  },
  credentialUrl: string,
): PublicCertificate {
  const { id: _recordId, ...result } = row.result;
  return {
    id: row.c.id,
    certificateNumber: row.c.certificateNumber,
    certificateTemplate: { name: row.c.templateName },
    student: { name: holderName(row.student) },
    objective: row.objective,
    result,
    credentialUrl,
    ...issued(row.c, "public"),
  };
}

/** The holder's full name as the certificate prints it. */
export function holderName(s: { firstName: string; middleName?: string | null; lastName: string }) {
  return [s.firstName, s.middleName, s.lastName].filter(Boolean).join(" ");
}
