import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import * as s from "../../api/db/schema";
import { badRequests, describeRequest, FUZZ_SEED, STACK_TRACE } from "../fixtures/bad-requests";

/**
 * Issue 17 item 6 (decision 018): 600 generated bad requests over every operation of the OpenAPI document (every route the API registers), as
 * Ada (signed in, with real ids among the garbage) and anonymously, against the API in process (the
 * same Hono app `server.ts` mounts at /api; the front's own limits and the app's routes are fuzzed over
 * HTTP by tests/e2e/fuzz.http.spec.ts). Any 5xx or stack trace fails, with the requests that caused it.
 */
let t: TestApi;
let token: string;
let ids: string[];

beforeAll(async () => {
  // The write limits have their own test; here they would turn most writes into 429 early.
  const generous = { points: 100_000, durationSeconds: 60 };
  t = await createTestApi({
    writeLimits: { command: generous, enrolment: generous, post: generous, profile: generous, progress: generous },
  });
  token = await t.token("ada");
  const db = t.database.db;
  const [objectives, workflows, aggregates, parts, activities] = await Promise.all([
    db.select({ id: s.objectives.id }).from(s.objectives).limit(5),
    db.select({ id: s.objectiveWorkflows.id }).from(s.objectiveWorkflows).limit(5),
    db.select({ id: s.objectiveWorkflowAggregates.id }).from(s.objectiveWorkflowAggregates).limit(5),
    db.select({ id: s.activityParts.id }).from(s.activityParts).limit(5),
    db.select({ id: s.activities.id }).from(s.activities).limit(5),
  ]);
  ids = [...objectives, ...workflows, ...aggregates, ...parts, ...activities].map((row) => row.id);
});
afterAll(() => t.close());

describe("bad input to the API never gives a 5xx or a stack trace (issue 17 item 6)", () => {
  it(`600 generated requests over every OpenAPI path, signed in and not (seed ${FUZZ_SEED})`, async () => {
    const doc = (await (await t.request("GET", "/api/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    // One template per operation: each method of each path gets requests of its own (decision 034: the
    // document lists every route, so every route is fuzzed).
    const templates = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({ path, methods: [method.toUpperCase()] })),
    );
    expect(templates.length).toBeGreaterThan(90);
    expect(templates.length).toBeLessThanOrEqual(600);
    const requests = badRequests({ templates, count: 600, ids, origin: "http://lms.test" });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const [index, bad] of requests.entries()) {
      const headers = new Headers(bad.headers);
      if (bad.signedIn) headers.set("authorization", `Bearer ${token}`);
      let response: Response;
      try {
        response = await t.api.fetch(
          new Request(`http://lms.test${bad.target}`, { method: bad.method, headers, body: bad.body }),
        );
      } catch (error) {
        failures.push(`${describeRequest(bad, index)} → threw ${String(error)}`);
        continue;
      }
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500 || STACK_TRACE.test(text))
        failures.push(`${describeRequest(bad, index)} → ${response.status} ${text.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
    // The generator reaches the handlers, not only the front door: some requests pass as valid.
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
    expect([...statuses.keys()].some((status) => status === 400 || status === 422)).toBe(true);
  }, 120_000);
});

describe("the findings' own requests (issue 17 item 6)", () => {
  it.each([
    "/api/lms/v1/public/open-catalog/objectives/query?search=%00",
    "/api/lms/v1/public/open-catalog/objectives/query?domain=%00",
    "/api/lms/v1/public/open-catalog/showcases?domain=a%01b",
    "/api/lms/v1/objective-workflow-aggregates/query?filter=objective.name%20contains%20%27x%7Fy%27",
  ])("GET %s → 400 invalidCharacters", async (path) => {
    const res = await t.request("GET", path, { token });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[""][0].code).toBe("invalidCharacters");
  });

  it("a NUL in a JSON body is a 400 and writes nothing; a deeply nested or huge body is a 4xx", async () => {
    const id = crypto.randomUUID();
    const res = await t.request("POST", "/api/lms/v1/create-discussion-posts", {
      token,
      body: { id, activityPathId: crypto.randomUUID(), body: "a\u0000b" },
      headers: { Prefer: "respond-sync" },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[""][0].code).toBe("invalidCharacters");
    expect(await t.database.db.select().from(s.discussionPosts).where(eq(s.discussionPosts.id, id))).toEqual([]);
    for (const body of ["[".repeat(100_000) + "]".repeat(100_000), JSON.stringify(Array(120_000).fill(0))]) {
      const deep = await t.request("POST", "/api/lms/v1/create-discussion-posts", { token, body });
      expect(deep.status).toBeGreaterThanOrEqual(400);
      expect(deep.status).toBeLessThan(500);
    }
  });
});
