/**
 * Learners: a recipe (api/demo/data/learners/<user>.json, or the test-support endpoint's body) applied
 * to a user — accesses, enrolments, attempts, records and certificates, and the progress through
 * each course's activities with its proctoring sessions.
 *
 * The demo users get theirs when the catalog is seeded; the browser tests' fixture creates a fresh
 * learner with the same function (`createLearner`, decision 014), so the demo and the tests cannot
 * drift apart. Everything is read back from the database by the data files' natural keys (course
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
import { z } from "zod";
import { CERTIFICATE_NUMBER_BYTES, certificateExpiration, formatCertificateNumber } from "../../domain/certificates";
import {
  ActivityContentType,
  ActivityWorkflowState,
  ObjectiveState,
  ObjectiveWorkflowState,
  ProctoringSessionState,
} from "../../domain/vocabulary";
import type { Db } from "../db/client";
import * as s from "../db/schema";
import { checkRecipe, demoContent } from "./demo-content";
import { DemoContentError } from "./content/files";
import { enrolmentSchema, type AccessSettings, type DemoUserDef, type LearnerRecipe } from "./content/schemas";
import { hashPassword } from "../idp/password";
import { courseLeaves, type CourseLeaf, type Tx } from "./seed-activities";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** `now` shifted by a number of days (negative = past); null for undefined. */
export function daysFrom(now: Date, days: number | undefined): Date | null {
  return days === undefined ? null : new Date(now.getTime() + days * DAY_MS);
}

/** The UTC midnight that starts the day of `at`: a date without a time (decision 022). */
function utcDay(at: Date | null): Date | null {
  return at ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())) : null;
}

/** The enrolment columns shared by accesses and aggregates. */
export function accessColumns(settings: AccessSettings | undefined, now: Date, termIds: Record<string, string>) {
  const a = settings ?? {};
  return {
    termId: a.term ? termIds[a.term] : null,
    isMandatory: a.mandatory ?? false,
    retake: a.retake ?? false,
    dueDate: a.dueOnDay ? utcDay(daysFrom(now, a.dueIn)) : daysFrom(now, a.dueIn),
    availabilityDate: daysFrom(now, a.availableIn),
    availabilityEndDate: daysFrom(now, a.availableUntil),
    gradeRevealPolicy: a.gradeReveal ?? "none",
    gradeRevealDate: daysFrom(now, a.gradeRevealIn),
  };
}

export interface ScaleForGrading {
  maxScore: number;
  normalizedPassingScore: number;
  grades: { id: string; normalizedMinScore: number }[];
}

/**
 * The record fields for a raw score on a scale: normalizedScore = score / maxScore, the grade with the
 * highest normalizedMinScore ≤ normalizedScore, passed = normalizedScore ≥ normalizedPassingScore.
 * A null score (or no scale) gives an unresolved record (passed null).
 */
export function gradeScore(
  scale: ScaleForGrading | null,
  score: number | null,
): {
  score: number | null;
  maxScore: number | null;
  normalizedScore: number | null;
  gradeId: string | null;
  passed: boolean | null;
} {
  if (!scale) return { score: null, maxScore: null, normalizedScore: null, gradeId: null, passed: null };
  if (score === null)
    return { score: null, maxScore: scale.maxScore, normalizedScore: null, gradeId: null, passed: null };
  const normalizedScore = score / scale.maxScore;
  let best: { id: string; normalizedMinScore: number } | null = null;
  for (const g of scale.grades)
    if (g.normalizedMinScore <= normalizedScore && (!best || g.normalizedMinScore > best.normalizedMinScore)) best = g;
  return {
    score,
    maxScore: scale.maxScore,
    normalizedScore,
    gradeId: best?.id ?? null,
    passed: normalizedScore >= scale.normalizedPassingScore,
  };
}

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
// Progress through the activities
// ---------------------------------------------------------------------------------------------

type WorkflowRow = typeof s.objectiveWorkflows.$inferInsert;
type AwRow = typeof s.activityWorkflows.$inferInsert;
type RecRow = typeof s.activityRecords.$inferInsert;
type SessionRow = typeof s.proctoringSessions.$inferInsert;
type Leaf = CourseLeaf & { partId: string };

