import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { runLearnerMail } from "../../api/jobs/learner-mail";
import { sendPendingMail } from "../../api/mail/outbox";
import { dueReinforcementQuestions } from "../../api/queries/reinforcement";
import { REINFORCEMENT_LADDER_DAYS } from "../../domain/reinforcement";

/** Spec 2.8, 3 'Reinforcement workflow', 4.10, 7.6; decision 021. */
let t: TestApi;
let outbox: string;
const DAY = 86_400_000;
const base = "/api/lms/v1/users/me/reinforcement-learning-workflows";

beforeAll(async () => {
  t = await createTestApi({ catalog: true });
  outbox = mkdtempSync(join(tmpdir(), "reinforcement-"));
});
afterAll(async () => {
  await t.close();
  rmSync(outbox, { recursive: true, force: true });
});

const adasDue = () =>
  t.database.db
    .select()
    .from(s.reinforcementWorkflows)
    .where(eq(s.reinforcementWorkflows.userId, t.users.ada))
    .orderBy(s.reinforcementWorkflows.created);

const get = async (id: string, user = "ada") => t.request("GET", `${base}/${id}`, { token: await t.token(user) });
const answer = async (id: string, body: unknown, user = "ada") =>
  t.request("POST", `${base}/${id}/answer`, { token: await t.token(user), body, headers: { Prefer: "respond-sync" } });

describe("the demo (demo/data/reinforcement.json, ada's recipe)", () => {
  it("has questions due for ada about Python for Data Analysis", async () => {
    const rows = await adasDue();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.dueAt.getTime() < Date.now() && r.answer === null)).toBe(true);
  });
});

describe("GET users/me/reinforcement-learning-workflows/{id} (spec 7.6)", () => {
  it("shows the question and its options, never the correct one or the feedback before the answer", async () => {
    const [wf] = await adasDue();
    const res = await get(wf.id);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      id: wf.id,
      objectiveName: "Python for Data Analysis",
      question: wf.question,
      answer: null,
      normalizedScore: null,
      feedback: null,
    });
    expect(body.options.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(body)).not.toContain("correct");
  });

  it("is safe to prefetch: reading it (as mail scanners do) records nothing", async () => {
    const [wf] = await adasDue();
    for (let i = 0; i < 3; i++) expect((await get(wf.id)).status).toBe(200);
    const [after] = await t.database.db
      .select()
      .from(s.reinforcementWorkflows)
      .where(eq(s.reinforcementWorkflows.id, wf.id));
    expect(after.answer).toBeNull();
    expect(after.answeredAt).toBeNull();
  });

  it("another learner's workflow, an unknown id or a malformed one is 404 'Workflow not found'", async () => {
    const [wf] = await adasDue();
    for (const [id, user] of [
      [wf.id, "grace"],
      ["00000000-0000-4000-8000-000000000000", "ada"],
      ["not-a-uuid", "ada"],
    ]) {
      const res = await get(id, user);
      expect(res.status).toBe(404);
    }
    expect((await answer(wf.id, { answer: "a" }, "grace")).status).toBe(404);
  });

  it("needs a sign-in", async () => {
    const [wf] = await adasDue();
    expect((await t.request("GET", `${base}/${wf.id}`)).status).toBe(401);
  });
});

describe("POST …/answer (spec 4.10)", () => {
  it("refuses an answer that is not an option with 400 and a field message, and a missing one", async () => {
    const [, wf] = await adasDue();
    const bad = await answer(wf.id, { answer: "zz" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.answer[0].code).toBe("unknownAnswer");
    const missing = await answer(wf.id, {});
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors.answer[0].code).toBe("required");
  });

  it("records the answer once: correct → normalizedScore 1 and the feedback; a second POST gets the review", async () => {
    const [, wf] = await adasDue();
    const first = await answer(wf.id, { answer: wf.correctAnswer });
    expect(first.status).toBe(200);
    const done = (await first.json()).data;
    expect(done).toMatchObject({ answer: wf.correctAnswer, normalizedScore: 1, feedback: wf.feedback });
    // Another option later (a second click in the e-mail) changes nothing.
    const other = wf.options.find((o) => o.id !== wf.correctAnswer)!.id;
    const second = await answer(wf.id, { answer: other });
    expect(second.status).toBe(200);
    expect((await second.json()).data).toMatchObject({ answer: wf.correctAnswer, normalizedScore: 1 });
  });

  it("a wrong answer scores 0 and still shows the feedback", async () => {
    const rows = await adasDue();
    const wf = rows[2];
    const wrong = wf.options.find((o) => o.id !== wf.correctAnswer)!.id;
    const data = (await (await answer(wf.id, { answer: wrong })).json()).data;
    expect(data).toMatchObject({ answer: wrong, normalizedScore: 0, feedback: wf.feedback });
  });

  it("a double submit (10 at once, same or different command ids) makes one record", async () => {
    const [wf] = await adasDue();
    const results = await Promise.all(
      wf.options.flatMap((o) =>
        Array.from({ length: 3 }, () => answer(wf.id, { answer: o.id, commandId: crypto.randomUUID() })),
      ),
    );
    const answers = new Set<string>();
    for (const r of results) {
      expect(r.status).toBe(200);
      answers.add((await r.json()).data.answer);
    }
    expect(answers.size).toBe(1);
  });
});

