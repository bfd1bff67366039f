/**
 * Learners: a recipe (demo/data/learners/<user>.json, or the test-support endpoint's body) applied
 * to a user — accesses, enrolments, attempts, records and certificates, and the progress through
 * each course's activities with its proctoring sessions.
 *
 * The demo users get theirs when the catalog is seeded; the browser tests' fixture creates a fresh
 * learner whose recipe goes through the same function (`createLearner` in test-learners.ts, decision
 * 014), so the demo and the tests cannot drift apart. The rows of a learner's progress through the
 * activities are made in seed-progress.ts; days, enrolment columns and scores in recipe-values.ts. Everything is read back from the database by the data files' natural keys (course
 * code, term name, part axis), so a recipe can be applied long after the catalog was seeded.
 *
 * Invariants kept by construction (and checked by seed-catalog.test.ts):
 * - an aggregate copies the enrolment settings of the access it points at;
 * - `lastWorkflowState` equals the state of the workflow `lastWorkflowId` points at (null if none);
 * - a record's normalizedScore = score / maxScore, its grade is the scale grade with the highest
 *   normalizedMinScore ≤ normalizedScore, passed = normalizedScore ≥ normalizedPassingScore
 *   (null when there is no score yet);
 * - workflow timestamps match the state (submitted from state 2 on, finished only at 6);
 * - in progress, the share of finished required activities matches the attempt's progress.
 */
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { CERTIFICATE_NUMBER_BYTES, certificateExpiration, formatCertificateNumber } from "../domain/certificates";
import { ObjectiveWorkflowState } from "../domain/vocabulary";
import type { Db } from "../api/db/client";
import * as s from "../api/db/schema";
import { demoContent } from "./demo-content";
import type { DemoUserDef, LearnerRecipe } from "./content/schemas";
import { courseLeaves, type CourseLeaf, type Tx } from "./seed-activities";
import { accessColumns, daysFrom, gradeScore, type ScaleForGrading } from "./recipe-values";
import {
  insertChunked,
  progressRows,
  scormRowsOf,
  type AwRow,
  type RecRow,
  type ScormRow,
  type SessionRow,
} from "./seed-progress";

// ---------------------------------------------------------------------------------------------
// The catalog as seeded, read back by natural keys
// ---------------------------------------------------------------------------------------------

type AccessRow = typeof s.objectiveAccesses.$inferInsert;

interface SeededCourse {
  id: string;
  scale: ScaleForGrading | null;
  template: { id: string; name: string; validityDays: number | null } | null;
  catalogAccess: AccessRow | null;
  /** Leaves in tree order with their part ids. */
  leaves: (CourseLeaf & { partId: string })[];
}