/** Score variation between activities of one attempt, so not every activity has the same ratio. */
const JITTER = [0, 0.1, -0.1, 0.05, -0.05, 0.15, -0.15];
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Activity workflows and records for one objective workflow. In progress: the leaves marked `done`
 * plus the next required startable leaves in tree order, until finished / required ≈ progress, and
 * one more leaf in progress. Submitted and later: every startable leaf finished; manually graded
 * leaves wait in grading (no score) until the course is graded (state 4 on).
 */
function progressRows(
  wf: WorkflowRow & { id: string; userId: string; state: ObjectiveWorkflowState; progress: number },
  leaves: Leaf[],
  record: { score: number | null; maxScore: number | null } | null,
  now: Date,
) {
  const aws: AwRow[] = [];
  const records: RecRow[] = [];
  const required = leaves.filter((l) => !l.optional && l.state !== ObjectiveState.archived);
  let finished: Leaf[];
  let inProgress: Leaf | null = null;
  if (wf.state === ObjectiveWorkflowState.inProgress) {
    const target = Math.round(wf.progress * required.length);
    const chosen = new Set(leaves.filter((l) => l.done && l.startable));
    let count = required.filter((l) => chosen.has(l)).length;
    for (const l of required) {
      if (count >= target) break;
      if (!l.startable || l.missed || chosen.has(l)) continue;
      chosen.add(l);
      count++;
    }
    finished = leaves.filter((l) => chosen.has(l));
    inProgress = required.find((l) => l.startable && !l.missed && !chosen.has(l)) ?? null;
  } else {
    finished = leaves.filter((l) => l.startable);
  }
  // Tree order, except that leaves with a closing date come first: they were finished before it.
  const closes = (l: Leaf) => l.deadline ?? Number.MAX_SAFE_INTEGER;
  finished = [...finished].sort((a, b) => closes(a) - closes(b));

  const ratio = record && record.score !== null && record.maxScore ? record.score / record.maxScore : 0.85;
  const unresolved = !!record && record.score === null;
  const start = (wf.started ?? new Date(now.getTime() - 7 * DAY_MS)).getTime();
  const end = Math.max(start + HOUR_MS, (wf.submitted ?? new Date(now.getTime() - HOUR_MS)).getTime());
  const steps = finished.length + (inProgress ? 1 : 0);
  const slot = (end - start) / Math.max(1, steps);
  finished.forEach((leaf, i) => {
    const started = new Date(start + slot * i + 5 * MINUTE_MS);
    const done = new Date(Math.min(started.getTime() + Math.min(slot * 0.8, 50 * MINUTE_MS), end));
    const awaitingGrade = leaf.manualGrading && wf.state < ObjectiveWorkflowState.graded;
    const id = crypto.randomUUID();
    aws.push({
      id,
      objectiveWorkflowId: wf.id,
      activityPartId: leaf.partId,
      userId: wf.userId,
      state: awaitingGrade ? ActivityWorkflowState.inGrading : ActivityWorkflowState.finished,
      started,
      finished: done,
    });
    let score: number | null = null;
    if (leaf.maxScore !== null && !awaitingGrade && !(unresolved && leaf.manualGrading)) {
      score = Math.round(leaf.maxScore * clamp01(ratio + JITTER[i % JITTER.length]));
    }
    records.push({
      activityWorkflowId: id,
      objectiveWorkflowId: wf.id,
      activityPartId: leaf.partId,
      userId: wf.userId,
      score,
      maxScore: leaf.maxScore,
      passed: score === null || leaf.maxScore === null ? null : score / leaf.maxScore >= 0.6,
      finished: done,
    });
  });
  if (inProgress) {
    aws.push({
      id: crypto.randomUUID(),
      objectiveWorkflowId: wf.id,
      activityPartId: inProgress.partId,
      userId: wf.userId,
      state: ActivityWorkflowState.inProgress,
      started: new Date(start + slot * finished.length + 5 * MINUTE_MS),
      finished: null,
      resume:
        inProgress.contentType === ActivityContentType.PublicFile
          ? { page: 3 }
          : inProgress.contentType === ActivityContentType.Vimeo
            ? { seconds: 41 }
            : null,
    });
  }
  // Spec 4.8: a proctored activity's sitting. Submitted attempts were reviewed by the proctor; an
  // attempt still in progress had its session end (completed) before it was submitted — the proctor
  // lock of docs/decisions/010-proctor-lock.md.
  const sessions: SessionRow[] = [];
  for (const aw of aws) {
    const leaf = leaves.find((l) => l.partId === aw.activityPartId);
    if (!leaf?.proctored || !aw.started) continue;
    const created = new Date((aw.started as Date).getTime() + MINUTE_MS);
    const completed = aw.finished
      ? (aw.finished as Date)
      : new Date(Math.min(created.getTime() + 100 * MINUTE_MS, now.getTime() - MINUTE_MS));
    sessions.push({
      id: crypto.randomUUID(),
      activityWorkflowId: aw.id!,
      userId: wf.userId,
      state:
        wf.state === ObjectiveWorkflowState.inProgress
          ? ProctoringSessionState.completed
          : ProctoringSessionState.reviewed,
      created,
      completed,
    });
  }
  return { aws, records, sessions };
}

