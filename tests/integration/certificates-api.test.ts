import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser, gradeActivityWorkflows } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { issueCertificate } from "../../api/queries/certificates";

/** Spec 3 'Certificate record', 5 (expiry), 7.6: issuing with the record, the learner's query, the public read. */
let t: TestApi;
let tenantId: string;
let scaleId: string;
let templateId: string;

const NOW = new Date("2026-04-10T08:00:00.000Z");
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApi();
  t.setNow(NOW);
  const db = t.database.db;
  [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
  const [scale] = await db
    .insert(s.gradingScales)
    .values({ tenantId, name: "Pct", maxScore: 100, normalizedPassingScore: 0.6 })
    .returning();
  scaleId = scale.id;
  await db.insert(s.grades).values([
    { gradingScaleId: scale.id, name: "F", color: "#b00", normalizedMinScore: 0 },
    { gradingScaleId: scale.id, name: "A", color: "#080", normalizedMinScore: 0.6 },
  ]);
  const [template] = await db
    .insert(s.certificateTemplates)
    .values({ tenantId, name: "Certified Tester", validityDays: 365 })
    .returning();
  templateId = template.id;
});
afterAll(() => t.close());

async function setup(
  opts: {
    template?: string | null;
    access?: Partial<typeof s.objectiveWorkflowAggregates.$inferInsert>;
    manualGrading?: boolean;
    user?: "ada" | "grace";
  } = {},
) {
  const db = t.database.db;
  const { objective, access } = await createCourse(db, tenantId, {
    gradingScaleId: scaleId,
    activityKind: 3,
    certificateTemplateId: opts.template === undefined ? templateId : opts.template,
  });
  const tree = await createTree(db, tenantId, objective.id, [
    { maxScore: 10 },
    { maxScore: 10, manualGrading: opts.manualGrading ?? false },
  ]);
  const { aggregate } = await enrolUser(
    db,
    { tenantId, userId: t.users[opts.user ?? "ada"], objectiveId: objective.id, accessId: access.id },
    { retake: true, ...opts.access },
  );
  return { objective, aggregate, ...tree, manualPartId: opts.manualGrading ? tree.partIds[1] : null };
}

const call = async (path: string, body: unknown, user = "ada") =>
  t.request("POST", `/api/lms/v1/${path}`, { token: await t.token(user), body, headers: { Prefer: "respond-sync" } });
const read = async (path: string, user: string | null = "ada") =>
  t.request("GET", `/api/lms/v1/${path}`, { token: user ? await t.token(user) : null });

/**
 * Starts an attempt, finishes `done` of the two activities, has the tool score them in full (the one a
 * person grades stays in grading) and submits: 2 → 100% (passed), 1 → 50% (failed).
 */
async function attempt(c: Awaited<ReturnType<typeof setup>>, done: 1 | 2, user = "ada") {
  const wfId = crypto.randomUUID();
  expect(
    (await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId }, user)).status,
  ).toBe(200);
  const aws = await (
    await call(
      "start-activity-workflows",
      { objectiveWorkflowId: wfId, activityPartIds: c.partIds.slice(0, done) },
      user,
    )
  ).json();
  await call(
    "finish-activity-workflows",
    { objectiveWorkflowId: wfId, activityWorkflowIds: aws.data.activityWorkflows.map((a: { id: string }) => a.id) },
    user,
  );
  await gradeActivityWorkflows(
    t.database.db,
    aws.data.activityWorkflows
      .filter((a: { activityPartId: string }) => a.activityPartId !== c.manualPartId)
      .map((a: { id: string }) => a.id),
  );
  const submitted = await call("submit-objective-workflows", { id: wfId }, user);
  expect(submitted.status).toBe(200);
  return { wfId, workflow: (await submitted.json()).data as { objectiveRecordId: string; state: number } };
}

const certificatesOf = (objectiveId: string) =>
  t.database.db.select().from(s.certificateRecords).where(eq(s.certificateRecords.objectiveId, objectiveId));

