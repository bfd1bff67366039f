import { readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { zipFolder } from "../../api/scorm/zip-folder";

let t: TestApi;
let tenantId: string;

/** A course whose root activity runs a demo package, ada enrolled with her activity workflow started. */
async function scormCourse(folder: string, maxScore: number | null) {
  const db = t.database.db;
  const { objective } = await createCourse(db, tenantId, { activityKind: 2, type: 9 });
  const [a] = await db
    .insert(s.activities)
    .values({ tenantId, name: folder, kind: 2, contentType: 1, type: 9, maxScore })
    .returning();
  const [part] = await db
    .insert(s.activityParts)
    .values({ objectiveId: objective.id, activityId: a.id, axis: "0" })
    .returning();
  const zip = zipFolder(`api/demo/data/scorm/${folder}`);
  const body = readFileSync(zip);
  rmSync(zip);
  const res = await t.api.fetch(
    new Request(`http://lms.test/api/scorm/v1/packages?course=${objective.code}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await t.token("admin")}`, "Content-Type": "application/zip" },
      body,
    }),
  );
  expect(res.status).toBe(201);
  const { workflowId } = await enrolUser(
    db,
    { tenantId, userId: t.users.ada, objectiveId: objective.id },
    { workflowState: 1 },
  );
  const [aw] = await db
    .insert(s.activityWorkflows)
    .values({ objectiveWorkflowId: workflowId!, activityPartId: part.id, userId: t.users.ada })
    .returning();
  const path = `/api/lms/v1/users/me/objective-workflows/${workflowId}/activity-workflows/${aw.id}`;
  const commit = async (scorm: object, user = "ada") =>
    t.request("PUT", path, { token: await t.token(user), body: { scorm } });
  const runtime = async (user = "ada") =>
    t.request("GET", `/api/scorm/v1/users/me/objective-workflows/${workflowId}/activity-workflows/${aw.id}/runtime`, {
      token: await t.token(user),
    });
  const standing = async () => {
    const [row] = await db.select().from(s.activityWorkflows).where(eq(s.activityWorkflows.id, aw.id));
    const [record] = await db.select().from(s.activityRecords).where(eq(s.activityRecords.activityWorkflowId, aw.id));
    return { state: row.state, score: record?.score ?? null, passed: record?.passed ?? null, recorded: !!record };
  };
  return { commit, runtime, standing };
}

