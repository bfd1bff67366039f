/** Product feedback (spec 2.11, 3 Feedback; issue 16 item 7): validated, stored once per id, per user. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import * as s from "../../api/db/schema";

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t?.close());

const send = async (body: Record<string, unknown>) =>
  t.request("POST", "/api/lms/v1/create-product-feedback", {
    token: await t.token("ada"),
    body: { id: crypto.randomUUID(), ...body },
    headers: { Prefer: "respond-sync" },
  });
const codes = async (res: Response) => JSON.stringify(await res.json());

describe("product feedback", () => {
  it("the grade is required and 1–5; the comment at most 1,000 characters; details are the spec's options", async () => {
    const missing = await send({ details: [], comment: "" });
    expect(missing.status).toBe(400);
    expect(await codes(missing)).toContain("grade");
    expect((await send({ grade: 6 })).status).toBe(400);
    const long = await send({ grade: 3, comment: "x".repeat(1001) });
    expect(long.status).toBe(400);
    expect(await codes(long)).toContain("maxLength");
    expect((await send({ grade: 3, details: ["weather"] })).status).toBe(400);
    expect((await send({ grade: 3, page: "https://evil.example/" })).status).toBe(400);
  });

  it("is stored with the grade, details and comment, once per id even when sent twice at once", async () => {
    const id = crypto.randomUUID();
    const body = {
      id,
      grade: 4,
      details: ["navigation", "other"],
      comment: "  Clear menus.  ",
      page: "/learn/courses",
    };
    const [a, b] = await Promise.all([send(body), send(body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await t.database.db.select().from(s.productFeedback).where(eq(s.productFeedback.id, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: t.users.ada,
      grade: 4,
      details: ["navigation", "other"],
      comment: "Clear menus.",
      page: "/learn/courses",
    });
  });

  it("needs a signed-in user", async () => {
    const res = await t.request("POST", "/api/lms/v1/create-product-feedback", {
      body: { id: crypto.randomUUID(), grade: 5 },
    });
    expect(res.status).toBe(401);
  });
});
