import { existsSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, count, eq, inArray } from "drizzle-orm";
import type { Database } from "../api/db/client";
import { openTestDatabase } from "../tests/fixtures/database";
import * as s from "../api/db/schema";
import { seedDemo } from "./seed";
import { CATALOG_SLUGS, findCatalog, type CatalogSlug } from "./seed-catalog";
import { CONSTRAINT_FIELDS, HANDBOOK_PDF, LOCK_SHOWCASE_SLUG, seedActivities } from "./seed-activities";
import { CERTIFICATE_PDF_PATH, HANDBOOK_PDF_PATH, buildCertificatePdf, buildHandbookPdf } from "./make-demo-pdf";
import { proctorLocked } from "../domain/proctoring";
import { loadTree } from "../api/queries/activity-tree";
import {
  ObjectiveWorkflowState,
  ProctoringSessionState as P,
  ActivityWorkflowState,
  ObjectiveState,
  ActivityKind,
  ActivityContentType,
} from "../domain/vocabulary";

const DEMO_DIR = fileURLToPath(new URL("../public/demo/", import.meta.url));

let database: Database;
let tenantId: string;
let userIds: Record<"ada" | "grace" | "admin" | "rita", string>;
let objectiveIds: Record<CatalogSlug, string>;
/** Upper bound for "now" as seeded (the seed used the real clock shortly before the tests run). */
let now: Date;

type Course = typeof s.objectives.$inferSelect;
type Part = typeof s.activityParts.$inferSelect;
type Activity = typeof s.activities.$inferSelect;
type Aw = typeof s.activityWorkflows.$inferSelect;
type Rec = typeof s.activityRecords.$inferSelect;
type Workflow = typeof s.objectiveWorkflows.$inferSelect;

let courses: Course[];
let parts: Part[];
let activityById: Map<string, Activity>;
let aws: Aw[];
let recs: Rec[];
let workflows: Workflow[];

beforeAll(async () => {
  database = await openTestDatabase();
  ({ tenantId, userIds } = await seedDemo(database.db));
  objectiveIds = (await findCatalog(database.db, tenantId)) as Record<CatalogSlug, string>;
  // Once seedDemo calls seedActivities this is a no-op (idempotent); until then it seeds.
  await seedActivities(database.db, { tenantId, objectiveIds });
  now = new Date();
  const db = database.db;
  const ids = Object.values(objectiveIds);
  [courses, parts, aws, recs, workflows] = await Promise.all([
    db.select().from(s.objectives).where(inArray(s.objectives.id, ids)),
    db.select().from(s.activityParts).where(inArray(s.activityParts.objectiveId, ids)),
    db.select().from(s.activityWorkflows),
    db.select().from(s.activityRecords),
    db.select().from(s.objectiveWorkflows).where(inArray(s.objectiveWorkflows.objectiveId, ids)),
  ]);
  const acts = await db.select().from(s.activities).where(eq(s.activities.tenantId, tenantId));
  activityById = new Map(acts.map((a) => [a.id, a]));
});

afterAll(async () => {
  await database?.close();
});

const bySlug = (slug: CatalogSlug) => courses.find((c) => c.id === objectiveIds[slug])!;
const partsOf = (objectiveId: string) => parts.filter((p) => p.objectiveId === objectiveId);
const act = (p: Part) => activityById.get(p.activityId)!;
const isLeaf = (p: Part) => act(p).kind !== ActivityKind.composite;
const slugOf = (objectiveId: string) => CATALOG_SLUGS.find((slug) => objectiveIds[slug] === objectiveId)!;

/** Depth-first pre-order of a course's parts, children by `order`. */
function treeOrder(ps: Part[]): Part[] {
  const children = new Map<string | null, Part[]>();
  for (const p of ps) children.set(p.parentPartId, [...(children.get(p.parentPartId) ?? []), p]);
  const out: Part[] = [];
  const walk = (parent: string | null) => {
    for (const p of (children.get(parent) ?? []).sort((a, b) => a.order - b.order)) {
      out.push(p);
      walk(p.id);
    }
  };
  walk(null);
  return out;
}

/** The API's progress rule (api/routes/lifecycle.ts progressOf): done = not in progress, over required non-archived leaves. */
function progressOf(objectiveId: string, workflowId: string): number {
  const awByPart = new Map(aws.filter((a) => a.objectiveWorkflowId === workflowId).map((a) => [a.activityPartId, a]));
  const counted = partsOf(objectiveId).filter(
    (p) => isLeaf(p) && act(p).state !== ObjectiveState.archived && !p.optional,
  );
  const done = counted.filter((p) => {
    const a = awByPart.get(p.id);
    return a && a.state !== ActivityWorkflowState.inProgress;
  });
  return counted.length ? done.length / counted.length : 0;
}

