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

/** What every form of a certificate carries about its issue. */
const issued = (c: CertificateRow) => ({
  normalizedPassingScore: c.normalizedPassingScore,
  expirationDate: iso(c.expirationDate),
  externalUrl: c.externalUrl,
  certificatePdfUrl: c.certificatePdfUrl,
  certificatePngUrl: c.certificatePngUrl,
  created: c.created.toISOString(),
});

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
    ...issued(cert),
  };
}

/** A certificate's public page (spec 7.6 / 6): the holder's name only, no ids of the learner's records. */
export function toPublicCertificate(row: {
  c: CertificateRow;
  result: CertificateResult;
  student: { firstName: string; lastName: string };
  objective: PublicCertificate["objective"];
}): PublicCertificate {
  const { id: _recordId, ...result } = row.result;
  return {
    id: row.c.id,
    certificateNumber: row.c.certificateNumber,
    certificateTemplate: { name: row.c.templateName },
    student: { name: `${row.student.firstName} ${row.student.lastName}`.trim() },
    objective: row.objective,
    result,
    ...issued(row.c),
  };
}