async function seededCatalog(tx: Tx, tenantId: string, slugs: string[], now: Date) {
  const content = demoContent();
  const defs = content.courses.filter((c) => slugs.includes(c.slug));
  const codes = defs.map((c) => c.code);
  const objectives = codes.length
    ? await tx
        .select({
          id: s.objectives.id,
          code: s.objectives.code,
          gradingScaleId: s.objectives.gradingScaleId,
          templateId: s.certificateTemplates.id,
          templateName: s.certificateTemplates.name,
          validityDays: s.certificateTemplates.validityDays,
        })
        .from(s.objectives)
        .leftJoin(s.certificateTemplates, eq(s.certificateTemplates.id, s.objectives.certificateTemplateId))
        .where(and(eq(s.objectives.tenantId, tenantId), inArray(s.objectives.code, codes)))
    : [];
  const ids = objectives.map((o) => o.id);
  const [scales, grades, terms, accesses, parts] = await Promise.all([
    tx.select().from(s.gradingScales).where(eq(s.gradingScales.tenantId, tenantId)),
    tx
      .select({
        id: s.grades.id,
        gradingScaleId: s.grades.gradingScaleId,
        normalizedMinScore: s.grades.normalizedMinScore,
      })
      .from(s.grades)
      .innerJoin(s.gradingScales, eq(s.gradingScales.id, s.grades.gradingScaleId))
      .where(eq(s.gradingScales.tenantId, tenantId)),
    tx.select({ id: s.terms.id, name: s.terms.name }).from(s.terms).where(eq(s.terms.tenantId, tenantId)),
    ids.length
      ? tx
          .select()
          .from(s.objectiveAccesses)
          .where(and(inArray(s.objectiveAccesses.objectiveId, ids), isNull(s.objectiveAccesses.userId)))
      : Promise.resolve([]),
    ids.length
      ? tx
          .select({ id: s.activityParts.id, objectiveId: s.activityParts.objectiveId, axis: s.activityParts.axis })
          .from(s.activityParts)
          .where(inArray(s.activityParts.objectiveId, ids))
      : Promise.resolve([]),
  ]);

  const termIds: Record<string, string> = {};
  for (const [key, name] of Object.entries(content.terms)) {
    const row = terms.find((t) => t.name === name);
    if (row) termIds[key] = row.id;
  }
  const courses = new Map<string, SeededCourse>();
  for (const def of defs) {
    const row = objectives.find((o) => o.code === def.code);
    if (!row) throw new Error(`seed-learners: the course ${def.slug} (${def.code}) is not seeded`);
    const scaleRow = scales.find((x) => x.id === row.gradingScaleId);
    const partIds = new Map(parts.filter((p) => p.objectiveId === row.id).map((p) => [p.axis, p.id]));
    const leaves = courseLeaves(def, now).flatMap((leaf) => {
      const partId = partIds.get(leaf.axis);
      return partId ? [{ ...leaf, partId }] : [];
    });
    courses.set(def.slug, {
      id: row.id,
      scale: scaleRow
        ? {
            maxScore: scaleRow.maxScore,
            normalizedPassingScore: scaleRow.normalizedPassingScore,
            grades: grades.filter((g) => g.gradingScaleId === scaleRow.id),
          }
        : null,
      template:
        row.templateId && row.templateName
          ? { id: row.templateId, name: row.templateName, validityDays: row.validityDays ?? null }
          : null,
      catalogAccess: accesses.find((a) => a.objectiveId === row.id) ?? null,
      leaves,
    });
  }
  return { courses, termIds };
}

// ---------------------------------------------------------------------------------------------
// applyLearnerRecipes
// ---------------------------------------------------------------------------------------------

/**
 * Applies each learner's recipe to the user, in one transaction (a savepoint when `db` is one).
 * Dates are relative to `now`. The certificates of all the given learners are numbered together in
 * the order they were issued, from the sequence the API uses.
 */
