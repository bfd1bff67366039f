// Team and mini-group activities (issue 15 items 7–9, spec 1, 3, 7.3; decision 026), on PGlite and, in
// the "postgres" project, on PostgreSQL with real concurrency.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import type { GroupActivityWorkflow, ParticipantsPage } from "../../domain/contract/groups";
import type { ActivityTree } from "../../domain/contract/lifecycle";
import { ActivityWorkflowState } from "../../domain/vocabulary";

type Who = "ada" | "grace" | "katherine" | "margaret" | "rita";
const MEMBERS: Who[] = ["ada", "grace", "katherine", "margaret"];

let t: TestApi;
let tenantId: string;
const tokens = new Map<Who, string>();

async function call(who: Who, method: string, path: string, body?: unknown) {
  return t.request(method, `/api/lms/v1${path}`, {
    token: tokens.get(who)!,
    body,
    headers: method === "POST" ? { Prefer: "respond-sync" } : undefined,
  });
}
const json = async <T>(r: Response | Promise<Response>) => (await (await r).json()) as T;

interface Course {
  objectiveId: string;
  parts: { group: string; either: string; personal: string };
  attempts: Record<Who, { workflowId: string; aggregateId: string }>;
}

/**
 * A course with a group-only activity, one taken either way and a personal one; the seeded mini-group
 * "Analytical Engines" (ada, grace, katherine, margaret) works in it; Rita is enrolled but in no group.
 */
async function setup(leaves: { manualGrading?: boolean; maxScore?: number | null } = {}): Promise<Course> {
  const db = t.database.db;
  const { objective, access } = await createCourse(db, tenantId);
  const { partIds } = await createTree(db, tenantId, objective.id, [
    { name: "Team answer", modes: "group", maxScore: leaves.maxScore ?? null, manualGrading: leaves.manualGrading },
    { name: "Either", modes: "either", maxScore: null },
    { name: "Alone", maxScore: null },
  ]);
  const attempts = {} as Course["attempts"];
  for (const who of [...MEMBERS, "rita"] as Who[]) {
    const e = await enrolUser(
      db,
      { tenantId, userId: t.users[who], objectiveId: objective.id, accessId: access.id },
      { workflowState: 1 },
    );
    attempts[who] = { workflowId: e.workflowId!, aggregateId: e.aggregate.id };
  }
  return {
    objectiveId: objective.id,
    parts: { group: partIds[0], either: partIds[1], personal: partIds[2] },
    attempts,
  };
}

const start = (c: Course, who: Who, part: string, mode?: "personal" | "group") =>
  call(who, "POST", "/start-activity-workflows", {
    objectiveWorkflowId: c.attempts[who].workflowId,
    activityPartIds: [part],
    ...(mode ? { mode } : {}),
  });

async function ownAw(c: Course, who: Who, part: string) {
  const [aw] = await t.database.db
    .select()
    .from(s.activityWorkflows)
    .where(
      and(
        eq(s.activityWorkflows.objectiveWorkflowId, c.attempts[who].workflowId),
        eq(s.activityWorkflows.activityPartId, part),
      ),
    );
  return aw;
}
const finish = async (c: Course, who: Who, part: string) =>
  call(who, "POST", "/finish-activity-workflows", {
    objectiveWorkflowId: c.attempts[who].workflowId,
    activityWorkflowIds: [(await ownAw(c, who, part)).id],
  });
const gawPath = (c: Course, who: Who, gawId: string) =>
  `/users/me/objective-workflow-aggregates/${c.attempts[who].aggregateId}/group-activity-workflows/${gawId}`;
const participantsOf = (c: Course, who: Who, part: string, q = "") =>
  call(
    who,
    "GET",
    `/users/me/objective-workflows/${c.attempts[who].workflowId}/activity-paths/${part}/participants/query${q}`,
  );

beforeAll(async () => {
  t = await createTestApi({ writeLimits: { command: { points: 10_000, durationSeconds: 60 } } });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
  for (const who of [...MEMBERS, "rita"] as Who[]) tokens.set(who, await t.token(who));
});
afterAll(() => t.close());

