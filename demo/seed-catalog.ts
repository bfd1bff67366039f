/**
 * The demo catalog of the demo tenant, from the data files under demo/data/ (demo-content.ts reads
 * them): grading scales, collections, terms, filter categories, the courses with their accesses and
 * activity trees, and the demo users' enrolments (their recipes, applied by seed-learners.ts).
 *
 * Content is fixed and deterministic; dates are relative to `now` so "due in 5 days" or
 * "finished 10 days ago" stay meaningful whenever the seed runs. Row ids are random uuids.
 * Idempotent: when the tenant already has the catalog's courses (matched by course code), it
 * inserts nothing and returns the existing folder name → id map.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../api/db/client";
import * as s from "../api/db/schema";
import { demoContent, type CourseDef } from "./demo-content";
import type { DemoUser, GradingScaleDef } from "./content/schemas";
import { rootChildrenCount, seedActivities, type Tx } from "./seed-activities";
import { applyLearnerRecipes } from "./seed-learners";
import { accessColumns } from "./recipe-values";
import { seedHubMessages } from "./seed-hub";
import { courseColumns, coverUrl } from "./course-columns";

export type { Tx };
export { daysFrom, gradeScore, type ScaleForGrading } from "./recipe-values";

/** A course's key in the data files: its folder name under demo/data/courses/ ("python-basics"). */
export type CatalogSlug = string;
export type { DemoUser };

/** The demo certificate PDF written by make-demo-pdf.ts (ada's SQL Fundamentals certificates link it). */
export const DEMO_CERTIFICATE_PDF = { url: "/learn/demo/certificate-sql-fundamentals.pdf" } as const;

export { coverUrl };

// The catalog of the data files (reading this module loads them; seed.ts imports it only to seed).
const content = demoContent();
/** The catalog's courses in creation order (the oldest first). */
const CATALOG_COURSES: readonly CourseDef[] = content.courses;
/** Folder names of the catalog's courses, in creation order. */
export const CATALOG_SLUGS: readonly CatalogSlug[] = CATALOG_COURSES.map((c) => c.slug);
/** Course codes by folder name: the stable key used to find the catalog again (idempotency). */
const CATALOG_CODES: Readonly<Record<CatalogSlug, string>> = Object.fromEntries(
  CATALOG_COURSES.map((c) => [c.slug, c.code]),
);
/** Folder names of the courses with a cover at /learn/covers/<folder>.svg. */
export const COVER_SLUGS: readonly CatalogSlug[] = CATALOG_COURSES.flatMap((c) => (c.cover ? [c.slug] : []));
/** Term names by key (catalog.json). */
export const TERMS: Readonly<Record<string, string>> = content.terms;
/** Grading scales by key (catalog.json). */
export const GRADING_SCALES: Readonly<Record<string, GradingScaleDef>> = content.gradingScales;

/** Finds the catalog courses of a tenant by code; empty when the catalog is not seeded. */
export async function findCatalog(db: Db | Tx, tenantId: string): Promise<Partial<Record<CatalogSlug, string>>> {
  const codes = CATALOG_CODES;
  const rows = await (db as Db)
    .select({ id: s.objectives.id, code: s.objectives.code })
    .from(s.objectives)
    .where(and(eq(s.objectives.tenantId, tenantId), inArray(s.objectives.code, Object.values(codes))));
  const byCode = new Map(rows.map((r) => [r.code, r.id]));
  const out: Partial<Record<CatalogSlug, string>> = {};
  for (const slug of CATALOG_SLUGS) {
    const id = byCode.get(codes[slug]);
    if (id) out[slug] = id;
  }
  return out;
}

const DAY_MS = 86_400_000;

/**
 * The `now` a tenant's catalog was seeded with (null when it is not seeded), read back from the
 * due date of python-basics' catalog access. Tests that did not seed the catalog themselves (seedDemo
 * seeds it with the real clock) compare relative dates against this.
 */
