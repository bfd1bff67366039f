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
async function scormCourse(folder: string, maxScore: number | null, files?: Record<string, string>) {
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
  const zip = files ? zipFolder(null, files) : zipFolder(`demo/data/scorm/${folder}`);
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
  // Each test imports its own package: more than the per-author import limit a minute.
  t = await createTestApi({ writeLimits: { packageImport: { points: 100, durationSeconds: 60 } } });
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
        "cmi.core.lesson_location": "x".repeat(4097),
        "cmi.core.session_time": "00:61:00",
      },
    });
    expect(res.status).toBe(400);
    const { errors } = await res.json();
    expect(errors["cmi.cmi.core.lesson_status"][0].code).toBe("scorm.405");
    expect(errors["cmi.cmi.core.score.raw"][0].code).toBe("scorm.405");
    expect(errors["cmi.cmi.core.student_id"][0].code).toBe("scorm.401");
    expect(errors["cmi.cmi.core.lesson_location"][0].code).toBe("scorm.405");
    expect(errors["cmi.cmi.core.session_time"][0].code).toBe("scorm.405");
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

describe("what a package reports is kept", () => {
  it("a 1.2 SCO that finishes without setting its status completes the activity (RTE 3.4.2.1.4)", async () => {
    const c = await scormCourse("gifts-quiz-12", null);
    const finish = await c.commit({
      scoId: "quiz",
      sequence: 1,
      finish: true,
      cmi: { "cmi.core.exit": "", "cmi.core.session_time": "00:01:00" },
    });
    expect(await finish.json()).toEqual({ applied: true, sequence: 1, finished: true });
    expect((await c.standing()).state).toBe(3);
  });

  it("a package's score is kept when its activity had no maximum: out of 100", async () => {
    const c = await scormCourse("phishing-lesson-2004", null);
    for (const [sequence, scoId, extra] of [
      [1, "read", {}],
      [1, "check", { "cmi.success_status": "passed", "cmi.score.scaled": "0.93" }],
    ] as const)
      await c.commit({
        scoId,
        sequence,
        finish: true,
        cmi: { "cmi.completion_status": "completed", "cmi.exit": "normal", ...extra },
      });
    expect(await c.standing()).toEqual({ state: 3, score: 93, passed: true, recorded: true });
  });
});

/** A 2004 package with the manifest values issue 30 item 4 names, and two SCOs sharing data. */
const MANIFEST_VALUES = `<?xml version="1.0"?>
<manifest identifier="values" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Values</title>
    <item identifier="one" identifierref="r1"><title>One</title>
      <adlcp:dataFromLMS>level=2</adlcp:dataFromLMS>
      <adlcp:timeLimitAction>exit,message</adlcp:timeLimitAction>
      <adlcp:completionThreshold completedByMeasure="true" minProgressMeasure="0.75"/>
      <adlcp:data><adlcp:map targetID="notes"/><adlcp:map targetID="answers" writeSharedData="false"/></adlcp:data>
      <imsss:sequencing>
        <imsss:limitConditions attemptAbsoluteDurationLimit="PT30M"/>
        <imsss:objectives><imsss:primaryObjective objectiveID="p" satisfiedByMeasure="true"><imsss:minNormalizedMeasure>0.6</imsss:minNormalizedMeasure></imsss:primaryObjective></imsss:objectives>
      </imsss:sequencing>
    </item>
    <item identifier="two" identifierref="r2"><title>Two</title>
      <adlcp:data><adlcp:map targetID="notes" writeSharedData="false"/></adlcp:data>
    </item>
  </organization></organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="one.html"><file href="one.html"/></resource>
    <resource identifier="r2" type="webcontent" adlcp:scormType="sco" href="two.html"><file href="two.html"/></resource>
  </resources>
</manifest>`;