describe("issuing (spec 3, 4.5)", () => {
  it("a passed submit issues one certificate with the record: number, template name, passing score, expiry = issue + validity", async () => {
    const c = await setup();
    const { workflow } = await attempt(c, 2);
    const rows = await certificatesOf(c.objective.id);
    expect(rows).toHaveLength(1);
    const cert = rows[0];
    expect(cert).toMatchObject({
      userId: t.users.ada,
      objectiveRecordId: workflow.objectiveRecordId,
      certificateTemplateId: templateId,
      templateName: "Certified Tester",
      normalizedPassingScore: 0.6,
    });
    // 80 random bits in Crockford base 32, four groups of four.
    expect(cert.certificateNumber).toMatch(/^LA(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
    expect(cert.created.toISOString()).toBe(NOW.toISOString());
    expect(cert.expirationDate?.toISOString()).toBe(new Date(NOW.getTime() + 365 * DAY).toISOString());

    const res = await read(`certificate-records/query?objectiveId=${c.objective.id}&userId=${t.users.ada}`);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual([
      expect.objectContaining({
        id: cert.id,
        certificateNumber: cert.certificateNumber,
        certificateTemplate: { id: templateId, name: "Certified Tester" },
        objectiveId: c.objective.id,
        userId: t.users.ada,
        objectiveRecordId: workflow.objectiveRecordId,
        objectiveRecord: expect.objectContaining({
          score: 100,
          maxScore: 100,
          normalizedScore: 1,
          passed: true,
          grade: { name: "A", color: "#080" },
        }),
        expirationDate: "2027-04-10T08:00:00.000Z",
        created: NOW.toISOString(),
      }),
    ]);
    // The files are drawn in the background: not yet (null), or stored at the record's own address.
    expect([null, `/api/lms-storage/v1/certificate-records/${cert.id}/pdf`]).toContain(data[0].certificatePdfUrl);
  });

  it("a failed attempt issues no certificate, nor does a passed attempt of a course without a template", async () => {
    const failed = await setup();
    await attempt(failed, 1);
    expect(await certificatesOf(failed.objective.id)).toHaveLength(0);
    expect((await (await read(`certificate-records/query?objectiveId=${failed.objective.id}`)).json()).data).toEqual(
      [],
    );

    const noTemplate = await setup({ template: null });
    await attempt(noTemplate, 2);
    expect(await certificatesOf(noTemplate.objective.id)).toHaveLength(0);
  });

  it("a template without validity issues a certificate that never expires", async () => {
    const [forever] = await t.database.db
      .insert(s.certificateTemplates)
      .values({ tenantId, name: "Lifetime", validityDays: null })
      .returning();
    const c = await setup({ template: forever.id });
    await attempt(c, 2);
    const [cert] = await certificatesOf(c.objective.id);
    expect(cert.expirationDate).toBeNull();
  });

  it("repeating the submit — again, or 10 times at once — issues no second certificate", async () => {
    const c = await setup();
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: c.aggregate.id, id: wfId });
    const aws = await (
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: c.partIds })
    ).json();
    const awIds = aws.data.activityWorkflows.map((a: { id: string }) => a.id);
    await call("finish-activity-workflows", { objectiveWorkflowId: wfId, activityWorkflowIds: awIds });
    await gradeActivityWorkflows(t.database.db, awIds);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call("submit-objective-workflows", { id: wfId })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect((await call("submit-objective-workflows", { id: wfId })).status).toBe(200);
    expect(await certificatesOf(c.objective.id)).toHaveLength(1);
  });

  it("issuing again for the same record (any path) inserts nothing and returns null", async () => {
    const c = await setup();
    const { workflow } = await attempt(c, 2);
    const again = await t.database.db.transaction((tx) =>
      issueCertificate(tx, {
        objectiveId: c.objective.id,
        userId: t.users.ada,
        objectiveRecordId: workflow.objectiveRecordId,
        passed: true,
        now: NOW,
      }),
    );
    expect(again).toBeNull();
    expect(await certificatesOf(c.objective.id)).toHaveLength(1);
  });

  it("an attempt graded by a person gets its certificate when it is finished, once", async () => {
    const c = await setup({ manualGrading: true });
    const { wfId, workflow } = await attempt(c, 2);
    expect(workflow.state).toBe(3); // in grading: unresolved, no certificate yet
    expect(await certificatesOf(c.objective.id)).toHaveLength(0);
    // The instructor grades it (outside the learner app): passed, workflow graded.
    const db = t.database.db;
    await db
      .update(s.objectiveRecords)
      .set({ score: 90, normalizedScore: 0.9, passed: true })
      .where(eq(s.objectiveRecords.id, workflow.objectiveRecordId));
    await db.update(s.objectiveWorkflows).set({ state: 4 }).where(eq(s.objectiveWorkflows.id, wfId));
    const finishId = crypto.randomUUID();
    expect((await call("finish-objective-workflows", { id: finishId, objectiveWorkflowId: wfId })).status).toBe(200);
    expect((await call("finish-objective-workflows", { id: finishId, objectiveWorkflowId: wfId })).status).toBe(200);
    expect(
      (await call("finish-objective-workflows", { id: crypto.randomUUID(), objectiveWorkflowId: wfId })).status,
    ).toBe(409);
    const rows = await certificatesOf(c.objective.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].objectiveRecordId).toBe(workflow.objectiveRecordId);
  });

  it("each passed attempt has its own certificate; the query lists them newest first with distinct numbers", async () => {
    const c = await setup();
    t.setNow(new Date(NOW.getTime() - 400 * DAY));
    await attempt(c, 2);
    t.setNow(NOW);
    await attempt(c, 2);
    const { data } = await (await read(`certificate-records/query?objectiveId=${c.objective.id}&sort=-created`)).json();
    expect(data).toHaveLength(2);
    expect(data.map((d: { created: string }) => d.created)).toEqual([
      NOW.toISOString(),
      new Date(NOW.getTime() - 400 * DAY).toISOString(),
    ]);
    expect(data[1].certificateNumber).toMatch(/^LA(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
    expect(data[0].certificateNumber).not.toBe(data[1].certificateNumber);
    // The older one expired 35 days ago (spec 5: expired when the expiration date is now or past).
    expect(Date.parse(data[1].expirationDate)).toBeLessThanOrEqual(NOW.getTime());
    expect(Date.parse(data[0].expirationDate)).toBeGreaterThan(NOW.getTime());
  });

  it("pages count only the certificates the learner may see: a hidden newest one does not make a page short", async () => {
    const c = await setup();
    t.setNow(new Date(NOW.getTime() - 10 * DAY));
    await attempt(c, 2);
    t.setNow(NOW);
    const { workflow } = await attempt(c, 2);
    // The newest attempt's results are protected: its certificate must not be shown, nor take a place on the page.
    await t.database.db
      .update(s.objectiveRecords)
      .set({ protectResults: true })
      .where(eq(s.objectiveRecords.id, workflow.objectiveRecordId));
    const first = (
      await (await read(`certificate-records/query?objectiveId=${c.objective.id}&sort=-created&take=1`)).json()
    ).data;
    expect(first).toHaveLength(1);
    expect(first[0].created).toBe(new Date(NOW.getTime() - 10 * DAY).toISOString());
    expect(
      (await (await read(`certificate-records/query?objectiveId=${c.objective.id}&sort=-created&take=1&skip=1`)).json())
        .data,
    ).toEqual([]);
  });

  it("a certificate whose result is still hidden (afterDate) is not listed nor public until the reveal date", async () => {
    const c = await setup({
      access: { gradeRevealPolicy: "afterDate", gradeRevealDate: new Date(NOW.getTime() + 7 * DAY) },
    });
    await attempt(c, 2);
    const [cert] = await certificatesOf(c.objective.id);
    expect(cert).toBeDefined();
    expect((await (await read(`certificate-records/query?objectiveId=${c.objective.id}`)).json()).data).toEqual([]);
    expect((await read(`public/certificate-records/${cert.id}`, null)).status).toBe(404);
    t.setNow(new Date(NOW.getTime() + 8 * DAY));
    expect((await (await read(`certificate-records/query?objectiveId=${c.objective.id}`)).json()).data).toHaveLength(1);
    expect((await read(`public/certificate-records/${cert.id}`, null)).status).toBe(200);
    t.setNow(NOW);
  });
});