describe("group activity workflows (spec 1, 3, 7.3)", () => {
  it("the tree says which modes an activity offers", async () => {
    const c = await setup();
    const tree = await json<ActivityTree>(
      call("ada", "GET", `/users/me/objective-workflows/${c.attempts.ada.workflowId}/activity`),
    );
    const flags = (id: string) => {
      const a = tree.nodes.find((n) => n.activityPathId === id)!.childActivity;
      return [a.supportCollaborativeMode, a.supportPersonalMode];
    };
    expect(flags(c.parts.group)).toEqual([true, false]);
    expect(flags(c.parts.either)).toEqual([true, true]);
    expect(flags(c.parts.personal)).toEqual([false, true]);
  });

  it("members who start a group activity share one workflow; outsiders cannot start or see it", async () => {
    const c = await setup();
    expect((await start(c, "ada", c.parts.group)).status).toBe(200);
    expect((await start(c, "grace", c.parts.group)).status).toBe(200);
    const [a, g] = [await ownAw(c, "ada", c.parts.group), await ownAw(c, "grace", c.parts.group)];
    expect(a.groupActivityWorkflowId).toBeTruthy();
    expect(g.groupActivityWorkflowId).toBe(a.groupActivityWorkflowId);
    const gawId = a.groupActivityWorkflowId!;
    // The tree names the group workflow for each member.
    const tree = await json<ActivityTree>(
      call("grace", "GET", `/users/me/objective-workflows/${c.attempts.grace.workflowId}/activity`),
    );
    const node = tree.nodes.find((n) => n.activityPathId === c.parts.group)!;
    expect(node.childActivity.activityWorkflowAggregate.lastActivityWorkflow?.groupActivityWorkflowId).toBe(gawId);

    // Rita is in no group: a group-only activity cannot be started by her.
    const refused = await start(c, "rita", c.parts.group);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain("noGroup");
    // Personal mode is not offered for a group-only activity.
    const wrongMode = await start(c, "katherine", c.parts.group, "personal");
    expect(wrongMode.status).toBe(422);
    expect(JSON.stringify(await wrongMode.json())).toContain("modeNotSupported");

    // Every member sees the group's state; Rita (through her own aggregate or Ada's) gets 404.
    const seen = await json<GroupActivityWorkflow>(call("grace", "GET", gawPath(c, "grace", gawId)));
    expect(seen).toMatchObject({
      id: gawId,
      state: 1,
      activityPathId: c.parts.group,
      group: { name: "Mini-group Analytical Engines" },
    });
    expect((await call("rita", "GET", gawPath(c, "rita", gawId))).status).toBe(404);
    expect((await call("rita", "GET", gawPath(c, "ada", gawId))).status).toBe(404);
    // A member asking through another course's aggregate (or another learner's) gets 404 too.
    expect((await call("grace", "GET", gawPath(c, "ada", gawId))).status).toBe(404);
  });

  it("any member continues the shared answer; a stale save is refused, a double click is one save", async () => {
    const c = await setup();
    await start(c, "ada", c.parts.group);
    await start(c, "grace", c.parts.group);
    const gawId = (await ownAw(c, "ada", c.parts.group)).groupActivityWorkflowId!;
    const save = (who: Who, text: string, version: number) =>
      call(who, "PUT", gawPath(c, who, gawId), { text, version });

    const first = await json<GroupActivityWorkflow>(save("ada", "Our chart answers: when do people ride?", 0));
    expect(first.work).toMatchObject({ version: 1, updatedBy: { name: "Ada Lovelace" } });
    // Grace started from version 0 too: her save would overwrite Ada's unseen → 409, nothing changed.
    const stale = await save("grace", "Something else", 0);
    expect(stale.status).toBe(409);
    expect(JSON.stringify(await stale.json())).toContain("groupWorkChanged");
    const now = await json<GroupActivityWorkflow>(call("grace", "GET", gawPath(c, "grace", gawId)));
    expect(now.work.text).toBe("Our chart answers: when do people ride?");
    // Grace continues from the current version.
    const second = await json<GroupActivityWorkflow>(save("grace", `${now.work.text} Peaks at 8 and 17.`, 1));
    expect(second.work.version).toBe(2);
    // Ada presses Save twice with the same text: one save.
    expect((await save("ada", "Final text", 2)).status).toBe(200);
    expect((await save("ada", "Final text", 2)).status).toBe(200);
    const after = await json<GroupActivityWorkflow>(call("ada", "GET", gawPath(c, "ada", gawId)));
    expect(after.work).toMatchObject({ text: "Final text", version: 3 });
    // Oversized text is a 400 with the field named; a member who has not started may still read it.
    const big = await save("ada", "x".repeat(20_001), 3);
    expect(big.status).toBe(400);
    expect((await call("katherine", "GET", gawPath(c, "katherine", gawId))).status).toBe(200);

    // Participants: the group's members with what they contributed (Ada 2 saves, Grace 1).
    const page = await json<ParticipantsPage>(participantsOf(c, "ada", c.parts.group));
    expect(page.group.name).toBe("Mini-group Analytical Engines");
    expect(page.groupActivityWorkflowId).toBe(gawId);
    expect(page.totalCount).toBe(4);
    const byName = Object.fromEntries(page.data.map((p) => [p.firstName, p]));
    expect(byName.Ada).toMatchObject({ me: true, contributions: 2, lastContribution: "saved" });
    expect(byName.Grace).toMatchObject({ me: false, contributions: 1 });
    expect(byName.Katherine).toMatchObject({ contributions: 0, lastContributedAt: null });
  });

  it("participants: search and paging, and only one's own group", async () => {
    const c = await setup();
    const search = await json<ParticipantsPage>(participantsOf(c, "grace", c.parts.group, "?search=HOPPER"));
    expect(search.data.map((p) => p.lastName)).toEqual(["Hopper"]);
    expect(search.totalCount).toBe(1);
    const p1 = await json<ParticipantsPage>(participantsOf(c, "grace", c.parts.group, "?take=2"));
    const p2 = await json<ParticipantsPage>(participantsOf(c, "grace", c.parts.group, "?take=2&skip=2"));
    const past = await json<ParticipantsPage>(participantsOf(c, "grace", c.parts.group, "?take=2&skip=10"));
    expect([p1.data.length, p2.data.length, past.data.length]).toEqual([2, 2, 0]);
    expect([p1.totalCount, p2.totalCount, past.totalCount]).toEqual([4, 4, 4]);
    expect(new Set([...p1.data, ...p2.data].map((p) => p.id)).size).toBe(4);
    // Rita is in no group; a part of another course, or another learner's workflow → 404.
    expect((await participantsOf(c, "rita", c.parts.group)).status).toBe(404);
    const other = await setup();
    expect((await participantsOf(c, "ada", other.parts.group)).status).toBe(404);
    expect(
      (
        await call(
          "ada",
          "GET",
          `/users/me/objective-workflows/${c.attempts.grace.workflowId}/activity-paths/${c.parts.group}/participants/query`,
        )
      ).status,
    ).toBe(404);
    expect((await participantsOf(c, "ada", c.parts.group, "?take=1000")).status).toBe(400);
    // The page is the same number of statements however many members have contributed.
    const count = async () => {
      const before = t.database.queryCount();
      await participantsOf(c, "ada", c.parts.group);
      return t.database.queryCount() - before;
    };
    const idle = await count();
    for (const who of MEMBERS) await start(c, who, c.parts.group);
    const gawId = (await ownAw(c, "ada", c.parts.group)).groupActivityWorkflowId!;
    for (const [i, who] of MEMBERS.entries())
      await call(who, "PUT", gawPath(c, who, gawId), { text: `v${i}`, version: i });
    expect(await count()).toBe(idle);
  });

  it("20 finishes at once from the 4 members make one submission and one result for all", async () => {
    const c = await setup({ maxScore: 10, manualGrading: true });
    // A reinforcement question about the activity (spec 2.8): every member is asked it, once.
    const [part] = await t.database.db.select().from(s.activityParts).where(eq(s.activityParts.id, c.parts.group));
    await t.database.db.insert(s.reinforcementQuestions).values({
      activityId: part.activityId,
      position: 1,
      question: "Which chart compares categories best?",
      options: [
        { id: "a", text: "A bar chart" },
        { id: "b", text: "A pie chart" },
      ],
      correctAnswer: "a",
      feedback: "Bars compare lengths.",
    });
    for (const who of MEMBERS) expect((await start(c, who, c.parts.group)).status).toBe(200);
    const gawId = (await ownAw(c, "ada", c.parts.group)).groupActivityWorkflowId!;
    const responses = await Promise.all(
      MEMBERS.flatMap((who) => Array.from({ length: 5 }, () => finish(c, who, c.parts.group))),
    );
    expect(responses.map((r) => r.status).every((st) => st === 200)).toBe(true);

    const db = t.database.db;
    const [gaw] = await db.select().from(s.groupActivityWorkflows).where(eq(s.groupActivityWorkflows.id, gawId));
    expect(gaw.state).toBe(2); // waiting for its grader, once
    expect(MEMBERS.map((w) => t.users[w])).toContain(gaw.finishedBy);
    const aws = await db
      .select()
      .from(s.activityWorkflows)
      .where(eq(s.activityWorkflows.groupActivityWorkflowId, gawId));
    expect(aws).toHaveLength(4);
    expect(
      aws.every(
        (aw) => aw.state === ActivityWorkflowState.inGrading && aw.finished?.getTime() === gaw.finished?.getTime(),
      ),
    ).toBe(true);
    const records = await db
      .select()
      .from(s.activityRecords)
      .where(
        inArray(
          s.activityRecords.activityWorkflowId,
          aws.map((aw) => aw.id),
        ),
      );
    expect(records).toHaveLength(4);
    const contributions = await db
      .select()
      .from(s.groupContributions)
      .where(eq(s.groupContributions.groupActivityWorkflowId, gawId));
    expect(contributions.filter((x) => x.lastKind === "submitted")).toHaveLength(1);
    // Every member sees the same state and who submitted; the shared answer can no longer change.
    for (const who of MEMBERS) {
      const seen = await json<GroupActivityWorkflow>(call(who, "GET", gawPath(c, who, gawId)));
      expect(seen).toMatchObject({ state: 2, finishedBy: { id: gaw.finishedBy } });
    }
    const late = await call("ada", "PUT", gawPath(c, "ada", gawId), { text: "too late", version: 0 });
    expect(late.status).toBe(409);
    expect(JSON.stringify(await late.json())).toContain("groupWorkSubmitted");
    const asked = await db
      .select({ userId: s.reinforcementWorkflows.userId })
      .from(s.reinforcementWorkflows)
      .where(
        inArray(
          s.reinforcementWorkflows.userId,
          MEMBERS.map((w) => t.users[w]),
        ),
      );
    expect(asked.map((a) => a.userId).sort()).toEqual(MEMBERS.map((w) => t.users[w]).sort());
    // The other members' attempts moved on with it.
    const progress = await db
      .select({ progress: s.objectiveWorkflows.progress })
      .from(s.objectiveWorkflows)
      .where(
        inArray(
          s.objectiveWorkflows.id,
          MEMBERS.map((w) => c.attempts[w].workflowId),
        ),
      );
    expect(new Set(progress.map((p) => p.progress)).size).toBe(1);
  });

  it("either mode: the learner chooses; a member joining submitted group work has its result at once", async () => {
    const c = await setup();
    expect((await start(c, "ada", c.parts.either, "group")).status).toBe(200);
    expect((await finish(c, "ada", c.parts.either)).status).toBe(200);
    // Grace joins the group's work after it was submitted: finished at once, with a record.
    expect((await start(c, "grace", c.parts.either, "group")).status).toBe(200);
    const grace = await ownAw(c, "grace", c.parts.either);
    expect(grace.state).toBe(3);
    const [rec] = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(eq(s.activityRecords.activityWorkflowId, grace.id));
    expect(rec).toBeTruthy();
    // Margaret works alone: her own workflow, untouched by the group's.
    expect((await start(c, "margaret", c.parts.either, "personal")).status).toBe(200);
    const margaret = await ownAw(c, "margaret", c.parts.either);
    expect([margaret.groupActivityWorkflowId, margaret.state]).toEqual([null, 1]);
    // Without a choice the personal mode is used; a personal activity ignores groups entirely.
    expect((await start(c, "katherine", c.parts.either)).status).toBe(200);
    expect((await ownAw(c, "katherine", c.parts.either)).groupActivityWorkflowId).toBeNull();
    expect((await start(c, "rita", c.parts.personal)).status).toBe(200);
    expect((await start(c, "rita", c.parts.personal, "group")).status).toBe(422);
  });
});
