import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { forgetPrincipals } from "../../api/auth";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { gradeVisibility } from "../../domain/lifecycle";
import type { GradeCourse } from "../../domain/contract/grades";
import {
  ActivityContentType,
  ActivityKind,
  ActivityWorkflowState,
  GRADE_REVEAL_POLICIES,
  ObjectiveWorkflowState,
  type GradeRevealPolicy,
} from "../../domain/vocabulary";

/**
 * Issue 31 item 1: the grades query — every course's attempt and result and its graded activities,
 * never a hidden score (spec 4.7), sortable by the visible score only, the caller's own, and a
 * constant number of statements whatever the number of enrolments.
 */
let t: TestApi;
let tenantId: string;
let ada: string;
let grace: string;
const ids: Record<string, string> = {};
const NOW = new Date("2026-06-01T12:00:00Z");
const PAST = new Date("2026-05-01T00:00:00Z");
const FUTURE = new Date("2026-07-01T00:00:00Z");

const W = ObjectiveWorkflowState;

/** One attempt with a finished, scored first activity (7 of 10) and an unfinished second. */
async function attemptWithActivities(
  objectiveId: string,
  userId: string,
  workflowState: ObjectiveWorkflowState,
  over: Parameters<typeof enrolUser>[2] = {},
) {
  const db = t.database.db;
  const { partIds } = await createTree(db, tenantId, objectiveId, [
    { name: "Quiz", maxScore: 10 },
    { name: "Essay", maxScore: null, manualGrading: true },
    { name: "Reading", maxScore: null },
    { name: "Pass or fail", maxScore: 1 },
  ]);
  const { workflowId } = await enrolUser(db, { tenantId, userId, objectiveId }, { workflowState, ...over });
  const [aw] = await db
    .insert(s.activityWorkflows)
    .values({
      objectiveWorkflowId: workflowId!,
      activityPartId: partIds[0],
      userId,
      state: ActivityWorkflowState.finished,
      started: new Date("2026-05-02T10:00:00Z"),
      finished: new Date("2026-05-03T10:00:00Z"),
    })
    .returning();
  await db.insert(s.activityRecords).values({
    activityWorkflowId: aw.id,
    objectiveWorkflowId: workflowId!,
    activityPartId: partIds[0],
    userId,
    score: 7,
    maxScore: 10,
    passed: true,
    finished: new Date("2026-05-03T10:00:00Z"),
  });
  return { workflowId: workflowId!, partIds };
}