describe("SCORM run-time conformance (issue 30)", () => {
  const values = () =>
    scormCourse("values", 10, { "imsmanifest.xml": MANIFEST_VALUES, "one.html": "<p>1</p>", "two.html": "<p>2</p>" });

  it("item 4: the manifest's values, the learner and a content grant reach the run-time", async () => {
    const c = await values();
    const rt = await (await c.runtime()).json();
    expect(rt.learner).toEqual({ id: t.users.ada, name: expect.stringMatching(/, /) });
    expect(rt.contentToken).toMatch(/^[A-Za-z0-9_-]{96}$/);
    expect(rt.scos[0]).toMatchObject({
      entry: "ab-initio",
      attempt: 1,
      totalTime: "PT0S",
      launchData: "level=2",
      timeLimit: 1800,
      timeLimitAction: "exit,message",
      completionThreshold: 0.75,
      scaledPassingScore: 0.6,
      sharedData: [
        { targetId: "notes", read: true, write: true },
        { targetId: "answers", read: true, write: false },
      ],
    });
    expect(rt.scos[1]).toMatchObject({ completionThreshold: null, scaledPassingScore: null });
  });

  it("items 1–3: total time accumulates at Terminate, cmi.entry says resume, a normal exit starts a new attempt", async () => {
    const c = await values();
    const one = (sequence: number, attempt: number, cmi: Record<string, string>, extra: object = {}) =>
      c.commit({ scoId: "one", attempt, sequence, cmi, finish: true, ...extra });
    await one(1, 1, {
      "cmi.location": "p1",
      "cmi.suspend_data": "s1",
      "cmi.exit": "suspend",
      "cmi.session_time": "PT1M",
    });
    let sco = (await (await c.runtime()).json()).scos[0];
    // The session's time is in the total and is not handed back as this session's (RTE 4.2.27).
    expect(sco).toMatchObject({ entry: "resume", attempt: 1, totalTime: "PT1M" });
    expect(sco.cmi).toEqual({ "cmi.location": "p1", "cmi.suspend_data": "s1", "cmi.exit": "suspend" });
    // A session that sets no session time adds nothing.
    await one(2, 1, { "cmi.location": "p2", "cmi.exit": "suspend" });
    await one(
      3,
      1,
      { "cmi.location": "p3", "cmi.exit": "", "cmi.session_time": "PT1H59M20S" },
      { navRequest: "suspendAll" },
    );
    sco = (await (await c.runtime()).json()).scos[0];
    expect(sco).toMatchObject({ entry: "resume", attempt: 1, totalTime: "PT2H20S" });
    await one(4, 1, { "cmi.exit": "normal", "cmi.session_time": "PT5S" });
    const rt = await (await c.runtime()).json();
    sco = rt.scos[0];
    expect(sco).toMatchObject({ entry: "ab-initio", attempt: 2, totalTime: "PT0S", cmi: {} });
    // In the database: the ended attempt keeps its total until the next attempt's first save.
    const [row] = await t.database.db.select().from(s.scormAttempts).where(eq(s.scormAttempts.scoId, "one"));
    expect(row).toMatchObject({ attempt: 1, state: "ended", totalCentis: (2 * 3600 + 25) * 100 });
    // A late save of the ended attempt changes nothing; the new attempt's first save starts it.
    expect(await (await one(5, 1, { "cmi.location": "late" })).json()).toMatchObject({ applied: false });
    expect(
      await (await one(6, 2, { "cmi.location": "a2", "cmi.exit": "suspend", "cmi.session_time": "PT10S" })).json(),
    ).toMatchObject({
      applied: true,
    });
    sco = (await (await c.runtime()).json()).scos[0];
    expect(sco).toMatchObject({
      entry: "resume",
      attempt: 2,
      totalTime: "PT10S",
      cmi: { "cmi.location": "a2", "cmi.exit": "suspend" },
    });
  });

  it("a time-out exit ends every SCO's attempt (exitAll)", async () => {
    const c = await values();
    await c.commit({
      scoId: "two",
      attempt: 1,
      sequence: 1,
      finish: true,
      cmi: { "cmi.location": "t", "cmi.exit": "suspend" },
    });
    await c.commit({ scoId: "one", attempt: 1, sequence: 1, finish: true, cmi: { "cmi.exit": "time-out" } });
    const rt = await (await c.runtime()).json();
    expect(rt.scos.map((x: { entry: string; attempt: number }) => [x.entry, x.attempt])).toEqual([
      ["ab-initio", 2],
      ["ab-initio", 2],
    ]);
  });

  it("item 5: the server refuses malformed durations and values whatever the browser accepted", async () => {
    const c = await values();
    const res = await c.commit({
      scoId: "one",
      attempt: 1,
      sequence: 1,
      cmi: { "cmi.session_time": "P1Y6M14DT", "cmi.location": "" },
    });
    expect(res.status).toBe(400);
    const { errors } = await res.json();
    expect(errors["cmi.cmi.session_time"][0].code).toBe("scorm.406");
    expect(errors["cmi.cmi.location"]).toBeUndefined();
    expect(
      (await c.commit({ scoId: "one", attempt: 1, sequence: 1, cmi: {}, navRequest: "{target=x}leap" })).status,
    ).toBe(400);
  });

  it("item 4: adl.data is kept per learner and package, and a bucket the SCO may not write is refused", async () => {
    const c = await values();
    const refused = await c.commit({ scoId: "one", attempt: 1, sequence: 1, cmi: {}, shared: { answers: "x" } });
    expect((await refused.json()).errors["shared.answers"][0].code).toBe("scorm.404");
    await c.commit({ scoId: "one", attempt: 1, sequence: 1, cmi: {}, shared: { notes: "remember" } });
    expect((await (await c.runtime()).json()).sharedData).toEqual({ notes: "remember" });
    expect(await (await c.runtime("grace")).status).toBe(404);
  });

  it("item 7: importing into an activity of another kind makes it a SCORM activity in every field, and Mark as done is refused", async () => {
    const db = t.database.db;
    const { objective } = await createCourse(db, tenantId, { activityKind: 5, type: 0 });
    const [video] = await db
      .insert(s.activities)
      .values({
        tenantId,
        name: "Was a video",
        kind: 5,
        contentType: 7,
        type: 0,
        content: { vimeoId: "123" },
        duration: 300,
        toolUrl: "https://tool.example",
        manualGrading: true,
        preferredWidth: 640,
      })
      .returning();
    const [part] = await db
      .insert(s.activityParts)
      .values({ objectiveId: objective.id, activityId: video.id, axis: "0" })
      .returning();
    const zip = zipFolder("demo/data/scorm/gifts-quiz-12");
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
    const [after] = await db.select().from(s.activities).where(eq(s.activities.id, video.id));
    expect(after).toMatchObject({
      kind: 2,
      contentType: 1,
      type: 9,
      toolUrl: null,
      duration: null,
      manualGrading: false,
      preferredWidth: null,
    });
    expect((after.content as { scorm?: unknown }).scorm).toBeDefined();
    // The package is the course's root activity: the course's own kind and type follow.
    const [courseAfter] = await db.select().from(s.objectives).where(eq(s.objectives.id, objective.id));
    expect(courseAfter).toMatchObject({ activityKind: 2, type: 9 });
    const { workflowId } = await enrolUser(
      db,
      { tenantId, userId: t.users.ada, objectiveId: objective.id },
      { workflowState: 1 },
    );
    const [aw] = await db
      .insert(s.activityWorkflows)
      .values({ objectiveWorkflowId: workflowId!, activityPartId: part.id, userId: t.users.ada })
      .returning();
    const finish = await t.request("POST", "/api/lms/v1/finish-activity-workflows", {
      token: await t.token("ada"),
      body: { objectiveWorkflowId: workflowId, activityWorkflowIds: [aw.id] },
    });
    expect(finish.status).toBe(409);
    expect((await finish.json()).errors[""][0].code).toBe("packageFinishesItself");
  });
});
