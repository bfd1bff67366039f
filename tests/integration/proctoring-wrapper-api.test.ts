import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, jwtVerify } from "jose";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { ProctoringSessionState as P } from "../../domain/vocabulary";

/** Issue 14 item 8: start token, the wrapper's session start, the proctoring service's completion, and the lock (decision 024). */
const APP = "https://lms.example";
let t: TestApi;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApi({ appUrl: APP });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

const call = async (path: string, body: unknown, user = "ada") =>
  t.request("POST", `/api/lms/v1/${path}`, { token: await t.token(user), body, headers: { Prefer: "respond-sync" } });
const read = async (path: string, user = "ada") =>
  t.request("GET", `/api/lms/v1/${path}`, { token: await t.token(user) });

async function proctoredAttempt() {
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
  return { wfId, awId, base: `users/me/objective-workflows/${wfId}/activity-workflows/${awId}`, ...tree };
}

describe("proctored activity wrapper (spec 4.8, 7.5)", () => {
  it("start token: signed by the platform's published key, for this learner and activity, 5 minutes", async () => {
    const c = await proctoredAttempt();
    const res = await read(`${c.base}/start-token?activityPathId=${c.partIds[0]}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.jwksUri).toBe(`${APP}/api/lti/v1/jwks`);
    const jwks = createLocalJWKSet(await (await t.request("GET", "/api/lti/v1/jwks")).json());
    const { payload } = await jwtVerify(body.token, jwks, { issuer: APP, audience: "urn:learner-app:proctoring" });
    expect(payload).toMatchObject({ sub: t.users.ada, aw: c.awId, activityPathId: c.partIds[0] });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(300);
    // Another activity's path, another learner, garbled ids.
    expect((await read(`${c.base}/start-token?activityPathId=${c.partIds[1]}`)).status).toBe(400);
    expect((await read(`${c.base}/start-token`, "grace")).status).toBe(404);
    expect((await read(`users/me/objective-workflows/x/activity-workflows/y/start-token`)).status).toBe(404);
  });

  it("the wrapper starts a session (once), the proctoring service completes it, and the attempt locks", async () => {
    const c = await proctoredAttempt();
    const first = await call(`${c.base}/proctoring-sessions`, {});
    expect(first.status).toBe(200);
    const session = await first.json();
    expect(session).toMatchObject({ state: P.inProgress, completed: null });
    // A reload of the wrapper: the same session.
    expect((await (await call(`${c.base}/proctoring-sessions`, {})).json()).id).toBe(session.id);
    expect((await (await read(`${c.base}/last-proctoring-session`)).json()).id).toBe(session.id);

    const { token } = await (await read(`${c.base}/start-token`)).json();
    const complete = (auth: string | null, id = session.id) =>
      t.request("POST", `/api/proctoring/v1/sessions/${id}/complete`, auth ? { token: auth } : {});
    expect((await complete(null)).status).toBe(401);
    expect((await complete("forged.token.value")).status).toBe(401);
    expect((await complete(token, crypto.randomUUID())).status).toBe(404);
    const done = await complete(token);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ state: P.completed });
    expect((await complete(token)).status).toBe(409);

    // Decision 024: a completed sitting blocks further actions of the attempt in progress.
    const again = await call("start-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityPartIds: [c.partIds[1]],
    });
    expect(again.status).toBe(409);
    expect((await call(`${c.base}/proctoring-sessions`, {})).status).toBe(409);
    expect((await read(`${c.base}/start-token`)).status).toBe(409);
    const finish = await call("finish-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityWorkflowIds: [c.awId],
    });
    expect(finish.status).toBe(409);
  });
});
