import { readFileSync, rmSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";
import { zipFolder } from "../../api/scorm/zip-folder";
import { correctResponses } from "../../domain/qti/processing";
import { fromResponses } from "../../domain/qti/responses";
import type {
  AssessmentAttempt,
  QuizGradingAttempt,
  QuizGradingItem,
  ScoredAttempt,
} from "../../domain/contract/assessment";

let t: TestApi;
let tenantId: string;
const CYBER = "demo/data/qti/cyber-exam";

async function importZip(code: string, zip: string, query = "") {
  const body = readFileSync(zip);
  rmSync(zip);
  return t.api.fetch(
    new Request(`http://lms.test/api/assessment/v1/packages?course=${code}${query}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await t.token("admin")}`, "Content-Type": "application/zip" },
      body,
    }),
  );
}

/** A course whose root activity delivers a QTI package; `learner` enrolled with her activity workflow started. */
async function qtiCourse(
  folder: string | null,
  options: { query?: string; files?: Record<string, string>; learner?: string } = {},
) {
  const db = t.database.db;
  const { objective } = await createCourse(db, tenantId, { activityKind: 2, type: 10 });
  const [a] = await db
    .insert(s.activities)
    .values({ tenantId, name: "Exam", kind: 2, contentType: 1, type: 10, maxScore: 20 })
    .returning();
  const [part] = await db
    .insert(s.activityParts)
    .values({ objectiveId: objective.id, activityId: a.id, axis: "0" })
    .returning();
  const res = await importZip(objective.code, zipFolder(folder, options.files), options.query ?? "");
  expect(res.status, await res.clone().text()).toBe(201);
  const imported = (await res.json()) as { id: string };
  const userId = options.learner ?? t.users.ada;
  const { workflowId } = await enrolUser(db, { tenantId, userId, objectiveId: objective.id }, { workflowState: 1 });
  const [aw] = await db
    .insert(s.activityWorkflows)
    .values({ objectiveWorkflowId: workflowId!, activityPartId: part.id, userId })
    .returning();
  const path = `/api/assessment/v1/users/me/objective-workflows/${workflowId}/activity-workflows/${aw.id}/assessment`;
  const as = async (user: string) => ({ token: await t.token(user) });
  return {
    packageId: imported.id,
    awId: aw.id,
    workflowId: workflowId!,
    start: async (user = "ada") => t.request("PUT", path, await as(user)),
    page: async (page?: number, user = "ada") =>
      t.request("GET", `${path}${page === undefined ? "" : `?page=${page}`}`, await as(user)),
    save: async (body: object, user = "ada") =>
      t.request("POST", `${path}/answers`, { ...(await as(user)), body, headers: { Prefer: "respond-sync" } }),
    submit: async (id = randomUUID(), user = "ada") =>
      t.request("POST", `${path}/submit`, { ...(await as(user)), body: { id }, headers: { Prefer: "respond-sync" } }),
    review: async (user = "ada") => t.request("GET", `${path}/review`, await as(user)),
    standing: async () => {
      const [row] = await db.select().from(s.activityWorkflows).where(eq(s.activityWorkflows.id, aw.id));
      const [rec] = await db.select().from(s.activityRecords).where(eq(s.activityRecords.activityWorkflowId, aw.id));
      return {
        state: row.state,
        score: rec?.score ?? null,
        maxScore: rec?.maxScore ?? null,
        passed: rec?.passed ?? null,
      };
    },
  };
}

/** The correct responses of every item of an attempt's page, as the learner would send them. */
async function rightAnswers(packageId: string, attempt: AssessmentAttempt, page: number) {
  const rows = await t.database.db.select().from(s.qtiItems).where(eq(s.qtiItems.packageId, packageId));
  const byId = new Map(rows.map((r) => [r.item.identifier, r.item]));
  return Object.fromEntries(
    attempt.page!.index === page
      ? attempt.page!.items.map((i) => [i.ref, fromResponses(correctResponses(byId.get(i.view.identifier)!))])
      : [],
  );
}