beforeAll(async () => {
  t = await createTestApi();
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

describe("SCORM 1.2 run-time data (issue 15 item 2)", () => {
  it("keeps lesson_location and suspend_data for exact resume and finishes with the score", async () => {
    const c = await scormCourse("gifts-quiz-12", 10);
    const first = await c.commit({
      scoId: "quiz",
      sequence: 1,
      cmi: {
        "cmi.core.lesson_location": "q3",
        "cmi.suspend_data": '{"q1":"b","q2":"a","q3":"a"}',
        "cmi.core.lesson_status": "incomplete",
        "cmi.core.exit": "suspend",
      },
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ applied: true, sequence: 1, finished: false });
    const resumed = await (await c.runtime()).json();
    expect(resumed).toMatchObject({
      version: "1.2",
      scos: [{ id: "quiz", launch: "quiz.html?mode=quiz", sequence: 1 }],
    });
    expect(resumed.scos[0].cmi).toEqual({
      "cmi.core.lesson_location": "q3",
      "cmi.suspend_data": '{"q1":"b","q2":"a","q3":"a"}',
      "cmi.core.lesson_status": "incomplete",
      "cmi.core.exit": "suspend",
    });
    expect((await c.standing()).recorded).toBe(false);

    const finish = await c.commit({
      scoId: "quiz",
      sequence: 2,
      finish: true,
      cmi: { "cmi.core.lesson_status": "passed", "cmi.core.score.raw": "80", "cmi.core.score.max": "100" },
    });
    expect(await finish.json()).toEqual({ applied: true, sequence: 2, finished: true });
    // 80 % of the activity's 10 points; mastery score 60: passed.
    expect(await c.standing()).toEqual({ state: 3, score: 8, passed: true, recorded: true });
  });

  it("refuses bad values with the runtime's error codes and applies nothing", async () => {
    const c = await scormCourse("gifts-quiz-12", 10);
    const res = await c.commit({
      scoId: "quiz",
      sequence: 1,
      cmi: {
        "cmi.core.lesson_status": "great",
        "cmi.core.score.raw": "150",
        "cmi.core.student_id": "me",
        "cmi.core.lesson_location": "x".repeat(256),
      },
    });
    expect(res.status).toBe(400);
    const { errors } = await res.json();
    expect(errors["cmi.cmi.core.lesson_status"][0].code).toBe("scorm.405");
    expect(errors["cmi.cmi.core.score.raw"][0].code).toBe("scorm.405");
    expect(errors["cmi.cmi.core.student_id"][0].code).toBe("scorm.401");
    expect(errors["cmi.cmi.core.lesson_location"][0].code).toBe("scorm.405");
    expect((await (await c.runtime()).json()).scos[0].sequence).toBe(0);
  });

  it("ignores duplicate and out-of-order commits (sequence numbers)", async () => {
    const c = await scormCourse("gifts-quiz-12", null);
    const at = (sequence: number, location: string) =>
      c.commit({ scoId: "quiz", sequence, cmi: { "cmi.core.lesson_location": location } });
    expect(await (await at(2, "q2")).json()).toEqual({ applied: true, sequence: 2, finished: false });
    expect(await (await at(2, "q2-again")).json()).toEqual({ applied: false, sequence: 2, finished: false });
    expect(await (await at(1, "q1-late")).json()).toEqual({ applied: false, sequence: 2, finished: false });
    expect(await (await at(3, "q3")).json()).toMatchObject({ applied: true, sequence: 3 });
    expect((await (await c.runtime()).json()).scos[0].cmi["cmi.core.lesson_location"]).toBe("q3");
  });

  it("shows one learner's package data to nobody else", async () => {
    const c = await scormCourse("gifts-quiz-12", null);
    expect((await c.runtime("grace")).status).toBe(404);
    expect((await c.commit({ scoId: "quiz", sequence: 1, cmi: {} }, "grace")).status).toBe(404);
    expect((await c.commit({ scoId: "nope", sequence: 1, cmi: {} })).status).toBe(404);
    expect((await c.commit({ scoId: "quiz", sequence: "one", cmi: {} })).status).toBe(400);
  });
});

describe("SCORM 2004 multi-SCO run-time data (issue 15 items 2, 3)", () => {
  it("keeps cmi.location per SCO and finishes only when every SCO is complete (rollup)", async () => {
    const c = await scormCourse("phishing-lesson-2004", 10);
    const read = await c.commit({
      scoId: "read",
      sequence: 1,
      finish: true,
      cmi: {
        "cmi.location": "3",
        "cmi.completion_status": "completed",
        "cmi.exit": "suspend",
        "cmi.session_time": "PT2M",
      },
    });
    expect(await read.json()).toEqual({ applied: true, sequence: 1, finished: false });
    const runtime = await (await c.runtime()).json();
    expect(runtime.scos.map((x: { id: string; completed: boolean }) => [x.id, x.completed])).toEqual([
      ["read", true],
      ["check", false],
    ]);
    expect(runtime.scos[0].cmi["cmi.location"]).toBe("3");

    const bad = await c.commit({ scoId: "check", sequence: 1, cmi: { "cmi.score.scaled": "2" } });
    expect((await bad.json()).errors["cmi.cmi.score.scaled"][0].code).toBe("scorm.407");
    const check = await c.commit({
      scoId: "check",
      sequence: 1,
      finish: true,
      cmi: {
        "cmi.completion_status": "completed",
        "cmi.success_status": "passed",
        "cmi.score.scaled": "1",
        "cmi.exit": "normal",
      },
    });
    expect(await check.json()).toEqual({ applied: true, sequence: 1, finished: true });
    // The read SCO has no score: the package's score is the check's, 10 of 10; 0.8 needed to pass.
    expect(await c.standing()).toEqual({ state: 3, score: 10, passed: true, recorded: true });
    const again = await c.commit({ scoId: "check", sequence: 2, cmi: { "cmi.location": "x" } });
    expect(again.status).toBe(409);
  });
});
