import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { ProctoringSessionState as P } from "../../domain/vocabulary";

/** Spec 7.5 last-proctoring-session, 4.8 proctor lock (docs/decisions/010-proctor-lock.md). */
let t: TestApi;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApi();
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

const call = async (path: string, body: unknown, user = "ada") =>
  t.request("POST", `/api/lms/v1/${path}`, { token: await t.token(user), body, headers: { Prefer: "respond-sync" } });
const read = async (path: string, user = "ada") =>
  t.request("GET", `/api/lms/v1/${path}`, { token: await t.token(user) });

/** A proctored course with ada's attempt in progress and its first activity started. */
async function startedProctoredCourse() {
  const db = t.database.db;
  const { objective, access } = await createCourse(db, tenantId, { activityKind: 3, proctored: true });
  const tree = await createTree(db, tenantId, objective.id, [{ maxScore: 10 }, { maxScore: 10 }]);
  const { aggregate } = await enrolUser(db, {
    tenantId,
    userId: t.users.ada,
    objectiveId: objective.id,
    accessId: access.id,
  });
  const wfId = crypto.randomUUID();
  await call("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: wfId });
  const started = await (
    await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: [tree.partIds[0]] })
  ).json();
  const awId: string = started.data.activityWorkflows[0].id;
  return { objective, aggregate, wfId, awId, ...tree };
}

async function addSession(awId: string, state: P, created = new Date()) {
  const db = t.database.db;
  const [session] = await db
    .insert(s.proctoringSessions)
    .values({
      activityWorkflowId: awId,
      userId: t.users.ada,
      state,
      created,
      completed: state >= P.completed ? created : null,
    })
    .returning();
  await db
    .update(s.activityWorkflows)
    .set({ lastProctoringSessionId: session.id })
    .where(eq(s.activityWorkflows.id, awId));
  return session;
}

describe("GET users/me/objective-workflows/{id}/activity-workflows/{id}/last-proctoring-session (spec 7.5)", () => {
  it("404 while there is no session, then the last session's id and state", async () => {
    const c = await startedProctoredCourse();
    const path = `users/me/objective-workflows/${c.wfId}/activity-workflows/${c.awId}/last-proctoring-session`;
    expect((await read(path)).status).toBe(404);
    await addSession(c.awId, P.completed, new Date("2026-04-01T10:00:00Z"));
    const newer = await addSession(c.awId, P.inProgress, new Date("2026-04-02T10:00:00Z"));
    const res = await read(path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: newer.id,
      state: P.inProgress,
      created: "2026-04-02T10:00:00.000Z",
      completed: null,
    });
  });

  it("another learner's workflow, or a pair that does not belong together, is 404", async () => {
    const c = await startedProctoredCourse();
    await addSession(c.awId, P.completed);
    const path = `users/me/objective-workflows/${c.wfId}/activity-workflows/${c.awId}/last-proctoring-session`;
    expect((await read(path, "grace")).status).toBe(404);
    const other = await startedProctoredCourse();
    expect(
      (await read(`users/me/objective-workflows/${other.wfId}/activity-workflows/${c.awId}/last-proctoring-session`))
        .status,
    ).toBe(404);
    expect(
      (await read(`users/me/objective-workflows/${c.wfId}/activity-workflows/not-a-uuid/last-proctoring-session`))
        .status,
    ).toBe(404);
  });
});

describe("the proctor lock (spec 4.8)", () => {
  it("the course aggregate carries the attempt's newest session", async () => {
    const c = await startedProctoredCourse();
    let agg = await (await read(`objectives/${c.objective.id}/objective-workflow-aggregate`)).json();
    expect(agg.lastProctoringSession).toBeNull();
    const session = await addSession(c.awId, P.completed);
    agg = await (await read(`objectives/${c.objective.id}/objective-workflow-aggregate`)).json();
    expect(agg.lastProctoringSession).toEqual({ id: session.id, state: P.completed, activityWorkflowId: c.awId });
  });

  it("a completed session refuses starting and finishing activities of the attempt in progress, and submitting it (issue 26)", async () => {
    const c = await startedProctoredCourse();
    await addSession(c.awId, P.completed);
    const finish = await call("finish-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityWorkflowIds: [c.awId],
    });
    expect(finish.status).toBe(409);
    expect((await finish.json()).errors[""][0].code).toBe("proctoringLocked");
    const start = await call("start-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityPartIds: [c.partIds[1]],
    });
    expect(start.status).toBe(409);
    const [aw] = await t.database.db.select().from(s.activityWorkflows).where(eq(s.activityWorkflows.id, c.awId));
    expect(aw.state).toBe(1);
    expect(
      await t.database.db.select().from(s.activityWorkflows).where(eq(s.activityWorkflows.objectiveWorkflowId, c.wfId)),
    ).toHaveLength(1);
    const submit = await call("submit-objective-workflows", { id: c.wfId });
    expect(submit.status).toBe(409);
    expect((await submit.json()).errors[""][0].code).toBe("proctoringLocked");
    const [wf] = await t.database.db.select().from(s.objectiveWorkflows).where(eq(s.objectiveWorkflows.id, c.wfId));
    expect(wf.state).toBe(1);
  });

  it("a session still in progress locks nothing", async () => {
    const c = await startedProctoredCourse();
    await addSession(c.awId, P.inProgress);
    expect(
      (await call("finish-activity-workflows", { objectiveWorkflowId: c.wfId, activityWorkflowIds: [c.awId] })).status,
    ).toBe(200);
  });
});
