/**
 * Decision 058 (issue 49 item 3): a released grade tells the learner — the hub's unread count and list
 * ("Your work was graded", leading to the activity) and an e-mail, or a line of her daily digest —
 * once per released grade, and no e-mail when she turned grades off.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { runLearnerMail } from "../../api/jobs/learner-mail";
import { notifyGraded } from "../../api/notifications/learner-notifications";
import { ActivityType } from "../../domain/vocabulary";
import { GradingCommandError, runGradingCommand } from "../../api/commands/grading";
import { parseGradingArgs } from "../../ops/commands/grading";
import { UsageError } from "../../ops/database-or-server";
import type { GradingQueue, LearnerNotifications } from "../../domain/contract/hand-ins";
import type { ChatUnread } from "../../domain/contract/chat";

const APP = "https://learn.example";
const options = { appUrl: APP, key: "test-mail-link-key-0123456789abcdef" };
let t: TestApi;
let tenantId: string;
let dataDir: string;
let counter = 0;

const request = async (method: "GET" | "POST" | "PUT", path: string, userId: string, body?: unknown) =>
  t.request(method, path, { token: await t.token(userId), body, headers: { Prefer: "respond-sync" } });
const command = (path: string, userId: string, body: unknown) => request("POST", `/api/lms/v1/${path}`, userId, body);

async function learner() {
  counter++;
  const [u] = await t.database.db
    .insert(s.users)
    .values({ tenantId, email: `graded${counter}@example.com`, firstName: `Gia${counter}`, lastName: "Learner" })
    .returning();
  return u;
}

/** A course with a person-graded assignment (max 20); the learner has started it and handed in text. */
async function handedIn(userId: string) {
  const db = t.database.db;
  const { objective, access } = await createCourse(db, tenantId, { activityKind: 3, name: `Graded ${++counter}` });
  const tree = await createTree(db, tenantId, objective.id, [{ name: "Essay", maxScore: 20, manualGrading: true }]);
  const [part] = await db.select().from(s.activityParts).where(eq(s.activityParts.id, tree.partIds[0]));
  await db
    .update(s.activities)
    .set({ type: ActivityType.Assignment, content: { html: "<p>Write.</p>", handIn: {} } })
    .where(eq(s.activities.id, part.activityId));
  const { aggregate } = await enrolUser(db, { tenantId, userId, objectiveId: objective.id, accessId: access.id });
  const wfId = crypto.randomUUID();
  expect(
    (await command("start-objective-workflows", userId, { objectiveWorkflowAggregateId: aggregate.id, id: wfId }))
      .status,
  ).toBe(200);
  const target = { objectiveId: objective.id, activityPartId: part.id };
  expect(
    (await command("save-hand-ins", userId, { id: crypto.randomUUID(), ...target, body: "My essay." })).status,
  ).toBe(200);
  expect((await command("submit-hand-ins", userId, { id: crypto.randomUUID(), ...target })).status).toBe(200);
  const queue = (await (
    await request("GET", `/api/lms/v1/grading/hand-ins?objectiveId=${objective.id}`, t.users.grace)
  ).json()) as GradingQueue;
  return { objectiveId: objective.id, partId: part.id, handInId: queue.data[0].id };
}

const release = (handInId: string, id = crypto.randomUUID(), score = 18) =>
  command("grade-hand-ins", t.users.grace, { id, handInId, version: 0, score, comment: "Well argued.", release: true });

const unread = async (userId: string) =>
  (await (await request("GET", "/api/lms/v1/users/me/chat/unread", userId)).json()) as ChatUnread;
const notices = async (userId: string, objectiveId: string) =>
  (await (
    await request("GET", `/api/lms/v1/users/me/objectives/${objectiveId}/notifications`, userId)
  ).json()) as LearnerNotifications;
