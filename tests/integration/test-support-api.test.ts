import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray, isNull } from "drizzle-orm";
import { demoContent } from "../../demo/demo-content";
import { createTestApi, type TestApi } from "../fixtures/api";
import * as s from "../../api/db/schema";
import { verifyPassword } from "../../identity/password";
import { isLoopback, testSupportEnabled } from "../../demo/test-support";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";

/**
 * The browser tests' learner fixture (decision 014): POST /api/test-support/v1/learners makes a
 * learner from the same recipes as the demo users, and exists only where the server turns it on.
 */

const PATH = "/api/test-support/v1/learners";

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({ catalog: true, testSupport: true });
});
afterAll(() => t?.close());

const post = (api: TestApi, body: unknown) => api.request("POST", PATH, { body });

/** A learner's enrolments as course code → what a learner would notice of them. */
async function standing(api: TestApi, userId: string) {
  const db = api.database.db;
  const aggregates = await db
    .select({
      id: s.objectiveWorkflowAggregates.id,
      code: s.objectives.code,
      state: s.objectiveWorkflowAggregates.lastWorkflowState,
      mandatory: s.objectiveWorkflowAggregates.isMandatory,
      selfEnrolled: s.objectiveWorkflowAggregates.isSelfEnrolled,
      due: s.objectiveWorkflowAggregates.dueDate,
    })
    .from(s.objectiveWorkflowAggregates)
    .innerJoin(s.objectives, eq(s.objectives.id, s.objectiveWorkflowAggregates.objectiveId))
    .where(eq(s.objectiveWorkflowAggregates.userId, userId));
  const [workflows, certificates, activityWorkflows, sessions] = await Promise.all([
    db.select().from(s.objectiveWorkflows).where(eq(s.objectiveWorkflows.userId, userId)),
    db.select().from(s.certificateRecords).where(eq(s.certificateRecords.userId, userId)),
    db.select().from(s.activityWorkflows).where(eq(s.activityWorkflows.userId, userId)),
    db.select().from(s.proctoringSessions).where(eq(s.proctoringSessions.userId, userId)),
  ]);
  return {
    courses: Object.fromEntries(
      aggregates.map((a) => [a.code, { state: a.state, mandatory: a.mandatory, selfEnrolled: a.selfEnrolled }]),
    ),
    aggregates,
    workflows,
    certificates,
    activityWorkflows,
    sessions,
  };
}

describe("test support is off unless the server turns it on", () => {
  it("answers 404 on an API without it, like any unknown path", async () => {
    const plain = await createTestApi();
    try {
      const res = await post(plain, { like: "ada" });
      expect(res.status).toBe(404);
      // Nobody was created: the demo accounts only.
      const demoAccounts = Object.keys(demoContent().users).length;
      expect(await plain.database.db.select().from(s.users)).toHaveLength(demoAccounts);
    } finally {
      await plain.close();
    }
  });

  it("is turned on by APP_ENV=test with E2E_FIXTURES=1 only", () => {
    expect(testSupportEnabled({ APP_ENV: "test", E2E_FIXTURES: "1" })).toBe(true);
    for (const env of [
      {},
      { APP_ENV: "test" },
      { E2E_FIXTURES: "1" },
      { APP_ENV: "prod", E2E_FIXTURES: "1" },
      { APP_ENV: "dev", E2E_FIXTURES: "1" },
      { APP_ENV: "test", E2E_FIXTURES: "true" },
    ])
      expect(testSupportEnabled(env), JSON.stringify(env)).toBe(false);
  });

  it("accepts loopback addresses only (server.ts refuses the others)", () => {
    for (const a of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) expect(isLoopback(a), a).toBe(true);
    for (const a of [undefined, "", "10.0.0.1", "192.168.1.20", "::ffff:10.0.0.1", "fe80::1", "127.0.0.1.evil", "::2"])
      expect(isLoopback(a), String(a)).toBe(false);
  });
});

