import { Hono } from "hono";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  CERTIFICATE_NUMBER_PATTERN,
  certificateExpiration,
  formatCertificateNumber,
  issuesCertificate,
} from "../../domain/certificates";
import type { CertificateRecord, PublicCertificate } from "../../domain/contract/certificates";
import type { ApiEnv } from "../context";
import type { Db } from "../db/client";
import {
  certificateRecords,
  certificateTemplates,
  grades,
  gradingScales,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
  users,
} from "../db/schema";
import { requireUser } from "../auth";
import { ApiError, message, notFound } from "../errors";
import { params, query, idParams } from "../validate";
import { toRecord } from "./courses";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

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
  const seq = await tx.execute<{ n: string }>(sql`select nextval('certificate_number_seq')::text as n`);
  const [row] = await tx
    .insert(certificateRecords)
    .values({
      certificateNumber: formatCertificateNumber(input.now, Number(seq.rows[0].n)),
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
      student: { firstName: users.firstName, lastName: users.lastName },
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
    const result = {
      id: rec.id,
      score: rec.score,
      maxScore: rec.maxScore,
      normalizedScore: rec.normalizedScore,
      grade: rec.grade ? { name: rec.grade.name, color: rec.grade.color } : null,
      passed: rec.passed,
      finished: rec.finished,
    };
    return [{ ...row, result }];
  });
  return visible.slice(opts.offset, opts.offset + opts.limit);
}

const common = (c: typeof certificateRecords.$inferSelect) => ({
  normalizedPassingScore: c.normalizedPassingScore,
  expirationDate: iso(c.expirationDate),
  externalUrl: c.externalUrl,
  certificatePdfUrl: c.certificatePdfUrl,
  certificatePngUrl: c.certificatePngUrl,
  created: c.created.toISOString(),
});

const certificateQuerySchema = z.object({
  certificateNumber: z
    .string()
    .max(40)
    .regex(CERTIFICATE_NUMBER_PATTERN, "certificateNumber must look like LA-2026-000123.")
    .optional(),
  objectiveId: z.uuid("objectiveId must be a course id (uuid).").optional(),
  userId: z.uuid("userId must be a user id (uuid).").optional(),
  sort: z.enum(["-created"], "sort must be -created (newest first).").default("-created"),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(100).default(50),
});

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
    const where = and(
      eq(certificateRecords.userId, me),
      q.certificateNumber ? eq(certificateRecords.certificateNumber, q.certificateNumber) : undefined,
      q.objectiveId ? eq(certificateRecords.objectiveId, q.objectiveId) : undefined,
    );
    const rows = await loadCertificates(c.var.db, where, { limit: q.take, offset: q.skip }, c.var.now);
    const data: CertificateRecord[] = rows.map(({ c: cert, result }) => ({
      id: cert.id,
      certificateNumber: cert.certificateNumber,
      certificateTemplate: { id: cert.certificateTemplateId, name: cert.templateName },
      objectiveId: cert.objectiveId,
      userId: cert.userId,
      objectiveRecordId: cert.objectiveRecordId,
      objectiveRecord: result,
      ...common(cert),
    }));
    return c.json({ data });
  });

  // Spec 7.6 / 6: a certificate's public page needs no sign-in; it shows the holder's name only.
  r.get("/public/certificate-records/:id", async (c) => {
    const { id } = params(c, idParams);
    const [row] = await loadCertificates(c.var.db, eq(certificateRecords.id, id), { limit: 1, offset: 0 }, c.var.now);
    if (!row) throw notFound("certificate");
    const { id: _recordId, ...result } = row.result;
    const body: PublicCertificate = {
      id: row.c.id,
      certificateNumber: row.c.certificateNumber,
      certificateTemplate: { name: row.c.templateName },
      student: { name: `${row.student.firstName} ${row.student.lastName}`.trim() },
      objective: row.objective,
      result,
      ...common(row.c),
    };
    return c.json(body);
  });

  return r;
}
