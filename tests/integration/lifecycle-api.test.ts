import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser, gradeActivityWorkflows } from "../fixtures/courses";
import * as s from "../../api/db/schema";

let t: TestApi;
let tenantId: string;
let scaleId: string;

beforeAll(async () => {
  t = await createTestApi();
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
  const [scale] = await t.database.db
    .insert(s.gradingScales)
    .values({ tenantId, name: "Pct", maxScore: 100, normalizedPassingScore: 0.6 })
    .returning();
  scaleId = scale.id;
  await t.database.db.insert(s.grades).values([
    { gradingScaleId: scale.id, name: "F", color: "#b00", normalizedMinScore: 0 },
    { gradingScaleId: scale.id, name: "B", color: "#0a0", normalizedMinScore: 0.6 },
    { gradingScaleId: scale.id, name: "A", color: "#080", normalizedMinScore: 0.9 },
  ]);
});
afterAll(() => t.close());

type Leaf = Parameters<typeof createTree>[3][number];
const DEFAULT_LEAVES: Leaf[] = [
  { maxScore: 10 },
  { maxScore: 10 },
  { maxScore: 20, weight: 2 },
  { maxScore: null, optional: true },
];

async function setup(
  over: Partial<typeof s.objectiveWorkflowAggregates.$inferInsert> = {},
  leaves: Leaf[] = DEFAULT_LEAVES,
  course = {},
) {
  const db = t.database.db;
  const { objective, access } = await createCourse(db, tenantId, {
    gradingScaleId: scaleId,
    activityKind: 3,
    ...course,
  });
  const tree = await createTree(db, tenantId, objective.id, leaves);
  const { aggregate } = await enrolUser(
    db,
    { tenantId, userId: t.users.ada, objectiveId: objective.id, accessId: access.id },
    over,
  );
  return { objective, aggregate, ...tree };
}

const call = async (path: string, body: unknown, user = "ada", prefer = "respond-sync") =>
  t.request("POST", `/api/lms/v1/${path}`, { token: await t.token(user), body, headers: { Prefer: prefer } });
const read = async (path: string, user = "ada") =>
  t.request("GET", `/api/lms/v1/${path}`, { token: await t.token(user) });