const mails = (email: string, kind: string) =>
  t.database.db
    .select()
    .from(s.mailOutbox)
    .where(and(eq(s.mailOutbox.to, email), eq(s.mailOutbox.kind, kind)));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "grade-notifications-"));
  t = await createTestApi({ dataDir, appUrl: APP, mailLinkKey: options.key });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a released grade notifies the learner", () => {
  it("the hub counts and lists it once; reading it clears the badge; the e-mail goes once", async () => {
    const u = await learner();
    const c = await handedIn(u.id);
    expect((await unread(u.id)).total).toBe(0);
    // A draft grade tells her nothing.
    expect(
      (
        await command("grade-hand-ins", t.users.grace, {
          id: crypto.randomUUID(),
          handInId: c.handInId,
          version: 0,
          score: 10,
        })
      ).status,
    ).toBe(200);
    expect((await unread(u.id)).total).toBe(0);
    const releaseId = crypto.randomUUID();
    expect(
      (
        await command("grade-hand-ins", t.users.grace, {
          id: releaseId,
          handInId: c.handInId,
          version: 1,
          score: 18,
          release: true,
        })
      ).status,
    ).toBe(200);
    // The same release again (a retried command): the same answer, no second notice.
    expect(
      (
        await command("grade-hand-ins", t.users.grace, {
          id: releaseId,
          handInId: c.handInId,
          version: 1,
          score: 18,
          release: true,
        })
      ).status,
    ).toBe(200);

    expect(await unread(u.id)).toEqual({ total: 1, objectiveId: c.objectiveId, channel: "announcements" });
    const first = await notices(u.id, c.objectiveId);
    expect(first.markedRead).toBe(true);
    expect(first.data).toEqual([
      expect.objectContaining({
        kind: "graded",
        activityName: "Essay",
        activityPartId: c.partId,
        score: 18,
        maxScore: 20,
        read: false,
      }),
    ]);
    // Read: the badge is gone, the notice stays in the list.
    expect((await unread(u.id)).total).toBe(0);
    expect((await notices(u.id, c.objectiveId)).data.map((n) => n.read)).toEqual([true]);

    // Nobody else reads her notices: another learner's list of that course is empty.
    const other = await learner();
    expect((await notices(other.id, c.objectiveId)).data).toEqual([]);

    const run = await runLearnerMail(t.database.db, options);
    expect(run.graded).toBeGreaterThanOrEqual(1);
    const sent = await mails(u.email, "graded");
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe("Your work was graded");
    expect(sent[0].text).toContain("Essay");
    expect(sent[0].text).toContain("18");
    expect(sent[0].text).toContain(`${APP}/learn/courses/${c.objectiveId}/hand-in/${c.partId}`);
    expect(sent[0].headers?.["List-Unsubscribe"]).toMatch(/k=grades/);
    await runLearnerMail(t.database.db, options);
    expect(await mails(u.email, "graded")).toHaveLength(1);
  });

  it("one notice per released grade: the same grade again is nothing, a changed grade is news", async () => {
    const u = await learner();
    const c = await handedIn(u.id);
    const n = { userId: u.id, itemId: c.handInId, objectiveId: c.objectiveId, activityPartId: c.partId, maxScore: 20 };
    const now = new Date();
    await t.database.db.transaction(async (tx) => {
      expect(await notifyGraded(tx, { ...n, score: 12 }, now)).toBe(true);
      expect(await notifyGraded(tx, { ...n, score: 12 }, now)).toBe(false);
      expect(await notifyGraded(tx, { ...n, score: 15 }, now)).toBe(true);
    });
    expect((await unread(u.id)).total).toBe(2);
  });

  it("no e-mail to a learner who turned grades off; the hub still tells her", async () => {
    const u = await learner();
    expect((await request("PUT", "/api/platform/v1/users/me/email-preferences", u.id, { grades: false })).status).toBe(
      200,
    );
    const c = await handedIn(u.id);
    expect((await release(c.handInId)).status).toBe(200);
    await runLearnerMail(t.database.db, options);
    expect(await mails(u.email, "graded")).toEqual([]);
    expect((await unread(u.id)).total).toBe(1);
  });

  it("a learner of the daily digest finds the grade in it, not in a message of its own", async () => {
    const u = await learner();
    expect(
      (await request("PUT", "/api/platform/v1/users/me/email-preferences", u.id, { dailyDigest: true })).status,
    ).toBe(200);
    const c = await handedIn(u.id);
    expect((await release(c.handInId)).status).toBe(200);
    // 09:00 UTC: her digest's hour (no time zone: UTC) has come.
    const morning = new Date();
    morning.setUTCHours(9, 0, 0, 0);
    await runLearnerMail(t.database.db, options, morning);
    expect(await mails(u.email, "graded")).toEqual([]);
    const digest = await mails(u.email, "digest");
    expect(digest).toHaveLength(1);
    expect(digest[0].text).toContain("Your work was graded:");
    expect(digest[0].text).toContain("Essay");
  });
});

describe("npm run grading (decision 058)", () => {
  it("reads its arguments, refusing wrong ones with the usage", () => {
    expect(parseGradingArgs(["list", "--as", "grace@example.com", "--course", "SQL-101"])).toEqual({
      command: "list",
      as: "grace@example.com",
      course: "SQL-101",
      limit: 100,
    });
    const id = crypto.randomUUID();
    expect(parseGradingArgs(["grade", id, "--as", "g@example.com", "--score", "17,5", "--release"])).toEqual({
      command: "grade",
      as: "g@example.com",
      handIn: id,
      score: 17.5,
      comment: "",
      release: true,
    });
    expect(() => parseGradingArgs(["grade", id, "--as", "g@example.com"])).toThrow(UsageError);
    expect(() => parseGradingArgs(["grade", "not-an-id", "--as", "g@example.com", "--score", "1"])).toThrow(UsageError);
    expect(() => parseGradingArgs(["list"])).toThrow(UsageError);
  });

  it("lists the queue of a course by its code and grades with the API's rules", async () => {
    const u = await learner();
    const c = await handedIn(u.id);
    const [course] = await t.database.db
      .select({ code: s.objectives.code })
      .from(s.objectives)
      .where(eq(s.objectives.id, c.objectiveId));
    const [grace] = await t.database.db.select().from(s.users).where(eq(s.users.id, t.users.grace));
    const db = t.database.db;
    const list = await runGradingCommand(
      db,
      parseGradingArgs(["list", "--as", grace.email, "--course", course.code]),
      new Date(),
    );
    expect(list).toEqual([expect.objectContaining({ id: c.handInId, state: "submitted" })]);
    // Above the activity's maximum: the API's refusal, nothing saved.
    await expect(
      runGradingCommand(db, parseGradingArgs(["grade", c.handInId, "--as", grace.email, "--score", "21"]), new Date()),
    ).rejects.toThrow(GradingCommandError);
    // A learner is no grader.
    await expect(runGradingCommand(db, parseGradingArgs(["list", "--as", u.email]), new Date())).rejects.toThrow(
      GradingCommandError,
    );
    const graded = await runGradingCommand(
      db,
      parseGradingArgs(["grade", c.handInId, "--as", grace.email, "--score", "16", "--comment", "Good.", "--release"]),
      new Date(),
    );
    expect(graded).toMatchObject({ handInId: c.handInId, state: "graded" });
    // The learner reads it, and is told.
    expect((await unread(u.id)).total).toBe(1);
    expect(
      await runGradingCommand(db, parseGradingArgs(["list", "--as", grace.email, "--course", course.code]), new Date()),
    ).toEqual([]);
  });
});
