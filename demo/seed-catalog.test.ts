import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../api/db/client";
import { openTestDatabase } from "../tests/fixtures/database";
import * as s from "../api/db/schema";
import { seedDemo } from "./seed";
import { readSettings } from "../api/settings";
import { BIG_CODE_PATTERN, seedBig } from "./seed-big";
import {
  CATALOG_SLUGS,
  COVER_SLUGS,
  DEMO_CERTIFICATE_PDF,
  TERMS,
  catalogSeededAt,
  seedCatalog,
  type CatalogSlug,
} from "./seed-catalog";
import { isCertificateExpired } from "../domain/certificates";
import { ObjectiveWorkflowState, ObjectiveState, IN_PROGRESS_FILTER_STATES } from "../domain/vocabulary";

const NOW = new Date("2026-06-01T12:00:00Z");
/**
 * The `now` the catalog was seeded with: NOW when this file's seedCatalog call inserted it, the real
 * clock when seedDemo had already seeded it. Relative dates ("due 3 days ago") are checked against it.
 */
let ref: Date;

let database: Database;
let tenantId: string;
let userIds: Record<"ada" | "grace" | "admin" | "rita", string>;
let objectiveIds: Record<CatalogSlug, string>;

beforeAll(async () => {
  database = await openTestDatabase();
  ({ tenantId, userIds } = await seedDemo(database.db));
  ({ objectiveIds } = await seedCatalog(database.db, { tenantId, userIds, now: NOW }));
  ref = (await catalogSeededAt(database.db, tenantId))!;
});

afterAll(async () => {
  await database?.close();
});

const db = () => database.db;

type Course = typeof s.objectives.$inferSelect;
type Aggregate = typeof s.objectiveWorkflowAggregates.$inferSelect;
type Workflow = typeof s.objectiveWorkflows.$inferSelect;
type ObjectiveRecord = typeof s.objectiveRecords.$inferSelect;

async function load() {
  const [courses, aggregates, workflows, records, accesses] = await Promise.all([
    db().select().from(s.objectives).where(eq(s.objectives.tenantId, tenantId)),
    db().select().from(s.objectiveWorkflowAggregates).where(eq(s.objectiveWorkflowAggregates.tenantId, tenantId)),
    db().select().from(s.objectiveWorkflows),
    db().select().from(s.objectiveRecords),
    db().select().from(s.objectiveAccesses).where(eq(s.objectiveAccesses.tenantId, tenantId)),
  ]);
  return { courses, aggregates, workflows, records, accesses };
}

/** Spec 4.11 course progress filter. */
function progressOf(a: Aggregate, workflows: Map<string, Workflow>): "notStarted" | "inProgress" | "completed" | null {
  const wf = a.lastWorkflowId ? workflows.get(a.lastWorkflowId) : undefined;
  if (!wf) return a.lastRecordId ? "completed" : "notStarted";
  if (IN_PROGRESS_FILTER_STATES.includes(wf.state as ObjectiveWorkflowState)) return "inProgress";
  if (wf.state === ObjectiveWorkflowState.finished) return "completed";
  return null;
}