beforeAll(async () => {
  t = await createTestApi({
    writeLimits: {
      packageImport: { points: 100, durationSeconds: 60 },
      command: { points: 1000, durationSeconds: 60 },
    },
  });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

describe("a QTI exam taken through /api/assessment/v1 (issue 48)", () => {
  it("the correct responses score the maximum and pass; nothing secret reaches the learner before", async () => {
    const c = await qtiCourse(CYBER);
    expect((await c.page()).status).toBe(404);
    const started = (await (await c.start()).json()) as AssessmentAttempt;
    expect(started.pages).toHaveLength(2);
    expect(started.pages[1]!.items).toHaveLength(2);
    expect(started.deadline).not.toBeNull();
    const text = JSON.stringify(started);
    expect(text).not.toMatch(/mapping|mapped|correct|"rules"|outcome|Right: a bank/i);
    // The plan is kept: the same pages on every read.
    const again = (await (await c.start()).json()) as AssessmentAttempt;
    expect(again.pages).toEqual(started.pages);
    for (const index of [0, 1]) {
      const page = (await (await c.page(index)).json()) as AssessmentAttempt;
      const saved = await c.save({
        id: randomUUID(),
        page: index,
        answers: await rightAnswers(c.packageId, page, index),
      });
      expect(saved.status, await saved.clone().text()).toBe(200);
    }
    // Resume: the answers come back with the page.
    const resumed = (await (await c.page(0)).json()) as AssessmentAttempt;
    expect(resumed.page!.items.every((i) => i.response !== null)).toBe(true);
    expect(resumed.pages.flatMap((p) => p.items).every((i) => i.answered)).toBe(true);
    expect((await c.submit()).status).toBe(200);
    expect(await c.standing()).toEqual({ state: 3, score: 20, maxScore: 20, passed: true });
    const review = await (await c.review()).json();
    expect(review.attempt).toMatchObject({ score: review.attempt.maxScore, passed: true, state: 3 });
    expect(JSON.stringify(review)).toMatch(/Right: a bank never asks/);
    expect(
      review.items.every((i: { solution?: unknown; view: { solution: unknown } }) => i.view.solution),
    ).toBeTruthy();
  });

  it("wrong answers score what the response processing says; refused answers are 400s that store nothing", async () => {
    const c = await qtiCourse(CYBER);
    const started = (await (await c.start()).json()) as AssessmentAttempt;
    const refs = started.page!.items.map((i) => i.ref);
    expect(refs.sort()).toEqual(["attacks", "mfa", "phishing"]);
    for (const [answers, code] of [
      [{ phishing: { RESPONSE: ["nope"] } }, "responseInvalid"],
      [{ phishing: { RESPONSE: ["type", "report"] } }, "responseTooMany"],
      [{ phishing: { OTHER: ["type"] } }, "responseUnknown"],
      [{ incident: { RESPONSE: ["detect"] } }, "assessmentNotOnPage"],
    ] as const) {
      const res = await c.save({ id: randomUUID(), page: 0, answers });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(Object.values(body.errors).flat()).toEqual([expect.objectContaining({ code })]);
    }
    // One of two second factors and a wrong one: map_response floors at 0; phishing wrong; attacks 2 of 3.
    const saved = await c.save({
      id: randomUUID(),
      page: 0,
      answers: {
        phishing: { RESPONSE: ["reply"] },
        mfa: { RESPONSE: ["app", "question"] },
        attacks: { RESPONSE: ["sqli params", "xss escape", "brute escape"] },
      },
    });
    expect(saved.status).toBe(200);
    expect((await c.submit()).status).toBe(200);
    const [attempt] = await t.database.db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, c.awId));
    // Maximum: phishing 1 + mfa 2 + attacks 3 + two of the practice items (incident weighs 2).
    expect(attempt.score).toBe(2);
    expect(attempt.passed).toBe(false);
    const standing = await c.standing();
    expect(standing).toMatchObject({ state: 3, passed: false });
    expect(standing.score).toBeCloseTo((2 / attempt.maxScore!) * 20);
    // Over: no more answers.
    const late = await c.save({ id: randomUUID(), page: 0, answers: { phishing: { RESPONSE: ["report"] } } });
    expect(late.status).toBe(409);
  });

  it("saves once per command id; the same id with other answers is refused", async () => {
    const c = await qtiCourse(CYBER);
    await c.start();
    const id = randomUUID();
    const body = { id, page: 0, answers: { phishing: { RESPONSE: ["report"] } } };
    const [a, b] = await Promise.all([c.save(body), c.save(body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await a.json()).id).toBe(id);
    const other = await c.save({ ...body, answers: { phishing: { RESPONSE: ["reply"] } } });
    expect(other.status).toBe(409);
    const [attempt] = await t.database.db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, c.awId));
    const rows = await t.database.db
      .select()
      .from(s.assessmentAnswers)
      .where(eq(s.assessmentAnswers.attemptId, attempt.id));
    expect(rows.map((r) => [r.itemRef, r.response])).toEqual([["phishing", { RESPONSE: ["report"] }]]);
  });

  it("the learner cannot mark a test done: it is done when she submits", async () => {
    const c = await qtiCourse(CYBER);
    const res = await t.request("POST", "/api/lms/v1/finish-activity-workflows", {
      token: await t.token("ada"),
      body: { objectiveWorkflowId: c.workflowId, activityWorkflowIds: [c.awId] },
      headers: { Prefer: "respond-sync" },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).errors[""][0].code).toBe("doneBySubmitting");
    expect((await c.standing()).state).toBe(1);
  });

  it("another learner's attempt is a 404", async () => {
    const c = await qtiCourse(CYBER);
    await c.start();
    expect((await c.page(undefined, "grace")).status).toBe(404);
    expect((await c.save({ id: randomUUID(), page: 0, answers: {} }, "grace")).status).toBe(404);
    expect((await c.submit(randomUUID(), "grace")).status).toBe(404);
    expect((await c.review("grace")).status).toBe(404);
  });

  it("the time limit holds on the server: a late answer is refused and the attempt ends itself", async () => {
    const c = await qtiCourse(CYBER);
    const now = new Date("2030-01-01T10:00:00Z");
    t.setNow(now);
    await c.start();
    expect((await c.save({ id: randomUUID(), page: 0, answers: { phishing: { RESPONSE: ["report"] } } })).status).toBe(
      200,
    );
    t.setNow(new Date(now.getTime() + 5401_000));
    const late = await c.save({ id: randomUUID(), page: 0, answers: { mfa: { RESPONSE: ["app", "key"] } } });
    expect(late.status).toBe(409);
    expect((await late.json()).errors[""][0].code).toBe("assessmentTimeUp");
    const over = (await (await c.page()).json()) as AssessmentAttempt;
    expect([over.state, over.ended]).toEqual([3, "timeUp"]);
    const [attempt] = await t.database.db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, c.awId));
    expect(attempt.score).toBe(1);
    expect((await c.standing()).state).toBe(3);
    t.setNow(new Date());
  });
});

