import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { ActivityContentType, ActivityKind, ActivityWorkflowState, ObjectiveState } from "../../domain/vocabulary";

/**
 * Spec 4.12 in the API (issue 17 item 8, decision 018): a command or a content read refuses what the page
 * shows locked — each lock reason with its own code — and a learner's finish never awards a score.
 */
let t: TestApi;
let tenantId: string;
const NOW = new Date("2026-05-04T10:00:00.000Z");
const DAY = 86_400_000;
const PAST = new Date(NOW.getTime() - 2 * DAY).toISOString();
const FUTURE = new Date(NOW.getTime() + 2 * DAY).toISOString();

beforeAll(async () => {
  t = await createTestApi();
  t.setNow(NOW);
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

type Leaf = Parameters<typeof createTree>[3][number];

const call = async (path: string, body: unknown, user = "ada") =>
  t.request("POST", `/api/lms/v1/${path}`, { token: await t.token(user), body, headers: { Prefer: "respond-sync" } });
const read = async (path: string, user = "ada") => t.request("GET", `/api/${path}`, { token: await t.token(user) });
const firstError = async (res: Response | string) => {
  const body = JSON.parse(typeof res === "string" ? res : await res.text()) as {
    errors: Record<string, { code: string; params?: { date?: string } }[]>;
  };
  return Object.values(body.errors).flat()[0];
};

/** A course of `leaves` with Ada enrolled and her attempt started (through the API). */
async function started(leaves: Leaf[], course: Partial<typeof s.objectives.$inferInsert> = {}) {
  const db = t.database.db;
  const { objective, access } = await createCourse(db, tenantId, { activityKind: ActivityKind.composite, ...course });
  const tree = await createTree(db, tenantId, objective.id, leaves);
  const { aggregate } = await enrolUser(db, {
    tenantId,
    userId: t.users.ada,
    objectiveId: objective.id,
    accessId: access.id,
  });
  const wfId = crypto.randomUUID();
  const res = await call("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: wfId });
  expect(res.status).toBe(200);
  return { objective, aggregate, wfId, ...tree };
}

const startActivities = (wfId: string, activityPartIds: string[]) =>
  call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds });
const activityWorkflowsOf = (wfId: string) =>
  t.database.db.select().from(s.activityWorkflows).where(eq(s.activityWorkflows.objectiveWorkflowId, wfId));

describe("starting an activity the page shows locked is refused with the lock's reason (spec 4.12)", () => {
  it.each<[string, Leaf, { code: string; date?: string }]>([
    ["before startFrom", { constraint: { startFrom: FUTURE } }, { code: "beforeStartFrom", date: FUTURE }],
    ["after accessibleUntil", { constraint: { accessibleUntil: PAST } }, { code: "afterAccessibleUntil", date: PAST }],
    [
      "after gracePeriodUntil",
      { constraint: { gracePeriodUntil: PAST } },
      { code: "afterGracePeriodUntil", date: PAST },
    ],
    ["after startUntil, not started", { constraint: { startUntil: PAST } }, { code: "afterStartUntil", date: PAST }],
    ["a draft (coming soon, 4.2)", { state: ObjectiveState.draft }, { code: "comingSoon" }],
    ["an archived activity (hidden, 4.2)", { state: ObjectiveState.archived }, { code: "comingSoon" }],
  ])("%s: 403 with its code, nothing started", async (_name, leaf, expected) => {
    const c = await started([{ name: "Open" }, leaf]);
    const res = await startActivities(c.wfId, [c.partIds[0], c.partIds[1]]);
    expect(res.status).toBe(403);
    const error = await firstError(res);
    expect(error.code).toBe(expected.code);
    expect(error.params?.date).toBe(expected.date);
    // All or nothing: the open activity of the same command was not started either.
    expect(await activityWorkflowsOf(c.wfId)).toEqual([]);
    expect((await startActivities(c.wfId, [c.partIds[0], c.partIds[1]])).status).toBe(403);
    expect((await startActivities(c.wfId, [c.partIds[0]])).status).toBe(200);
  });

  it("a refusal is not remembered: the same start succeeds once the activity opens", async () => {
    const c = await started([{ name: "Soon", constraint: { startFrom: FUTURE } }]);
    expect((await startActivities(c.wfId, c.partIds)).status).toBe(403);
    t.setNow(new Date(Date.parse(FUTURE) + 1));
    try {
      expect((await startActivities(c.wfId, c.partIds)).status).toBe(200);
    } finally {
      t.setNow(NOW);
    }
  });

  it("behind a draft module (not available): completePreviousToPass, and a module's window applies inside it", async () => {
    const c = await started([{ name: "Open" }]);
    const db = t.database.db;
    const module = async (name: string, over: { state?: ObjectiveState; constraint?: Record<string, string> }) => {
      const [m] = await db
        .insert(s.activities)
        .values({
          tenantId,
          name,
          kind: ActivityKind.composite,
          contentType: ActivityContentType.Composite,
          state: over.state ?? ObjectiveState.ready,
        })
        .returning();
      const [mp] = await db
        .insert(s.activityParts)
        .values({
          objectiveId: c.objective.id,
          parentPartId: c.rootPartId,
          activityId: m.id,
          axis: `00.9${name.length}`,
          constraint: over.constraint ?? {},
        })
        .returning();
      const [leaf] = await db
        .insert(s.activities)
        .values({ tenantId, name: `${name} leaf`, kind: ActivityKind.text, contentType: ActivityContentType.Text })
        .returning();
      const [lp] = await db
        .insert(s.activityParts)
        .values({
          objectiveId: c.objective.id,
          parentPartId: mp.id,
          activityId: leaf.id,
          axis: `00.9${name.length}.01`,
        })
        .returning();
      return lp.id;
    };
    const behindDraft = await module("Draft", { state: ObjectiveState.draft });
    const inLaterModule = await module("Later module", { constraint: { startFrom: FUTURE } });
    const draft = await startActivities(c.wfId, [behindDraft]);
    expect(draft.status).toBe(403);
    expect((await firstError(draft)).code).toBe("completePreviousToPass");
    const later = await startActivities(c.wfId, [inLaterModule]);
    expect(later.status).toBe(403);
    expect(await firstError(later)).toMatchObject({ code: "beforeStartFrom", params: { date: FUTURE } });
  });
});

describe("finishing an activity (spec 4.12, decision 018)", () => {
  it("is refused once the activity is locked: after accessibleUntil, after the grace period", async () => {
    const soon = new Date(NOW.getTime() + DAY).toISOString();
    const c = await started([
      { name: "Closes", constraint: { accessibleUntil: soon } },
      { name: "Grace", constraint: { gracePeriodUntil: soon } },
    ]);
    const aws = (await (await startActivities(c.wfId, c.partIds)).json()).data.activityWorkflows as {
      id: string;
      activityPartId: string;
    }[];
    const awOf = (i: number) => aws.find((a) => a.activityPartId === c.partIds[i])!.id;
    t.setNow(new Date(NOW.getTime() + 2 * DAY));
    try {
      for (const [i, code] of [
        [0, "afterAccessibleUntil"],
        [1, "afterGracePeriodUntil"],
      ] as const) {
        const res = await call("finish-activity-workflows", {
          objectiveWorkflowId: c.wfId,
          activityWorkflowIds: [awOf(i)],
        });
        expect(res.status).toBe(403);
        expect(await firstError(res)).toMatchObject({ code, params: { date: soon } });
      }
    } finally {
      t.setNow(NOW);
    }
    const rows = await activityWorkflowsOf(c.wfId);
    expect(rows.map((r) => r.state)).toEqual([ActivityWorkflowState.inProgress, ActivityWorkflowState.inProgress]);
    expect(
      await t.database.db.select().from(s.activityRecords).where(eq(s.activityRecords.objectiveWorkflowId, c.wfId)),
    ).toEqual([]);
  });

  it("an activity started before its startUntil can still be finished after it", async () => {
    const soon = new Date(NOW.getTime() + DAY).toISOString();
    const c = await started([{ name: "Start soon", constraint: { startUntil: soon }, maxScore: null }]);
    const [aw] = (await (await startActivities(c.wfId, c.partIds)).json()).data.activityWorkflows as { id: string }[];
    t.setNow(new Date(NOW.getTime() + 2 * DAY));
    try {
      const res = await call("finish-activity-workflows", {
        objectiveWorkflowId: c.wfId,
        activityWorkflowIds: [aw.id],
      });
      expect(res.status).toBe(200);
    } finally {
      t.setNow(NOW);
    }
  });

  it("records completion, never a score: ungraded finishes without one, graded waits for its grader", async () => {
    const c = await started([
      { name: "Reading", maxScore: null },
      { name: "Quiz", kind: ActivityKind.lti, maxScore: 100 },
    ]);
    const aws = (await (await startActivities(c.wfId, c.partIds)).json()).data.activityWorkflows as {
      id: string;
      activityPartId: string;
    }[];
    const res = await call("finish-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityWorkflowIds: aws.map((a) => a.id),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.progress).toBe(1);
    const rows = await t.database.db
      .select({ part: s.activityWorkflows.activityPartId, state: s.activityWorkflows.state, rec: s.activityRecords })
      .from(s.activityWorkflows)
      .innerJoin(s.activityRecords, eq(s.activityRecords.activityWorkflowId, s.activityWorkflows.id))
      .where(eq(s.activityWorkflows.objectiveWorkflowId, c.wfId));
    const of = (partId: string) => rows.find((r) => r.part === partId)!;
    expect(of(c.partIds[0])).toMatchObject({
      state: ActivityWorkflowState.finished,
      rec: { score: null, passed: null },
    });
    expect(of(c.partIds[1])).toMatchObject({
      state: ActivityWorkflowState.inGrading,
      rec: { score: null, maxScore: 100, passed: null },
    });
    // Submitting now awards nothing by itself: the attempt waits in grading, its result unresolved.
    const submitted = await call("submit-objective-workflows", { id: c.wfId });
    expect((await submitted.json()).data.state).toBe(3);
    const [record] = await t.database.db
      .select()
      .from(s.objectiveRecords)
      .where(eq(s.objectiveRecords.workflowId, c.wfId));
    expect(record).toMatchObject({ score: null, passed: null });
  });
});

describe("content reads leave locked activities out (spec 4.7, 4.12)", () => {
  it("activity-contents: only the open activities' contents", async () => {
    const c = await started([
      { name: "Open one" },
      { name: "Not yet", constraint: { startFrom: FUTURE } },
      { name: "Closed", constraint: { accessibleUntil: PAST } },
      { name: "Draft", state: ObjectiveState.draft },
    ]);
    const res = await read(`lms/v1/users/me/objective-workflows/${c.wfId}/activity-contents`);
    expect(res.status).toBe(200);
    const text = JSON.stringify(await res.json());
    expect(text).toContain("<p>Leaf 1</p>");
    for (const locked of ["<p>Leaf 2</p>", "<p>Leaf 3</p>", "<p>Leaf 4</p>"]) expect(text).not.toContain(locked);
  });

  it("a finished attempt: none when the course may not be reviewed (403), and never an activity whose review is hidden", async () => {
    const c = await started([
      { name: "Reviewable", maxScore: null },
      { name: "Never reviewed", maxScore: null, constraint: { reviewPolicy: "never" } },
    ]);
    const aws = (await (await startActivities(c.wfId, c.partIds)).json()).data.activityWorkflows as { id: string }[];
    await call("finish-activity-workflows", { objectiveWorkflowId: c.wfId, activityWorkflowIds: aws.map((a) => a.id) });
    await call("submit-objective-workflows", { id: c.wfId });
    const contents = async () => read(`lms/v1/users/me/objective-workflows/${c.wfId}/activity-contents`);
    const allowed = await contents();
    expect(allowed.status).toBe(200);
    const text = JSON.stringify(await allowed.json());
    expect(text).toContain("<p>Leaf 1</p>");
    expect(text).not.toContain("<p>Leaf 2</p>");
    await t.database.db
      .update(s.objectiveWorkflowAggregates)
      .set({ gradeRevealPolicy: "never" })
      .where(eq(s.objectiveWorkflowAggregates.id, c.aggregate.id));
    const refused = await contents();
    expect(refused.status).toBe(403);
    const refusal = await refused.text();
    expect((await firstError(refusal)).code).toBe("reviewPolicyNotAllowed");
    expect(refusal).not.toContain("Leaf 1");
  });

  it("one activity's content: open 200, locked 403 with its reason, no attempt 403, no standing 404", async () => {
    const c = await started([{ name: "Open" }, { name: "Later", constraint: { startFrom: FUTURE } }]);
    const activityOf = async (partId: string) =>
      (
        await t.database.db
          .select({ id: s.activityParts.activityId })
          .from(s.activityParts)
          .where(eq(s.activityParts.id, partId))
      )[0].id;
    const open = await activityOf(c.partIds[0]);
    const later = await activityOf(c.partIds[1]);
    expect((await read(`lms/v1/users/me/activities/${open}/content`)).status).toBe(200);
    const locked = await read(`lms/v1/users/me/activities/${later}/content`);
    expect(locked.status).toBe(403);
    const refusal = await locked.text();
    expect(await firstError(refusal)).toMatchObject({ code: "beforeStartFrom", params: { date: FUTURE } });
    expect(refusal).not.toContain("Leaf 2");
    // Grace has a standing without an attempt: nothing is open to her yet; Rita has none at all.
    await enrolUser(t.database.db, { tenantId, userId: t.users.grace, objectiveId: c.objective.id });
    const notStarted = await read(`lms/v1/users/me/activities/${open}/content`, "grace");
    expect(notStarted.status).toBe(403);
    expect((await firstError(notStarted)).code).toBe("courseNotStarted");
    expect((await read(`lms/v1/users/me/activities/${open}/content`, "rita")).status).toBe(404);
  });

  it("a private file of a locked activity is refused with the lock's reason", async () => {
    const c = await started([{ name: "Open" }]);
    const db = t.database.db;
    const [file] = await db
      .insert(s.activities)
      .values({
        tenantId,
        name: "Pack",
        kind: ActivityKind.text,
        contentType: ActivityContentType.PrivateFile,
        content: { path: "private/board/2026-q2-board-pack.pdf", fileName: "pack.pdf", mimeType: "application/pdf" },
      })
      .returning();
    const [part] = await db
      .insert(s.activityParts)
      .values({
        objectiveId: c.objective.id,
        parentPartId: c.rootPartId,
        activityId: file.id,
        axis: "00.50",
        constraint: { startFrom: FUTURE },
      })
      .returning();
    const fileUrl = `lms-storage/v1/activities/${file.id}/file`;
    const refused = await read(fileUrl);
    expect(refused.status).toBe(403);
    expect((await firstError(refused)).code).toBe("beforeStartFrom");
    await db.update(s.activityParts).set({ constraint: {} }).where(eq(s.activityParts.id, part.id));
    expect((await read(fileUrl)).status).toBe(200);
  });

  it("a locked discussion can be neither read nor written; resume is not saved into a locked activity", async () => {
    const soon = new Date(NOW.getTime() + DAY).toISOString();
    const c = await started([
      { name: "Talk", kind: ActivityKind.discussion, maxScore: null, constraint: { startFrom: FUTURE } },
      { name: "Reading", maxScore: null, constraint: { accessibleUntil: soon } },
    ]);
    const posts = await read(`lms/v1/users/me/activity-paths/${c.partIds[0]}/discussion/posts`);
    expect(posts.status).toBe(403);
    expect((await firstError(posts)).code).toBe("beforeStartFrom");
    const post = await call("create-discussion-posts", {
      id: crypto.randomUUID(),
      activityPathId: c.partIds[0],
      body: "Early bird",
    });
    expect(post.status).toBe(403);
    expect(
      await t.database.db
        .select()
        .from(s.discussionPosts)
        .where(and(eq(s.discussionPosts.activityPartId, c.partIds[0]))),
    ).toEqual([]);

    const [aw] = (await (await startActivities(c.wfId, [c.partIds[1]])).json()).data.activityWorkflows as {
      id: string;
    }[];
    const resume = async () =>
      t.request("PUT", `/api/lms/v1/users/me/objective-workflows/${c.wfId}/activity-workflows/${aw.id}`, {
        token: await t.token("ada"),
        body: { resume: { page: 3 } },
      });
    expect((await resume()).status).toBe(200);
    t.setNow(new Date(NOW.getTime() + 2 * DAY));
    try {
      const late = await resume();
      expect(late.status).toBe(403);
      expect((await firstError(late)).code).toBe("afterAccessibleUntil");
    } finally {
      t.setNow(NOW);
    }
  });
});