describe("the learning lifecycle (spec 4.1, 4.4, 4.5, 7.3)", () => {
  it("start → activities → submit grades the attempt by weights and the scale", async () => {
    const c = await setup();
    const wfId = crypto.randomUUID();
    const started = await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    expect(started.status).toBe(200);
    expect((await started.json()).data).toMatchObject({ id: wfId, state: 1, attempt: 1 });
    const aws = await (
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: c.partIds.slice(0, 2) })
    ).json();
    const ids = aws.data.activityWorkflows.map((a: { id: string }) => a.id);
    expect(ids).toHaveLength(2);
    const finished = await (
      await call("finish-activity-workflows", { objectiveWorkflowId: wfId, activityWorkflowIds: ids })
    ).json();
    // 2 of the 3 non-optional leaves done (waiting for their grader counts as done).
    expect(finished.data.progress).toBeCloseTo(0.6667, 3);
    // The grader (the tool, outside the learner app) scores both in full.
    await gradeActivityWorkflows(t.database.db, ids);
    const submitted = await call("submit-objective-workflows", { id: wfId });
    expect(submitted.status).toBe(200);
    const wf = (await submitted.json()).data;
    expect(wf).toMatchObject({ state: 6 });
    expect(wf.objectiveRecordId).toBeTruthy();
    // (1×10/10 + 1×10/10 + 2×0/20) / 4 = 0.5 → 50 of 100 → F, not passed
    const records = await (await read(`objective-workflow-aggregates/${c.aggregate.id}/objective-records`)).json();
    expect(records.data[0]).toMatchObject({
      score: 50,
      maxScore: 100,
      normalizedScore: 0.5,
      passed: false,
      grade: { name: "F" },
    });
    const agg = await (await read(`objectives/${c.objective.id}/objective-workflow-aggregate`)).json();
    expect(agg.lastObjectiveWorkflow.state).toBe(6);
  });

  it("submit-preview says what submitting now would record — a fail on an untouched course — and changes nothing", async () => {
    const c = await setup();
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    const preview = await read(`objective-workflows/${wfId}/submit-preview`);
    expect(preview.status).toBe(200);
    expect(await preview.json()).toEqual({ normalizedScore: 0, gradeName: "F", passed: false, pending: 0 });
    // Read only: the attempt is still in progress, and another learner's attempt is 404.
    expect((await (await read(`objective-workflows/${wfId}`)).json()).state).toBe(1);
    expect((await read(`objective-workflows/${wfId}/submit-preview`, "grace")).status).toBe(404);
    expect((await read(`objective-workflows/not-a-uuid/submit-preview`)).status).toBe(404);
    // The same figures as the submission then records.
    await call("submit-objective-workflows", { id: wfId });
    const records = await (await read(`objective-workflow-aggregates/${c.aggregate.id}/objective-records`)).json();
    expect(records.data[0]).toMatchObject({ normalizedScore: 0, passed: false, grade: { name: "F" } });
  });

  it("submit-preview hides score and pass where the reveal policy would hide them", async () => {
    const c = await setup({ gradeRevealPolicy: "never" });
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    expect(await (await read(`objective-workflows/${wfId}/submit-preview`)).json()).toEqual({
      normalizedScore: null,
      gradeName: null,
      passed: null,
      pending: 0,
    });
  });

  it("a manually graded activity leaves the attempt in grading, unresolved", async () => {
    const c = await setup({}, [{ maxScore: 10 }, { maxScore: 10, manualGrading: true }]);
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    const aws = await (
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: c.partIds })
    ).json();
    await call("finish-activity-workflows", {
      objectiveWorkflowId: wfId,
      activityWorkflowIds: aws.data.activityWorkflows.map((a: { id: string }) => a.id),
    });
    const wf = (await (await call("submit-objective-workflows", { id: wfId })).json()).data;
    expect(wf.state).toBe(3);
    const records = await (await read(`objective-workflow-aggregates/${c.aggregate.id}/objective-records`)).json();
    expect(records.data[0].passed).toBeNull();
    // finishing is allowed from submitted/graded/approved only
    expect(
      (await call("finish-objective-workflows", { id: crypto.randomUUID(), objectiveWorkflowId: wfId })).status,
    ).toBe(409);
  });

  it("issue 31: a finish sent again with its command id (a write made offline) counts once, in order", async () => {
    const c = await setup();
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    const aws = await (
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: [c.partIds[0]] })
    ).json();
    const body = {
      objectiveWorkflowId: wfId,
      activityWorkflowIds: [aws.data.activityWorkflows[0].id],
      id: crypto.randomUUID(),
    };
    const first = await call("finish-activity-workflows", body);
    expect(first.status).toBe(200);
    const progress = (await first.json()).data.progress;
    expect(progress).toBeGreaterThan(0);
    // Sent again (the connection dropped before the answer came back): the same answer, nothing more.
    const again = await Promise.all([1, 2, 3].map(() => call("finish-activity-workflows", body)));
    expect(again.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const r of again) expect((await r.json()).data.progress).toBe(progress);
    const finished = await t.database.db
      .select()
      .from(s.activityWorkflows)
      .where(eq(s.activityWorkflows.objectiveWorkflowId, wfId));
    expect(finished.filter((aw) => aw.finished !== null)).toHaveLength(1);
    const records = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(eq(s.activityRecords.objectiveWorkflowId, wfId));
    expect(records).toHaveLength(1);
    // A command id is a uuid: anything else is a 400, not a 500.
    expect((await call("finish-activity-workflows", { ...body, id: "not-a-uuid" })).status).toBe(400);
  });

  it("20 parallel identical submits make one submission and one record", async () => {
    const c = await setup();
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call("submit-objective-workflows", { id: wfId })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const rows = await t.database.db.select().from(s.objectiveRecords).where(eq(s.objectiveRecords.workflowId, wfId));
    expect(rows).toHaveLength(1);
  });

  it("retake: allowed only when the access permits it; a new attempt keeps the old record", async () => {
    const noRetake = await setup({ retake: false });
    const w1 = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: noRetake.aggregate.id, id: w1 });
    await call("submit-objective-workflows", { id: w1 });
    const refused = await call("start-objective-workflows", {
      objectiveWorkflowAggregateId: noRetake.aggregate.id,
      id: crypto.randomUUID(),
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).errors[""][0].code).toBe("retakeNotAllowed");

    const retake = await setup({ retake: true });
    const a1 = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: retake.aggregate.id, id: a1 });
    await call("submit-objective-workflows", { id: a1 });
    const a2 = crypto.randomUUID();
    const second = await call("start-objective-workflows", {
      objectiveWorkflowAggregateId: retake.aggregate.id,
      id: a2,
    });
    expect(second.status).toBe(200);
    expect((await second.json()).data.attempt).toBe(2);
    await call("submit-objective-workflows", { id: a2 });
    const records = await (await read(`objective-workflow-aggregates/${retake.aggregate.id}/objective-records`)).json();
    expect(records.data).toHaveLength(2);
  });

  it("illegal transitions change nothing: start twice, submit before start, finish activities of another workflow", async () => {
    const c = await setup();
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    const again = await call("start-objective-workflows", {
      objectiveWorkflowAggregateId: c.aggregate.id,
      id: crypto.randomUUID(),
    });
    expect(again.status).toBe(409);
    expect((await call("submit-objective-workflows", { id: crypto.randomUUID() })).status).toBe(404);
    expect(
      (
        await call("finish-activity-workflows", {
          objectiveWorkflowId: wfId,
          activityWorkflowIds: [crypto.randomUUID()],
        })
      ).status,
    ).toBe(404);
    const workflows = await t.database.db
      .select()
      .from(s.objectiveWorkflows)
      .where(eq(s.objectiveWorkflows.aggregateId, c.aggregate.id));
    expect(workflows).toHaveLength(1);
  });

  it("availability: not before the availability date, not after the end date without a workflow", async () => {
    const future = new Date(Date.now() + 5 * 86400_000);
    const past = new Date(Date.now() - 5 * 86400_000);
    const early = await setup({ availabilityDate: future });
    const res = await call("start-objective-workflows", {
      objectiveWorkflowAggregateId: early.aggregate.id,
      id: crypto.randomUUID(),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).errors[""][0]).toMatchObject({
      code: "notYetAvailable",
      params: { date: future.toISOString() },
    });
    const late = await setup({ availabilityEndDate: past });
    expect(
      (
        await call("start-objective-workflows", {
          objectiveWorkflowAggregateId: late.aggregate.id,
          id: crypto.randomUUID(),
        })
      ).status,
    ).toBe(422);
  });

  it("another learner's aggregate, workflow and records are 404 and unchanged", async () => {
    const c = await setup();
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    expect(
      (
        await call(
          "start-objective-workflows",
          { objectiveWorkflowAggregateId: c.aggregate.id, id: crypto.randomUUID() },
          "grace",
        )
      ).status,
    ).toBe(404);
    expect((await call("submit-objective-workflows", { id: wfId }, "grace")).status).toBe(404);
    expect((await read(`objective-workflows/${wfId}`, "grace")).status).toBe(404);
    expect((await read(`objective-workflow-aggregates/${c.aggregate.id}/objective-records`, "grace")).status).toBe(404);
    expect((await read(`users/me/objective-workflows/${wfId}/activity`, "grace")).status).toBe(404);
    const [wf] = await t.database.db.select().from(s.objectiveWorkflows).where(eq(s.objectiveWorkflows.id, wfId));
    expect(wf.state).toBe(1);
  });

  it("hidden scores cannot be read: policy never, afterDate before the date, older attempts", async () => {
    const c = await setup({
      gradeRevealPolicy: "afterDate",
      gradeRevealDate: new Date(Date.now() + 86400_000),
      retake: true,
    });
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    const aws = await (
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: c.partIds.slice(0, 3) })
    ).json();
    const awIds = aws.data.activityWorkflows.map((a: { id: string }) => a.id);
    await call("finish-activity-workflows", { objectiveWorkflowId: wfId, activityWorkflowIds: awIds });
    await gradeActivityWorkflows(t.database.db, awIds);
    await call("submit-objective-workflows", { id: wfId });
    const records = await (await read(`objective-workflow-aggregates/${c.aggregate.id}/objective-records`)).json();
    expect(records.data[0]).toMatchObject({
      score: null,
      normalizedScore: null,
      grade: null,
      passed: null,
      resultsHidden: true,
    });
    const list = await (
      await read(
        `objective-workflow-aggregates/query?filter=${encodeURIComponent("lastObjectiveWorkflow.state eq 6")}&take=100`,
      )
    ).json();
    const mine = list.data.find((a: { id: string }) => a.id === c.aggregate.id);
    expect(mine.lastObjectiveRecord.score).toBeNull();
    const tree = await (await read(`users/me/objective-workflows/${wfId}/activity`)).json();
    const scored = tree.nodes.filter(
      (n: { childActivity: { activityWorkflowAggregate: { bestActivityRecord: { score: number | null } | null } } }) =>
        n.childActivity.activityWorkflowAggregate.bestActivityRecord,
    );
    expect(
      scored.every(
        (n: { childActivity: { activityWorkflowAggregate: { bestActivityRecord: { score: number | null } } } }) =>
          n.childActivity.activityWorkflowAggregate.bestActivityRecord.score === null,
      ),
    ).toBe(true);
    // After the reveal date the same attempt shows its score.
    t.setNow(new Date(Date.now() + 2 * 86400_000));
    const later = await (await read(`objective-workflow-aggregates/${c.aggregate.id}/objective-records`)).json();
    t.setNow(null as unknown as Date);
    expect(later.data[0].score).toBe(100);
  });

  it("async: submit answers 202 and the status says completed", async () => {
    const c = await setup();
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    const res = await call("submit-objective-workflows", { id: wfId }, "ada", "respond-async");
    expect(res.status).toBe(202);
    const status = await (await t.request("GET", res.headers.get("location")!, { token: await t.token("ada") })).json();
    expect(status.state).toBe("completed");
    const wf = await (await read(`objective-workflows/${wfId}`)).json();
    expect(wf.objectiveRecordId).toBeTruthy();
  });
});

describe("activity tree (spec 7.4)", () => {
  it("reads a 500-activity tree with the same number of queries as a 5-activity one", async () => {
    const { forgetPrincipals } = await import("../../api/auth");
    const small = await setup(
      {},
      Array.from({ length: 5 }, () => ({ maxScore: 10 })),
    );
    const big = await setup(
      {},
      Array.from({ length: 500 }, (_, i) => ({ maxScore: i % 3 ? 10 : null })),
    );
    const count = async (c: Awaited<ReturnType<typeof setup>>) => {
      const wfId = crypto.randomUUID();
      await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: c.partIds.slice(0, 3) });
      forgetPrincipals();
      const before = t.database.queryCount();
      const res = await read(`users/me/objective-workflows/${wfId}/activity`);
      const body = await res.json();
      return { queries: t.database.queryCount() - before, nodes: body.nodes.length };
    };
    const a = await count(small);
    const b = await count(big);
    expect(a.nodes).toBe(6);
    expect(b.nodes).toBe(501);
    expect(b.queries).toBe(a.queries);
  });
});