async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
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
          const progress = progressRows(workflow, course.leaves, graded, now);
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

// ---------------------------------------------------------------------------------------------
// createLearner: a fresh learner for a browser test (decision 014)
// ---------------------------------------------------------------------------------------------

/** The test-support endpoint's body: a demo user to be like, and/or enrolments of its own. */
export const learnerRequestSchema = z.strictObject({
  /** A demo user (users.json) whose account settings and recipe the learner gets. */
  like: z.string().optional(),
  /** Enrolments besides the ones `like` brings (same shape as learners/<user>.json). */
  enrolments: z.array(enrolmentSchema).max(100).optional(),
  firstName: z.string().trim().min(1).max(100).optional(),
  lastName: z.string().trim().min(1).max(100).optional(),
  timezone: z.string().trim().min(1).max(100).nullable().optional(),
  /**
   * Licensed features other than the demo tenant's (e.g. `{ "calendar": false }`): the learner gets
   * a tenant of its own — a copy of the demo tenant's settings, features and units, no courses — so
   * a browser test can see what a tenant without a feature sees (spec 2.10's 501 page).
   */
  features: z.record(z.string().regex(/^[A-Za-z]{1,40}$/), z.boolean()).optional(),
  /** Another test learner whose groups (team, mini-group) this one joins, instead of copies of `like`'s. */
  joinGroupsOf: z.uuid().optional(),
});
export type LearnerRequest = z.output<typeof learnerRequestSchema>;

export interface CreatedLearner {
  id: string;
  email: string;
  password: string;
  name: string;
  /** The reinforcement questions the recipe scheduled (the e-mail answer page's tests open their links). */
  reinforcement: { id: string; options: { id: string; text: string }[]; correctAnswer: string }[];
}

/** A learner without a `like`: the demo tenant's first unit, the Learner role and the LMS licence. */
function plainLearner(unit: string): Omit<DemoUserDef, "email"> {
  return {
    firstName: "Test",
    lastName: "Learner",
    roles: ["Learner"],
    licences: ["LMS"],
    department: unit,
    units: [unit],
  };
}

/** A new tenant with the settings, features (some overridden) and units of `fromId`; its id. */
async function copyTenant(db: Db, fromId: string, features: Record<string, boolean>): Promise<string> {
  return db.transaction(async (tx) => {
    const suffix = randomBytes(6).toString("hex");
    const [tenant] = await tx
      .insert(s.tenants)
      .values({ name: `Test tenant ${suffix}`, domain: `tenant-${suffix}.example.com` })
      .returning({ id: s.tenants.id });
    const [settings, known, units] = await Promise.all([
      tx.select().from(s.settings).where(eq(s.settings.tenantId, fromId)),
      tx.select().from(s.features).where(eq(s.features.tenantId, fromId)),
      tx.select({ name: s.units.name }).from(s.units).where(eq(s.units.tenantId, fromId)),
    ]);
    if (settings.length) await tx.insert(s.settings).values(settings.map((row) => ({ ...row, tenantId: tenant.id })));
    const merged = new Map(known.map((row) => [row.name, row.enabled]));
    for (const [name, enabled] of Object.entries(features)) merged.set(name, enabled);
    if (merged.size) {
      await tx
        .insert(s.features)
        .values([...merged].map(([name, enabled]) => ({ tenantId: tenant.id, name, enabled })));
    }
    if (units.length) await tx.insert(s.units).values(units.map((u) => ({ tenantId: tenant.id, name: u.name })));
    return tenant.id;
  });
}

/**
 * Creates a learner in the demo tenant with a random e-mail address and password: a copy of the
 * `like` demo user's account (roles, licences, units, time zone) and recipe, plus `enrolments`.
 * Throws a DemoContentError naming the field for an unknown user, course or term.
 */