describe("POST /api/test-support/v1/learners", () => {
  it("makes a learner like ada: her account and her enrolments, with fresh ids", async () => {
    const res = await post(t, { like: "ada" });
    expect(res.status).toBe(201);
    const learner = (await res.json()) as { id: string; email: string; password: string; name: string };
    expect(learner.name).toBe("Ada Lovelace");
    expect(learner.email).toMatch(/^ada-[0-9a-f]{12}@example\.com$/);
    const db = t.database.db;
    const [user] = await db.select().from(s.users).where(eq(s.users.id, learner.id));
    expect(user.email).toBe(learner.email);
    expect(user.timezone).toBe("Europe/London");
    expect(await verifyPassword(learner.password, user.passwordHash)).toBe(true);
    const roles = await db.select().from(s.userRoles).where(eq(s.userRoles.userId, learner.id));
    expect(roles.map((r) => r.role)).toEqual(["Learner"]);

    const [mine, ada] = await Promise.all([standing(t, learner.id), standing(t, t.users.ada)]);
    expect(mine.courses).toEqual(ada.courses);
    expect(Object.keys(mine.courses)).toHaveLength(20);
    expect(mine.workflows.map((w) => [w.attempt, w.state, w.progress]).sort()).toEqual(
      ada.workflows.map((w) => [w.attempt, w.state, w.progress]).sort(),
    );
    expect(mine.certificates.map((c) => c.templateName).sort()).toEqual(
      ada.certificates.map((c) => c.templateName).sort(),
    );
    expect(mine.activityWorkflows.length).toBe(ada.activityWorkflows.length);
    expect(mine.sessions.map((x) => x.state).sort()).toEqual(ada.sessions.map((x) => x.state).sort());
    // Fresh rows: nothing of ada's is shared (catalog accesses of the tenant are, as for anyone).
    const adaIds = new Set([...ada.aggregates, ...ada.workflows, ...ada.certificates].map((r) => r.id));
    for (const row of [...mine.aggregates, ...mine.workflows, ...mine.certificates])
      expect(adaIds.has(row.id)).toBe(false);
    const numbers = new Set(ada.certificates.map((c) => c.certificateNumber));
    for (const c of mine.certificates) expect(numbers.has(c.certificateNumber)).toBe(false);
  });

  it("signs in and reads its own courses through the API", async () => {
    const learner = await (await post(t, { like: "ada" })).json();
    const res = await t.request("GET", "/api/lms/v1/objective-workflow-aggregates/query?requireTotalCount=true", {
      token: await t.token(learner.id),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { totalCount: number };
    // What ada's My courses counts: her enrolments but the two hidden ones (archived course, archived root).
    expect(body.totalCount).toBe(18);
  });

  it("makes a learner with exactly the enrolments asked for, a course named by folder or code", async () => {
    const res = await post(t, {
      firstName: "Nia",
      enrolments: [
        { course: "PY-101", selfEnrolled: true, attempts: [{ state: "inProgress", progress: 0.35, startedAgo: 6 }] },
        { course: "anti-bribery", assigned: { mandatory: true, dueIn: -3 } },
      ],
    });
    expect(res.status).toBe(201);
    const learner = await res.json();
    expect(learner.name).toBe("Nia Learner");
    const mine = await standing(t, learner.id);
    expect(mine.courses).toEqual({
      "PY-101": { state: ObjectiveWorkflowState.inProgress, mandatory: false, selfEnrolled: true },
      "AB-101": { state: null, mandatory: true, selfEnrolled: false },
    });
    expect(mine.aggregates.find((a) => a.code === "AB-101")!.due!.getTime()).toBeLessThan(Date.now());
    // Progress through the activities, as the demo learners have it.
    expect(mine.activityWorkflows.length).toBeGreaterThan(3);
  });

  it("makes a learner with no enrolments at all", async () => {
    const learner = await (await post(t, {})).json();
    const mine = await standing(t, learner.id);
    expect(mine.aggregates).toEqual([]);
    expect(learner.name).toBe("Test Learner");
  });

  it("refuses unknown users, courses, terms and bare numbers with 400, naming the field", async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ like: "nobody" }, "like", /unknown demo user "nobody"/],
      [{ like: "constructor" }, "like", /unknown demo user "constructor"/],
      [{ enrolments: [{ course: "no-such-course" }] }, "enrolments[0].course", /unknown course "no-such-course"/],
      [
        { enrolments: [{ course: "python-basics", assigned: { term: "someday" } }] },
        "enrolments[0].assigned.term",
        /unknown term "someday"/,
      ],
      [
        { enrolments: [{ course: "python-basics", assigned: { term: "toString" } }] },
        "enrolments[0].assigned.term",
        /unknown term "toString"/,
      ],
      [{ like: "ada", enrolments: [{ course: "python-basics" }] }, "enrolments[20].course", /listed twice/],
      [{ enrolments: [{ course: "board-papers" }] }, "enrolments[0].assigned", /must be assigned/],
    ];
    for (const [body, field, text] of cases) {
      const res = await post(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const errors = (await res.json()).errors as Record<string, { message: string }[]>;
      expect(Object.keys(errors), JSON.stringify(body)).toEqual([field]);
      expect(errors[field][0].message).toMatch(text);
    }
    const numeric = await post(t, {
      enrolments: [{ course: "python-basics", attempts: [{ state: 1, progress: 0, startedAgo: 1 }] }],
    });
    expect(numeric.status).toBe(400);
    expect(Object.keys((await numeric.json()).errors)).toEqual(["enrolments.0.attempts.0.state"]);
    const stray = await post(t, { like: "ada", password: "chosen" });
    expect(stray.status).toBe(400);
  });

  it("works where the server runs it, in the database thread", async () => {
    const threaded = await createTestApi({ catalog: true, thread: true, testSupport: true });
    try {
      const res = await post(threaded, { like: "grace" });
      expect(res.status).toBe(201);
      const learner = await res.json();
      expect(learner.name).toBe("Grace Hopper");
      const rows = await threaded.database.db
        .select({ role: s.userRoles.role })
        .from(s.userRoles)
        .where(inArray(s.userRoles.userId, [learner.id]));
      expect(rows.map((r) => r.role).sort()).toEqual(["Instructor", "Learner"]);
      const mine = await standing(threaded, learner.id);
      const grace = await standing(threaded, threaded.users.grace);
      expect(mine.courses).toEqual(grace.courses);
    } finally {
      await threaded.close();
    }
    // Starting PGlite and the API in a thread and seeding it: ~20 s of CPU on a loaded 2-core box.
  }, 90_000);
});

describe("POST /api/test-support/v1/learner-mail", () => {
  it("empties the whole outbox, not one run's 50: a suite's newest message does not wait a minute", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "outbox-"));
    const api = await createTestApi({ testSupport: true, dataDir });
    try {
      const rows = Array.from({ length: 120 }, (_, i) => ({
        kind: "test",
        to: `pile-${i}@example.com`,
        subject: `Message ${i}`,
        text: "Hello",
        html: "<p>Hello</p>",
      }));
      await api.database.db.insert(s.mailOutbox).values(rows);
      const res = await api.request("POST", "/api/test-support/v1/learner-mail");
      expect(res.status).toBe(200);
      expect((await res.json()).sent).toBeGreaterThanOrEqual(120);
      const waiting = await api.database.db
        .select({ id: s.mailOutbox.id })
        .from(s.mailOutbox)
        .where(isNull(s.mailOutbox.sentAt));
      expect(waiting).toEqual([]);
    } finally {
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
