import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { runLearnerMail } from "../../api/jobs/learner-mail";
import { unsubscribeToken, unsubscribeUrl } from "../../api/mail/preferences";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";

/**
 * Issue 31 item 2: e-mail preferences, the signed one-click unsubscribe, and the learner mail jobs —
 * due-date reminders, announcements, reinforcement questions, the daily digest — each item once per
 * learner, in the learner's language, multipart, with RFC 8058 headers; nothing to a learner who
 * turned a kind off.
 */
let t: TestApi;
let tenantId: string;
const KEY = "learner-mail-test-key";
const APP = "https://learn.example";
const NOW = new Date("2026-06-01T12:00:00Z");
const HOUR = 3600_000;
const options = { appUrl: APP, key: KEY };

beforeAll(async () => {
  t = await createTestApi({ appUrl: APP, mailLinkKey: KEY });
  t.setNow(NOW);
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

let counter = 0;
async function learner(over: Partial<typeof s.users.$inferInsert> = {}) {
  counter++;
  const [u] = await t.database.db
    .insert(s.users)
    .values({ tenantId, email: `learner${counter}@example.com`, firstName: `Lea${counter}`, lastName: "Rner", ...over })
    .returning();
  return u;
}
const mailTo = (email: string) =>
  t.database.db.select().from(s.mailOutbox).where(eq(s.mailOutbox.to, email)).orderBy(s.mailOutbox.createdAt);
const put = async (userId: string, body: unknown) =>
  t.request("PUT", "/api/platform/v1/users/me/email-preferences", { token: await t.token(userId), body });

/** A course due in `dueInHours`, the learner enrolled (not started). */
async function dueCourse(userId: string, dueInHours: number, name = `Due course ${++counter}`) {
  const { objective } = await createCourse(t.database.db, tenantId, { name });
  await enrolUser(
    t.database.db,
    { tenantId, userId, objectiveId: objective.id },
    { dueDate: new Date(NOW.getTime() + dueInHours * HOUR), isMandatory: true },
  );
  return objective;
}

describe("GET / PUT users/me/email-preferences", () => {
  it("answers the defaults, saves what the body names, refuses bad input", async () => {
    const u = await learner();
    const token = await t.token(u.id);
    const get = () => t.request("GET", "/api/platform/v1/users/me/email-preferences", { token });
    expect(await (await get()).json()).toEqual({
      reinforcement: true,
      dueReminders: true,
      announcements: true,
      grades: true,
      dailyDigest: false,
      locale: null,
    });
    expect((await put(u.id, { announcements: false, locale: "de" })).status).toBe(200);
    expect(await (await get()).json()).toMatchObject({ announcements: false, dueReminders: true, locale: "de" });
    expect((await put(u.id, { announcements: "no" })).status).toBe(400);
    expect((await put(u.id, { locale: "xx" })).status).toBe(400);
    expect((await put(u.id, { admin: true })).status).toBe(400);
    expect((await t.request("GET", "/api/platform/v1/users/me/email-preferences")).status).toBe(401);
  });
});

describe("the learner's language (spec 9: her choice, then her browser's)", () => {
  it("a browser's language at sign-in is her e-mails' until she chooses, and never her profile's", async () => {
    const u = await learner();
    const token = await t.token(u.id);
    const get = async () =>
      (await (await t.request("GET", "/api/platform/v1/users/me/email-preferences", { token })).json()) as {
        locale: string | null;
      };
    const profile = async () => (await t.database.db.select().from(s.users).where(eq(s.users.id, u.id)))[0];
    expect((await put(u.id, { browserLocale: "ar" })).status).toBe(200);
    expect((await get()).locale).toBe("ar");
    expect(await profile()).toMatchObject({ locale: null, browserLocale: "ar" });
    // Signing in from an English browser next: the e-mails follow it, the profile still names no choice.
    await put(u.id, { browserLocale: "en-US" });
    expect((await get()).locale).toBe("en-US");
    expect((await profile()).locale).toBeNull();
    // Her choice wins over any browser's, now and later.
    await put(u.id, { locale: "de" });
    await put(u.id, { browserLocale: "ar" });
    expect((await get()).locale).toBe("de");
    expect(await profile()).toMatchObject({ locale: "de", browserLocale: "ar" });
    expect((await put(u.id, { browserLocale: "xx" })).status).toBe(400);
  });
});

describe("the signed unsubscribe link (RFC 8058)", () => {
  it("names one learner and one kind; works without signing in; a wrong or foreign link is 404", async () => {
    const u = await learner({ email: "unsub@example.com" });
    const other = await learner();
    const token = unsubscribeToken(KEY, u.id, "announcements");
    const q = (user: string, kind: string, tok: string) =>
      `/api/platform/v1/public/email-unsubscribe?${new URLSearchParams({ user, kind, token: tok })}`;
    const ok = await t.request("GET", q(u.id, "announcements", token));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ kind: "announcements", email: "un…@example.com", subscribed: true });
    expect((await t.request("GET", q(other.id, "announcements", token))).status).toBe(404);
    expect((await t.request("GET", q(u.id, "dueReminders", token))).status).toBe(404);
    expect((await t.request("GET", q(u.id, "announcements", "A".repeat(22)))).status).toBe(404);
    expect((await t.request("GET", q(u.id, "everything", token))).status).toBe(400);
    const post = await t.request("POST", "/api/platform/v1/public/email-unsubscribe", {
      body: { user: u.id, kind: "announcements", token },
    });
    expect(post.status).toBe(200);
    expect(await post.json()).toMatchObject({ subscribed: false, restore: ["announcements"] });
    const [prefs] = await t.database.db.select().from(s.mailPreferences).where(eq(s.mailPreferences.userId, u.id));
    expect(prefs).toMatchObject({ announcements: false, dueReminders: true, reinforcement: true });
    // The page's undo, with the same link, turns that kind on again.
    const undo = await t.request("POST", "/api/platform/v1/public/email-unsubscribe", {
      body: { user: u.id, kind: "announcements", token, subscribe: true },
    });
    expect(await undo.json()).toMatchObject({ subscribed: true });
    // Not with another learner's link.
    const foreign = await t.request("POST", "/api/platform/v1/public/email-unsubscribe", {
      body: { user: other.id, kind: "announcements", token, subscribe: true },
    });
    expect(foreign.status).toBe(404);
    const [back] = await t.database.db.select().from(s.mailPreferences).where(eq(s.mailPreferences.userId, u.id));
    expect(back).toMatchObject({ announcements: true, dueReminders: true, reinforcement: true });
    // Again: the same answer.
    expect(
      (
        await t.request("POST", "/api/platform/v1/public/email-unsubscribe", {
          body: { user: u.id, kind: "announcements", token },
        })
      ).status,
    ).toBe(200);
    expect(unsubscribeUrl(APP, KEY, u.id, "announcements")).toBe(
      `${APP}/learn/unsubscribe?u=${u.id}&k=announcements&t=${token}`,
    );
  });
});

