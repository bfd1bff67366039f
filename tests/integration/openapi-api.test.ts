import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../fixtures/api";

/**
 * Decision 034: one definition per route. The document at /api/openapi.json is generated from the routes
 * the API registered; this test holds the two against each other — every method and path Hono registers
 * (the internal routes of `deps.internalRoutes` included) is an operation of the document, and every
 * operation of the document has a handler.
 */
type Operation = {
  requestBody?: unknown;
  summary?: string;
  security?: unknown[];
  tags?: string[];
  "x-internal"?: boolean;
  parameters?: { name: string; in: string; schema?: { maximum?: number } }[];
  responses?: Record<string, unknown>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

let t: TestApi;
let doc: Document;

beforeAll(async () => {
  // With test support mounted, as the browser tests' server runs it: internal routes count too.
  t = await createTestApi({ testSupport: true });
  doc = (await (await t.request("GET", "/api/openapi.json")).json()) as Document;
});
afterAll(() => t.close());

/** A Hono path as an OpenAPI path template: `:id` and `:kind{pdf|png}` are `{id}`, `{kind}`. */
const template = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");

/** Every method and path a handler answers (Hono's `use()` middleware registers as ALL: not an operation). */
function registered(): Map<string, string> {
  const out = new Map<string, string>();
  for (const route of t.api.routes)
    if (route.method !== "ALL") out.set(`${route.method} ${template(route.path)}`, route.path);
  return out;
}

/** How the route is registered in the style of api/routes/*.ts. */
const registration = (method: string) => (method === "HEAD" ? 'r.on(["GET", "HEAD"], ' : `r.${method.toLowerCase()}(`);

function documented(): Set<string> {
  return new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
  );
}

describe("the OpenAPI document lists every route, and only routes (decision 034)", () => {
  it("every registered method and path is documented", () => {
    const routes = registered();
    const known = documented();
    const missing = [...routes].filter(([key]) => !known.has(key));
    const message = missing
      .map(
        ([key, path]) =>
          `${key} (registered as "${path}") is not in /api/openapi.json. Describe it where it is registered: ` +
          `${registration(key.split(" ")[0])}"…", op({ summary: "…", response: …Schema }), validParams(…), validQuery(…), validJson(…), handler) ` +
          `with const op = operations("<resource>") from api/openapi.ts (docs/README.md, "Walkthrough: add an API call", step 3).`,
      )
      .join("\n");
    expect(missing.length, message).toBe(0);
    expect(routes.size).toBeGreaterThan(90);
  });

  it("every documented operation has a handler", () => {
    const routes = registered();
    const orphans = [...documented()].filter((key) => !routes.has(key));
    expect(orphans, `documented without a handler: ${orphans.join(", ")}`).toEqual([]);
  });

  it("every operation has a summary, security and answers; path parameters are named", () => {
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.summary, where).toBeTruthy();
        expect(op.security, where).toBeDefined();
        expect(Object.keys(op.responses ?? {}), where).toContain("400");
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))
          expect(
            op.parameters?.some((p) => p.in === "path" && p.name === name),
            `${where}: {${name}}`,
          ).toBe(true);
      }
  });

  it("internal routes (test support) are marked internal; the LMS API's are not", () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
    const internal = operations.filter(({ op }) => op["x-internal"]);
    expect(internal.map(({ path }) => path).sort()).toEqual(
      operations
        .filter(({ path }) => path.startsWith("/api/test-support/"))
        .map(({ path }) => path)
        .sort(),
    );
    expect(internal.length).toBeGreaterThanOrEqual(3);
    for (const { op } of internal) expect(op.tags).toContain("internal");
  });

  it("the parameters and bodies come from the routes' own schemas", () => {
    const list = doc.paths["/api/lms/v1/objective-workflow-aggregates/query"].get;
    expect(list.parameters?.find((p) => p.name === "take")?.schema?.maximum).toBe(100);
    const enrol = doc.paths["/api/lms/v1/create-self-enrollments"].post as Operation & {
      requestBody: { content: Record<string, { schema: { required?: string[] } }> };
    };
    expect(enrol.requestBody.content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["id", "objectiveAccessId"]),
    );
  });
});

describe("every answer names the route that answered (X-Route-Template, the front's metrics label)", () => {
  it.each([
    ["GET", "/api/openapi.json", "/api/openapi.json"],
    [
      "GET",
      "/api/lms/v1/users/me/objective-workflow-aggregates/term-ids",
      "/api/lms/v1/users/me/objective-workflow-aggregates/term-ids",
    ],
    [
      "GET",
      "/api/lms/v1/objectives/zzqqxxwwyy/objective-workflow-aggregate",
      "/api/lms/v1/objectives/:id/objective-workflow-aggregate",
    ],
    // A method no route takes on that path.
    ["POST", "/api/lms/v1/objectives/zzqqxxwwyy/objective-workflow-aggregate", "(unmatched)"],
    ["GET", "/api/zzqqxxwwyy/abc", "(unmatched)"],
    ["GET", "/api/lms/v1/zzqqxxwwyy", "(unmatched)"],
  ])("%s %s → %s", async (method, path, expected) => {
    const res = await t.request(method, path, { token: await t.token("ada") });
    expect(res.headers.get("X-Route-Template")).toBe(expected);
  });

  it("refused by a middleware (no token: 401) before its handler ran: still the handler's template", async () => {
    const res = await t.request("GET", "/api/lms/v1/users/me/objective-workflow-aggregates/term-ids");
    expect(res.status).toBe(401);
    expect(res.headers.get("X-Route-Template")).toBe("/api/lms/v1/users/me/objective-workflow-aggregates/term-ids");
  });

  it("a flood of random paths names one template, whatever the letters", async () => {
    const templates = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const word = Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
      const res = await t.request("GET", `/api/${word}/x`);
      templates.add(res.headers.get("X-Route-Template") ?? "none");
    }
    expect([...templates]).toEqual(["(unmatched)"]);
  });
});
