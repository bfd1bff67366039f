import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";

let t: TestApi;
let fileActivity: string;
let traversal: string;

beforeAll(async () => {
  t = await createTestApi();
  const db = t.database.db;
  const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
  const { objective } = await createCourse(db, tenantId, { activityKind: 1 });
  const [a] = await db
    .insert(s.activities)
    .values({
      tenantId,
      name: "Board pack",
      kind: 1,
      contentType: 3,
      content: { path: "private/board/2026-q2-board-pack.pdf", fileName: "pack.pdf", mimeType: "application/pdf" },
    })
    .returning();
  const [bad] = await db
    .insert(s.activities)
    .values({
      tenantId,
      name: "Escape",
      kind: 1,
      contentType: 3,
      content: { path: "../../package.json", fileName: "x", mimeType: "text/plain" },
    })
    .returning();
  fileActivity = a.id;
  traversal = bad.id;
  await db.insert(s.activityParts).values([
    { objectiveId: objective.id, activityId: a.id, axis: "00" },
    { objectiveId: objective.id, activityId: bad.id, axis: "01" },
  ]);
  await enrolUser(db, { tenantId, userId: t.users.ada, objectiveId: objective.id }, { workflowState: 1 });
});
afterAll(() => t.close());

const file = async (id: string, user = "ada", headers: Record<string, string> = {}, method = "GET") =>
  t.request(method, `/api/lms-storage/v1/activities/${id}/file`, { token: await t.token(user), headers });

describe("private files (spec 7.5)", () => {
  it("serves the file to an enrolled learner with its type and size", async () => {
    const res = await file(fileActivity);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    const body = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(body.slice(0, 5))).toBe("%PDF-");
    expect(Number(res.headers.get("content-length"))).toBe(body.length);
  });

  it("answers range requests with 206 and HEAD with the size only", async () => {
    const part = await file(fileActivity, "ada", { Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toMatch(/^bytes 0-9\/\d+$/);
    expect((await part.arrayBuffer()).byteLength).toBe(10);
    const head = await file(fileActivity, "ada", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(1000);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await file(fileActivity, "ada", { Range: "bytes=999999999-" })).status).toBe(416);
  });

  it("refuses learners without access (403), unknown files (404) and paths outside storage (404)", async () => {
    expect((await file(fileActivity, "grace")).status).toBe(403);
    expect((await file(crypto.randomUUID())).status).toBe(404);
    expect((await file(traversal)).status).toBe(404);
    expect((await t.request("GET", `/api/lms-storage/v1/activities/${fileActivity}/file`)).status).toBe(401);
  });
});
