/**
 * Issue 31 item 2 on PostgreSQL with two API instances on one database: the learner mail jobs of both
 * nodes run at the same moment, again and again, over many learners with due dates, announcements,
 * questions and digests — and every learner hears of every item once. Only in the vitest project
 * "postgres" (TEST_DATABASE_URL; docs/postgres-tests.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inArray, sql } from "drizzle-orm";
import * as s from "../../api/db/schema";
import { runLearnerMail } from "../../api/jobs/learner-mail";
import { sendPendingMail } from "../../api/mail/outbox";
import { startJobs } from "../../api/jobs/run";
import { createTestApi, type TestApi, type TestNode } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import { testDatabaseUrl } from "../fixtures/database";

if (!testDatabaseUrl()) throw new Error("tests/postgres/* run in the vitest project 'postgres' (TEST_DATABASE_URL)");

const HOUR = 3600_000;
const LEARNERS = 40;

describe("two API nodes run the learner mail jobs at once", () => {
  let a: TestApi;
  let b: TestNode;
  let tenantId: string;
  const emails: string[] = [];
  const now = new Date();
  // The digest learners live where 08:00 has passed at `now` (Tokyo is UTC+9 with no summer time:
  // 09:00–16:59 there while it is before 08:00 UTC), so their digests are due and the race to claim
  // them runs at any hour the suite does. In UTC before 08:00 none was due, and nothing was checked.
  const digestZone = now.getUTCHours() >= 8 ? "UTC" : "Asia/Tokyo";
  beforeAll(async () => {
    a = await createTestApi({ mailLinkKey: "k" });
    b = await a.otherNode();
    const db = a.database.db;
    [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
    const hub = await createCourse(db, tenantId, { name: "Hub", announcementChannelId: crypto.randomUUID() });
    const [channel] = await db
      .insert(s.chatChannels)
      .values({ tenantId, objectiveId: hub.objective.id, kind: "announcements", lastSeq: 2 })
      .returning();
    await db.insert(s.chatMessages).values(
      [1, 2].map((seq) => ({
        id: crypto.randomUUID(),
        channelId: channel.id,
        userId: a.users.grace,
        seq,
        version: seq,
        body: `Announcement ${seq}`,
        createdAt: new Date(now.getTime() - (30 + seq) * 60_000),
      })),
    );
    const due = await createCourse(db, tenantId, { name: "Due soon" });
    for (let i = 0; i < LEARNERS; i++) {
      // A quarter take the daily digest, in a zone where its hour has come.
      const digest = i % 4 === 0;
      const [u] = await db
        .insert(s.users)
        .values({
          tenantId,
          email: `node-learner-${i}@example.com`,
          firstName: "N",
          lastName: `${i}`,
          timezone: digest ? digestZone : "UTC",
        })
        .returning();
      emails.push(u.email);
      if (digest) await db.insert(s.mailPreferences).values({ userId: u.id, dailyDigest: true });
      await enrolUser(db, { tenantId, userId: u.id, objectiveId: hub.objective.id });
      await enrolUser(
        db,
        { tenantId, userId: u.id, objectiveId: due.objective.id },
        { dueDate: new Date(now.getTime() + 5 * HOUR), isMandatory: true },
      );
    }
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("every learner gets each item once, whichever node claims it", async () => {
    const options = { appUrl: "https://learn.example", key: "k" };
    // Both nodes, four rounds each, all at once (as both timers would fire together).
    await Promise.all(
      [a.database, b.database].flatMap((database) => [0, 1, 2, 3].map(() => runLearnerMail(database.db, options, now))),
    );
    const outbox = await a.database.db.select().from(s.mailOutbox).where(inArray(s.mailOutbox.to, emails));
    const digestLearners = new Set(emails.filter((_, i) => i % 4 === 0));
    for (const email of emails) {
      const mine = outbox
        .filter((m) => m.to === email)
        .map((m) => m.kind)
        .sort();
      if (digestLearners.has(email)) expect(mine, email).toEqual(["digest"]);
      else expect(mine, email).toEqual(["announcements", "dueReminder"]);
    }
    const deliveries = await a.database.db.execute<{ n: number; d: number }>(sql`
      select count(*)::int as n, count(distinct (user_id, kind, item_key))::int as d from ${s.mailDeliveries}`);
    expect(deliveries.rows[0].n).toBe(deliveries.rows[0].d);
  });

  it("the jobs' timers on both nodes send what is queued once, and nothing more", async () => {
    const stops = [a.database, b.database].map((database) =>
      startJobs({
        database,
        verifyToken: async () => ({ sub: "" }),
        appUrl: "https://learn.example",
        mailLinkKey: "k",
        jobs: { intervalMs: 200 },
      }),
    );
    try {
      // Two sends at once as well: each queued message is claimed by one of them.
      await Promise.all([
        sendPendingMail(a.database.db, { appUrl: "https://learn.example" }),
        sendPendingMail(b.database.db, { appUrl: "https://learn.example" }),
      ]);
      await new Promise((r) => setTimeout(r, 4000));
    } finally {
      for (const stop of stops) stop();
    }
    const outbox = await a.database.db.select().from(s.mailOutbox).where(inArray(s.mailOutbox.to, emails));
    expect(outbox.every((m) => m.sentAt !== null)).toBe(true);
    expect(outbox.every((m) => m.attempts === 1)).toBe(true);
  });
});
