/**
 * A big demo database for performance checks: the demo seed plus 10,000 extra catalog courses and
 * 1,000 enrolments for ada.
 *
 *   npx tsx demo/seed-big.ts [--data-dir DIR] [--courses N] [--aggregates N]
 *
 * DIR defaults to $DATA_DIR, else ./data-big; the PGlite database lives in DIR/pglite (like the
 * server's). Safe to run again: the demo seed runs only on an empty database, the catalog seed only
 * when its courses are missing, and the big courses only when none exist yet (counted by their
 * code pattern, two characters and four digits such as "DE0042", which the catalog never uses).
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { openDatabase, type Db } from "../api/db/client";
import * as s from "../api/db/schema";
import { demoContent } from "./demo-content";
import { seedDemo } from "./seed";
import {
  COVER_SLUGS,
  GRADING_SCALES,
  coverUrl,
  daysFrom,
  gradeScore,
  seedCatalog,
  type DemoUser,
  type ScaleForGrading,
  type Tx,
} from "./seed-catalog";
import {
  ObjectiveState,
  ActivityKind,
  ActivityType,
  ObjectiveWorkflowState,
  type GradeRevealPolicy,
  type DisplayMode,
  type PresentationMode,
} from "../domain/vocabulary";

export interface SeedBigOptions {
  /** Extra catalog courses (default 10,000). */
  courses?: number;
  /** Extra enrolments for ada on those courses (default 1,000; at most `courses`). */
  aggregates?: number;
  /** Rows per INSERT statement (default 1,000). */
  batchSize?: number;
  now?: Date;
  /** Progress lines; default console.log. */
  log?: (line: string) => void;
}

export interface SeedBigResult {
  /** True when the big courses already existed and nothing was inserted. */
  skipped: boolean;
  tenantId: string;
  courses: number;
  aggregates: number;
  workflows: number;
  records: number;
  elapsedMs: number;
}

/** Big courses' code pattern (PostgreSQL regex); catalog codes have a dash. */
export const BIG_CODE_PATTERN = "^[A-Z0-9]{2}[0-9]{4}$";

// ---------------------------------------------------------------------------------------------
// Word lists
// ---------------------------------------------------------------------------------------------

