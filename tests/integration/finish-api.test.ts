import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";

/**
 * Decision 030, spec 4.5 / 7.3: the whole path of an attempt a person grades — start, submit (in
 * grading), graded, finish (the learner accepts it), retake — and what the API refuses on the way.
 */
let t: TestApi;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApi();
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

const call = async (path: string, body: unknown, user = "ada") =>
  t.request("POST", `/api/lms/v1/${path}`, {
    token: await t.token(user),
    body,
    headers: { Prefer: "respond-sync" },
  });
const read = async (path: string, user = "ada") =>
  t.request("GET", `/api/lms/v1/${path}`, { token: await t.token(user) });

describe("finishing an attempt (decision 030)", () => {
  it("start → submit → graded → finish → retake; a double finish is one command; others cannot finish it", async () => {
    const db = t.database.db;
    const { objective, access } = await createCourse(db, tenantId, { activityKind: 3 });
    const tree = await createTree(db, tenantId, objective.id, [{ maxScore: 10, manualGrading: true }]);
    const { aggregate } = await enrolUser(
      db,
      { tenantId, userId: t.users.ada, objectiveId: objective.id, accessId: access.id },
      { retake: true },
    );
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: wfId });
    const aws = await (
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: tree.partIds })
    ).json();
    await call("finish-activity-workflows", {
      objectiveWorkflowId: wfId,
      activityWorkflowIds: aws.data.activityWorkflows.map((a: { id: string }) => a.id),
    });
    const submitted = (await (await call("submit-objective-workflows", { id: wfId })).json()).data;
    expect(submitted.state).toBe(ObjectiveWorkflowState.inGrading);

    // In grading: not yet (409), and retake is not offered either.
    const early = await call("finish-objective-workflows", { id: crypto.randomUUID(), objectiveWorkflowId: wfId });
    expect(early.status).toBe(409);
    expect((await early.json()).errors[""][0].code).toBe("cannotFinish");

    // A person grades it (the grading tool is outside this product).
    await db
      .update(s.objectiveWorkflows)
      .set({ state: ObjectiveWorkflowState.graded })
      .where(eq(s.objectiveWorkflows.id, wfId));

    // Another learner cannot finish ada's attempt.
    const other = await call(
      "finish-objective-workflows",
      { id: crypto.randomUUID(), objectiveWorkflowId: wfId },
      "grace",
    );
    expect(other.status).toBe(404);

    // A double-clicked button: the same command id twice makes one finish, both answered alike.
    const commandId = crypto.randomUUID();
    const [a, b] = await Promise.all([
      call("finish-objective-workflows", { id: commandId, objectiveWorkflowId: wfId }),
      call("finish-objective-workflows", { id: commandId, objectiveWorkflowId: wfId }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await a.json()).data.state).toBe(ObjectiveWorkflowState.finished);
    expect((await b.json()).data.state).toBe(ObjectiveWorkflowState.finished);
    const wf = await (await read(`objective-workflows/${wfId}`)).json();
    expect(wf.state).toBe(ObjectiveWorkflowState.finished);
    expect(wf.finished).toBeTruthy();

    // A new finish command on a finished attempt is refused with its own message.
    const again = await call("finish-objective-workflows", { id: crypto.randomUUID(), objectiveWorkflowId: wfId });
    expect(again.status).toBe(409);
    expect((await again.json()).errors[""][0].code).toBe("alreadyFinished");

    // Retake: a second attempt starts.
    const second = await call("start-objective-workflows", {
      objectiveWorkflowAggregateId: aggregate.id,
      id: crypto.randomUUID(),
    });
    expect(second.status).toBe(200);
    expect((await second.json()).data.attempt).toBe(2);
  });

  it("spec 4.3: the composite-retake flag comes from the tenant's features, read by the settings and the start command", async () => {
    const db = t.database.db;
    const settings = async () =>
      (await (await t.request("GET", "/api/platform/v1/settings", { token: await t.token("ada") })).json()).features;
    expect((await settings()).compositeRetake).toBe(true);
    await db
      .insert(s.features)
      .values({ tenantId, name: "compositeRetake", enabled: false })
      .onConflictDoUpdate({ target: [s.features.tenantId, s.features.name], set: { enabled: false } });
    try {
      expect((await settings()).compositeRetake).toBe(false);
      const { objective, access } = await createCourse(db, tenantId, { activityKind: 3 });
      await createTree(db, tenantId, objective.id, [{ maxScore: 10 }]);
      const { aggregate } = await enrolUser(
        db,
        { tenantId, userId: t.users.ada, objectiveId: objective.id, accessId: access.id },
        { retake: true },
      );
      const first = crypto.randomUUID();
      await call("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: first });
      await call("submit-objective-workflows", { id: first });
      const retake = await call("start-objective-workflows", {
        objectiveWorkflowAggregateId: aggregate.id,
        id: crypto.randomUUID(),
      });
      expect(retake.status).toBe(409);
    } finally {
      await db
        .update(s.features)
        .set({ enabled: true })
        .where(and(eq(s.features.tenantId, tenantId), eq(s.features.name, "compositeRetake")));
    }
  });
});

