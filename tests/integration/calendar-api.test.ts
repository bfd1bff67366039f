import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { forgetPrincipals } from "../../api/auth";
import * as s from "../../api/db/schema";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import { ActivityKind, ActivityWorkflowState, ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { CalendarItemList, Dashboard } from "../../domain/contract/calendar";
import { calendarItemHref } from "../../domain/calendar";

/** Calendar items, the dashboard and the personal feed, on a real PGlite (decision 022). */

const NOW = new Date("2026-11-23T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number, hour = 12) => new Date(Date.UTC(2026, 10, 23 + days, hour));
const midnight = (days: number) => new Date(Date.UTC(2026, 10, 23 + days));

let t: TestApi;
let tenantId: string;
let ada: string;
let grace: string;
const ids: Record<string, string> = {};
const parts: Record<string, string> = {};

async function json<T>(path: string, who = ada): Promise<{ status: number; body: T }> {
  const res = await t.request("GET", path, { token: await t.token(who) });
  return { status: res.status, body: (await res.json()) as T };
}

const range = (from: Date, to: Date) =>
  `/api/lms/v1/users/me/calendar-items?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;

beforeAll(async () => {
  t = await createTestApi();
  t.setNow(NOW);
  const db = t.database.db;
  ada = t.users.ada;
  grace = t.users.grace;
  [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);

  // A mandatory course not started, due on a date (stored at UTC midnight: all-day).
  const mandatory = await createCourse(db, tenantId, { name: "Safety at work" });
  ids.mandatory = mandatory.objective.id;
  await enrolUser(
    db,
    { tenantId, userId: ada, objectiveId: ids.mandatory },
    { isMandatory: true, isSelfEnrolled: false, dueDate: midnight(5), availabilityEndDate: at(40) },
  );

  // A course in progress with a tree: a due activity, one that opens later, an event that spans midnight in Berlin.
  const python = await createCourse(db, tenantId, { name: "Python basics" });
  ids.python = python.objective.id;
  const tree = await createTree(db, tenantId, ids.python, [
    { name: "Quiz 1" },
    { name: "Project" },
    { name: "Live session", kind: ActivityKind.event },
    { name: "Reading" },
  ]);
  [parts.quiz, parts.project, parts.live, parts.reading] = tree.partIds;
  const setConstraint = (id: string, constraint: Record<string, string>) =>
    db.update(s.activityParts).set({ constraint }).where(eq(s.activityParts.id, id));
  await setConstraint(parts.quiz, { due: at(3).toISOString() });
  await setConstraint(parts.project, { startFrom: at(10).toISOString(), due: at(20).toISOString() });
  await setConstraint(parts.reading, { due: at(-2).toISOString() });
  const [live] = await db.select().from(s.activityParts).where(eq(s.activityParts.id, parts.live));
  await db
    .update(s.activities)
    .set({
      content: {
        startsAt: new Date(Date.UTC(2026, 10, 25, 22, 30)).toISOString(),
        endsAt: new Date(Date.UTC(2026, 10, 26, 0, 30)).toISOString(),
        url: "https://meet.example/python",
      },
    })
    .where(eq(s.activities.id, live.activityId));
  const enrolment = await enrolUser(
    db,
    { tenantId, userId: ada, objectiveId: ids.python },
    { workflowState: ObjectiveWorkflowState.inProgress },
  );
  // Ada was last in Quiz 1 (opened an hour ago), which is still in progress.
  await db.insert(s.activityWorkflows).values([
    {
      objectiveWorkflowId: enrolment.workflowId!,
      activityPartId: parts.quiz,
      userId: ada,
      state: ActivityWorkflowState.inProgress,
      started: at(-3),
      resume: { openedAt: new Date(NOW.getTime() - 3_600_000).toISOString() },
    },
  ]);

  // Submitted, grade revealed after a date: the reveal date is an item, the grade is nowhere.
  const exam = await createCourse(db, tenantId, { name: "Exam prep" });
  ids.exam = exam.objective.id;
  await enrolUser(
    db,
    { tenantId, userId: ada, objectiveId: ids.exam },
    {
      workflowState: ObjectiveWorkflowState.submitted,
      gradeRevealPolicy: "afterDate",
      gradeRevealDate: at(6),
      record: { score: 42, maxScore: 100, normalizedScore: 0.42, passed: false, finished: at(-1) },
    },
  );

  // Grace's own course with dates: never in Ada's answers.
  const secret = await createCourse(db, tenantId, { name: "Grace only" });
  await enrolUser(db, { tenantId, userId: grace, objectiveId: secret.objective.id }, { dueDate: at(2) });

  // Reinforcement questions about Python's Reading (spec 2.8, issue 13 item 6): one due in two days,
  // one answered yesterday, one long past; and one of Grace's.
  const [reading] = await db.select().from(s.activityParts).where(eq(s.activityParts.id, parts.reading));
  const question = (userId: string, dueAt: Date, text: string, answer: string | null = null) => ({
    userId,
    objectiveId: ids.python,
    activityId: reading.activityId,
    question: text,
    options: [
      { id: "a", text: "A list" },
      { id: "b", text: "A dict" },
    ],
    correctAnswer: "b",
    feedback: "Keys map to values.",
    dueAt,
    answer,
    answerText: answer ? "A dict" : null,
    normalizedScore: answer ? 1 : null,
    answeredAt: answer ? at(-1, 14) : null,
  });
  const rows = await db
    .insert(s.reinforcementWorkflows)
    .values([
      question(ada, at(2, 9), "Which type maps keys to values?"),
      question(ada, at(-1, 9), "Which type is ordered by key?", "b"),
      question(ada, at(-200), "An old question"),
      question(grace, at(2, 9), "Grace's question"),
    ])
    .returning({ id: s.reinforcementWorkflows.id });
  [ids.question, ids.answered] = rows.map((r) => r.id);
});

afterAll(() => t.close());

describe("GET users/me/calendar-items", () => {
  it("lists the learner's own dated items in the range, sorted, each saying what it is", async () => {
    const { status, body } = await json<CalendarItemList>(range(NOW, new Date(NOW.getTime() + 30 * DAY)));
    expect(status).toBe(200);
    const seen = body.data.map((i) => `${i.kind} ${i.activity?.name ?? i.course.name}`);
    expect(seen).toEqual([
      "reinforcementDue Reading",
      "event Live session",
      "activityDue Quiz 1",
      "courseDue Safety at work",
      "gradeReveal Exam prep",
      "activityStartFrom Project",
      "activityDue Project",
    ]);
    const courseDue = body.data.find((i) => i.kind === "courseDue")!;
    expect(courseDue).toMatchObject({ allDay: true, start: midnight(5).toISOString(), done: false });
    const event = body.data.find((i) => i.kind === "event")!;
    expect(event).toMatchObject({ url: "https://meet.example/python", end: "2026-11-26T00:30:00.000Z", lock: null });
    // Spec 4.12: the project cannot be opened before it starts, and says so with the date.
    const project = body.data.find((i) => i.kind === "activityDue" && i.activity?.name === "Project")!;
    expect(project.lock).toEqual({ key: "activityLock.beforeStartFrom", date: at(10).toISOString() });
    // Spec 4.7: a reveal date and nothing else — no score, no grade.
    expect(JSON.stringify(body.data)).not.toMatch(/"(score|grade|normalizedScore|passed)"/);
    expect(seen.join()).not.toContain("Grace only");
  });

  it("lists reinforcement questions due with their answer links; answered ones done, leading to the review", async () => {
    const { body } = await json<CalendarItemList>(range(at(-7), at(7)));
    const questions = body.data.filter((i) => i.kind === "reinforcementDue");
    expect(questions.map((i) => i.question?.text)).toEqual([
      "Which type is ordered by key?",
      "Which type maps keys to values?",
    ]);
    const [answered, open] = questions;
    expect(open).toMatchObject({
      id: `reinforcementDue:${ids.question}`,
      start: at(2, 9).toISOString(),
      allDay: false,
      done: false,
      course: { id: ids.python, name: "Python basics" },
      activity: { name: "Reading", pathId: parts.reading },
      question: { workflowId: ids.question, options: [{ id: "a" }, { id: "b" }], answer: null },
    });
    expect(calendarItemHref(open)).toBe(`/learn/courses/${ids.python}/view/content?activityPathId=${parts.reading}`);
    expect(answered).toMatchObject({ done: true, question: { answer: "b" } });
    expect(calendarItemHref(answered)).toBe(`/learn/email-response-callback?answer=b&workflowId=${ids.answered}`);
    // Never the correct answer or the feedback; never another learner's question.
    expect(JSON.stringify(questions)).not.toMatch(/correctAnswer|Keys map to values/);
    expect(JSON.stringify(body)).not.toContain("Grace's question");
  });

  it("ranges over 100 days, in the wrong order or garbled are 400 with a message; no token is 401", async () => {
    const long = await json<{ errors: Record<string, { code: string }[]> }>(
      range(NOW, new Date(NOW.getTime() + 101 * DAY)),
    );
    expect(long.status).toBe(400);
    expect(long.body.errors[""][0].code).toBe("rangeTooLong");
    expect((await json(range(NOW, new Date(NOW.getTime() - DAY)))).status).toBe(400);
    expect((await json("/api/lms/v1/users/me/calendar-items?from=yesterday&to=soon")).status).toBe(400);
    expect((await json("/api/lms/v1/users/me/calendar-items")).status).toBe(400);
    const anonymous = await t.request("GET", range(NOW, new Date(NOW.getTime() + DAY)));
    expect(anonymous.status).toBe(401);
  });
});

describe("GET users/me/dashboard", () => {
  it("has every section; continue learning opens the activity Ada was in; the hidden grade stays hidden", async () => {
    const { status, body } = await json<Dashboard>("/api/lms/v1/users/me/dashboard");
    expect(status).toBe(200);
    const python = body.continueLearning.data.find((c) => c.name === "Python basics")!;
    expect(python.resumePathId).toBe(parts.quiz);
    expect(body.continueLearning.data[0].name).toBe("Python basics"); // used an hour ago: the most recent
    expect(body.mandatoryNotStarted.data.map((c) => c.name)).toEqual(["Safety at work"]);
    expect(body.waitingForResults.data.map((c) => c.name)).toEqual(["Exam prep"]);
    const exam = body.recentResults.data.find((r) => r.course.name === "Exam prep")!;
    expect(exam).toMatchObject({ resultsHidden: true, score: null, grade: null, passed: null, certificate: null });
    // Overdue first, then what is due within 14 days.
    const due = body.dueSoon.data
      .filter((i) => !i.course.name.startsWith("Extra"))
      .map((i) => `${i.kind} ${i.activity?.name ?? i.course.name}`);
    expect(due.slice(0, 3)).toEqual(["activityDue Reading", "activityDue Quiz 1", "courseDue Safety at work"]);
    expect(body.summary.overdue).toBe(1);
    expect(body.upcomingEvents.data.map((i) => i.activity?.name)).toEqual(["Live session"]);
    // The questions waiting for an answer — due and not answered (not the one due in two days,
    // not the one answered, never Grace's), with the options that are the e-mail's answer links.
    expect(body.questionsToAnswer.total).toBe(1);
    expect(body.questionsToAnswer.data).toMatchObject([
      {
        kind: "reinforcementDue",
        done: false,
        course: { id: ids.python },
        question: { text: "An old question", options: [{ id: "a" }, { id: "b" }], answer: null },
      },
    ]);
    expect(body.summary).toMatchObject({ enrolled: expect.any(Number), notStarted: expect.any(Number) });
    expect(JSON.stringify(body)).not.toContain("Grace only");
  });
});

describe("personal calendar feed", () => {
  const feedOf = async (who = ada) =>
    (await json<{ feed: { path: string; created: string } | null }>("/api/lms/v1/users/me/calendar-feed", who)).body
      .feed;
  const makeLink = async (who = ada) => {
    const res = await t.request("POST", "/api/lms/v1/create-calendar-feeds", {
      token: await t.token(who),
      body: { id: crypto.randomUUID() },
      headers: { Prefer: "respond-sync", "Accept-Language": "de" },
    });
    expect(res.status).toBe(200);
    return (await feedOf(who))!;
  };

  it("has no link until asked; the link has a 256-bit secret and the database keeps only its hash", async () => {
    expect(await feedOf(grace)).toBeNull();
    const feed = await makeLink(grace);
    const token = /\/public\/calendar-feeds\/([A-Za-z0-9_-]+)\.ics$/.exec(feed.path)![1];
    expect(token).toHaveLength(43);
    const rows = await t.database.db.select().from(s.calendarFeeds).where(eq(s.calendarFeeds.userId, grace));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await feedOf(grace)).toEqual(feed);
  });

  it("serves text/calendar without a cookie that a standard parser reads, with ETag, UIDs, DTSTAMP and reminders", async () => {
    const feed = await makeLink();
    const res = await t.request("GET", feed.path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("set-cookie")).toBeNull();
    const text = await res.text();
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents("vevent");
    const bySummary = new Map(events.map((e) => [String(e.getFirstPropertyValue("summary")), e]));
    // The texts are in the language the link was made in (German here).
    const quiz = [...bySummary.entries()].find(([k]) => k.includes("Quiz 1"))![1];
    expect(String(quiz.getFirstPropertyValue("uid"))).toMatch(/^activityDue:.+@lms\.test$/);
    expect(quiz.getFirstPropertyValue("dtstamp")).toBeTruthy();
    expect(quiz.getFirstPropertyValue("sequence")).toBe(0);
    expect(String(quiz.getFirstSubcomponent("valarm")?.getFirstPropertyValue("trigger"))).toBe("-P1D");
    const safety = [...bySummary.entries()].find(([k]) => k.includes("Safety at work"))![1];
    expect((safety.getFirstPropertyValue("dtstart") as ICAL.Time).isDate).toBe(true);
    expect(new ICAL.Event(quiz).startDate.toJSDate().toISOString()).toBe(at(3).toISOString());
    expect(text).not.toContain("Grace only");
    // Issue 13 item 6: the question due, with the e-mail's answer links, and no reminder the day before.
    const asked = [...bySummary.entries()].find(([k]) => k.includes("Reading") && k.includes("Frage"))![1];
    expect(String(asked.getFirstPropertyValue("uid"))).toBe(`reinforcementDue:${ids.question}@lms.test`);
    const description = String(asked.getFirstPropertyValue("description"));
    expect(description).toContain("Which type maps keys to values?");
    expect(description).toContain(`/learn/email-response-callback?answer=a&workflowId=${ids.question}`);
    expect(asked.getFirstSubcomponent("valarm")).toBeNull();
    expect(text).not.toContain("Grace's question");

    const etag = res.headers.get("etag")!;
    const again = await t.request("GET", feed.path, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    // Weak comparison (RFC 9110 §13.1.2) and `*`: calendar clients send both.
    for (const header of [`W/${etag}`, `"other", ${etag}`, "*"])
      expect((await t.request("GET", feed.path, { headers: { "If-None-Match": header } })).status).toBe(304);
    expect((await t.request("GET", feed.path, { headers: { "If-None-Match": '"other"' } })).status).toBe(200);

    // A changed date raises the event's SEQUENCE and changes the ETag.
    await t.database.db
      .update(s.activityParts)
      .set({ constraint: { due: at(4).toISOString() } })
      .where(eq(s.activityParts.id, parts.quiz));
    const changed = await t.request("GET", feed.path, { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    const moved = new ICAL.Component(ICAL.parse(await changed.text()))
      .getAllSubcomponents("vevent")
      .find((e) => String(e.getFirstPropertyValue("summary")).includes("Quiz 1"))!;
    expect(moved.getFirstPropertyValue("sequence")).toBe(1);
  });

  it("a new link revokes the old one; unknown and garbled tokens are 404", async () => {
    const old = await makeLink();
    const fresh = await makeLink();
    expect(fresh.path).not.toBe(old.path);
    expect((await t.request("GET", old.path)).status).toBe(404);
    expect((await t.request("GET", fresh.path)).status).toBe(200);
    expect((await t.request("GET", `/api/lms/v1/public/calendar-feeds/${"A".repeat(43)}.ics`)).status).toBe(404);
    expect((await t.request("GET", "/api/lms/v1/public/calendar-feeds/not-a-token")).status).toBe(404);
    const removed = await t.request("POST", "/api/lms/v1/delete-calendar-feeds", {
      token: await t.token(ada),
      body: { id: crypto.randomUUID() },
      headers: { Prefer: "respond-sync" },
    });
    expect(removed.status).toBe(200);
    expect((await t.request("GET", fresh.path)).status).toBe(404);
    expect(await feedOf()).toBeNull();
  });

  it("is rate-limited per link: 429 with Retry-After", async () => {
    const feed = await makeLink(grace);
    let last = 200;
    for (let i = 0; i < 61 && last !== 429; i++) last = (await t.request("GET", feed.path)).status;
    expect(last).toBe(429);
    const refused = await t.request("GET", feed.path);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("bounded statements (issue 13)", () => {
  it("costs the same number of statements for 3 courses or 30", async () => {
    const token = await t.token(ada);
    const measure = async (path: string) => {
      forgetPrincipals();
      const before = t.database.queryCount();
      const res = await t.request("GET", path, { token });
      expect(res.status).toBe(200);
      return t.database.queryCount() - before;
    };
    const itemsPath = range(NOW, new Date(NOW.getTime() + 60 * DAY));
    const dashboardPath = "/api/lms/v1/users/me/dashboard";
    const few = [await measure(itemsPath), await measure(dashboardPath)];
    for (let i = 0; i < 27; i++) {
      const { objective } = await createCourse(t.database.db, tenantId, { name: `Extra ${i}` });
      const { partIds } = await createTree(t.database.db, tenantId, objective.id, [{ name: `Task ${i}` }]);
      await t.database.db
        .update(s.activityParts)
        .set({ constraint: { due: at(1 + (i % 20)).toISOString() } })
        .where(eq(s.activityParts.id, partIds[0]));
      await enrolUser(
        t.database.db,
        { tenantId, userId: ada, objectiveId: objective.id },
        { dueDate: at(2 + (i % 30)), workflowState: i % 2 ? ObjectiveWorkflowState.inProgress : undefined },
      );
    }
    const many = [await measure(itemsPath), await measure(dashboardPath)];
    expect(many).toEqual(few);
    // The caller's principal, then the courses' dates, the dated trees and the questions due; the
    // dashboard's eight sections' statements (issue 26 added the questions to answer).
    expect(few[0]).toBeLessThanOrEqual(4);
    expect(few[1]).toBeLessThanOrEqual(9);
    const { body } = await json<CalendarItemList>(itemsPath);
    expect(body.data.filter((i) => i.course.name.startsWith("Extra")).length).toBe(54);
  });
});