describe("scheduling (decision 021: finishing a module asks its questions at 1, 3, 7, 21 days)", () => {
  it("finishing an activity with questions schedules them on the ladder, once", async () => {
    const db = t.database.db;
    const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
    const { objective, access } = await createCourse(db, tenantId, { activityKind: 3 });
    const tree = await createTree(db, tenantId, objective.id, [{}, {}]);
    const [part] = await db.select().from(s.activityParts).where(eq(s.activityParts.id, tree.partIds[0]));
    await db.insert(s.reinforcementQuestions).values(
      [0, 1].map((position) => ({
        activityId: part.activityId,
        position,
        question: `Q${position}`,
        options: [
          { id: "a", text: "A" },
          { id: "b", text: "B" },
        ],
        correctAnswer: "a",
        feedback: "Because.",
      })),
    );
    const { aggregate } = await enrolUser(db, {
      tenantId,
      userId: t.users.grace,
      objectiveId: objective.id,
      accessId: access.id,
    });
    const token = await t.token("grace");
    const post = (path: string, body: unknown) =>
      t.request("POST", `/api/lms/v1/${path}`, { token, body, headers: { Prefer: "respond-sync" } });
    const wfId = crypto.randomUUID();
    await post("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: wfId });
    const started = await (
      await post("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: [part.id] })
    ).json();
    const before = Date.now();
    const finish = await post("finish-activity-workflows", {
      objectiveWorkflowId: wfId,
      activityWorkflowIds: started.data.activityWorkflows.map((a: { id: string }) => a.id),
    });
    expect(finish.status).toBe(200);
    const rows = await db
      .select()
      .from(s.reinforcementWorkflows)
      .where(
        and(eq(s.reinforcementWorkflows.userId, t.users.grace), eq(s.reinforcementWorkflows.objectiveId, objective.id)),
      )
      .orderBy(s.reinforcementWorkflows.dueAt);
    expect(rows.map((r) => r.question)).toEqual(["Q0", "Q1"]);
    rows.forEach((r, i) => {
      const days = (r.dueAt.getTime() - before) / DAY;
      expect(days).toBeGreaterThan(REINFORCEMENT_LADDER_DAYS[i] - 0.01);
      expect(days).toBeLessThan(REINFORCEMENT_LADDER_DAYS[i] + 0.01);
    });
  });
});

describe("the mail job (decision 021; through the outbox since issue 31)", () => {
  it("writes each due question as an .eml with one link per option, once; a second run sends nothing", async () => {
    const db = t.database.db;
    const unsentBefore = (await adasDue()).filter((r) => r.sentAt === null && r.answer === null).length;
    expect(unsentBefore).toBeGreaterThan(0);
    const options = { appUrl: "https://learn.example", key: "test-key" };
    // Two runs at once (as two nodes would): each question is claimed by one of them.
    const [a, b] = await Promise.all([runLearnerMail(db, options), runLearnerMail(db, options)]);
    expect(a.reinforcement + b.reinforcement).toBe(unsentBefore);
    expect((await runLearnerMail(db, options)).reinforcement).toBe(0);
    expect(await sendPendingMail(db, { appUrl: options.appUrl, dataDir: outbox })).toBeGreaterThanOrEqual(unsentBefore);
    const files = readdirSync(join(outbox, "outbox")).filter((f) => f.includes("-reinforcement-"));
    expect(files).toHaveLength(unsentBefore);
    // Quoted-printable, as mail is sent: soft line breaks and =XX escapes undone.
    const eml = readFileSync(join(outbox, "outbox", files[0]), "utf8")
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(eml).toMatch(/^To: ada@example\.com$/m);
    const wf = (await adasDue()).find((r) => eml.includes(r.id))!;
    for (const o of wf.options)
      expect(eml).toContain(`https://learn.example/learn/email-response-callback?answer=${o.id}&workflowId=${wf.id}`);
  });

  it("the dashboard's query of due questions takes one query however many are due", async () => {
    const before = t.database.queryCount();
    const due = await dueReinforcementQuestions(t.database.db, t.users.ada, new Date());
    expect(t.database.queryCount() - before).toBe(1);
    expect(due.every((d) => d.wf.answer === null)).toBe(true);
  });
});