export async function applyLearnerRecipes(
  db: Db | Tx,
  input: { tenantId: string; now: Date; learners: { userId: string; recipe: LearnerRecipe }[] },
): Promise<void> {
  const { tenantId, now } = input;
  const uuid = () => crypto.randomUUID();
  const slugs = [...new Set(input.learners.flatMap((l) => l.recipe.enrolments.map((e) => e.course)))];
  if (slugs.length === 0) return;

  await (db as Db).transaction(async (tx) => {
    const { courses, termIds } = await seededCatalog(tx, tenantId, slugs, now);
    const accessRows: AccessRow[] = [];
    const aggregateRows: (typeof s.objectiveWorkflowAggregates.$inferInsert)[] = [];
    const selfEnrolmentRows: (typeof s.selfEnrollments.$inferInsert)[] = [];
    const workflowRows: (typeof s.objectiveWorkflows.$inferInsert)[] = [];
    const recordRows: (typeof s.objectiveRecords.$inferInsert)[] = [];
    const awRows: AwRow[] = [];
    const arRows: RecRow[] = [];
    const sessionRows: SessionRow[] = [];
    const scormRows: ScormRow[] = [];
    /** Finished, passed records of courses with a template: each has its certificate. */
    const certified: {
      recordId: string;
      userId: string;
      objectiveId: string;
      course: SeededCourse;
      issued: Date;
      pdf: string | null;
    }[] = [];

    for (const { userId, recipe } of input.learners) {
      for (const e of recipe.enrolments) {
        const course = courses.get(e.course)!;
        const objectiveId = course.id;
        const scale = course.scale;
        let access: AccessRow;
        if (e.assigned) {
          access = { id: uuid(), tenantId, objectiveId, userId, ...accessColumns(e.assigned, now, termIds) };
          accessRows.push(access);
        } else {
          if (!course.catalogAccess) throw new Error(`seed-learners: ${e.course} has no catalog access`);
          access = course.catalogAccess;
        }
        const aggregateId = uuid();
        let lastWorkflowId: string | null = null;
        let lastWorkflowState: ObjectiveWorkflowState | null = null;
        let lastRecordId: string | null = null;
        for (const [index, a] of (e.attempts ?? []).entries()) {
          const workflowId = uuid();
          const hasRecord = a.state >= ObjectiveWorkflowState.submitted;
          const recordId = hasRecord ? uuid() : null;
          const submitted = hasRecord ? daysFrom(now, -(a.submittedAgo ?? 0)) : null;
          const finished = a.state === ObjectiveWorkflowState.finished ? daysFrom(now, -(a.finishedAgo ?? 0)) : null;
          const workflow = {
            id: workflowId,
            aggregateId,
            userId,
            objectiveId,
            attempt: index + 1,
            state: a.state,
            progress: a.progress,
            started: daysFrom(now, -a.startedAgo),
            submitted,
            finished,
            objectiveRecordId: recordId,
          };
          workflowRows.push(workflow);
          const graded = recordId ? gradeScore(scale, a.score ?? null) : null;
          if (recordId && graded) {
            recordRows.push({
              id: recordId,
              aggregateId,
              workflowId,
              userId,
              objectiveId,
              ...graded,
              finished,
              progress: a.progress,
            });
            if (graded.passed === true && finished && course.template) {
              certified.push({
                recordId,
                userId,
                objectiveId,
                course,
                issued: finished,
                pdf: e.certificatePdf ?? null,
              });
            }
          }
          const progress = progressRows(workflow, course.leaves, graded, now, a.sittingOpen);
          if (a.scorm) scormRows.push(...scormRowsOf(e.course, course.leaves, progress.aws, a.scorm));
          awRows.push(...progress.aws);
          arRows.push(...progress.records);
          sessionRows.push(...progress.sessions);
          lastWorkflowId = workflowId;
          lastWorkflowState = a.state;
          lastRecordId = recordId;
        }
        if (e.imported) {
          const recordId = uuid();
          recordRows.push({
            id: recordId,
            aggregateId,
            workflowId: null,
            userId,
            objectiveId,
            ...gradeScore(scale, e.imported.score),
            finished: daysFrom(now, -e.imported.finishedAgo),
            progress: 1,
            imported: true,
          });
          lastRecordId = recordId;
        }
        aggregateRows.push({
          id: aggregateId,
          tenantId,
          userId,
          objectiveId,
          objectiveAccessId: access.id,
          termId: access.termId,
          isMandatory: access.isMandatory,
          isSelfEnrolled: e.selfEnrolled ?? false,
          retake: access.retake,
          dueDate: access.dueDate,
          availabilityDate: access.availabilityDate,
          availabilityEndDate: access.availabilityEndDate,
          gradeRevealPolicy: access.gradeRevealPolicy,
          gradeRevealDate: access.gradeRevealDate,
          lastWorkflowId,
          lastRecordId,
          lastWorkflowState,
        });
        if (e.selfEnrolled) selfEnrolmentRows.push({ id: uuid(), userId, objectiveAccessId: access.id!, aggregateId });
      }
    }

    if (accessRows.length) await tx.insert(s.objectiveAccesses).values(accessRows);
    if (aggregateRows.length) await tx.insert(s.objectiveWorkflowAggregates).values(aggregateRows);
    if (selfEnrolmentRows.length) await tx.insert(s.selfEnrollments).values(selfEnrolmentRows);
    if (workflowRows.length) await tx.insert(s.objectiveWorkflows).values(workflowRows);
    if (recordRows.length) await tx.insert(s.objectiveRecords).values(recordRows);

    // Certificates, in the order they were issued, numbered like the API numbers them (80 random bits).
    certified.sort((x, y) => x.issued.getTime() - y.issued.getTime());
    const certificateRows: (typeof s.certificateRecords.$inferInsert)[] = [];
    for (const c of certified) {
      const template = c.course.template!;
      certificateRows.push({
        certificateNumber: formatCertificateNumber(randomBytes(CERTIFICATE_NUMBER_BYTES)),
        certificateTemplateId: template.id,
        templateName: template.name,
        objectiveId: c.objectiveId,
        userId: c.userId,
        objectiveRecordId: c.recordId,
        normalizedPassingScore: c.course.scale?.normalizedPassingScore ?? null,
        expirationDate: certificateExpiration(c.issued, template.validityDays),
        certificatePdfUrl: c.pdf,
        created: c.issued,
      });
    }
    if (certificateRows.length) await tx.insert(s.certificateRecords).values(certificateRows);

    await insertChunked(awRows, 1000, (chunk) => tx.insert(s.activityWorkflows).values(chunk));
    await insertChunked(arRows, 1000, (chunk) => tx.insert(s.activityRecords).values(chunk));
    if (scormRows.length) await tx.insert(s.scormAttempts).values(scormRows);
    // Sessions point at their activity workflow and back (last_proctoring_session_id): insert, then link.
    await insertChunked(sessionRows, 1000, (chunk) => tx.insert(s.proctoringSessions).values(chunk));
    if (sessionRows.length) {
      await tx.execute(sql`
        update ${s.activityWorkflows} aw set last_proctoring_session_id = ps.id
        from ${s.proctoringSessions} ps
        where ps.activity_workflow_id = aw.id
          and ps.id in (${sql.join(
            sessionRows.map((r) => sql`${r.id}::uuid`),
            sql`, `,
          )})
      `);
    }

    // Reinforcement questions already scheduled (spec 2.8): every question of the course, due at `dueIn`.
    const asked = input.learners.flatMap(({ userId, recipe }) =>
      (recipe.reinforcement ?? []).map((r) => ({ userId, objectiveId: courses.get(r.course)!.id, dueIn: r.dueIn })),
    );
    if (asked.length) {
      const questions = await tx
        .select({ q: s.reinforcementQuestions, objectiveId: s.activityParts.objectiveId })
        .from(s.reinforcementQuestions)
        .innerJoin(s.activityParts, eq(s.activityParts.activityId, s.reinforcementQuestions.activityId))
        .where(inArray(s.activityParts.objectiveId, [...new Set(asked.map((a) => a.objectiveId))]));
      const rows = asked.flatMap((a) =>
        questions
          .filter((x) => x.objectiveId === a.objectiveId)
          .map(({ q }) => ({
            userId: a.userId,
            objectiveId: a.objectiveId,
            activityId: q.activityId,
            questionId: q.id,
            question: q.question,
            options: q.options,
            correctAnswer: q.correctAnswer,
            feedback: q.feedback,
            dueAt: daysFrom(now, a.dueIn)!,
          })),
      );
      if (rows.length) await tx.insert(s.reinforcementWorkflows).values(rows).onConflictDoNothing();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

/** Inserts a user with its roles, licences and units (by name; the first is primary); returns its id. */
export async function insertUser(
  tx: Db | Tx,
  input: {
    tenantId: string;
    user: Omit<DemoUserDef, "timezone"> & { timezone?: string | null };
    passwordHash: string;
    unitIds: Record<string, string>;
  },
): Promise<string> {
  const { tenantId, user, passwordHash, unitIds } = input;
  const [row] = await tx
    .insert(s.users)
    .values({
      tenantId,
      email: user.email,
      firstName: user.firstName,
      middleName: user.middleName ?? null,
      lastName: user.lastName,
      department: user.department ?? null,
      timezone: user.timezone ?? null,
      passwordHash,
    })
    .returning({ id: s.users.id });
  await tx.insert(s.userRoles).values(user.roles.map((role) => ({ userId: row.id, role })));
  await tx.insert(s.licences).values(user.licences.map((product) => ({ userId: row.id, product })));
  await tx
    .insert(s.userUnits)
    .values(user.units.map((unit, i) => ({ userId: row.id, unitId: unitIds[unit], isPrimary: i === 0 })));
  return row.id;
}