describe("seedCatalog", () => {
  it("returns a slug → id map for every course", async () => {
    expect(Object.keys(objectiveIds).sort()).toEqual([...CATALOG_SLUGS].sort());
    const { courses } = await load();
    const ids = new Set(courses.map((c) => c.id));
    for (const slug of CATALOG_SLUGS) expect(ids.has(objectiveIds[slug]), slug).toBe(true);
  });

  it("seeds a varied catalog of at least 34 courses", async () => {
    const { courses } = await load();
    expect(courses.length).toBeGreaterThanOrEqual(34);
    const byState = (state: number) => courses.filter((c) => c.state === state).length;
    expect(byState(1)).toBeGreaterThanOrEqual(2);
    expect(byState(2)).toBeGreaterThanOrEqual(20);
    expect(byState(3)).toBeGreaterThanOrEqual(2);
    expect(byState(4)).toBeGreaterThanOrEqual(2);
    expect(courses.some((c) => c.state === ObjectiveState.ready && c.activityState === ObjectiveState.archived)).toBe(
      true,
    );
    expect(new Set(courses.map((c) => c.presentationMode))).toEqual(new Set([0, 1, 2, 3]));
    expect(new Set(courses.map((c) => c.activityKind))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    expect(new Set(courses.map((c) => c.type))).toEqual(new Set(Array.from({ length: 15 }, (_, i) => i)));
  });

  it("covers names, descriptions, HTML and flags the UI needs", async () => {
    const { courses } = await load();
    const some = (f: (c: Course) => boolean) => courses.filter(f).length;
    expect(some((c) => c.name.length > 120)).toBeGreaterThanOrEqual(1);
    expect(some((c) => /[\u0600-\u06FF]/.test(c.name))).toBeGreaterThanOrEqual(2);
    expect(some((c) => /[\u3040-\u30FF]/.test(c.name))).toBeGreaterThanOrEqual(1);
    expect(some((c) => /[äöüß]/.test(c.name))).toBeGreaterThanOrEqual(1);
    expect(some((c) => c.description.length > 70)).toBeGreaterThanOrEqual(5);
    expect(some((c) => c.description.length < 70)).toBeGreaterThanOrEqual(5);
    expect(some((c) => /<script/i.test(c.about))).toBeGreaterThanOrEqual(1);
    expect(some((c) => /onerror=/i.test(c.about))).toBeGreaterThanOrEqual(1);
    expect(courses.every((c) => c.code.length === 6)).toBe(true);
    expect(new Set(courses.map((c) => c.code)).size).toBe(courses.length);
    const covered = courses.filter((c) => c.imageUrl !== null);
    expect(covered.length).toBe(COVER_SLUGS.length);
    expect(covered.length / courses.length).toBeGreaterThan(0.35);
    expect(covered.length / courses.length).toBeLessThan(0.65);
    for (const c of covered) expect(c.imageUrl).toMatch(/^\/learn\/covers\/[a-z0-9-]+\.svg$/);
    const publicReady = some((c) => c.isPublic && c.state === ObjectiveState.ready);
    expect(publicReady).toBeGreaterThanOrEqual(8);
    expect(some((c) => c.isPublic && c.state !== ObjectiveState.ready)).toBe(0);
    expect(some((c) => c.inCatalog && !c.allowSelfEnrollment)).toBeGreaterThanOrEqual(3);
    expect(some((c) => c.announcementChannelId !== null)).toBe(2);
    // The cyber security exam (ada finished it) and the data protection exam (her session has ended).
    expect(some((c) => c.proctored)).toBe(2);
    expect(some((c) => !c.supportReview)).toBe(1);
    expect(some((c) => c.enableAiTutor)).toBeGreaterThanOrEqual(2);
  });

  it("seeds scales, collections, terms and filter categories", async () => {
    const scales = await db().select().from(s.gradingScales).where(eq(s.gradingScales.tenantId, tenantId));
    expect(scales.map((x) => x.name).sort()).toEqual(["Pass/Fail", "Percent (pass 60%)", "Points 0–20"]);
    const grades = await db().select().from(s.grades);
    for (const scale of scales) {
      const own = grades.filter((g) => g.gradingScaleId === scale.id);
      expect(own.some((g) => g.normalizedMinScore === 0)).toBe(true);
      expect(own.every((g) => /^#[0-9A-F]{6}$/i.test(g.color))).toBe(true);
      expect(own.some((g) => g.id === scale.passingGradeId)).toBe(true);
    }
    const showcases = await db().select().from(s.showcases).where(eq(s.showcases.tenantId, tenantId));
    expect(showcases).toHaveLength(5);
    const links = await db().select().from(s.objectiveShowcases);
    for (const sc of showcases)
      expect(links.filter((l) => l.showcaseId === sc.id).length, sc.name).toBeGreaterThanOrEqual(3);
    const perCourse = new Map<string, number>();
    for (const l of links) perCourse.set(l.objectiveId, (perCourse.get(l.objectiveId) ?? 0) + 1);
    expect([...perCourse.values()].some((n) => n >= 2)).toBe(true);
    expect(Object.values(objectiveIds).some((id) => !perCourse.has(id))).toBe(true);

    const terms = await db().select().from(s.terms).where(eq(s.terms.tenantId, tenantId));
    expect(terms.map((t) => t.name).sort()).toEqual(Object.values(TERMS).sort());
    const { accesses, aggregates } = await load();
    const used = new Set([...accesses, ...aggregates].map((a) => a.termId).filter(Boolean));
    const archive = terms.find((t) => t.name === TERMS.archive)!;
    expect(used.has(archive.id)).toBe(false);
    for (const t of terms.filter((x) => x.id !== archive.id)) expect(used.has(t.id), t.name).toBe(true);

    const categories = await db().select().from(s.filterCategories).where(eq(s.filterCategories.tenantId, tenantId));
    expect(categories.map((c) => c.name).sort()).toEqual(["Format", "Language", "Level"]);
    const [{ n }] = await db().select({ n: count() }).from(s.objectiveAttributes);
    expect(n).toBeGreaterThanOrEqual(CATALOG_SLUGS.length * 3);
  });

  it("grants catalog and public courses to the tenant and assigns ada's mandatory courses", async () => {
    const { courses, accesses } = await load();
    const tenantWide = accesses.filter((a) => a.userId === null);
    for (const c of courses.filter((x) => x.inCatalog || x.isPublic)) {
      expect(
        tenantWide.filter((a) => a.objectiveId === c.id),
        c.name,
      ).toHaveLength(1);
    }
    expect(new Set(tenantWide.map((a) => a.gradeRevealPolicy))).toEqual(
      new Set(["none", "never", "afterFinish", "afterDate"]),
    );
    const afterDate = tenantWide
      .filter((a) => a.gradeRevealPolicy === "afterDate")
      .map((a) => a.gradeRevealDate!.getTime());
    expect(afterDate.some((t) => t < ref.getTime())).toBe(true);
    expect(afterDate.some((t) => t > ref.getTime())).toBe(true);
    expect(tenantWide.some((a) => a.retake)).toBe(true);
    const assigned = accesses.filter((a) => a.userId === userIds.ada && a.isMandatory);
    expect(assigned.length).toBeGreaterThanOrEqual(3);
    expect(assigned.some((a) => a.dueDate && a.dueDate < ref)).toBe(true);
  });

  it("gives ada every progress state and card footer case", async () => {
    const { courses, aggregates, workflows, records } = await load();
    const wfById = new Map(workflows.map((w) => [w.id, w]));
    const courseById = new Map(courses.map((c) => [c.id, c]));
    const ada = aggregates.filter((a) => a.userId === userIds.ada);
    const listed = ada.filter((a) => courseById.get(a.objectiveId)!.activityState !== ObjectiveState.archived);
    expect(listed.length).toBeGreaterThanOrEqual(14);
    expect(ada.length - listed.length).toBeGreaterThanOrEqual(1);

    const progress = new Set(listed.map((a) => progressOf(a, wfById)));
    for (const p of ["notStarted", "inProgress", "completed"] as const) expect(progress.has(p), p).toBe(true);
    const states = new Set(listed.map((a) => a.lastWorkflowState));
    for (const st of [null, 1, 2, 3, 4, 5, 6]) expect(states.has(st), String(st)).toBe(true);

    const notStarted = listed.filter((a) => a.lastWorkflowId === null && a.lastRecordId === null);
    expect(notStarted.some((a) => a.availabilityDate && a.availabilityDate > ref)).toBe(true);
    expect(notStarted.some((a) => !a.availabilityDate && a.dueDate)).toBe(true);
    expect(notStarted.some((a) => !a.availabilityDate && !a.dueDate)).toBe(true);
    expect(notStarted.some((a) => a.availabilityEndDate && a.availabilityEndDate < ref)).toBe(true);
    const inProgress = listed
      .filter((a) => a.lastWorkflowState === 1)
      .map((a) => wfById.get(a.lastWorkflowId!)!.progress);
    expect(inProgress).toEqual(expect.arrayContaining([0.35, 0.8]));
    const inGrading = listed.find((a) => a.lastWorkflowState === 3)!;
    expect(wfById.get(inGrading.lastWorkflowId!)!.submitted).not.toBeNull();

    const recordById = new Map(records.map((r) => [r.id, r]));
    const finished = listed.filter((a) => a.lastWorkflowState === 6);
    const last = (a: Aggregate) => recordById.get(a.lastRecordId!)!;
    expect(finished.some((a) => last(a).passed === true && last(a).gradeId !== null)).toBe(true);
    expect(finished.some((a) => last(a).passed === null)).toBe(true);
    const retakeFailed = finished.find((a) => last(a).passed === false && a.retake)!;
    expect(retakeFailed).toBeDefined();
    const attempts = workflows.filter((w) => w.aggregateId === retakeFailed.id).sort((x, y) => x.attempt - y.attempt);
    expect(attempts.map((w) => w.attempt)).toEqual([1, 2]);
    expect(recordById.get(attempts[0].objectiveRecordId!)!.passed).toBe(false);
    expect(finished.some((a) => a.gradeRevealPolicy === "afterDate" && a.gradeRevealDate! > ref)).toBe(true);
    expect(listed.some((a) => a.gradeRevealPolicy === "never" && a.lastWorkflowState === 6)).toBe(true);

    const imported = listed.filter((a) => a.lastWorkflowId === null && a.lastRecordId !== null);
    expect(imported.length).toBeGreaterThanOrEqual(1);
    for (const a of imported) expect(last(a).imported).toBe(true);

    expect(listed.filter((a) => a.isMandatory).length).toBeGreaterThanOrEqual(3);
    expect(listed.some((a) => a.isMandatory && a.dueDate && a.dueDate < ref)).toBe(true);
    expect(listed.some((a) => a.termId !== null)).toBe(true);

    const selfEnrolled = ada.filter((a) => a.isSelfEnrolled);
    expect(selfEnrolled.length).toBeGreaterThanOrEqual(3);
    const rows = await db().select().from(s.selfEnrollments).where(eq(s.selfEnrollments.userId, userIds.ada));
    expect(rows.map((r) => r.aggregateId).sort()).toEqual(selfEnrolled.map((a) => a.id).sort());
    for (const r of rows)
      expect(r.objectiveAccessId).toBe(selfEnrolled.find((a) => a.id === r.aggregateId)!.objectiveAccessId);
  });

  it("gives grace 3 enrolments, admin 1 and rita none", async () => {
    const { aggregates } = await load();
    const of = (user: keyof typeof userIds) => aggregates.filter((a) => a.userId === userIds[user]);
    expect(of("grace")).toHaveLength(3);
    expect(of("grace").some((a) => a.lastWorkflowState === 1)).toBe(true);
    expect(of("grace").some((a) => a.lastWorkflowState === 6)).toBe(true);
    expect(of("admin")).toHaveLength(1);
    expect(of("rita")).toHaveLength(0);
  });

  it("keeps aggregates consistent with their access, workflows and records", async () => {
    const { aggregates, workflows, records, accesses } = await load();
    checkConsistency(aggregates, workflows, records, accesses);
  });

  it("issues one certificate per finished, passed attempt of a course with a template, with random grouped numbers", async () => {
    const [certs, templates, { courses, records }] = await Promise.all([
      db().select().from(s.certificateRecords),
      db().select().from(s.certificateTemplates).where(eq(s.certificateTemplates.tenantId, tenantId)),
      load(),
    ]);
    expect(templates.length).toBeGreaterThanOrEqual(3);
    const templateById = new Map(templates.map((t) => [t.id, t]));
    const courseById = new Map(courses.map((c) => [c.id, c]));
    const recordById = new Map(records.map((r) => [r.id, r]));
    const earning = records.filter(
      (r) => r.passed === true && r.finished !== null && courseById.get(r.objectiveId)?.certificateTemplateId,
    );
    expect(certs.map((c) => c.objectiveRecordId).sort()).toEqual(earning.map((r) => r.id).sort());
    for (const c of certs) {
      const record = recordById.get(c.objectiveRecordId)!;
      const template = templateById.get(c.certificateTemplateId!)!;
      expect(courseById.get(c.objectiveId)!.certificateTemplateId).toBe(template.id);
      expect([c.userId, c.objectiveId]).toEqual([record.userId, record.objectiveId]);
      expect(c.templateName).toBe(template.name);
      expect(c.created.getTime()).toBe(record.finished!.getTime());
      expect(c.expirationDate?.getTime() ?? null).toBe(
        template.validityDays === null ? null : c.created.getTime() + template.validityDays * 86_400_000,
      );
      expect(c.certificateNumber).toMatch(/^LA(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
    }
    expect(new Set(certs.map((c) => c.certificateNumber)).size).toBe(certs.length);
    expect(new Set(certs.map((c) => c.statusListIndex)).size).toBe(certs.length);

    // ada: SQL Fundamentals certified twice — the first certificate has expired, the second is valid, both with the demo PDF.
    const sql = certs
      .filter((c) => c.userId === userIds.ada && c.objectiveId === objectiveIds["sql-fundamentals"])
      .sort((a, b) => a.created.getTime() - b.created.getTime());
    expect(sql.map((c) => isCertificateExpired(c.expirationDate, ref))).toEqual([true, false]);
    expect(sql.every((c) => c.certificatePdfUrl === DEMO_CERTIFICATE_PDF.url)).toBe(true);
    // A template without validity: grace's workshop certificate never expires.
    const workshop = certs.find((c) => c.userId === userIds.grace && c.objectiveId === objectiveIds["leading-teams"]);
    expect(workshop?.expirationDate).toBeNull();
    // Failed attempts earn nothing (ada's two Machine Learning attempts).
    expect(certs.some((c) => c.objectiveId === objectiveIds["ml-intro"] && c.userId === userIds.ada)).toBe(false);
  });

  it("opens the demo tutor course's widget expanded (spec 3 widgetSettings, tenant.json tutorWidget)", async () => {
    const tutor = (await readSettings(db(), tenantId))["learner.tutor"];
    expect(tutor.enabled).toBe(true);
    expect(tutor.widgetSettings).toEqual([{ objectiveId: objectiveIds["python-basics"], initialExpanded: true }]);
  });

  it("reads back the time the catalog was seeded with", () => {
    expect(ref).toBeInstanceOf(Date);
    expect(Math.abs(ref.getTime() - NOW.getTime()) < 1000 || Math.abs(ref.getTime() - Date.now()) < 3_600_000).toBe(
      true,
    );
  });

  it("is idempotent", async () => {
    const before = await load();
    const again = await seedCatalog(db(), { tenantId, userIds });
    expect(again.objectiveIds).toEqual(objectiveIds);
    const after = await load();
    expect(after.courses.length).toBe(before.courses.length);
    expect(after.aggregates.length).toBe(before.aggregates.length);
    expect(after.accesses.length).toBe(before.accesses.length);
  });
});

function checkConsistency(
  aggregates: Aggregate[],
  workflows: Workflow[],
  records: ObjectiveRecord[],
  accesses: (typeof s.objectiveAccesses.$inferSelect)[],
): void {
  const wfById = new Map(workflows.map((w) => [w.id, w]));
  const recordById = new Map(records.map((r) => [r.id, r]));
  const accessById = new Map(accesses.map((a) => [a.id, a]));
  for (const a of aggregates) {
    const wf = a.lastWorkflowId ? wfById.get(a.lastWorkflowId) : undefined;
    if (a.lastWorkflowId) expect(wf, a.id).toBeDefined();
    expect(a.lastWorkflowState).toBe(wf ? wf.state : null);
    if (wf) {
      expect(wf.aggregateId).toBe(a.id);
      const latest = Math.max(...workflows.filter((w) => w.aggregateId === a.id).map((w) => w.attempt));
      expect(wf.attempt).toBe(latest);
      expect(a.lastRecordId).toBe(wf.objectiveRecordId);
    }
    if (a.lastRecordId) expect(recordById.get(a.lastRecordId)!.aggregateId).toBe(a.id);
    const access = accessById.get(a.objectiveAccessId!)!;
    expect(access.objectiveId).toBe(a.objectiveId);
    expect(access.userId === null || access.userId === a.userId).toBe(true);
    expect({
      termId: a.termId,
      isMandatory: a.isMandatory,
      retake: a.retake,
      dueDate: a.dueDate,
      availabilityDate: a.availabilityDate,
      availabilityEndDate: a.availabilityEndDate,
      gradeRevealPolicy: a.gradeRevealPolicy,
      gradeRevealDate: a.gradeRevealDate,
    }).toEqual({
      termId: access.termId,
      isMandatory: access.isMandatory,
      retake: access.retake,
      dueDate: access.dueDate,
      availabilityDate: access.availabilityDate,
      availabilityEndDate: access.availabilityEndDate,
      gradeRevealPolicy: access.gradeRevealPolicy,
      gradeRevealDate: access.gradeRevealDate,
    });
  }
  for (const w of workflows) {
    expect(w.started).not.toBeNull();
    expect(w.submitted === null).toBe(w.state < 2);
    expect(w.finished === null).toBe(w.state !== ObjectiveWorkflowState.finished);
    expect(w.objectiveRecordId === null).toBe(w.state < 2);
    expect(w.progress).toBeGreaterThanOrEqual(0);
    expect(w.progress).toBeLessThanOrEqual(1);
    if (w.objectiveRecordId) expect(recordById.get(w.objectiveRecordId)!.workflowId).toBe(w.id);
  }
  for (const r of records) {
    if (r.score === null) {
      expect(r.normalizedScore).toBeNull();
      expect(r.passed).toBeNull();
    } else {
      expect(r.maxScore).toBeGreaterThan(0);
      expect(r.normalizedScore).toBeCloseTo(r.score / r.maxScore!, 10);
    }
    expect(r.imported).toBe(r.workflowId === null);
  }
}

describe("seedBig", () => {
  it("adds courses and enrolments in batches and is idempotent", async () => {
    const lines: string[] = [];
    const first = await seedBig(db(), {
      courses: 200,
      aggregates: 50,
      batchSize: 64,
      now: NOW,
      log: (l) => lines.push(l),
    });
    expect(first).toMatchObject({ skipped: false, tenantId, courses: 200, aggregates: 50 });
    expect(lines.some((l) => l.includes("courses: 200/200"))).toBe(true);

    const [{ n: big }] = await db()
      .select({ n: count() })
      .from(s.objectives)
      .where(and(eq(s.objectives.tenantId, tenantId), sql`${s.objectives.code} ~ ${BIG_CODE_PATTERN}`));
    expect(big).toBe(200);
    const [{ n: wide }] = await db()
      .select({ n: count() })
      .from(s.objectiveAccesses)
      .innerJoin(s.objectives, eq(s.objectives.id, s.objectiveAccesses.objectiveId))
      .where(and(isNull(s.objectiveAccesses.userId), sql`${s.objectives.code} ~ ${BIG_CODE_PATTERN}`));
    expect(wide).toBe(200);

    const { courses, aggregates, workflows, records, accesses } = await load();
    expect(courses.length).toBe(CATALOG_SLUGS.length + 200);
    const bigIds = new Set(courses.filter((c) => new RegExp(BIG_CODE_PATTERN).test(c.code)).map((c) => c.id));
    const adaBig = aggregates.filter((a) => a.userId === userIds.ada && bigIds.has(a.objectiveId));
    expect(adaBig).toHaveLength(50);
    expect(new Set(adaBig.map((a) => a.lastWorkflowState)).size).toBeGreaterThanOrEqual(4);
    checkConsistency(aggregates, workflows, records, accesses);

    const second = await seedBig(db(), { courses: 200, aggregates: 50, now: NOW, log: () => {} });
    expect(second.skipped).toBe(true);
    const after = await load();
    expect(after.courses.length).toBe(courses.length);
    expect(after.aggregates.length).toBe(aggregates.length);
  });

  it("seeds an empty database from scratch", async () => {
    const fresh = await openTestDatabase();
    try {
      const result = await seedBig(fresh.db, { courses: 30, aggregates: 10, log: () => {} });
      expect(result).toMatchObject({ skipped: false, courses: 30, aggregates: 10 });
      const [{ n }] = await fresh.db.select({ n: count() }).from(s.objectives);
      expect(n).toBe(CATALOG_SLUGS.length + 30);
    } finally {
      await fresh.close();
    }
  });
});