describe("due-date reminders", () => {
  it("mails a due date of the next 24 hours once, multipart, in the learner's language, with the unsubscribe headers", async () => {
    const u = await learner({ timezone: "Europe/Berlin" });
    await put(u.id, { locale: "de" });
    const soon = await dueCourse(u.id, 6, "Brandschutz");
    await dueCourse(u.id, 30, "Later course");
    await dueCourse(u.id, -2, "Overdue course");
    const first = await runLearnerMail(t.database.db, options, NOW);
    expect(first.dueReminders).toBeGreaterThanOrEqual(1);
    expect((await runLearnerMail(t.database.db, options, NOW)).dueReminders).toBe(0);
    const mails = await mailTo(u.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const de = JSON.parse(readFileSync("locales/de/mail.json", "utf8")).mail;
    expect(mail.kind).toBe("dueReminder");
    expect(mail.subject).toBe(de.dueReminder.subject);
    expect(mail.text).toContain("Brandschutz");
    expect(mail.text).not.toContain("Later course");
    expect(mail.text).not.toContain("Overdue course");
    expect(mail.text).toContain(`${APP}/learn/courses/${soon.id}`);
    expect(mail.html).toContain('lang="de"');
    expect(mail.html).toContain("Brandschutz");
    const unsubscribe = unsubscribeUrl(APP, KEY, u.id, "dueReminders");
    expect(mail.headers).toEqual({
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(mail.text).toContain(unsubscribe);
    expect(mail.html).toContain(unsubscribe.replace(/&/g, "&amp;"));
  });

  it("reminds of an activity's due date in an attempt in progress, not of one already handed in", async () => {
    const db = t.database.db;
    const u = await learner();
    const { objective } = await createCourse(db, tenantId, { name: "Course with a due activity" });
    const due = new Date(NOW.getTime() + 3 * HOUR).toISOString();
    const { partIds } = await createTree(db, tenantId, objective.id, [
      { name: "Essay to hand in", constraint: { due } },
      { name: "Quiz already done", constraint: { due } },
      { name: "Garbage date", constraint: { due: "next tuesday" } },
    ]);
    const { workflowId } = await enrolUser(
      db,
      { tenantId, userId: u.id, objectiveId: objective.id },
      { workflowState: ObjectiveWorkflowState.inProgress },
    );
    await db.insert(s.activityWorkflows).values({
      objectiveWorkflowId: workflowId!,
      activityPartId: partIds[1],
      userId: u.id,
      state: 3,
      started: NOW,
      finished: NOW,
    });
    await runLearnerMail(db, options, NOW);
    const [mail] = await mailTo(u.email);
    expect(mail.text).toContain("Essay to hand in (Course with a due activity)");
    expect(mail.text).toContain(`activityPathId=${partIds[0]}`);
    expect(mail.text).not.toContain("Quiz already done");
    expect(mail.text).not.toContain("Garbage date");
  });

  it("nothing to a learner who turned reminders off", async () => {
    const u = await learner();
    await put(u.id, { dueReminders: false });
    await dueCourse(u.id, 2);
    await runLearnerMail(t.database.db, options, NOW);
    expect(await mailTo(u.email)).toHaveLength(0);
  });
});

describe("announcements", () => {
  async function courseWithAnnouncement(userId: string, minutesAgo: number, body: string, read = false) {
    const db = t.database.db;
    const { objective } = await createCourse(db, tenantId, {
      name: `Hub ${++counter}`,
      announcementChannelId: crypto.randomUUID(),
    });
    await enrolUser(db, { tenantId, userId, objectiveId: objective.id });
    const [channel] = await db
      .insert(s.chatChannels)
      .values({ tenantId, objectiveId: objective.id, kind: "announcements", lastSeq: 1 })
      .returning();
    const [message] = await db
      .insert(s.chatMessages)
      .values({
        id: crypto.randomUUID(),
        channelId: channel.id,
        userId: t.users.grace,
        seq: 1,
        version: 1,
        body,
        createdAt: new Date(NOW.getTime() - minutesAgo * 60_000),
      })
      .returning();
    if (read) await db.insert(s.chatReadMarkers).values({ userId, channelId: channel.id, seq: 1 });
    return { objective, message };
  }

  it("mails new, unread announcements once, after their author had time to correct them", async () => {
    const u = await learner();
    const { objective } = await courseWithAnnouncement(u.id, 30, "The exam moves to Friday.");
    await courseWithAnnouncement(u.id, 2, "Just posted: still settling.");
    await courseWithAnnouncement(u.id, 40, "Already read.", true);
    await courseWithAnnouncement(u.id, 60 * 72, "Too old.");
    await runLearnerMail(t.database.db, options, NOW);
    await runLearnerMail(t.database.db, options, NOW);
    const mails = await mailTo(u.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe("announcements");
    expect(mails[0].text).toContain("The exam moves to Friday.");
    expect(mails[0].text).toContain(`${APP}/learn/courses/${objective.id}/view/notifications`);
    for (const not of ["still settling", "Already read", "Too old"]) expect(mails[0].text).not.toContain(not);
    expect(mails[0].headers?.["List-Unsubscribe"]).toBe(`<${unsubscribeUrl(APP, KEY, u.id, "announcements")}>`);
  });

  it("nothing after the learner unsubscribed with the link", async () => {
    const u = await learner();
    await t.request("POST", "/api/platform/v1/public/email-unsubscribe", {
      body: { user: u.id, kind: "announcements", token: unsubscribeToken(KEY, u.id, "announcements") },
    });
    await courseWithAnnouncement(u.id, 30, "You should not get this.");
    await runLearnerMail(t.database.db, options, NOW);
    expect(await mailTo(u.email)).toHaveLength(0);
  });
});

describe("reinforcement questions", () => {
  async function question(userId: string) {
    const db = t.database.db;
    const { objective } = await createCourse(db, tenantId);
    const { partIds } = await createTree(db, tenantId, objective.id, [{ name: "Module" }]);
    const [part] = await db.select().from(s.activityParts).where(eq(s.activityParts.id, partIds[0]));
    const [q] = await db
      .insert(s.reinforcementWorkflows)
      .values({
        userId,
        objectiveId: objective.id,
        activityId: part.activityId,
        question: "What is 2 + 2?",
        options: [
          { id: "a", text: "Four" },
          { id: "b", text: "Five" },
        ],
        correctAnswer: "a",
        feedback: "Two and two make four.",
        dueAt: new Date(NOW.getTime() - HOUR),
      })
      .returning();
    return q;
  }

  it("mails a due question with one link per option, with its unsubscribe link", async () => {
    const u = await learner();
    const q = await question(u.id);
    await runLearnerMail(t.database.db, options, NOW);
    const [mail] = await mailTo(u.email);
    expect(mail.kind).toBe("reinforcement");
    expect(mail.text).toContain(`${APP}/learn/email-response-callback?answer=a&workflowId=${q.id}`);
    expect(mail.text).toContain(unsubscribeUrl(APP, KEY, u.id, "reinforcement"));
  });

  it("nothing to a learner who turned them off; the question waits, unsent", async () => {
    const u = await learner();
    await put(u.id, { reinforcement: false });
    const q = await question(u.id);
    await runLearnerMail(t.database.db, options, NOW);
    expect(await mailTo(u.email)).toHaveLength(0);
    const [row] = await t.database.db
      .select()
      .from(s.reinforcementWorkflows)
      .where(eq(s.reinforcementWorkflows.id, q.id));
    expect(row.sentAt).toBeNull();
  });
});

describe("the daily digest", () => {
  it("gathers every kind that is on into one message a day, at 08:00 in the learner's zone", async () => {
    // 12:00 UTC is 05:00 in Los Angeles, 21:00 in Tokyo.
    const early = await learner({ timezone: "America/Los_Angeles" });
    const late = await learner({ timezone: "Asia/Tokyo" });
    for (const u of [early, late]) {
      await put(u.id, { dailyDigest: true, announcements: false });
      await dueCourse(u.id, 5, `Digest course ${u.firstName}`);
    }
    await runLearnerMail(t.database.db, options, NOW);
    expect(await mailTo(early.email)).toHaveLength(0);
    const [digest, ...more] = await mailTo(late.email);
    expect(more).toHaveLength(0);
    expect(digest.kind).toBe("digest");
    expect(digest.text).toContain(`Digest course ${late.firstName}`);
    expect(digest.headers?.["List-Unsubscribe"]).toBe(`<${unsubscribeUrl(APP, KEY, late.id, "digest")}>`);
    // Later the same day: no second digest; the reminder was in it, so no reminder of its own either.
    await runLearnerMail(t.database.db, options, new Date(NOW.getTime() + 2 * HOUR));
    expect(await mailTo(late.email)).toHaveLength(1);
    // At 08:00 in Los Angeles (15:00 UTC) the other one's comes.
    await runLearnerMail(t.database.db, options, new Date(NOW.getTime() + 3 * HOUR));
    expect((await mailTo(early.email)).map((m) => m.kind)).toEqual(["digest"]);
  });

  it("no learner and item twice, whatever runs at once", async () => {
    const users = await Promise.all([learner(), learner(), learner()]);
    for (const u of users) await dueCourse(u.id, 4);
    await Promise.all([1, 2, 3, 4].map(() => runLearnerMail(t.database.db, options, NOW)));
    const rows = await t.database.db
      .select()
      .from(s.mailOutbox)
      .where(
        and(
          inArray(
            s.mailOutbox.to,
            users.map((u) => u.email),
          ),
          eq(s.mailOutbox.kind, "dueReminder"),
        ),
      );
    expect(rows).toHaveLength(3);
  });
});
