import { readFileSync, rmSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { zipFolder } from "../../api/scorm/zip-folder";
import { correctResponses } from "../../domain/qti/processing";
import { fromResponses } from "../../domain/qti/responses";
import type { AssessmentAttempt } from "../../domain/contract/assessment";

/**
 * Decision 056: a package of hot text, associate and graphic items imported through the API, taken,
 * answered and scored on the server; the images travel in the items, the answers' secrets do not.
 */
const FOLDER = "tests/fixtures/qti-interactions";
let t: TestApi;
let tenantId: string;

async function course(files: Record<string, string> = {}) {
  const db = t.database.db;
  const { objective } = await createCourse(db, tenantId, { activityKind: 2, type: 10 });
  const [activity] = await db
    .insert(s.activities)
    .values({ tenantId, name: "Network", kind: 2, contentType: 1, type: 10, maxScore: 20 })
    .returning();
  const [part] = await db
    .insert(s.activityParts)
    .values({ objectiveId: objective.id, activityId: activity.id, axis: "0" })
    .returning();
  const zip = zipFolder(FOLDER, files);
  const body = readFileSync(zip);
  rmSync(zip);
  const res = await t.api.fetch(
    new Request(`http://lms.test/api/assessment/v1/packages?course=${objective.code}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await t.token("admin")}`, "Content-Type": "application/zip" },
      body,
    }),
  );
  if (res.status !== 201) return { refused: res as Response };
  const { id: packageId } = (await res.json()) as { id: string };
  const { workflowId } = await enrolUser(
    db,
    { tenantId, userId: t.users.ada, objectiveId: objective.id },
    { workflowState: 1 },
  );
  const [aw] = await db
    .insert(s.activityWorkflows)
    .values({ objectiveWorkflowId: workflowId!, activityPartId: part.id, userId: t.users.ada })
    .returning();
  const path = `/api/assessment/v1/users/me/objective-workflows/${workflowId}/activity-workflows/${aw.id}/assessment`;
  const token = async () => ({ token: await t.token("ada") });
  const sync = { Prefer: "respond-sync" };
  return {
    packageId,
    start: async () => (await (await t.request("PUT", path, await token())).json()) as AssessmentAttempt,
    save: async (answers: object) =>
      t.request("POST", `${path}/answers`, {
        ...(await token()),
        body: { id: randomUUID(), page: 0, answers },
        headers: sync,
      }),
    submit: async () =>
      t.request("POST", `${path}/submit`, { ...(await token()), body: { id: randomUUID() }, headers: sync }),
    record: async () => {
      const [rec] = await db.select().from(s.activityRecords).where(eq(s.activityRecords.activityWorkflowId, aw.id));
      return rec ? { score: rec.score, maxScore: rec.maxScore, passed: rec.passed } : null;
    },
  };
}

beforeAll(async () => {
  t = await createTestApi({
    writeLimits: {
      packageImport: { points: 100, durationSeconds: 60 },
      command: { points: 1000, durationSeconds: 60 },
    },
  });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

describe("hot text, associate and graphic interactions through /api/assessment/v1 (issue 48)", () => {
  it("the correct responses score the maximum; the page has the images and areas but no answer", async () => {
    const c = await course();
    if (c.refused) throw new Error(await c.refused.text());
    const attempt = await c.start();
    const items = attempt.page!.items;
    expect(items.map((i) => i.ref).sort()).toEqual([
      "associate",
      "graphic-associate",
      "graphic-gap-match",
      "graphic-order",
      "hotspot",
      "hottext",
      "select-point",
    ]);
    const text = JSON.stringify(attempt);
    expect(text).not.toMatch(/correct|mapping|mapped|areaMap/i);
    // The package's image is in the item (a data: URI), the hotspots' shapes with it.
    const hotspot = items.find((i) => i.ref === "hotspot")!;
    expect(JSON.stringify(hotspot.view)).toMatch(/"src":"data:image\/svg\+xml;base64,/);
    expect(JSON.stringify(hotspot.view)).toContain(`"coords":[200,150,40]`);

    const rows = await t.database.db.select().from(s.qtiItems).where(eq(s.qtiItems.packageId, c.packageId));
    const byId = new Map(rows.map((r) => [r.item.identifier, r.item]));
    const right = Object.fromEntries(
      items.map((i) => [i.ref, fromResponses(correctResponses(byId.get(i.view.identifier)!))]),
    );
    const saved = await c.save(right);
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await c.submit()).status).toBe(200);
    expect(await c.record()).toEqual({ score: 20, maxScore: 20, passed: null });
  });

  it("wrong and partial answers score what the processing says; answers out of bounds are 400s", async () => {
    const c = await course();
    if (c.refused) throw new Error(await c.refused.text());
    await c.start();
    for (const [answers, code] of [
      [{ "select-point": { RESPONSE: ["500 10"] } }, "responseInvalid"],
      [{ associate: { RESPONSE: ["tcp http", "tcp dns"] } }, "responseTooMany"],
      [{ hottext: { RESPONSE: ["h1", "h2", "h3"] } }, "responseTooMany"],
      [{ "graphic-associate": { RESPONSE: ["pc pc"] } }, "responseInvalid"],
    ] as const) {
      const res = await c.save(answers);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(Object.values(body.errors).flat()).toEqual([expect.objectContaining({ code })]);
    }
    const saved = await c.save({
      hottext: { RESPONSE: ["h2", "h4"] }, // 1 of 1
      associate: { RESPONSE: ["http tcp"] }, // 1 of 2
      hotspot: { RESPONSE: ["router"] }, // 0 of 1
      "select-point": { RESPONSE: ["60 30"] }, // the lesser area: 0.5 of 2
      "graphic-order": { RESPONSE: ["fw", "pc", "router"] }, // 0 of 1
      "graphic-gap-match": { RESPONSE: ["lock fw"] }, // 1 of 2
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await c.submit()).status).toBe(200);
    const record = await c.record();
    // 3.5 of 10 on the activity's scale of 20.
    expect(record?.score).toBeCloseTo(7);
  });

  it("gap match with pictures: the package's pictures inlined, no answer on the page, the right ones score the maximum", async () => {
    // The test's third item is this one (its file replaced): 2 points where the hotspot had 1, 11 in all.
    const c = await course({ "items/hotspot.xml": readFileSync(`${FOLDER}/items/gap-match-images.xml`, "utf8") });
    if (c.refused) throw new Error(await c.refused.text());
    const attempt = await c.start();
    const item = attempt.page!.items.find((i) => i.ref === "hotspot")!;
    const view = JSON.stringify(item.view);
    expect(view.match(/"src":"data:image\/svg\+xml;base64,/g)).toHaveLength(2);
    expect(view).toContain('"text":"Stop sign"');
    expect(view).not.toMatch(/stop g1|yield g2|mapping|correct/i);
    const saved = await c.save({ hotspot: { RESPONSE: ["stop g1", "yield g2"] } });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await c.submit()).status).toBe(200);
    expect((await c.record())?.score).toBeCloseTo((20 * 2) / 11);
  });

  it("an item whose hotspot has coords that do not fit its shape is refused, naming the item", async () => {
    const broken = readFileSync(`${FOLDER}/items/hotspot.xml`, "utf8").replace(
      `coords="200,150,40"`,
      `coords="200,150"`,
    );
    const c = await course({ "items/hotspot.xml": broken });
    expect(c.refused).toBeDefined();
    if (!c.refused) return;
    expect(c.refused.status).toBe(422);
    expect(await c.refused.text()).toMatch(/items\/hotspot\.xml.*item \\"spot\\".*coords/);
  });
});
