import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../fixtures/api";

/**
 * Spec 2.10 / 3: licensed features gate parts of the product. A part the tenant's licence does not
 * include is "not implemented" (501) in the API too, whatever a client asks; the demo tenant has them.
 */

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({ catalog: true, testSupport: true });
});
afterAll(() => t?.close());

const from = new Date("2026-11-01T00:00:00Z");
const to = new Date("2026-12-01T00:00:00Z");
const CATALOG = [
  "/api/lms/v1/users/me/objective-accesses/query",
  "/api/lms/v1/users/me/catalog-showcases",
  "/api/lms/v1/users/me/catalog-filter-categories",
];
const CALENDAR = [
  `/api/lms/v1/users/me/calendar-items?from=${from.toISOString()}&to=${to.toISOString()}`,
  "/api/lms/v1/users/me/calendar-feed",
];

async function learnerWith(features: Record<string, boolean>): Promise<string> {
  const res = await t.request("POST", "/api/test-support/v1/learners", { body: { features } });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return t.token(id);
}

describe("a feature outside the tenant's licence answers 501", () => {
  it("the catalog and the calendar of a tenant without them", async () => {
    const token = await learnerWith({ catalog: false, calendar: false });
    for (const path of [...CATALOG, ...CALENDAR]) {
      const res = await t.request("GET", path, { token });
      expect(res.status, path).toBe(501);
      const body = (await res.json()) as { errors: Record<string, { code: string }[]> };
      expect(body.errors[""][0].code).toBe("featureNotLicensed");
    }
    const create = await t.request("POST", "/api/lms/v1/create-calendar-feeds", {
      token,
      body: { id: crypto.randomUUID() },
    });
    expect(create.status).toBe(501);
  });

  it("only what is off: a tenant without the calendar still has its catalog", async () => {
    const token = await learnerWith({ calendar: false });
    for (const path of CATALOG) expect((await t.request("GET", path, { token })).status, path).toBe(200);
    for (const path of CALENDAR) expect((await t.request("GET", path, { token })).status, path).toBe(501);
  });

  it("the demo tenant's learners have both", async () => {
    const token = await t.token("ada");
    for (const path of [...CATALOG, ...CALENDAR])
      expect((await t.request("GET", path, { token })).status, path).toBe(200);
  });

  it("a learner of its own tenant cannot also ask for demo enrolments", async () => {
    const res = await t.request("POST", "/api/test-support/v1/learners", {
      body: { features: { calendar: false }, like: "ada" },
    });
    expect(res.status).toBe(400);
  });
});

describe("the OpenAPI document says so", () => {
  it("lists the 501 on every call of a licensed feature", async () => {
    const doc = (await (await t.request("GET", "/api/openapi.json")).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const path of [...CATALOG, ...CALENDAR, "/api/lms/v1/create-calendar-feeds"]) {
      const bare = path.split("?")[0];
      const op = Object.values(doc.paths[bare])[0];
      expect(op.responses["501"], bare).toBeDefined();
    }
    expect(doc.paths["/api/lms/v1/users/me/terms"].get.responses["501"]).toBeUndefined();
  });
});