const NS = `xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"`;
const manifest = (items: string[]) =>
  `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources>${items
    .map((h, i) => `<resource identifier="r${i}" type="imsqti_item_xmlv3p0" href="${h}"><file href="${h}"/></resource>`)
    .join("")}</resources></manifest>`;

describe("surveys and essays", () => {
  const scale = `<qti-assessment-item ${NS} identifier="useful" title="Useful"><qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"/>
    <qti-item-body><qti-choice-interaction response-identifier="RESPONSE" max-choices="1"><qti-prompt>Was the course useful?</qti-prompt>
    <qti-simple-choice identifier="yes">Yes</qti-simple-choice><qti-simple-choice identifier="no">No</qti-simple-choice></qti-choice-interaction></qti-item-body></qti-assessment-item>`;
  const essay = `<qti-assessment-item ${NS} identifier="essay" title="Essay"><qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
    <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" normal-maximum="4" external-scored="human"/>
    <qti-item-body><qti-extended-text-interaction response-identifier="RESPONSE"><qti-prompt>Describe a risk.</qti-prompt></qti-extended-text-interaction></qti-item-body></qti-assessment-item>`;

  it("an anonymous survey is done on submit without a score and keeps no learner with its answers", async () => {
    const c = await qtiCourse(null, {
      files: { "imsmanifest.xml": manifest(["useful.xml"]), "useful.xml": scale },
      query: "&survey=true&anonymous=true",
    });
    const started = (await (await c.start()).json()) as AssessmentAttempt;
    expect(started.survey).toBe(true);
    await c.save({ id: randomUUID(), page: 0, answers: { [started.page!.items[0]!.ref]: { RESPONSE: ["yes"] } } });
    expect((await c.submit()).status).toBe(200);
    expect(await c.standing()).toEqual({ state: 3, score: null, maxScore: null, passed: null });
    const kept = await t.database.db.select().from(s.surveyAnswers).where(eq(s.surveyAnswers.packageId, c.packageId));
    expect(kept).toEqual([expect.objectContaining({ response: { RESPONSE: ["yes"] } })]);
    expect(Object.keys(kept[0]!)).not.toContain("userId");
    const [attempt] = await t.database.db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, c.awId));
    expect(
      await t.database.db.select().from(s.assessmentAnswers).where(eq(s.assessmentAnswers.attemptId, attempt.id)),
    ).toEqual([]);
  });

  it("an essay leaves the attempt in grading until an instructor scores it", async () => {
    const c = await qtiCourse(null, { files: { "imsmanifest.xml": manifest(["essay.xml"]), "essay.xml": essay } });
    const started = (await (await c.start()).json()) as AssessmentAttempt;
    const ref = started.page!.items[0]!.ref;
    await c.save({ id: randomUUID(), page: 0, answers: { [ref]: { RESPONSE: ["Phishing by e-mail."] } } });
    await c.submit();
    expect(await c.standing()).toMatchObject({ state: 2, score: null });
    const [attempt] = await t.database.db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, c.awId));
    const path = `/api/assessment/v1/attempts/${attempt.id}/items/${ref}/score`;
    expect((await t.request("PUT", path, { token: await t.token("ada"), body: { score: 4 } })).status).toBe(403);
    expect((await t.request("PUT", path, { token: await t.token("grace"), body: { score: 9 } })).status).toBe(400);
    const graded = await t.request("PUT", path, { token: await t.token("grace"), body: { score: 3 } });
    expect(graded.status).toBe(200);
    expect(await c.standing()).toEqual({ state: 3, score: 15, maxScore: 20, passed: null });
  });
});