describe("GET certificate-records/query (spec 7.6)", () => {
  let course: Awaited<ReturnType<typeof setup>>;
  let number: string;
  beforeAll(async () => {
    course = await setup();
    await attempt(course, 2);
    [{ certificateNumber: number }] = await certificatesOf(course.objective.id);
  });

  it("finds the learner's own certificate by its number", async () => {
    const { data } = await (await read(`certificate-records/query?certificateNumber=${number}`)).json();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ certificateNumber: number, objectiveId: course.objective.id });
  });

  it("never lists another learner's certificates: by number, by course, or naming their user id", async () => {
    expect((await (await read(`certificate-records/query?certificateNumber=${number}`, "grace")).json()).data).toEqual(
      [],
    );
    expect(
      (await (await read(`certificate-records/query?objectiveId=${course.objective.id}`, "grace")).json()).data,
    ).toEqual([]);
    expect(
      (
        await (
          await read(`certificate-records/query?objectiveId=${course.objective.id}&userId=${t.users.ada}`, "grace")
        ).json()
      ).data,
    ).toEqual([]);
    // ada asking for grace's: nothing either.
    expect(
      (
        await (
          await read(`certificate-records/query?objectiveId=${course.objective.id}&userId=${t.users.grace}`)
        ).json()
      ).data,
    ).toEqual([]);
  });

  it("needs a sign-in", async () => {
    expect((await read(`certificate-records/query?certificateNumber=${number}`, null)).status).toBe(401);
  });

  it.each([
    ["no filter at all", ""],
    ["a garbled number", "certificateNumber=LA-2026-1' or '1'='1"],
    ["a number in the wrong shape", "certificateNumber=123"],
    ["a course id that is not a uuid", "objectiveId=python"],
    ["a user id that is not a uuid", "objectiveId=00000000-0000-4000-8000-000000000000&userId=me"],
    ["another sort", "objectiveId=00000000-0000-4000-8000-000000000000&sort=created"],
    ["take above 100", "objectiveId=00000000-0000-4000-8000-000000000000&take=1000"],
  ])("refuses %s with 400 and a field message", async (_label, qs) => {
    const res = await read(`certificate-records/query?${qs}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.status).toBe(400);
    expect(Object.values(body.errors).flat().length).toBeGreaterThan(0);
  });
});

describe("GET public/certificate-records/{id} (spec 7.6, 2.7)", () => {
  it("answers without a sign-in with what a share page shows, and no ids of the holder or the record", async () => {
    const c = await setup();
    const { workflow } = await attempt(c, 2);
    const [cert] = await certificatesOf(c.objective.id);
    const res = await read(`public/certificate-records/${cert.id}`, null);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      id: cert.id,
      certificateNumber: cert.certificateNumber,
      certificateTemplate: { name: "Certified Tester" },
      student: { name: "Ada Lovelace" },
      objective: {
        id: c.objective.id,
        name: c.objective.name,
        code: c.objective.code,
        description: c.objective.description,
      },
      result: {
        score: 100,
        maxScore: 100,
        normalizedScore: 1,
        grade: { name: "A", color: "#080" },
        passed: true,
        finished: NOW.toISOString(),
      },
      normalizedPassingScore: 0.6,
      expirationDate: "2027-04-10T08:00:00.000Z",
      externalUrl: null,
      certificatePdfUrl: `/api/lms-storage/v1/public/certificates/${cert.certificateNumber}/pdf`,
      certificatePngUrl: `/api/lms-storage/v1/public/certificates/${cert.certificateNumber}/png`,
      credentialUrl: `http://localhost:3000/api/lms/v1/public/credentials/${cert.certificateNumber}`,
      revoked: false,
      created: NOW.toISOString(),
    });
    const text = JSON.stringify(body);
    for (const secret of [t.users.ada, workflow.objectiveRecordId, c.aggregate.id, tenantId, "ada@example.com"])
      expect(text).not.toContain(secret);
  });

  it("an unknown or malformed id is 404", async () => {
    expect((await read("public/certificate-records/00000000-0000-4000-8000-000000000000", null)).status).toBe(404);
    expect((await read("public/certificate-records/LA-2026-000001", null)).status).toBe(404);
  });
});

describe("OpenAPI (api/openapi.ts)", () => {
  it("documents the certificate and proctoring calls, the public one without security", async () => {
    const doc = await (await t.request("GET", "/api/openapi.json")).json();
    expect(doc.paths["/api/lms/v1/certificate-records/query"].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/api/lms/v1/public/certificate-records/{id}"].get.security).toEqual([]);
    const session =
      doc.paths["/api/lms/v1/users/me/objective-workflows/{id}/activity-workflows/{awId}/last-proctoring-session"].get;
    expect(session.parameters.map((p: { name: string }) => p.name)).toEqual(["id", "awId"]);
    expect(Object.keys(session.responses["200"].content["application/json"].schema.properties)).toEqual([
      "id",
      "state",
      "created",
      "completed",
    ]);
  });
});
