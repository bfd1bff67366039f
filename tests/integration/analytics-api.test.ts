/** The embedded analytics collector (issue 16 item 8, decision 029): batches of spec 7.1 events, stored. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import * as s from "../../api/db/schema";

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t?.close());

const send = async (body: unknown, token?: string) =>
  t.request("POST", "/api/analytics/v1/events", { token, body, headers: { Prefer: "respond-sync" } });

describe("the analytics collector", () => {
  it("stores a batch as the signed-in user, one statement for the batch (and one for the hour's count)", async () => {
    const session = crypto.randomUUID();
    const start = t.database.queryCount();
    const res = await send(
      {
        events: [
          { name: "page_view", page: "/learn/courses", session, props: {} },
          { name: "my_courses_search", page: "/learn/courses", session, props: { keywordLength: 6, resultCount: 3 } },
          {
            name: "product_feedback",
            page: "/learn",
            session,
            props: { grade: 4, details: ["navigation"], comment: "ok" },
          },
        ],
      },
      await t.token("ada"),
    );
    expect(res.status).toBe(200);
    expect(t.database.queryCount() - start).toBeLessThanOrEqual(3);
    const rows = await t.database.db.select().from(s.analyticsEvents).where(eq(s.analyticsEvents.session, session));
    expect(rows.map((r) => [r.name, r.userId])).toEqual([
      ["page_view", t.users.ada],
      ["my_courses_search", t.users.ada],
      ["product_feedback", t.users.ada],
    ]);
  });

  it("takes visitors' page views anonymously", async () => {
    const res = await send({ events: [{ name: "page_view", page: "/learn/open-catalog", props: {} }] });
    expect(res.status).toBe(200);
  });

  it("refuses unknown events, empty or oversized batches with a 400", async () => {
    expect((await send({ events: [{ name: "keystrokes", props: {} }] })).status).toBe(400);
    expect((await send({ events: [] })).status).toBe(400);
    const many = Array.from({ length: 51 }, () => ({ name: "page_view", props: {} }));
    expect((await send({ events: many })).status).toBe(400);
    expect((await send("not json")).status).toBe(400);
  });
});

describe("forwarding to ANALYTICS_URL", () => {
  it("sends the stored events on in a batch, again after a refusal of 503, without holding the collector", async () => {
    const received: { events: { name: string; datalakeSession: string | null }[] }[] = [];
    let calls = 0;
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        calls++;
        // The first try fails: the forwarder retries after its backoff.
        if (calls === 1) return res.writeHead(503).end();
        received.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const api = await createTestApi({ analyticsUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in` });
    try {
      const started = Date.now();
      const res = await api.request("POST", "/api/analytics/v1/events", {
        token: await api.token("ada"),
        body: {
          events: [
            { name: "course_start", page: "/learn/courses/x", session: "s1", datalakeSession: "d1", props: {} },
            { name: "page_view", page: "/learn", session: "s1", datalakeSession: "d1", props: {} },
          ],
        },
      });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(400); // answered before the retry's 500 ms backoff
      await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
      expect(calls).toBe(2);
      expect(received[0]!.events.map((e) => [e.name, e.datalakeSession])).toEqual([
        ["course_start", "d1"],
        ["page_view", "d1"],
      ]);
    } finally {
      await api.close();
      server.close();
    }
  });
});
