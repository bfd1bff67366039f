import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../fixtures/api";
import * as s from "../../api/db/schema";

/** `grading-scales/query` answered any tenant's scales to anyone who named their ids. */
let t: TestApi;
let own: string;
let foreign: string;

beforeAll(async () => {
  t = await createTestApi();
  const db = t.database.db;
  const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
  const [{ id: otherTenant }] = await db
    .insert(s.tenants)
    .values({ name: "Other school", domain: "other.example" })
    .returning({ id: s.tenants.id });
  const scale = (tenant: string, name: string) => ({
    tenantId: tenant,
    name,
    maxScore: 100,
    normalizedPassingScore: 0.5,
  });
  [{ id: own }, { id: foreign }] = await db
    .insert(s.gradingScales)
    .values([scale(tenantId, "Ours"), scale(otherTenant, "Theirs")])
    .returning({ id: s.gradingScales.id });
  await db.insert(s.grades).values([
    { gradingScaleId: own, name: "Pass", color: "#0a0", normalizedMinScore: 0.5 },
    { gradingScaleId: foreign, name: "Secret grade", color: "#a00", normalizedMinScore: 0.5 },
  ]);
});
afterAll(() => t.close());

describe("grading scales are read within the caller's tenant", () => {
  it("another tenant's scale id reads as unknown; the caller's own is answered with its grades", async () => {
    const res = await t.request("GET", `/api/lms/v1/grading-scales/query?id=${own}&id=${foreign}`, {
      token: await t.token("ada"),
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toContain("Theirs");
    expect(body).not.toContain("Secret grade");
    const { data } = JSON.parse(body) as { data: { id: string; objectiveGrades: { name: string }[] }[] };
    expect(data.map((scale) => scale.id)).toEqual([own]);
    expect(data[0].objectiveGrades.map((g) => g.name)).toEqual(["Pass"]);
  });

  it("two statements whatever the number of ids", async () => {
    const token = await t.token("ada");
    const before = t.database.queryCount();
    await t.request("GET", `/api/lms/v1/grading-scales/query?id=${own}&id=${foreign}&id=${crypto.randomUUID()}`, {
      token,
    });
    // The user lookup of the token, then the scales and their grades.
    expect(t.database.queryCount() - before).toBeLessThanOrEqual(3);
  });
});