describe("test answers in the grading queue (decision 065)", () => {
  const essay = `<qti-assessment-item ${NS} identifier="essay" title="Essay"><qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
    <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" normal-maximum="4" external-scored="human"/>
    <qti-item-body><qti-extended-text-interaction response-identifier="RESPONSE"><qti-prompt>Describe a risk.</qti-prompt></qti-extended-text-interaction></qti-item-body></qti-assessment-item>`;
  const choice = `<qti-assessment-item ${NS} identifier="mfa" title="MFA"><qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>yes</qti-value></qti-correct-response></qti-response-declaration>
    <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
    <qti-item-body><qti-choice-interaction response-identifier="RESPONSE" max-choices="1"><qti-prompt>Is a second factor safer?</qti-prompt>
    <qti-simple-choice identifier="yes">Yes</qti-simple-choice><qti-simple-choice identifier="no">No</qti-simple-choice></qti-choice-interaction></qti-item-body>
    <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct"/></qti-assessment-item>`;
  const queue = async (user: string) =>
    t.request("GET", "/api/assessment/v1/grading/attempts", { token: await t.token(user) });

  it("a grader sees the essay with the learner's answer, scores it once, and the attempt is done", async () => {
    const c = await qtiCourse(null, {
      files: { "imsmanifest.xml": manifest(["essay.xml", "mfa.xml"]), "essay.xml": essay, "mfa.xml": choice },
    });
    const started = (await (await c.start()).json()) as AssessmentAttempt;
    const refs: Record<string, string> = {};
    for (const p of started.pages) {
      const page = (await (await c.page(p.index)).json()) as AssessmentAttempt;
      const answers: Record<string, Record<string, string[]>> = {};
      for (const i of page.page!.items) {
        refs[i.view.identifier] = i.ref;
        answers[i.ref] = { RESPONSE: [i.view.identifier === "essay" ? "Phishing by e-mail." : "yes"] };
      }
      expect((await c.save({ id: randomUUID(), page: p.index, answers })).status).toBe(200);
    }
    await c.submit();
    expect(await c.standing()).toMatchObject({ state: 2, score: null });
    const [attempt] = await t.database.db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, c.awId));

    expect((await queue("ada")).status).toBe(403);
    const graceToken = await t.token("grace");
    const before = t.database.queryCount();
    const listing = await t.request("GET", "/api/assessment/v1/grading/attempts", { token: graceToken });
    const statements = t.database.queryCount() - before;
    console.log(`[assessment] grading queue: ${statements} statements`);
    // The role, the attempts, the items that need a person, the open answers (and the caller's session).
    expect(statements).toBeLessThanOrEqual(6);
    const listed = (await listing.json()) as { data: QuizGradingItem[] };
    expect(listed.data.find((i) => i.attemptId === attempt.id)).toMatchObject({
      waiting: 1,
      title: expect.any(String),
    });

    const one = `/api/assessment/v1/grading/attempts/${attempt.id}`;
    // The learner herself, like anyone who does not grade, finds nothing there.
    expect((await t.request("GET", one, { token: await t.token("ada") })).status).toBe(404);
    const seen = (await (await t.request("GET", one, { token: await t.token("grace") })).json()) as QuizGradingAttempt;
    expect(seen.items.map((i) => [i.ref, i.response, i.maxScore, i.gradedScore])).toEqual([
      [refs.essay, { RESPONSE: ["Phishing by e-mail."] }, 4, null],
    ]);
    expect(JSON.stringify(seen)).not.toMatch(/correct|"rules"|mapping/i);

    const score = async (scores: Record<string, number>, user = "grace") =>
      t.request("PUT", `${one}/scores`, { token: await t.token(user), body: { scores } });
    expect((await score({ [refs.essay!]: 3 }, "ada")).status).toBe(404);
    const over = await score({ [refs.essay!]: 9 });
    expect(over.status).toBe(400);
    expect((await over.json()).errors[`scores.${refs.essay}`][0]).toMatchObject({
      code: "gradingScoreRange",
      params: { max: 4 },
    });
    expect((await score({ nothing: 1 })).status).toBe(400);
    expect((await score({ [refs.mfa!]: 1 })).status).toBe(409);
    expect(await c.standing()).toMatchObject({ state: 2 });

    const done = await score({ [refs.essay!]: 3 });
    expect(done.status).toBe(200);
    const doneBody = (await done.json()) as ScoredAttempt;
    expect(doneBody).toMatchObject({ state: 3 });
    // A double click: the same scores again answer the same; other scores are refused.
    expect(await (await score({ [refs.essay!]: 3 })).json()).toEqual(doneBody);
    expect((await score({ [refs.essay!]: 2 })).status).toBe(409);
    // 3 of 4 and 1 of 1 on an activity out of 20.
    expect(await c.standing()).toEqual({ state: 3, score: 16, maxScore: 20, passed: null });
    const after = (await (await queue("grace")).json()) as { data: QuizGradingItem[] };
    expect(after.data.some((i) => i.attemptId === attempt.id)).toBe(false);
    // Who scored it, and when, stays with the answer.
    const scored = (await (
      await t.request("GET", one, { token: await t.token("grace") })
    ).json()) as QuizGradingAttempt;
    expect(scored.items[0]).toMatchObject({ gradedScore: 3, gradedBy: expect.stringMatching(/^Grace /) });
    expect(Date.parse(scored.items[0]!.gradedAt!)).not.toBeNaN();
    // The learner is told once (the double click above told nothing more), with the score her course shows.
    const told = await t.database.db
      .select()
      .from(s.learnerNotifications)
      .where(eq(s.learnerNotifications.userId, attempt.userId));
    expect(told.filter((n) => n.itemKey.startsWith(attempt.id))).toEqual([
      expect.objectContaining({ kind: "graded", score: 16, maxScore: 20 }),
    ]);
  });
  it("a learner whose course hides its grades is told her test is graded, without the score", async () => {
    const c = await qtiCourse(null, { files: { "imsmanifest.xml": manifest(["essay.xml"]), "essay.xml": essay } });
    const started = (await (await c.start()).json()) as AssessmentAttempt;
    const ref = started.page!.items[0]!.ref;
    await c.save({ id: randomUUID(), page: 0, answers: { [ref]: { RESPONSE: ["Lost laptops."] } } });
    await c.submit();
    const db = t.database.db;
    const [wf] = await db.select().from(s.objectiveWorkflows).where(eq(s.objectiveWorkflows.id, c.workflowId));
    // The course was submitted and finished meanwhile; its grades are never shown.
    await db
      .update(s.objectiveWorkflows)
      .set({ state: ObjectiveWorkflowState.finished })
      .where(eq(s.objectiveWorkflows.id, c.workflowId));
    await db
      .update(s.objectiveWorkflowAggregates)
      .set({ gradeRevealPolicy: "never" })
      .where(eq(s.objectiveWorkflowAggregates.id, wf!.aggregateId));
    const [attempt] = await db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, c.awId));
    const res = await t.request("PUT", `/api/assessment/v1/grading/attempts/${attempt!.id}/scores`, {
      token: await t.token("grace"),
      body: { scores: { [ref]: 2 } },
    });
    expect(res.status).toBe(200);
    const told = await db
      .select()
      .from(s.learnerNotifications)
      .where(eq(s.learnerNotifications.userId, attempt!.userId));
    expect(told.filter((n) => n.itemKey.startsWith(attempt!.id))).toEqual([
      expect.objectContaining({ kind: "graded", score: null, maxScore: null }),
    ]);
  });
});