export async function catalogSeededAt(db: Db | Tx, tenantId: string): Promise<Date | null> {
  const course = CATALOG_COURSES.find((c) => c.slug === "python-basics");
  const dueIn = course?.access?.dueIn;
  if (!course || dueIn === undefined) return null;
  const [row] = await (db as Db)
    .select({ dueDate: s.objectiveAccesses.dueDate })
    .from(s.objectiveAccesses)
    .innerJoin(s.objectives, eq(s.objectives.id, s.objectiveAccesses.objectiveId))
    .where(
      and(eq(s.objectives.tenantId, tenantId), eq(s.objectives.code, course.code), isNull(s.objectiveAccesses.userId)),
    )
    .limit(1);
  return row?.dueDate ? new Date(row.dueDate.getTime() - dueIn * DAY_MS) : null;
}

/**
 * Seeds the demo catalog and the demo users' enrolments into `tenantId`, in one transaction.
 * `userIds` maps demo user keys (users.json) to their ids; the users among them with a recipe
 * (learners/<user>.json) get their enrolments. Safe to call again: when the catalog's courses
 * already exist it inserts nothing. Accepts the database or an open transaction (then it runs in a
 * savepoint).
 */
export async function seedCatalog(
  db: Db | Tx,
  input: { tenantId: string; userIds: Record<DemoUser, string>; now?: Date },
): Promise<{ objectiveIds: Record<CatalogSlug, string> }> {
  const { tenantId, userIds } = input;
  const now = input.now ?? new Date();
  const uuid = () => crypto.randomUUID();

  return (db as Db).transaction(async (tx) => {
    const existing = await findCatalog(tx, tenantId);
    if (Object.keys(existing).length > 0) return { objectiveIds: existing as Record<CatalogSlug, string> };

    // Grading scales and grades.
    const scaleRows: (typeof s.gradingScales.$inferInsert)[] = [];
    const gradeRows: (typeof s.grades.$inferInsert)[] = [];
    const scaleIds: Record<string, string> = {};
    for (const [key, def] of Object.entries(content.gradingScales)) {
      const id = uuid();
      const grades = def.grades.map((g) => ({ ...g, id: uuid(), gradingScaleId: id }));
      scaleRows.push({
        id,
        tenantId,
        name: def.name,
        description: def.description,
        maxScore: def.maxScore,
        normalizedPassingScore: def.normalizedPassingScore,
        passingGradeId: grades.find((g) => g.name === def.passingGrade)?.id ?? null,
      });
      gradeRows.push(...grades);
      scaleIds[key] = id;
    }
    await tx.insert(s.gradingScales).values(scaleRows);
    await tx.insert(s.grades).values(gradeRows);

    // Certificate templates of the courses that issue one.
    const templateIds: Record<CatalogSlug, string> = {};
    const templateRows: (typeof s.certificateTemplates.$inferInsert)[] = [];
    for (const c of content.courses) {
      if (!c.certificate) continue;
      templateIds[c.slug] = uuid();
      templateRows.push({ id: templateIds[c.slug], tenantId, ...c.certificate });
    }
    if (templateRows.length) await tx.insert(s.certificateTemplates).values(templateRows);

    // Collections, terms, filter categories and attributes.
    const showcaseIds = Object.fromEntries(Object.keys(content.collections).map((k) => [k, uuid()]));
    await tx
      .insert(s.showcases)
      .values(Object.entries(content.collections).map(([k, name]) => ({ id: showcaseIds[k], tenantId, name })));
    const termIds = Object.fromEntries(Object.keys(content.terms).map((k) => [k, uuid()]));
    await tx
      .insert(s.terms)
      .values(Object.entries(content.terms).map(([k, name]) => ({ id: termIds[k], tenantId, name })));
    const categoryRows: (typeof s.filterCategories.$inferInsert)[] = [];
    const attributeRows: (typeof s.filterAttributes.$inferInsert)[] = [];
    const attributeIds: Record<string, string> = {};
    for (const [name, attributes] of Object.entries(content.filterCategories)) {
      const categoryId = uuid();
      categoryRows.push({ id: categoryId, tenantId, name });
      for (const attribute of attributes) {
        attributeIds[attribute] = uuid();
        attributeRows.push({ id: attributeIds[attribute], categoryId, name: attribute });
      }
    }
    await tx.insert(s.filterCategories).values(categoryRows);
    await tx.insert(s.filterAttributes).values(attributeRows);

    // Courses and their links.
    const courses = content.courses;
    const objectiveIds = Object.fromEntries(courses.map((c) => [c.slug, uuid()])) as Record<CatalogSlug, string>;
    await tx.insert(s.objectives).values(
      courses.map((c, i) => ({
        id: objectiveIds[c.slug],
        tenantId,
        ...courseColumns(c, rootChildrenCount(c)),
        announcementChannelId: c.announcements ? uuid() : null,
        gradingScaleId: c.gradingScale ? scaleIds[c.gradingScale] : null,
        certificateTemplateId: templateIds[c.slug] ?? null,
        // Staggered creation times so "newest first" orderings are stable.
        createdAt: new Date(now.getTime() - (courses.length - i) * 3_600_000),
      })),
    );
    await tx
      .insert(s.objectiveShowcases)
      .values(
        courses.flatMap((c) =>
          c.collections.map((k) => ({ objectiveId: objectiveIds[c.slug], showcaseId: showcaseIds[k] })),
        ),
      );
    await tx
      .insert(s.objectiveAttributes)
      .values(
        courses.flatMap((c) =>
          c.attributes.map((a) => ({ objectiveId: objectiveIds[c.slug], attributeId: attributeIds[a] })),
        ),
      );

    // One tenant-wide access per catalog or public course (the demo users' assignments come with their recipes).
    await tx.insert(s.objectiveAccesses).values(
      courses
        .filter((c) => (c.inCatalog ?? true) || c.isPublic)
        .map((c) => ({
          id: uuid(),
          tenantId,
          objectiveId: objectiveIds[c.slug],
          userId: null,
          ...accessColumns(c.access, now, termIds),
        })),
    );

    await seedActivities(tx, { tenantId, objectiveIds, now, userIds });
    await seedReinforcementQuestions(tx, content, objectiveIds);
    await seedHubMessages(tx, { tenantId, courses, objectiveIds, userIds, now });
    await applyLearnerRecipes(tx, {
      tenantId,
      now,
      learners: Object.entries(content.learners).flatMap(([user, recipe]) =>
        userIds[user] ? [{ userId: userIds[user], recipe }] : [],
      ),
    });
    return { objectiveIds };
  });
}