const PREFIXES = [
  "Introduction to",
  "Fundamentals of",
  "Practical",
  "Advanced",
  "Applied",
  "Mastering",
  "Essentials of",
  "Hands-on",
  "Modern",
  "Foundations of",
  "Effective",
  "Understanding",
];
const TOPICS: [string, string][] = [
  ["Data Engineering", "DE"],
  ["Machine Learning", "ML"],
  ["Cloud Security", "CS"],
  ["Project Management", "PM"],
  ["Public Speaking", "PS"],
  ["Financial Modelling", "FM"],
  ["Supply Chain Analytics", "SC"],
  ["UX Research", "UX"],
  ["Kubernetes", "K8"],
  ["Negotiation", "NG"],
  ["Time Management", "TM"],
  ["Business Writing", "BW"],
  ["Customer Success", "CU"],
  ["Digital Marketing", "DM"],
  ["Agile Delivery", "AG"],
  ["SQL Performance", "SQ"],
  ["Risk Management", "RM"],
  ["Design Systems", "DS"],
  ["Conflict Resolution", "CR"],
  ["Data Privacy", "DP"],
  ["React Development", "RE"],
  ["Statistics", "ST"],
  ["Team Leadership", "TL"],
  ["Accessibility", "AX"],
  ["Network Fundamentals", "NF"],
  ["Sales Coaching", "SA"],
  ["Product Discovery", "PD"],
  ["Excel Modelling", "XL"],
  ["Cyber Hygiene", "CH"],
  ["Quality Assurance", "QA"],
  ["Sustainability Reporting", "SR"],
  ["Rust Programming", "RU"],
  ["Interviewing", "IN"],
  ["Data Visualisation", "DV"],
  ["Procurement", "PR"],
  ["Incident Response", "IR"],
  ["Change Management", "CM"],
  ["Prompt Engineering", "PE"],
  ["Mobile Development", "MD"],
  ["Ethics at Work", "EW"],
];
const SUFFIXES = [
  "",
  "",
  "",
  "for Beginners",
  "for Managers",
  "for Analysts",
  "in Practice",
  "at Scale",
  "for Teams",
  "with Python",
  "Workshop",
  "Bootcamp",
  "Masterclass",
];
const EDITIONS = ["", "", "", "II", "III", "(2026 Edition)"];
const FORMATS = ["self-paced", "instructor-led", "blended"];
const OUTCOMES = [
  "apply the core ideas to your own work",
  "avoid the most common mistakes",
  "explain the trade-offs to your stakeholders",
  "build a small project from scratch",
  "pass the end-of-course assessment with confidence",
];
const KIND_TYPES: [ActivityKind, ActivityType][] = [
  [ActivityKind.composite, ActivityType.Composite],
  [ActivityKind.composite, ActivityType.Composite],
  [ActivityKind.composite, ActivityType.Composite],
  [ActivityKind.lti, ActivityType.Scorm],
  [ActivityKind.lti, ActivityType.CodingLabs],
  [ActivityKind.lti, ActivityType.JupyterLabs],
  [ActivityKind.lti, ActivityType.Assessment],
  [ActivityKind.text, ActivityType.RichText],
  [ActivityKind.event, ActivityType.Classroom],
  [ActivityKind.video, ActivityType.PublicFiles],
  [ActivityKind.discussion, ActivityType.ClassDiscussion],
];

/** Deterministic pseudo-random numbers (mulberry32), so every run makes the same data. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  return { next, int, pick };
}

async function batched<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Names of the terms the demo data gives a course: by a catalog access or a demo learner's assignment. */
function usedTermNames(): Set<string> {
  const content = demoContent();
  const keys = [
    ...content.courses.map((c) => c.access?.term),
    ...Object.values(content.learners).flatMap((r) => r.enrolments.map((e) => e.assigned?.term)),
  ];
  return new Set(keys.flatMap((key) => (key ? [content.terms[key]] : [])));
}

// ---------------------------------------------------------------------------------------------
// seedBig
// ---------------------------------------------------------------------------------------------

/** Finds (or seeds) the demo tenant and its users. */
async function demoTenant(db: Db): Promise<{ tenantId: string; userIds: Record<DemoUser, string> }> {
  const { tenant: demo, users: demoUsers } = demoContent();
  const [tenant] = await db
    .select({ id: s.tenants.id })
    .from(s.tenants)
    .where(eq(s.tenants.domain, demo.domain))
    .limit(1);
  if (!tenant) {
    const [any] = await db.select({ n: count() }).from(s.tenants);
    if (any.n > 0) throw new Error(`seed-big: the database has tenants but not the demo tenant (${demo.domain})`);
    return seedDemo(db);
  }
  const emails = Object.values(demoUsers).map((u) => u.email);
  const users = await db
    .select({ id: s.users.id, email: s.users.email })
    .from(s.users)
    .where(and(eq(s.users.tenantId, tenant.id), inArray(s.users.email, emails)));
  const userIds = {} as Record<DemoUser, string>;
  for (const [key, u] of Object.entries(demoUsers)) {
    const row = users.find((r) => r.email === u.email);
    if (!row) throw new Error(`seed-big: demo user ${u.email} is missing`);
    userIds[key] = row.id;
  }
  return { tenantId: tenant.id, userIds };
}