describe("import refusals name the file and store nothing", () => {
  it.each([
    [
      {
        "imsmanifest.xml": manifest(["a.xml"]),
        "a.xml": `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><qti-assessment-item identifier="a"/>`,
      },
      /a\.xml:1: declares a document type/,
    ],
    [{ "imsmanifest.xml": manifest(["a.xml"]) }, /a\.xml is named by the package but is not in it/],
    [
      {
        "imsmanifest.xml": manifest(["a.xml"]),
        "a.xml": `<qti-assessment-item ${NS} identifier="hs"><qti-item-body><qti-hotspot-interaction response-identifier="R"/></qti-item-body></qti-assessment-item>`,
      },
      /a\.xml: item "hs": the interaction <qti-hotspot-interaction>/,
    ],
    [{ "../evil.xml": "x" }, /unsafe path/],
  ])("%#", async (files, why) => {
    const db = t.database.db;
    const { objective } = await createCourse(db, tenantId);
    const [a] = await db.insert(s.activities).values({ tenantId, name: "Exam", kind: 2, contentType: 1 }).returning();
    await db.insert(s.activityParts).values({ objectiveId: objective.id, activityId: a.id, axis: "0" });
    const before = (await db.select().from(s.qtiPackages)).length;
    const res = await importZip(objective.code, zipFolder(null, files));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await res.json()).errors.package[0].message).toMatch(why);
    expect((await db.select().from(s.qtiPackages)).length).toBe(before);
  });
});