/** The question banks of reinforcement.json, on the activities they are about (one query, one insert). */
async function seedReinforcementQuestions(
  tx: Tx,
  content: ReturnType<typeof demoContent>,
  objectiveIds: Record<string, string>,
) {
  const slugs = Object.keys(content.reinforcement).filter((slug) => objectiveIds[slug]);
  if (slugs.length === 0) return;
  const acts = await tx
    .select({ id: s.activities.id, name: s.activities.name, objectiveId: s.activityParts.objectiveId })
    .from(s.activityParts)
    .innerJoin(s.activities, eq(s.activities.id, s.activityParts.activityId))
    .where(
      inArray(
        s.activityParts.objectiveId,
        slugs.map((slug) => objectiveIds[slug]),
      ),
    );
  const rows = slugs.flatMap((slug) =>
    content.reinforcement[slug].map((q, i) => {
      const activity = acts.find((a) => a.objectiveId === objectiveIds[slug] && a.name === q.activity)!;
      const options = q.options.map((text, j) => ({ id: String.fromCharCode(97 + j), text }));
      return {
        activityId: activity.id,
        position: i,
        question: q.question,
        options,
        correctAnswer: options[q.correct].id,
        feedback: q.feedback,
      };
    }),
  );
  if (rows.length) await tx.insert(s.reinforcementQuestions).values(rows);
}