describe("spec 7.3: one record, and the standing in one activity", () => {
  it("GET objective-records/{id} answers the learner's record as the list does; another learner's is 404", async () => {
    const db = t.database.db;
    const { objective, access } = await createCourse(db, tenantId, { activityKind: 3 });
    const tree = await createTree(db, tenantId, objective.id, [{ maxScore: 10 }, { maxScore: 10 }]);
    const { aggregate } = await enrolUser(db, {
      tenantId,
      userId: t.users.ada,
      objectiveId: objective.id,
      accessId: access.id,
    });
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: wfId });
    const aws = await (
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: [tree.partIds[0]] })
    ).json();
    await call("finish-activity-workflows", {
      objectiveWorkflowId: wfId,
      activityWorkflowIds: aws.data.activityWorkflows.map((a: { id: string }) => a.id),
    });

    // The standing in an activity: started and finished, with its record; an untouched one has none.
    const activityIds = await db
      .select({ id: s.activityParts.activityId, part: s.activityParts.id })
      .from(s.activityParts)
      .where(eq(s.activityParts.objectiveId, objective.id));
    const done = activityIds.find((a) => a.part === tree.partIds[0])!.id;
    const untouched = activityIds.find((a) => a.part === tree.partIds[1])!.id;
    const standing = await read(`users/me/objective-workflows/${wfId}/activities/${done}/activity-workflow-aggregate`);
    expect(standing.status).toBe(200);
    const body = await standing.json();
    expect(body).toMatchObject({ objectiveWorkflowId: wfId, activityId: done });
    expect(body.activityWorkflow.finished).toBeTruthy();
    // A learner's finish records completion, not a score: a graded activity waits for its grader (decision 018).
    expect(body.activityRecord).toMatchObject({ score: null, maxScore: 10, passed: null });
    const none = await (
      await read(`users/me/objective-workflows/${wfId}/activities/${untouched}/activity-workflow-aggregate`)
    ).json();
    expect(none).toMatchObject({ activityWorkflow: null, activityRecord: null });
    // An activity of another course, another learner's workflow, a garbled id: all not found.
    const foreign = crypto.randomUUID();
    expect(
      (await read(`users/me/objective-workflows/${wfId}/activities/${foreign}/activity-workflow-aggregate`)).status,
    ).toBe(404);
    expect(
      (await read(`users/me/objective-workflows/${wfId}/activities/${done}/activity-workflow-aggregate`, "grace"))
        .status,
    ).toBe(404);
    expect((await read(`users/me/objective-workflows/${wfId}/activities/x/activity-workflow-aggregate`)).status).toBe(
      404,
    );

    // One record: the same as in the list; grace cannot read it; a garbled id is not found.
    await call("submit-objective-workflows", { id: wfId });
    const list = await (await read(`objective-records/query?objectiveId=${objective.id}`)).json();
    const one = await read(`objective-records/${list.data[0].id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual(list.data[0]);
    expect((await read(`objective-records/${list.data[0].id}`, "grace")).status).toBe(404);
    expect((await read("objective-records/not-a-uuid")).status).toBe(404);
  });
});