export async function seedBig(db: Db, opts: SeedBigOptions = {}): Promise<SeedBigResult> {
  const started = performance.now();
  const courseCount = opts.courses ?? 10_000;
  const aggregateCount = Math.min(opts.aggregates ?? 1_000, courseCount);
  const batchSize = opts.batchSize ?? 1_000;
  const now = opts.now ?? new Date();
  const log = opts.log ?? ((line: string) => console.log(line));
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

  const { tenantId, userIds } = await demoTenant(db);
  await seedCatalog(db, { tenantId, userIds, now });

  const [{ n: existingBig }] = await db
    .select({ n: count() })
    .from(s.objectives)
    .where(and(eq(s.objectives.tenantId, tenantId), sql`${s.objectives.code} ~ ${BIG_CODE_PATTERN}`));
  if (existingBig > 0) {
    log(`[seed-big] ${existingBig} big courses already present: nothing to do (${elapsed()})`);
    return {
      skipped: true,
      tenantId,
      courses: 0,
      aggregates: 0,
      workflows: 0,
      records: 0,
      elapsedMs: performance.now() - started,
    };
  }

  // Reference data made by seedCatalog.
  const [showcaseRows, termRows, attributeRows, scaleRows, gradeRows] = await Promise.all([
    db.select({ id: s.showcases.id }).from(s.showcases).where(eq(s.showcases.tenantId, tenantId)),
    db.select({ id: s.terms.id, name: s.terms.name }).from(s.terms).where(eq(s.terms.tenantId, tenantId)),
    db
      .select({ id: s.filterAttributes.id, categoryId: s.filterAttributes.categoryId })
      .from(s.filterAttributes)
      .innerJoin(s.filterCategories, eq(s.filterCategories.id, s.filterAttributes.categoryId))
      .where(eq(s.filterCategories.tenantId, tenantId)),
    db.select().from(s.gradingScales).where(eq(s.gradingScales.tenantId, tenantId)),
    db
      .select({
        id: s.grades.id,
        gradingScaleId: s.grades.gradingScaleId,
        normalizedMinScore: s.grades.normalizedMinScore,
      })
      .from(s.grades)
      .innerJoin(s.gradingScales, eq(s.gradingScales.id, s.grades.gradingScaleId))
      .where(eq(s.gradingScales.tenantId, tenantId)),
  ]);
  // Terms the demo data gives courses only: a term it leaves empty (the "archive" term) must stay empty.
  const termIds = termRows.filter((t) => usedTermNames().has(t.name)).map((t) => t.id);
  const attributesByCategory = new Map<string, string[]>();
  for (const a of attributeRows)
    attributesByCategory.set(a.categoryId, [...(attributesByCategory.get(a.categoryId) ?? []), a.id]);
  const scaleNames = new Set(Object.values(GRADING_SCALES).map((g) => g.name));
  const scales = new Map<string, ScaleForGrading>(
    scaleRows
      .filter((r) => scaleNames.has(r.name))
      .map((r) => [
        r.id,
        {
          maxScore: r.maxScore,
          normalizedPassingScore: r.normalizedPassingScore,
          grades: gradeRows.filter((g) => g.gradingScaleId === r.id),
        },
      ]),
  );
  const scaleIds = [...scales.keys()];

  const rnd = prng(20_260_601);
  const uuid = () => crypto.randomUUID();

  // Courses, links and tenant-wide accesses.
  const objectiveRows: (typeof s.objectives.$inferInsert)[] = [];
  const showcaseLinks: (typeof s.objectiveShowcases.$inferInsert)[] = [];
  const attributeLinks: (typeof s.objectiveAttributes.$inferInsert)[] = [];
  const accessRows: (typeof s.objectiveAccesses.$inferInsert)[] = [];
  for (let i = 0; i < courseCount; i++) {
    const [topic, prefix] = TOPICS[i % TOPICS.length];
    const name = [rnd.pick(PREFIXES), topic, rnd.pick(SUFFIXES), rnd.pick(EDITIONS)].filter(Boolean).join(" ");
    const r = rnd.next();
    const state =
      r < 0.9
        ? ObjectiveState.ready
        : r < 0.94
          ? ObjectiveState.draft
          : r < 0.97
            ? ObjectiveState.expired
            : ObjectiveState.archived;
    const [kind, type] = rnd.pick(KIND_TYPES);
    const format = rnd.pick(FORMATS);
    const id = uuid();
    objectiveRows.push({
      id,
      tenantId,
      name,
      code: `${prefix}${String(i % 10_000).padStart(4, "0")}`,
      description:
        rnd.next() < 0.5
          ? `A ${format} course on ${topic.toLowerCase()}.`
          : `A ${format} course on ${topic.toLowerCase()} that helps you ${rnd.pick(OUTCOMES)} and ${rnd.pick(OUTCOMES)}.`,
      about: `<p>${name} is a ${format} course.</p><ul><li>${rnd.pick(OUTCOMES)}</li><li>${rnd.pick(OUTCOMES)}</li></ul>`,
      imageUrl: rnd.next() < 0.3 ? coverUrl(rnd.pick(COVER_SLUGS)) : null,
      state,
      type,
      activityKind: kind,
      activityState: state,
      childrenCount: kind === ActivityKind.composite ? 2 + rnd.int(12) : kind === ActivityKind.lti ? 1 : 0,
      presentationMode: rnd.int(4) as PresentationMode,
      displayMode: (1 + rnd.int(3)) as DisplayMode,
      proctored: type === ActivityType.Assessment && rnd.next() < 0.3,
      supportReview: rnd.next() > 0.05,
      enableAiTutor: rnd.next() < 0.1,
      gradingScaleId: kind === ActivityKind.text || scaleIds.length === 0 ? null : rnd.pick(scaleIds),
      inCatalog: true,
      isPublic: state === ObjectiveState.ready && rnd.next() < 0.1,
      allowSelfEnrollment: rnd.next() > 0.05,
      createdAt: new Date(now.getTime() - (courseCount - i) * 60_000),
    });
    for (const showcase of showcaseRows)
      if (rnd.next() < 0.3) showcaseLinks.push({ objectiveId: id, showcaseId: showcase.id });
    for (const ids of attributesByCategory.values())
      if (rnd.next() < 0.85) attributeLinks.push({ objectiveId: id, attributeId: rnd.pick(ids) });
    const revealRoll = rnd.next();
    const reveal: GradeRevealPolicy =
      revealRoll < 0.8 ? "none" : revealRoll < 0.85 ? "never" : revealRoll < 0.95 ? "afterFinish" : "afterDate";
    accessRows.push({
      id: uuid(),
      tenantId,
      objectiveId: id,
      userId: null,
      termId: termIds.length > 0 && rnd.next() < 0.3 ? rnd.pick(termIds) : null,
      retake: rnd.next() < 0.3,
      dueDate: rnd.next() < 0.15 ? daysFrom(now, rnd.int(120) - 30) : null,
      availabilityDate: rnd.next() < 0.05 ? daysFrom(now, 1 + rnd.int(60)) : null,
      availabilityEndDate: rnd.next() < 0.05 ? daysFrom(now, rnd.int(200) - 100) : null,
      gradeRevealPolicy: reveal,
      gradeRevealDate: reveal === "afterDate" ? daysFrom(now, rnd.int(60) - 30) : null,
    });
  }

  // ada's enrolments on distinct big courses.
  const adaId = userIds.ada;
  const order = objectiveRows.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rnd.int(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const aggregateRows: (typeof s.objectiveWorkflowAggregates.$inferInsert)[] = [];
  const selfRows: (typeof s.selfEnrollments.$inferInsert)[] = [];
  const workflowRows: (typeof s.objectiveWorkflows.$inferInsert)[] = [];
  const recordRows: (typeof s.objectiveRecords.$inferInsert)[] = [];
  for (const index of order.slice(0, aggregateCount)) {
    const course = objectiveRows[index];
    const objectiveId = course.id!;
    const scale = course.gradingScaleId ? (scales.get(course.gradingScaleId) ?? null) : null;
    const aggregateId = uuid();
    let access = accessRows[index];
    const mandatory = rnd.next() < 0.2;
    if (mandatory) {
      access = { ...access, id: uuid(), userId: adaId, isMandatory: true, dueDate: daysFrom(now, rnd.int(90) - 30) };
      accessRows.push(access);
    }
    // none / inProgress / submitted / inGrading / graded / gradingApproved / finished / imported.
    const roll = rnd.next();
    const state =
      roll < 0.25
        ? null
        : roll < 0.45
          ? ObjectiveWorkflowState.inProgress
          : roll < 0.5
            ? ObjectiveWorkflowState.submitted
            : roll < 0.55
              ? ObjectiveWorkflowState.inGrading
              : roll < 0.6
                ? ObjectiveWorkflowState.graded
                : roll < 0.65
                  ? ObjectiveWorkflowState.gradingApproved
                  : roll < 0.95
                    ? ObjectiveWorkflowState.finished
                    : "imported";
    const attempts =
      state === ObjectiveWorkflowState.finished && rnd.next() < 0.1
        ? 2
        : state === null || state === "imported"
          ? 0
          : 1;
    let lastWorkflowId: string | null = null;
    let lastWorkflowState: ObjectiveWorkflowState | null = null;
    let lastRecordId: string | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      // attempts > 0 only for a workflow state (not null, not "imported").
      const wfState = attempt < attempts ? ObjectiveWorkflowState.finished : (state as ObjectiveWorkflowState);
      const workflowId = uuid();
      const startedAgo = 5 + rnd.int(200) + (attempts - attempt) * 60;
      const submittedAgo = Math.max(0, startedAgo - 1 - rnd.int(5));
      const progress = wfState === ObjectiveWorkflowState.inProgress ? Math.round(rnd.next() * 100) / 100 : 1;
      const hasRecord = wfState >= ObjectiveWorkflowState.submitted;
      const recordId = hasRecord ? uuid() : null;
      const finished = wfState === ObjectiveWorkflowState.finished ? daysFrom(now, -submittedAgo) : null;
      workflowRows.push({
        id: workflowId,
        aggregateId,
        userId: adaId,
        objectiveId,
        attempt,
        state: wfState,
        progress,
        started: daysFrom(now, -startedAgo),
        submitted: wfState >= ObjectiveWorkflowState.submitted ? daysFrom(now, -submittedAgo) : null,
        finished,
        objectiveRecordId: recordId,
      });
      if (recordId) {
        // Previous attempts failed; no score yet while submitted / in grading, and 5% of finished ones stay unresolved.
        const scored =
          wfState >= ObjectiveWorkflowState.graded &&
          (wfState !== ObjectiveWorkflowState.finished || rnd.next() > 0.05);
        const ratio = attempt < attempts ? rnd.next() * 0.4 : rnd.next();
        const score = scored && scale ? Math.round(ratio * scale.maxScore * 100) / 100 : null;
        recordRows.push({
          id: recordId,
          aggregateId,
          workflowId,
          userId: adaId,
          objectiveId,
          ...gradeScore(scale, score),
          finished,
          progress,
        });
      }
      lastWorkflowId = workflowId;
      lastWorkflowState = wfState;
      lastRecordId = recordId;
    }
    if (state === "imported") {
      const recordId = uuid();
      const score = scale ? Math.round((0.5 + rnd.next() * 0.5) * scale.maxScore * 100) / 100 : null;
      recordRows.push({
        id: recordId,
        aggregateId,
        workflowId: null,
        userId: adaId,
        objectiveId,
        ...gradeScore(scale, score),
        finished: daysFrom(now, -(30 + rnd.int(300))),
        progress: 1,
        imported: true,
      });
      lastRecordId = recordId;
    }
    // Without a workflow, record or assignment the course only shows in My courses when self-enrolled.
    const selfEnrolled = !mandatory && (state === null || rnd.next() < 0.5);
    aggregateRows.push({
      id: aggregateId,
      tenantId,
      userId: adaId,
      objectiveId,
      objectiveAccessId: access.id,
      termId: access.termId,
      isMandatory: access.isMandatory ?? false,
      isSelfEnrolled: selfEnrolled,
      retake: access.retake ?? false,
      dueDate: access.dueDate,
      availabilityDate: access.availabilityDate,
      availabilityEndDate: access.availabilityEndDate,
      gradeRevealPolicy: access.gradeRevealPolicy ?? "none",
      gradeRevealDate: access.gradeRevealDate,
      lastWorkflowId,
      lastRecordId,
      lastWorkflowState,
    });
    if (selfEnrolled) selfRows.push({ id: uuid(), userId: adaId, objectiveAccessId: access.id!, aggregateId });
  }
  log(`[seed-big] generated ${objectiveRows.length} courses and ${aggregateRows.length} enrolments (${elapsed()})`);

  await db.transaction(async (tx: Tx) => {
    const steps: [string, unknown[], (chunk: never[]) => Promise<unknown>][] = [
      ["courses", objectiveRows, (c) => tx.insert(s.objectives).values(c)],
      ["collection links", showcaseLinks, (c) => tx.insert(s.objectiveShowcases).values(c)],
      ["attribute links", attributeLinks, (c) => tx.insert(s.objectiveAttributes).values(c)],
      ["accesses", accessRows, (c) => tx.insert(s.objectiveAccesses).values(c)],
      ["aggregates", aggregateRows, (c) => tx.insert(s.objectiveWorkflowAggregates).values(c)],
      ["self-enrolments", selfRows, (c) => tx.insert(s.selfEnrollments).values(c)],
      ["workflows", workflowRows, (c) => tx.insert(s.objectiveWorkflows).values(c)],
      ["records", recordRows, (c) => tx.insert(s.objectiveRecords).values(c)],
    ];
    for (const [label, rows, insert] of steps) {
      let done = 0;
      await batched(rows as never[], batchSize, async (chunk) => {
        await insert(chunk);
        done += chunk.length;
        if (rows.length > batchSize) log(`[seed-big] ${label}: ${done}/${rows.length} (${elapsed()})`);
      });
      if (rows.length <= batchSize) log(`[seed-big] ${label}: ${rows.length} (${elapsed()})`);
    }
  });

  const elapsedMs = performance.now() - started;
  log(`[seed-big] done in ${(elapsedMs / 1000).toFixed(1)} s`);
  return {
    skipped: false,
    tenantId,
    courses: objectiveRows.length,
    aggregates: aggregateRows.length,
    workflows: workflowRows.length,
    records: recordRows.length,
    elapsedMs,
  };
}

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "data-dir": { type: "string" },
      courses: { type: "string" },
      aggregates: { type: "string" },
    },
  });
  const dataDir = resolve(values["data-dir"] ?? process.env.DATA_DIR ?? "./data-big");
  const started = performance.now();
  const databaseUrl = process.env.DATABASE_URL;
  console.log(`[seed-big] database: ${databaseUrl ? "DATABASE_URL" : resolve(dataDir, "pglite")}`);
  const database = await openDatabase({ databaseUrl, dataDir: resolve(dataDir, "pglite") });
  try {
    await database.migrate();
    await seedBig(database.db, {
      courses: values.courses === undefined ? undefined : Number(values.courses),
      aggregates: values.aggregates === undefined ? undefined : Number(values.aggregates),
    });
    await database.db.execute(sql`analyze`);
  } finally {
    await database.close();
  }
  console.log(`[seed-big] total ${((performance.now() - started) / 1000).toFixed(1)} s (including open and migrate)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