describe("bounded statements (issue 48, performance)", () => {
  it("a 40-item page reads, and a 40-answer submit scores, in a number of statements that does not grow with the items", async () => {
    const files: Record<string, string> = {};
    const hrefs: string[] = [];
    for (let i = 1; i <= 40; i++) {
      const href = `items/q${i}.xml`;
      hrefs.push(href);
      files[href] = `<qti-assessment-item ${NS} identifier="q${i}" title="Q${i}">
        <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>a</qti-value></qti-correct-response></qti-response-declaration>
        <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
        <qti-item-body><qti-choice-interaction response-identifier="RESPONSE" max-choices="1" shuffle="true"><qti-prompt>Question ${i}?</qti-prompt>
        <qti-simple-choice identifier="a">A</qti-simple-choice><qti-simple-choice identifier="b">B</qti-simple-choice><qti-simple-choice identifier="c">C</qti-simple-choice></qti-choice-interaction></qti-item-body>
        <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/></qti-assessment-item>`;
    }
    files["imsmanifest.xml"] = manifest(hrefs);
    const c = await qtiCourse(null, { files });
    const started = (await (await c.start()).json()) as AssessmentAttempt;
    expect(started.page!.items).toHaveLength(40);
    const answers = Object.fromEntries(started.page!.items.map((i) => [i.ref, { RESPONSE: ["a"] }]));
    expect((await c.save({ id: randomUUID(), page: 0, answers })).status).toBe(200);
    const db = t.database;
    let before = db.queryCount();
    const page = await c.page(0);
    const pageStatements = db.queryCount() - before;
    expect(page.status).toBe(200);
    before = db.queryCount();
    expect((await c.submit()).status).toBe(200);
    const submitStatements = db.queryCount() - before;
    console.log(
      `[assessment] 40-item page: ${pageStatements} statements; 40-answer submit: ${submitStatements} statements`,
    );
    expect(pageStatements).toBeLessThanOrEqual(12);
    expect(submitStatements).toBeLessThanOrEqual(25);
    expect(await c.standing()).toMatchObject({ state: 3, score: 20, passed: null });
  });
});