beforeAll(async () => {
  t = await createTestApi();
  t.setNow(NOW);
  const db = t.database.db;
  ada = t.users.ada;
  grace = t.users.grace;
  [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
  const make = async (key: string, name: string) => {
    const { objective } = await createCourse(db, tenantId, { name });
    ids[key] = objective.id;
  };
  await make("open", "Algebra open");
  await make("never", "Biology never");
  await make("later", "Chemistry later");
  await make("inProgress", "Drawing in progress");
  await make("grace", "Economics grace");
  await attemptWithActivities(ids.open, ada, W.finished, {
    record: { score: 80, maxScore: 100, normalizedScore: 0.8, passed: true },
  });
  await attemptWithActivities(ids.never, ada, W.finished, {
    gradeRevealPolicy: "never",
    record: { score: 95, maxScore: 100, normalizedScore: 0.95, passed: true },
  });
  await attemptWithActivities(ids.later, ada, W.finished, {
    gradeRevealPolicy: "afterDate",
    gradeRevealDate: FUTURE,
    record: { score: 99, maxScore: 100, normalizedScore: 0.99, passed: true },
  });
  await attemptWithActivities(ids.inProgress, ada, W.inProgress, { gradeRevealPolicy: "afterFinish" });
  await attemptWithActivities(ids.grace, grace, W.finished, {
    record: { score: 50, maxScore: 100, normalizedScore: 0.5, passed: false },
  });
});
afterAll(() => t.close());

const get = async (path: string, user = "ada") => t.request("GET", path, { token: await t.token(user) });
const list = async (query = "") =>
  (await (await get(`/api/lms/v1/users/me/grades/query?requireTotalCount=true${query}`)).json()) as {
    data: GradeCourse[];
    totalCount: number;
  };
const byName = (courses: GradeCourse[], name: string) => courses.find((c) => c.objective.name === name)!;

describe("GET users/me/grades/query (issue 31 item 1)", () => {
  it("lists the learner's own courses with attempt, result and graded activities in tree order", async () => {
    const body = await list();
    expect(body.totalCount).toBe(4);
    expect(body.data.map((c) => c.objective.name)).toEqual([
      "Algebra open",
      "Biology never",
      "Chemistry later",
      "Drawing in progress",
    ]);
    const open = byName(body.data, "Algebra open");
    expect(open.lastObjectiveWorkflow?.state).toBe(W.finished);
    expect(open.lastObjectiveRecord).toMatchObject({ score: 80, maxScore: 100, passed: true, resultsHidden: false });
    // Graded activities only: points (Quiz, Pass or fail) or graded by a person (Essay); not the reading.
    expect(open.activities.map((a) => [a.name, a.score, a.maxScore, a.passed])).toEqual([
      ["Quiz", 7, 10, true],
      ["Essay", null, null, null],
      ["Pass or fail", null, 1, null],
    ]);
    expect(open.activities[0].finished).toBe("2026-05-03T10:00:00.000Z");
  });

  it("never shows a hidden grade: policy never, a reveal date to come, in progress under afterFinish", async () => {
    const body = await list();
    for (const name of ["Biology never", "Chemistry later"]) {
      const course = byName(body.data, name);
      expect(course.lastObjectiveRecord).toMatchObject({
        score: null,
        maxScore: null,
        normalizedScore: null,
        grade: null,
        passed: null,
        resultsHidden: true,
      });
      expect(course.activities.every((a) => a.score === null && a.passed === null && a.resultsHidden)).toBe(true);
    }
    const inProgress = byName(body.data, "Drawing in progress");
    expect(inProgress.activities[0]).toMatchObject({ name: "Quiz", score: null, passed: null, resultsHidden: true });
    const raw = JSON.stringify(body);
    expect(raw).not.toContain("0.95");
    expect(raw).not.toContain("0.99");
    expect(byName(body.data, "Chemistry later").gradeRevealDate).toBe(FUTURE.toISOString());
  });

  it("shows them once the reveal date has passed", async () => {
    t.setNow(new Date(FUTURE.getTime() + 1000));
    try {
      const later = byName((await list()).data, "Chemistry later");
      expect(later.lastObjectiveRecord?.score).toBe(99);
      expect(later.activities[0].score).toBe(7);
    } finally {
      t.setNow(NOW);
    }
  });

  it("sorts by the visible score only: hidden ones sort as having none", async () => {
    const desc = (await list("&sort=-score")).data.map((c) => c.objective.name);
    expect(desc[0]).toBe("Algebra open");
    // The hidden 0.95 and 0.99 do not come before 0.8; the three without a visible score follow by name.
    expect(desc.slice(1)).toEqual(["Biology never", "Chemistry later", "Drawing in progress"]);
    const asc = (await list("&sort=score")).data.map((c) => c.objective.name);
    expect(asc).toEqual(["Algebra open", "Biology never", "Chemistry later", "Drawing in progress"]);
  });

  it("filters like My courses (search, progress) and pages", async () => {
    const searched = await list(`&filter=${encodeURIComponent("objective.name contains 'bio'")}`);
    expect(searched.data.map((c) => c.objective.name)).toEqual(["Biology never"]);
    const inProgress = await list(`&filter=${encodeURIComponent("lastObjectiveWorkflow.state in (1,3,5)")}`);
    expect(inProgress.data.map((c) => c.objective.name)).toEqual(["Drawing in progress"]);
    const page = await list("&skip=1&take=2&sort=-objective.name");
    expect(page.totalCount).toBe(4);
    expect(page.data.map((c) => c.objective.name)).toEqual(["Chemistry later", "Biology never"]);
  });

  it("refuses bad input with 400 and another learner's course with 404", async () => {
    expect((await get("/api/lms/v1/users/me/grades/query?sort=password")).status).toBe(400);
    expect((await get("/api/lms/v1/users/me/grades/query?take=5000")).status).toBe(400);
    expect((await get("/api/lms/v1/users/me/grades/query?filter=%27")).status).toBe(400);
    expect((await get("/api/lms/v1/users/me/grades/query?showcase=x")).status).toBe(400);
    expect((await get(`/api/lms/v1/users/me/grades/${ids.grace}`)).status).toBe(404);
    expect((await get("/api/lms/v1/users/me/grades/not-a-uuid")).status).toBe(404);
    const own = await get(`/api/lms/v1/users/me/grades/${ids.open}`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as GradeCourse).objective.name).toBe("Algebra open");
    const theirs = (await (await get("/api/lms/v1/users/me/grades/query", "grace")).json()) as { data: GradeCourse[] };
    expect(theirs.data.map((c) => c.objective.name)).toEqual(["Economics grace"]);
    expect((await t.request("GET", "/api/lms/v1/users/me/grades/query")).status).toBe(401);
  });
});

