// Queries: reads and writes the handlers share, grouped by resource. This one: certificate records — issuing one
// with a passed record (inside the caller's transaction) and reading them under the reveal rule.
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNotNull, type SQL } from "drizzle-orm";
import {
  CERTIFICATE_NUMBER_BYTES,
  certificateExpiration,
  formatCertificateNumber,
  issuesCertificate,
} from "../../domain/certificates";
import type { Db, Tx } from "../db/client";
import {
  certificateRecords,
  certificateTemplates,
  grades,
  gradingScales,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
  tenants,
  users,
} from "../db/schema";
import { toCertificateResult } from "../mappers/certificates";
import { toRecord } from "../mappers/courses";

/**
 * Issues the certificate of a passed record, inside the caller's transaction (the record and its
 * certificate commit together). One certificate per record: the unique index on objective_record_id
 * makes a repeat — a retried command, a finish after a submit — insert nothing. Returns the new
 * certificate's id, or null when none was issued.
 */
export async function issueCertificate(
  tx: Tx,
  input: { objectiveId: string; userId: string; objectiveRecordId: string; passed: boolean | null; now: Date },
): Promise<string | null> {
  if (input.passed !== true) return null;
  const [course] = await tx
    .select({
      templateId: certificateTemplates.id,
      name: certificateTemplates.name,
      validityDays: certificateTemplates.validityDays,
      passing: gradingScales.normalizedPassingScore,
    })
    .from(objectives)
    .innerJoin(certificateTemplates, eq(certificateTemplates.id, objectives.certificateTemplateId))
    .leftJoin(gradingScales, eq(gradingScales.id, objectives.gradingScaleId))
    .where(eq(objectives.id, input.objectiveId))
    .limit(1);
  if (!course || !issuesCertificate({ passed: input.passed }, course.templateId)) return null;
  const existing = await tx
    .select({ id: certificateRecords.id })
    .from(certificateRecords)
    .where(eq(certificateRecords.objectiveRecordId, input.objectiveRecordId))
    .limit(1);
  if (existing[0]) return null;
  const [row] = await tx
    .insert(certificateRecords)
    .values({
      certificateNumber: formatCertificateNumber(randomBytes(CERTIFICATE_NUMBER_BYTES)),
      certificateTemplateId: course.templateId,
      templateName: course.name,
      objectiveId: input.objectiveId,
      userId: input.userId,
      objectiveRecordId: input.objectiveRecordId,
      normalizedPassingScore: course.passing ?? null,
      expirationDate: certificateExpiration(input.now, course.validityDays),
      created: input.now,
    })
    .onConflictDoNothing({ target: certificateRecords.objectiveRecordId })
    .returning({ id: certificateRecords.id });
  return row?.id ?? null;
}

/**
 * Certificates with the record, reveal settings and grade behind each. A certificate says its
 * holder passed, so it is shown only where the record's result is (spec 4.7, protected results).
 * That rule is the domain's (toRecord), so paging happens after it: the query reads up to
 * MAX_CERTIFICATES matches (one per passed attempt: a learner never comes near it) and the page is
 * cut from the visible ones — a hidden certificate never makes a page short.
 */
const MAX_CERTIFICATES = 1000;
async function loadCertificates(db: Db, where: SQL | undefined, opts: { limit: number; offset: number }, now: Date) {
  const rows = await db
    .select({
      c: certificateRecords,
      r: objectiveRecords,
      a: { gradeRevealPolicy: owa.gradeRevealPolicy, gradeRevealDate: owa.gradeRevealDate },
      wfState: objectiveWorkflows.state,
      grade: { id: grades.id, name: grades.name, color: grades.color, normalizedMinScore: grades.normalizedMinScore },
      student: {
        firstName: users.firstName,
        middleName: users.middleName,
        lastName: users.lastName,
        email: users.email,
        timezone: users.timezone,
      },
      tenantName: tenants.name,
      objective: {
        id: objectives.id,
        name: objectives.name,
        code: objectives.code,
        description: objectives.description,
      },
    })
    .from(certificateRecords)
    .innerJoin(objectiveRecords, eq(objectiveRecords.id, certificateRecords.objectiveRecordId))
    .innerJoin(owa, eq(owa.id, objectiveRecords.aggregateId))
    .innerJoin(users, eq(users.id, certificateRecords.userId))
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .innerJoin(objectives, eq(objectives.id, certificateRecords.objectiveId))
    .leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, objectiveRecords.workflowId))
    .leftJoin(grades, eq(grades.id, objectiveRecords.gradeId))
    .where(where)
    .orderBy(desc(certificateRecords.created), desc(certificateRecords.id))
    .limit(MAX_CERTIFICATES);
  const visible = rows.flatMap((row) => {
    const gradeMap = new Map(row.grade?.id ? [[row.grade.id, row.grade]] : []);
    const rec = toRecord(row.r, row.a, row.wfState, gradeMap, now);
    if (!rec || rec.resultsHidden) return [];
    return [{ ...row, result: toCertificateResult(rec) }];
  });
  return visible.slice(opts.offset, opts.offset + opts.limit);
}

/** Spec 7.6: a page of the learner's own certificates, by number or by course. */
export async function queryCertificates(
  db: Db,
  userId: string,
  filter: { certificateNumber?: string; objectiveId?: string },
  page: { limit: number; offset: number },
  now: Date,
) {
  const where = and(
    eq(certificateRecords.userId, userId),
    filter.certificateNumber ? eq(certificateRecords.certificateNumber, filter.certificateNumber) : undefined,
    filter.objectiveId ? eq(certificateRecords.objectiveId, filter.objectiveId) : undefined,
  );
  return loadCertificates(db, where, page, now);
}

/** Spec 7.6: one certificate by id, whoever holds it (its public page); undefined when none is shown. */
export async function loadCertificate(db: Db, id: string, now: Date) {
  const [row] = await loadCertificates(db, eq(certificateRecords.id, id), { limit: 1, offset: 0 }, now);
  return row;
}

/** A certificate by its number, whoever holds it (public page, files, credential); undefined when none is shown. */
export async function loadCertificateByNumber(db: Db, number: string, now: Date) {
  const [row] = await loadCertificates(
    db,
    eq(certificateRecords.certificateNumber, number),
    { limit: 1, offset: 0 },
    now,
  );
  return row;
}

/** The caller's own certificate by id (the preview's downloads); undefined when not theirs or not shown. */
export async function loadOwnCertificate(db: Db, userId: string, id: string, now: Date) {
  const [row] = await loadCertificates(
    db,
    and(eq(certificateRecords.id, id), eq(certificateRecords.userId, userId)),
    { limit: 1, offset: 0 },
    now,
  );
  return row;
}

export type CertificateRow = NonNullable<Awaited<ReturnType<typeof loadCertificateByNumber>>>;

/** The status-list bits that are set: every revoked certificate's index (decision 020). */
export async function revokedStatusIndexes(db: Db): Promise<number[]> {
  const rows = await db
    .select({ i: certificateRecords.statusListIndex })
    .from(certificateRecords)
    .where(isNotNull(certificateRecords.revokedAt));
  return rows.map((r) => r.i);
}
