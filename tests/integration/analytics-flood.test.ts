/**
 * Issue 29 item 3 (decision 039): the collector under a flood. Before, 500 anonymous batches of
 * 64 KB were all stored (25,000 rows; the database grew by about 66 MB). Now a visitor stores only
 * page views with bounded fields, at most so many batches a minute per address and per session and
 * so many page views an hour per address; a signed-in user so many batches a minute and events an
 * hour; past a limit, 429 with Retry-After and nothing of the batch stored. Old events are deleted by
 * the jobs after ANALYTICS_RETENTION_DAYS.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, isNull, sql } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import * as s from "../../api/db/schema";
import { ANALYTICS_LIMITS, addressKey } from "../../api/analytics-limits";
import { deleteOldAnalyticsEvents } from "../../api/jobs/analytics-retention";

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t?.close());

const send = (body: unknown, headers: Record<string, string>, token?: string) =>
  t.request("POST", "/api/analytics/v1/events", { token, body, headers: { Prefer: "respond-sync", ...headers } });

/** A batch as large as the beacon takes (about 64 KB): 50 events of every kind with long texts. */
const floodBatch = (session: string) => ({
  events: Array.from({ length: 50 }, (_, i) => ({
    name: i % 2 ? "error" : "page_view",
    page: `/learn/open-catalog/${"x".repeat(400)}`,
    session,
    props: { message: "m".repeat(600), stack: "s".repeat(300) },
  })),
});

const anonymousRows = async () =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(s.analyticsEvents)
      .where(isNull(s.analyticsEvents.userId))
  )[0]!.n;
const tableBytes = async () =>
  Number(
    (
      await t.database.db.execute<{ bytes: string }>(
        sql`select pg_total_relation_size('analytics_events')::text as bytes`,
      )
    ).rows[0]!.bytes,
  );

describe("an anonymous flood of the collector (issue 29 item 3)", () => {
  it("500 batches of 64 KB from one address: 429 past the rate, page views only, at most the hour's cap stored", async () => {
    const before = { rows: await anonymousRows(), bytes: await tableBytes() };
    const statuses = new Map<number, number>();
    const started = performance.now();
    for (let i = 0; i < 500; i++) {
      const res = await send(floodBatch(crypto.randomUUID()), { "X-Client-IP": "203.0.113.7" });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      else await res.arrayBuffer();
    }
    const ms = performance.now() - started;
    const stored = (await anonymousRows()) - before.rows;
    const grown = (await tableBytes()) - before.bytes;
    console.log(
      `[analytics flood] 500 × 64 KB anonymous batches in ${Math.round(ms)} ms: ${JSON.stringify([...statuses])}, ` +
        `${stored} rows stored, table +${Math.round(grown / 1024)} KB`,
    );
    expect(statuses.get(429) ?? 0).toBeGreaterThanOrEqual(500 - ANALYTICS_LIMITS.perAddress.points);
    expect(stored).toBeLessThanOrEqual(ANALYTICS_LIMITS.anonymousHourly.points);
    expect(grown).toBeLessThan(1024 * 1024);
    // What was stored is page views, with no properties, each page a path of at most 512 characters.
    const rows = await t.database.db
      .select({ name: s.analyticsEvents.name, props: s.analyticsEvents.props })
      .from(s.analyticsEvents)
      .where(isNull(s.analyticsEvents.userId));
    expect(new Set(rows.map((r) => r.name))).toEqual(new Set(["page_view"]));
    expect(rows.every((r) => JSON.stringify(r.props) === "{}")).toBe(true);
  });

  it("the hour's cap holds across sessions of one address; another address stores its own", async () => {
    const one = { "X-Client-IP": "198.51.100.1" };
    const batch = (session: string) => ({
      events: Array.from({ length: 50 }, () => ({
        name: "page_view",
        page: "/learn/open-catalog",
        session,
        props: {},
      })),
    });
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) answers.push((await send(batch(crypto.randomUUID()), one)).status);
    // 300 page views an hour: six batches of 50, then 429.
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    expect((await send(batch(crypto.randomUUID()), { "X-Client-IP": "198.51.100.2" })).status).toBe(200);
  });

  it("an IPv6 host counts once for its /64", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe(addressKey("2001:0db8:0001:0002:ffff:1:2:3"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
    expect(addressKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });

  it("a visitor's batch of other events or unbounded pages stores nothing and says so", async () => {
    const res = await send(
      {
        events: [
          { name: "course_start", page: "/learn", props: { objectiveId: "x" } },
          { name: "page_view", page: "https://evil.example/", props: {} },
          { name: "page_view", page: `/${"a".repeat(600)}`, props: {} },
        ],
      },
      { "X-Client-IP": "198.51.100.3" },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 0, dropped: 3 });
  });

  it("a signed-in user: so many batches a minute, then 429", async () => {
    const token = await t.token("grace");
    const answers: number[] = [];
    for (let i = 0; i < ANALYTICS_LIMITS.perSession.points + 2; i++)
      answers.push(
        (await send({ events: [{ name: "page_view", page: "/learn/courses", props: {} }] }, {}, token)).status,
      );
    expect(answers.filter((a) => a === 200)).toHaveLength(ANALYTICS_LIMITS.perSession.points);
    expect(answers.slice(-2)).toEqual([429, 429]);
  });
});

describe("retention (ANALYTICS_RETENTION_DAYS)", () => {
  it("deletes events older than the retention, keeps newer ones; 0 keeps everything", async () => {
    const db = t.database.db;
    const now = new Date("2027-06-01T00:00:00Z");
    const day = 86_400_000;
    const session = crypto.randomUUID();
    await db.insert(s.analyticsEvents).values(
      [200, 181, 179, 1].map((age) => ({
        name: "page_view",
        page: "/learn",
        session,
        props: {},
        createdAt: new Date(now.getTime() - age * day),
      })),
    );
    const ages = async () =>
      (
        await db
          .select({ at: s.analyticsEvents.createdAt })
          .from(s.analyticsEvents)
          .where(eq(s.analyticsEvents.session, session))
      )
        .map((r) => Math.round((now.getTime() - new Date(r.at).getTime()) / day))
        .sort((a, b) => b - a);
    expect(await deleteOldAnalyticsEvents(db, 0, now)).toBe(0);
    expect(await ages()).toEqual([200, 181, 179, 1]);
    expect(await deleteOldAnalyticsEvents(db, 180, now)).toBeGreaterThanOrEqual(2);
    expect(await ages()).toEqual([179, 1]);
  });
});