describe("the SQL reveal rule of the score sort is the domain's (spec 4.7)", () => {
  it("orders exactly the scores gradeVisibility shows, case by case", async () => {
    const db = t.database.db;
    const user = (
      await db
        .insert(s.users)
        .values({ tenantId, email: "sorter@example.com", firstName: "Sam", lastName: "Sorter" })
        .returning()
    )[0];
    const cases: {
      policy: GradeRevealPolicy;
      date: Date | null;
      state: ObjectiveWorkflowState | null;
      protect: boolean;
    }[] = [];
    for (const policy of GRADE_REVEAL_POLICIES)
      for (const date of [null, PAST, FUTURE])
        for (const state of [null, ...Object.values(W)])
          for (const protect of [false, true]) cases.push({ policy, date, state, protect });
    const expected = new Map<string, boolean>();
    for (const [i, c] of cases.entries()) {
      const { objective } = await createCourse(db, tenantId, { name: `Case ${String(i).padStart(3, "0")}` });
      await enrolUser(
        db,
        { tenantId, userId: user.id, objectiveId: objective.id },
        {
          workflowState: c.state ?? undefined,
          gradeRevealPolicy: c.policy,
          gradeRevealDate: c.date,
          record: { score: i, maxScore: 1000, normalizedScore: (i + 1) / 1000, protectResults: c.protect },
        },
      );
      const visible =
        !c.protect &&
        gradeVisibility(
          { gradeRevealPolicy: c.policy, gradeRevealDate: c.date?.toISOString() ?? null },
          { state: c.state ?? W.finished },
          NOW,
        ).visible;
      expected.set(objective.name, visible);
    }
    const token = await t.token(user.id);
    const res = await t.request("GET", "/api/lms/v1/users/me/grades/query?sort=-score&take=1000", { token });
    const body = (await res.json()) as { data: GradeCourse[] };
    expect(body.data).toHaveLength(cases.length);
    const shown = body.data.filter((c) => c.lastObjectiveRecord?.normalizedScore !== null);
    // Every course the domain shows comes first (highest visible score first), then every hidden one.
    expect(body.data.slice(0, shown.length)).toEqual(shown);
    for (const c of body.data)
      expect(c.lastObjectiveRecord?.resultsHidden, c.objective.name).toBe(!expected.get(c.objective.name));
    const scores = shown.map((c) => c.lastObjectiveRecord!.normalizedScore!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(shown.length).toBe([...expected.values()].filter(Boolean).length);
    await db.delete(s.objectiveWorkflowAggregates).where(eq(s.objectiveWorkflowAggregates.userId, user.id));
  });
});

describe("statements per page (issue 31: constant in the number of courses)", () => {
  it("reads a page of 1,000 enrolments with their activities in as many statements as a page of a few", async () => {
    const db = t.database.db;
    const [user] = await db
      .insert(s.users)
      .values({ tenantId, email: "thousand@example.com", firstName: "Tess", lastName: "Thousand" })
      .returning();
    const token = await t.token(user.id);
    const measure = async (query: string) => {
      forgetPrincipals();
      await t.request("GET", "/api/lms/v1/users/me/grades/query?requireTotalCount=true&take=24", { token }); // warm
      forgetPrincipals();
      const before = t.database.queryCount();
      const res = await t.request("GET", `/api/lms/v1/users/me/grades/query?requireTotalCount=true${query}`, {
        token,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: GradeCourse[]; totalCount: number };
      return { statements: t.database.queryCount() - before, body };
    };
    // A few enrolments, each with a tree of graded activities and an attempt.
    for (let i = 0; i < 3; i++) {
      const { objective } = await createCourse(db, tenantId, { name: `Few ${i}` });
      await attemptWithActivities(objective.id, user.id, W.finished, {
        record: { score: 60, maxScore: 100, normalizedScore: 0.6, passed: true },
      });
    }
    const few = await measure("&take=24");
    const fewAll = await measure("&take=1000");
    expect(few.body.totalCount).toBe(3);

    // 997 more, in bulk: courses, accesses, a two-activity tree each, an aggregate with a finished attempt.
    const n = 997;
    const courses = await db
      .insert(s.objectives)
      .values(
        Array.from({ length: n }, (_, i) => ({
          tenantId,
          name: `Bulk ${String(i).padStart(4, "0")}`,
          code: `B-${i}`,
        })),
      )
      .returning({ id: s.objectives.id });
    const acts = await db
      .insert(s.activities)
      .values(
        courses.flatMap(() => [
          { tenantId, name: "Root", kind: ActivityKind.composite, contentType: ActivityContentType.Composite },
          {
            tenantId,
            name: "Test",
            kind: ActivityKind.text,
            contentType: ActivityContentType.Text,
            maxScore: 20,
          },
        ]),
      )
      .returning({ id: s.activities.id });
    const roots = await db
      .insert(s.activityParts)
      .values(courses.map((c, i) => ({ objectiveId: c.id, activityId: acts[2 * i].id, axis: "00" })))
      .returning({ id: s.activityParts.id });
    const leaves = await db
      .insert(s.activityParts)
      .values(
        courses.map((c, i) => ({
          objectiveId: c.id,
          parentPartId: roots[i].id,
          activityId: acts[2 * i + 1].id,
          axis: "00.01",
          order: 1,
        })),
      )
      .returning({ id: s.activityParts.id });
    const aggs = await db
      .insert(s.objectiveWorkflowAggregates)
      .values(courses.map((c) => ({ tenantId, userId: user.id, objectiveId: c.id, isSelfEnrolled: true })))
      .returning({ id: s.objectiveWorkflowAggregates.id });
    const wfs = await db
      .insert(s.objectiveWorkflows)
      .values(
        courses.map((c, i) => ({
          id: crypto.randomUUID(),
          aggregateId: aggs[i].id,
          userId: user.id,
          objectiveId: c.id,
          state: W.finished,
          progress: 1,
          started: PAST,
          finished: PAST,
        })),
      )
      .returning({ id: s.objectiveWorkflows.id });
    await db.insert(s.objectiveRecords).values(
      courses.map((c, i) => ({
        aggregateId: aggs[i].id,
        workflowId: wfs[i].id,
        userId: user.id,
        objectiveId: c.id,
        score: i % 100,
        maxScore: 100,
        normalizedScore: (i % 100) / 100,
        passed: i % 100 >= 50,
        finished: PAST,
        progress: 1,
      })),
    );
    const aws = await db
      .insert(s.activityWorkflows)
      .values(
        courses.map((_, i) => ({
          objectiveWorkflowId: wfs[i].id,
          activityPartId: leaves[i].id,
          userId: user.id,
          state: ActivityWorkflowState.finished,
          started: PAST,
          finished: PAST,
        })),
      )
      .returning({ id: s.activityWorkflows.id });
    await db.insert(s.activityRecords).values(
      courses.map((_, i) => ({
        activityWorkflowId: aws[i].id,
        objectiveWorkflowId: wfs[i].id,
        activityPartId: leaves[i].id,
        userId: user.id,
        score: i % 20,
        maxScore: 20,
        passed: true,
        finished: PAST,
      })),
    );
    await db.execute(sql`
      update ${s.objectiveWorkflowAggregates} a
      set last_workflow_id = w.id, last_workflow_state = w.state, last_record_id = r.id
      from ${s.objectiveWorkflows} w, ${s.objectiveRecords} r
      where w.aggregate_id = a.id and r.workflow_id = w.id and a.user_id = ${user.id}`);

    const many = await measure("&take=24");
    const manyAll = await measure("&take=1000");
    expect(many.body.totalCount).toBe(1000);
    expect(manyAll.body.data).toHaveLength(1000);
    expect(manyAll.body.data.filter((c) => c.activities.length === 1 && c.activities[0].score !== null)).toHaveLength(
      n,
    );
    expect(many.statements).toBe(few.statements);
    expect(manyAll.statements).toBe(fewAll.statements);
    expect(many.statements).toBeLessThanOrEqual(4);
    await db.delete(s.objectiveWorkflowAggregates).where(
      inArray(
        s.objectiveWorkflowAggregates.id,
        aggs.map((a) => a.id),
      ),
    );
  });
});