export async function createLearner(db: Db, request: LearnerRequest, now: Date = new Date()): Promise<CreatedLearner> {
  const content = demoContent();
  const where = "request body";
  if (request.like !== undefined && !Object.hasOwn(content.users, request.like)) {
    throw new DemoContentError(
      where,
      "like",
      `unknown demo user "${request.like}" (users of users.json: ${Object.keys(content.users).join(", ")})`,
    );
  }
  const persona: Omit<DemoUserDef, "email"> = request.like
    ? content.users[request.like]
    : plainLearner(content.tenant.units[0]);
  const liked = request.like ? content.learners[request.like] : undefined;
  const recipe = checkRecipe(
    content,
    {
      enrolments: [...(liked?.enrolments ?? []), ...(request.enrolments ?? [])],
      ...(liked?.reinforcement ? { reinforcement: liked.reinforcement } : {}),
    },
    where,
  );
  const [tenant] = await db
    .select({ id: s.tenants.id })
    .from(s.tenants)
    .where(eq(s.tenants.domain, content.tenant.domain))
    .limit(1);
  if (!tenant) throw new Error(`createLearner: the demo tenant (${content.tenant.domain}) is not seeded`);
  if (request.features && recipe.enrolments.length > 0) {
    throw new DemoContentError(where, "features", "a learner of a tenant of its own has no courses to be enrolled in");
  }
  if (request.features) tenant.id = await copyTenant(db, tenant.id, request.features);
  const units = await db
    .select({ id: s.units.id, name: s.units.name })
    .from(s.units)
    .where(eq(s.units.tenantId, tenant.id));
  const password = randomBytes(12).toString("base64url");
  const email = `${request.like ?? "learner"}-${randomBytes(6).toString("hex")}@example.com`;
  const firstName = request.firstName ?? persona.firstName;
  const lastName = request.lastName ?? persona.lastName;
  const passwordHash = await hashPassword(password);
  const id = await db.transaction(async (tx) => {
    const userId = await insertUser(tx, {
      tenantId: tenant.id,
      user: {
        ...persona,
        email,
        firstName,
        lastName,
        timezone: request.timezone === undefined ? persona.timezone : request.timezone,
      },
      passwordHash,
      unitIds: Object.fromEntries(units.map((u) => [u.name, u.id])),
    });
    await applyLearnerRecipes(tx, { tenantId: tenant.id, now, learners: [{ userId, recipe }] });
    // The `like` user's groups, as groups of the new learner's own (the demo user's place taken by
    // the learner): every test learner like ada has a mini-group of four, and no group grows.
    if (request.joinGroupsOf) {
      // A teammate (decision 026): the new learner joins every group of that test learner instead.
      const theirs = await tx
        .select({ groupId: s.groupMembers.groupId })
        .from(s.groupMembers)
        .innerJoin(s.groups, eq(s.groups.id, s.groupMembers.groupId))
        .where(and(eq(s.groupMembers.userId, request.joinGroupsOf), eq(s.groups.tenantId, tenant.id)));
      if (theirs.length === 0) throw new DemoContentError("request", "joinGroupsOf", "that learner has no groups");
      await tx.insert(s.groupMembers).values(theirs.map((g) => ({ groupId: g.groupId, userId })));
    } else if (request.like) {
      const groups = (content.tenant.groups ?? []).filter((g) => g.members.includes(request.like!));
      const { insertGroup } = await import("./seed-groups");
      for (const g of groups) {
        const others = g.members.filter((m) => m !== request.like).map((m) => content.users[m].email);
        const memberIds = others.length
          ? await tx
              .select({ id: s.users.id })
              .from(s.users)
              .where(and(eq(s.users.tenantId, tenant.id), inArray(s.users.email, others)))
          : [];
        await insertGroup(tx, tenant.id, content, g, [userId, ...memberIds.map((m) => m.id)]);
      }
    }
    return userId;
  });
  const reinforcement = await db
    .select({
      id: s.reinforcementWorkflows.id,
      options: s.reinforcementWorkflows.options,
      correctAnswer: s.reinforcementWorkflows.correctAnswer,
    })
    .from(s.reinforcementWorkflows)
    .where(eq(s.reinforcementWorkflows.userId, id))
    .orderBy(s.reinforcementWorkflows.dueAt, s.reinforcementWorkflows.id);
  return { id, email, password, name: `${firstName} ${lastName}`, reinforcement };
}