describe("taking a test: flags for review and saving as the learner goes (decision 057)", () => {
  const rowsOf = async (awId: string) => {
    const [attempt] = await t.database.db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, awId));
    const rows = await t.database.db
      .select()
      .from(s.assessmentAnswers)
      .where(eq(s.assessmentAnswers.attemptId, attempt.id));
    return rows
      .map((r) => ({ ref: r.itemRef, response: r.response, flagged: r.flagged }))
      .sort((a, b) => a.ref.localeCompare(b.ref));
  };

  it("keeps the flags with the answers: they come back on every read, and an unanswered flagged item stays unanswered", async () => {
    const c = await qtiCourse(CYBER);
    await c.start();
    const saved = await c.save({
      id: randomUUID(),
      page: 0,
      answers: { phishing: { RESPONSE: ["report"] } },
      flagged: ["phishing", "mfa"],
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const page = (await (await c.page(0)).json()) as AssessmentAttempt;
    const marks = Object.fromEntries(page.pages[0]!.items.map((i) => [i.ref, [i.answered, i.flagged]]));
    expect(marks).toEqual({ phishing: [true, true], mfa: [false, true], attacks: [false, false] });
    expect(Object.fromEntries(page.page!.items.map((i) => [i.ref, i.flagged]))).toEqual({
      phishing: true,
      mfa: true,
      attacks: false,
    });
    // Unflagging keeps the answer; a save without `flagged` leaves the flags as they are.
    expect((await c.save({ id: randomUUID(), page: 0, answers: {}, flagged: ["mfa"] })).status).toBe(200);
    expect((await c.save({ id: randomUUID(), page: 0, answers: { attacks: {} } })).status).toBe(200);
    const rows = await rowsOf(c.awId);
    expect(rows).toEqual([
      { ref: "attacks", response: {}, flagged: false },
      { ref: "mfa", response: {}, flagged: true },
      { ref: "phishing", response: { RESPONSE: ["report"] }, flagged: false },
    ]);
    // A question of another page cannot be flagged from this one.
    const other = await c.save({ id: randomUUID(), page: 0, answers: {}, flagged: ["incident"] });
    expect(other.status).toBe(400);
    expect(Object.values((await other.json()).errors).flat()).toEqual([
      expect.objectContaining({ code: "assessmentNotOnPage" }),
    ]);
    // Submitted: the flags count for nothing in the score.
    expect((await c.submit()).status).toBe(200);
    const [attempt] = await t.database.db
      .select()
      .from(s.assessmentAttempts)
      .where(eq(s.assessmentAttempts.activityWorkflowId, c.awId));
    expect(attempt.score).toBe(1);
  });

  it("an autosave sent twice stores one answer, and a late retry of an older save does not undo a newer one", async () => {
    const c = await qtiCourse(CYBER);
    await c.start();
    const first = { id: randomUUID(), page: 0, answers: { phishing: { RESPONSE: ["reply"] } }, flagged: [] };
    const [a, b] = await Promise.all([c.save(first), c.save(first)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const second = {
      id: randomUUID(),
      page: 0,
      answers: { phishing: { RESPONSE: ["report"] } },
      flagged: ["phishing"],
    };
    expect((await c.save(second)).status).toBe(200);
    // The page hid while the first save's answer was lost: the same command is sent again.
    expect((await c.save(first)).status).toBe(200);
    expect(await rowsOf(c.awId)).toEqual([
      { ref: "attacks", response: {}, flagged: false },
      { ref: "mfa", response: {}, flagged: false },
      { ref: "phishing", response: { RESPONSE: ["report"] }, flagged: true },
    ]);
  });
});