describe("seedActivities", () => {
  it("is idempotent", async () => {
    const db = database.db;
    const [before] = await db.select({ n: count() }).from(s.activities).where(eq(s.activities.tenantId, tenantId));
    await seedActivities(db, { tenantId, objectiveIds });
    const [after] = await db.select({ n: count() }).from(s.activities).where(eq(s.activities.tenantId, tenantId));
    const [awCount] = await db.select({ n: count() }).from(s.activityWorkflows);
    expect(after.n).toBe(before.n);
    expect(awCount.n).toBe(aws.length);
  });

  it("gives every demo course one root part matching its kind and state", () => {
    expect(courses).toHaveLength(CATALOG_SLUGS.length);
    for (const course of courses) {
      const roots = partsOf(course.id).filter((p) => p.parentPartId === null);
      expect(roots, course.code).toHaveLength(1);
      const root = act(roots[0]);
      expect(root.kind, course.code).toBe(course.activityKind);
      expect(root.state, course.code).toBe(course.activityState);
      expect(root.name, course.code).toBe(course.name);
      expect(roots[0].axis).toBe("0");
      const rootChildren = partsOf(course.id).filter((p) => p.parentPartId === roots[0].id);
      expect(course.childrenCount, course.code).toBe(rootChildren.length);
      if (course.activityKind === 3) {
        expect(rootChildren.length, course.code).toBeGreaterThanOrEqual(3);
        expect(root.contentType).toBe(6);
      } else {
        expect(partsOf(course.id), course.code).toHaveLength(1);
      }
    }
  });

  it("uses every activity kind and content type", () => {
    const acts = parts.map(act);
    expect(new Set(acts.map((a) => a.kind))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    expect(new Set(acts.map((a) => a.contentType))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]));
    for (const a of acts) {
      const content = a.content as Record<string, unknown>;
      if (a.contentType === ActivityContentType.Text && a.kind === ActivityKind.text)
        expect(String(content.html)).toMatch(/^<h2>/);
      if (a.contentType === ActivityContentType.Vimeo) expect(String(content.vimeoId)).toMatch(/^\d+$/);
      if (a.contentType === ActivityContentType.PublicFile)
        expect(content).toMatchObject({ url: HANDBOOK_PDF.url, mimeType: "application/pdf", size: HANDBOOK_PDF.size });
      if (a.kind === ActivityKind.event) {
        expect(Date.parse(String(content.startsAt))).toBeLessThan(Date.parse(String(content.endsAt)));
        expect(content.location ?? content.url).toBeTruthy();
        expect(content.timezone).toBeTruthy();
      }
      if (a.kind === ActivityKind.discussion) expect(String(content.prompt).length).toBeGreaterThan(20);
      if (a.kind === ActivityKind.lti && !("scorm" in content) && !("qti" in content))
        expect(a.content).toEqual({
          tool: a.contentType === ActivityContentType.Lti11 ? "demo-lti11" : "demo-lti13",
        });
      if (a.kind === ActivityKind.video) expect(a.duration).toBeGreaterThan(0);
    }
  });

  it("mixes graded, ungraded, optional and manually graded activities", () => {
    const leaves = parts.filter(isLeaf);
    const graded = leaves.filter((p) => act(p).maxScore !== null);
    expect(graded.length).toBeGreaterThan(20);
    expect(leaves.some((p) => act(p).maxScore === null)).toBe(true);
    for (const p of graded) expect([10, 20, 100]).toContain(act(p).maxScore);
    for (const p of parts) expect([1, 2, 3]).toContain(p.scoreWeight);
    expect(leaves.some((p) => p.optional)).toBe(true);
    const manualCourses = new Set(leaves.filter((p) => act(p).manualGrading).map((p) => p.objectiveId));
    expect(manualCourses.size).toBeGreaterThanOrEqual(2);
    const compositesWithLti = courses.filter(
      (c) => c.activityKind === ActivityKind.composite && partsOf(c.id).some((p) => act(p).kind === ActivityKind.lti),
    );
    expect(compositesWithLti.length).toBeGreaterThanOrEqual(2);
    // Nested modules: a composite child of a root with 2+ children.
    expect(
      parts.some(
        (p) =>
          p.parentPartId !== null &&
          act(p).kind === ActivityKind.composite &&
          parts.filter((c) => c.parentPartId === p.id).length >= 2,
      ),
    ).toBe(true);
  });

  it("names the activities of Arabic courses in Arabic", () => {
    for (const slug of ["ml-arabic", "leadership-arabic"] as const) {
      for (const p of partsOf(objectiveIds[slug])) expect(act(p).name, act(p).name).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it("has a composite course with several children for every presentation mode", () => {
    for (const mode of [0, 1, 2, 3]) {
      const withTree = courses.filter(
        (c) =>
          c.presentationMode === mode &&
          c.activityKind === ActivityKind.composite &&
          c.childrenCount >= 4 &&
          c.state === ObjectiveState.ready,
      );
      expect(withTree.length, `mode ${mode}`).toBeGreaterThan(0);
    }
  });

  it("exercises every activity constraint and lock reason in the showcase course", () => {
    const course = bySlug(LOCK_SHOWCASE_SLUG);
    const ps = partsOf(course.id);
    const constraints = ps.map((p) => p.constraint as Record<string, string>);
    for (const field of CONSTRAINT_FIELDS)
      expect(
        constraints.some((c) => c[field] !== undefined),
        field,
      ).toBe(true);
    const t = now.getTime();
    const dates = (field: string) => constraints.filter((c) => c[field]).map((c) => Date.parse(c[field]));
    expect(dates("startFrom").some((d) => d > t)).toBe(true);
    expect(dates("startFrom").some((d) => d < t)).toBe(true);
    expect(dates("startUntil").some((d) => d < t)).toBe(true);
    expect(dates("accessibleUntil").some((d) => d < t)).toBe(true);
    expect(dates("gracePeriodUntil").some((d) => d < t)).toBe(true);
    expect(dates("due").some((d) => d < t)).toBe(true);
    expect(dates("due").some((d) => d > t)).toBe(true);
    const afterDate = constraints.filter(
      (c) => c.reviewPolicy === "afterRevealingResults" && c.resultsDisclosurePolicy === "afterDate",
    );
    expect(afterDate.some((c) => Date.parse(c.resultsDisclosureFrom) > t)).toBe(true);
    expect(afterDate.some((c) => Date.parse(c.resultsDisclosureFrom) < t)).toBe(true);
    expect(new Set(constraints.map((c) => c.reviewPolicy).filter(Boolean))).toEqual(
      new Set(["never", "afterSubmission", "afterRevealingResults"]),
    );
    expect(new Set(constraints.map((c) => c.resultsDisclosurePolicy).filter(Boolean))).toEqual(
      new Set(["never", "afterDate", "afterScore", "afterFinish"]),
    );
    // afterScore applies to LTI activities only (spec 4.12).
    for (const p of ps.filter((x) => (x.constraint as Record<string, string>).resultsDisclosurePolicy === "afterScore"))
      expect(act(p).kind).toBe(2);
    expect(ps.some((p) => act(p).state === ObjectiveState.draft)).toBe(true);
    expect(ps.some((p) => act(p).state === ObjectiveState.archived)).toBe(true);
  });

  it("gives in-progress workflows finished leaves in proportion to their progress", () => {
    const inProgress = workflows.filter((w) => w.state === ObjectiveWorkflowState.inProgress);
    const adaCourses = new Set(inProgress.filter((w) => w.userId === userIds.ada).map((w) => slugOf(w.objectiveId)));
    expect(adaCourses).toEqual(
      new Set(["anti-bribery", "python-basics", "workplace-safety", "negotiation", "privacy-exam"]),
    );
    for (const w of inProgress) {
      const mine = aws.filter((a) => a.objectiveWorkflowId === w.id);
      expect(mine.length, slugOf(w.objectiveId)).toBeGreaterThan(0);
      expect(mine.every((a) => a.userId === w.userId)).toBe(true);
      // Within a quarter, or one activity's share where a course has few (a SCORM course is one activity).
      const counted = partsOf(w.objectiveId).filter(
        (p) => isLeaf(p) && act(p).state !== ObjectiveState.archived && !p.optional,
      ).length;
      expect(Math.abs(progressOf(w.objectiveId, w.id) - w.progress), slugOf(w.objectiveId)).toBeLessThanOrEqual(
        Math.max(0.25, 1 / counted),
      );
      // One activity still in progress, no finish time — or a test she took in the seed, in grading (decision 065).
      expect(
        mine.filter(
          (a) =>
            (a.state === ActivityWorkflowState.inProgress && a.finished === null) ||
            a.state === ActivityWorkflowState.inGrading,
        ).length,
      ).toBe(1);
    }
  });

  it("finishes every startable leaf of submitted and finished workflows", () => {
    const done = workflows.filter((w) => w.state >= 2);
    expect(done.length).toBeGreaterThan(5);
    for (const w of done) {
      expect(progressOf(w.objectiveId, w.id), slugOf(w.objectiveId)).toBe(1);
      for (const a of aws.filter((x) => x.objectiveWorkflowId === w.id)) {
        expect(a.finished).not.toBeNull();
        if (w.submitted) expect(a.finished!.getTime()).toBeLessThanOrEqual(w.submitted.getTime());
        expect(a.started.getTime()).toBeGreaterThanOrEqual(w.started!.getTime());
      }
    }
    // In grading: one manually graded activity waits, without a score.
    const grading = done.filter((w) => w.state === ObjectiveWorkflowState.inGrading);
    expect(grading.length).toBeGreaterThan(0);
    for (const w of grading) {
      const waiting = aws.filter((a) => a.objectiveWorkflowId === w.id && a.state === ActivityWorkflowState.inGrading);
      expect(waiting.length).toBeGreaterThanOrEqual(1);
      for (const a of waiting) {
        const part = parts.find((p) => p.id === a.activityPartId)!;
        expect(act(part).manualGrading).toBe(true);
        expect(recs.find((r) => r.activityWorkflowId === a.id)!.score).toBeNull();
      }
    }
  });

  it("finishes activities before they close and starts them after they open", () => {
    const partById = new Map(parts.map((p) => [p.id, p]));
    const chain = (p: Part): Record<string, string>[] => [
      p.constraint as Record<string, string>,
      ...(p.parentPartId ? chain(partById.get(p.parentPartId)!) : []),
    ];
    let checked = 0;
    for (const a of aws) {
      for (const c of chain(partById.get(a.activityPartId)!)) {
        for (const field of ["accessibleUntil", "gracePeriodUntil", "startUntil"]) {
          if (c[field] && a.finished) {
            expect(a.finished.getTime(), field).toBeLessThanOrEqual(Date.parse(c[field]));
            checked++;
          }
        }
        if (c.startFrom) expect(a.started.getTime()).toBeGreaterThanOrEqual(Date.parse(c.startFrom));
        if (c.startFrom) checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("records scores within each activity's maximum", () => {
    const finishedAws = aws.filter((a) => a.state !== ActivityWorkflowState.inProgress);
    expect(recs).toHaveLength(finishedAws.length);
    for (const r of recs) {
      const part = parts.find((p) => p.id === r.activityPartId)!;
      expect(r.maxScore).toBe(act(part).maxScore);
      if (r.score !== null) {
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(r.maxScore!);
        expect(r.passed).toBe(r.score / r.maxScore! >= 0.6);
      }
    }
    expect(recs.some((r) => r.score !== null && r.score < r.maxScore!)).toBe(true);
  });

  it("sorts every tree by axis in tree order, in JavaScript and in the database", async () => {
    for (const course of courses) {
      const ps = partsOf(course.id);
      const expected = treeOrder(ps).map((p) => p.id);
      expect(expected).toHaveLength(ps.length);
      expect(
        [...ps].sort((a, b) => (a.axis < b.axis ? -1 : a.axis > b.axis ? 1 : 0)).map((p) => p.id),
        course.code,
      ).toEqual(expected);
      const fromDb = await database.db
        .select({ id: s.activityParts.id })
        .from(s.activityParts)
        .where(eq(s.activityParts.objectiveId, course.id))
        .orderBy(asc(s.activityParts.axis));
      expect(
        fromDb.map((r) => r.id),
        course.code,
      ).toEqual(expected);
      const byId = new Map(ps.map((p) => [p.id, p]));
      for (const p of ps) {
        if (!p.parentPartId) continue;
        const parent = byId.get(p.parentPartId)!;
        const seg = String(p.order).padStart(2, "0");
        expect(p.axis).toBe(parent.parentPartId ? `${parent.axis}.${seg}` : seg);
      }
    }
  });

  it("loads through the API's tree reader", async () => {
    const course = bySlug(LOCK_SHOWCASE_SLUG);
    const wf = workflows.find((w) => w.objectiveId === course.id && w.userId === userIds.ada)!;
    const tree = await loadTree(database.db, course.id, wf, true, now);
    expect(tree.rootPathId).toBe(partsOf(course.id).find((p) => p.parentPartId === null)!.id);
    expect(tree.nodes.some((n) => n.childActivity.state === ObjectiveState.archived)).toBe(false);
    const draft = tree.nodes.find((n) => n.childActivity.state === ObjectiveState.draft)!;
    expect(draft.available).toBe(false);
    // A future startFrom is a constraint the client weighs (spec 4.12), not missing content.
    const opensLater = tree.nodes.find(
      (n) => n.constraint.startFrom && Date.parse(n.constraint.startFrom) > now.getTime(),
    )!;
    expect(opensLater.contentAvailable).toBe(true);
    expect(tree.nodes.some((n) => n.childActivity.activityWorkflowAggregate.lastActivityWorkflow?.state === 3)).toBe(
      true,
    );
  });

  it("gives every attempt at a proctored activity a session; ada's data protection exam is proctor-locked, her cyber exam is not", async () => {
    const sessions = await database.db.select().from(s.proctoringSessions);
    const proctoredParts = new Set(parts.filter((p) => act(p).proctored).map((p) => p.id));
    const proctoredAws = aws.filter((a) => proctoredParts.has(a.activityPartId));
    expect(proctoredAws.length).toBeGreaterThanOrEqual(2);
    for (const a of proctoredAws) {
      const session = sessions.find((x) => x.id === a.lastProctoringSessionId);
      expect(session, a.id).toBeDefined();
      expect(session!.activityWorkflowId).toBe(a.id);
      expect(session!.userId).toBe(a.userId);
      expect(session!.created.getTime()).toBeGreaterThanOrEqual(a.started.getTime());
      expect(session!.completed!.getTime()).toBeLessThanOrEqual(now.getTime());
    }
    expect(aws.filter((a) => a.lastProctoringSessionId && !proctoredParts.has(a.activityPartId))).toEqual([]);
    const lockOf = (slug: CatalogSlug) => {
      const wf = workflows.find((w) => w.userId === userIds.ada && w.objectiveId === objectiveIds[slug])!;
      const aw = aws.find((a) => a.objectiveWorkflowId === wf.id && a.lastProctoringSessionId)!;
      const session = sessions.find((x) => x.id === aw.lastProctoringSessionId)!;
      return {
        state: session.state,
        locked: proctorLocked({ workflow: { state: wf.state as ObjectiveWorkflowState }, session }),
      };
    };
    expect(lockOf("privacy-exam")).toEqual({ state: P.completed, locked: true });
    expect(lockOf("cyber-exam")).toEqual({ state: P.reviewed, locked: false });
  });

  it("ships the demo media it links to", () => {
    expect(readFileSync(CERTIFICATE_PDF_PATH).equals(buildCertificatePdf())).toBe(true);
    expect(existsSync(HANDBOOK_PDF_PATH)).toBe(true);
    const bytes = readFileSync(HANDBOOK_PDF_PATH);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.length).toBe(HANDBOOK_PDF.size);
    // The committed file is what the generator writes (regenerate with `npx tsx demo/make-demo-pdf.ts`).
    expect(bytes.equals(buildHandbookPdf())).toBe(true);
    const pageCount = (bytes.toString("latin1").match(/\/Type \/Page\b/g) ?? []).length;
    expect(pageCount).toBeGreaterThanOrEqual(5);
    for (const i of [1, 2, 3, 4]) {
      const file = `${DEMO_DIR}diagram-${i}.svg`;
      expect(statSync(file).size).toBeLessThan(4096);
      expect(readFileSync(file, "utf8")).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    // Every /learn/demo/ reference in the seeded content exists on disk.
    const refs = new Set<string>();
    for (const a of activityById.values()) {
      for (const m of JSON.stringify(a.content).matchAll(/\/learn\/demo\/([\w.-]+)/g)) refs.add(m[1]);
      if (a.imageUrl?.startsWith("/learn/demo/")) refs.add(a.imageUrl.slice("/learn/demo/".length));
    }
    expect(refs.size).toBeGreaterThanOrEqual(5);
    for (const ref of refs) expect(existsSync(`${DEMO_DIR}${ref}`), ref).toBe(true);
  });

  it("indexes the text of every demo PDF page by page, and seeds the tutor course's discussion posts (issue 16 item 5)", async () => {
    const db = database.db;
    const pdfs = [...activityById.values()].filter(
      (a) => (a.content as { mimeType?: string }).mimeType === "application/pdf",
    );
    expect(pdfs.length).toBeGreaterThanOrEqual(3); // the handbook in two courses, the private board pack
    const pages = await db
      .select()
      .from(s.contentPages)
      .where(
        inArray(
          s.contentPages.activityId,
          pdfs.map((a) => a.id),
        ),
      );
    for (const pdf of pdfs) {
      const own = pages.filter((p) => p.activityId === pdf.id).sort((a, b) => a.page - b.page);
      expect(
        own.map((p) => p.page),
        pdf.name,
      ).toEqual([1, 2, 3, 4, 5, 6]);
      const c = pdf.content as { url?: string; path?: string };
      expect(own[0].source).toBe(pdf.contentType === ActivityContentType.PrivateFile ? c.path : c.url);
    }
    const handbook = pdfs.find((a) => (a.content as { url?: string }).url === HANDBOOK_PDF.url)!;
    const page4 = pages.find((p) => p.activityId === handbook.id && p.page === 4)!;
    expect(page4.text).toContain("3. Dates and availability");
    expect(page4.text).toContain("Grace period until: late work is accepted until then");

    const python = objectiveIds[LOCK_SHOWCASE_SLUG];
    const discussion = parts.find(
      (p) => p.objectiveId === python && activityById.get(p.activityId)!.kind === ActivityKind.discussion,
    )!;
    const posts = await db.select().from(s.discussionPosts).where(eq(s.discussionPosts.activityPartId, discussion.id));
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(posts.map((p) => p.userId)).toContain(userIds.grace);
    expect(posts.every((p) => p.createdAt < now)).toBe(true);
  });
});

describe("the demo's hand-ins (decision 048)", () => {
  it("the seeded attempts' assignments are handed in: waiting (one late), and one graded by grace with a comment and a feedback file", async () => {
    const db = database.db;
    const rows = await db.select().from(s.handIns).where(eq(s.handIns.tenantId, tenantId));
    const of = (user: string) => rows.filter((r) => r.userId === (userIds as Record<string, string>)[user]);
    expect(
      of("katherine")
        .map((r) => [r.state, r.late])
        .sort(),
    ).toEqual([
      ["graded", false],
      ["submitted", true],
    ]);
    expect(of("margaret").map((r) => r.state)).toEqual(["submitted"]);
    expect(of("ada").every((r) => r.state === "submitted")).toBe(true);
    expect(of("ada").length).toBeGreaterThanOrEqual(1);
    const graded = of("katherine").find((r) => r.state === "graded")!;
    expect(graded).toMatchObject({ releasedBy: userIds.grace, comment: expect.stringMatching(/clear structure/i) });
    const files = await db.select().from(s.handInFiles).where(eq(s.handInFiles.handInId, graded.id));
    expect(files.map((f) => [f.role, f.name]).sort()).toEqual([
      ["feedback", "feedback.pdf"],
      ["submission", "report.pdf"],
    ]);
    // Decision 065: margaret took the data protection exam through the delivery; her essay waits for a person.
    const [exam] = await db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.userId, (userIds as Record<string, string>).margaret!));
    expect(exam).toMatchObject({ state: 2, ended: "submitted" });
    const answers = await db.select().from(s.assessmentAnswers).where(eq(s.assessmentAnswers.attemptId, exam!.id));
    const essay = answers.find((a) => a.itemRef === "dpia")!;
    expect(essay.response.RESPONSE?.[0]).toMatch(/biometric data/);
    expect(essay.gradedScore).toBeNull();
    expect(answers.filter((a) => a.itemRef !== "dpia").every((a) => a.score === a.maxScore && a.score! > 0)).toBe(true);
    // Its proctored sitting ended when she submitted.
    const sittings = await db
      .select()
      .from(s.proctoringSessions)
      .where(eq(s.proctoringSessions.activityWorkflowId, exam!.activityWorkflowId));
    expect(sittings.map((x) => x.state)).toEqual([3]);
    // Nothing is handed in for an attempt in progress: the learner does that herself.
    const inProgress = workflows.filter((w) => w.state === ObjectiveWorkflowState.inProgress).map((w) => w.id);
    expect(rows.filter((r) => inProgress.includes(r.objectiveWorkflowId))).toEqual([]);
  });
});
