import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { zipFolder } from "../../api/scorm/zip-folder";
import {
  AttemptState,
  answerFileField,
  type AssessmentAttempt,
  type QuizGradingAttempt,
} from "../../domain/contract/assessment";

/**
 * Decision 068: a QTI upload interaction's answer, a file sent in the page's multipart save (the hand-ins'
 * reader and limits, narrowed to the item's MIME types), stored in the file store, replaced by the next one,
 * waiting for a person on submit, and read only by its learner and the graders of her tenant.
 */
const FOLDER = "tests/fixtures/qti-upload";
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const sync = { Prefer: "respond-sync" };
let t: TestApi;
let tenantId: string;
let dataDir: string;

async function uploadCourse(learner: "ada" | "grace" = "ada") {
  const db = t.database.db;
  const { objective } = await createCourse(db, tenantId, { activityKind: 2, type: 10 });
  const [a] = await db
    .insert(s.activities)
    .values({ tenantId, name: "Network plan", kind: 2, contentType: 1, type: 10, maxScore: 10 })
    .returning();
  const [part] = await db
    .insert(s.activityParts)
    .values({ objectiveId: objective.id, activityId: a.id, axis: "0" })
    .returning();
  const zip = zipFolder(FOLDER);
  const body = readFileSync(zip);
  rmSync(zip);
  const imported = await t.request("POST", `/api/assessment/v1/packages?course=${objective.code}`, {
    token: await t.token("admin"),
    body,
    headers: { "Content-Type": "application/zip" },
  });
  expect(imported.status, await imported.clone().text()).toBe(201);
  const userId = t.users[learner];
  const { workflowId } = await enrolUser(db, { tenantId, userId, objectiveId: objective.id }, { workflowState: 1 });
  const [aw] = await db
    .insert(s.activityWorkflows)
    .values({ objectiveWorkflowId: workflowId!, activityPartId: part.id, userId })
    .returning();
  const path = `/api/assessment/v1/users/me/objective-workflows/${workflowId}/activity-workflows/${aw.id}/assessment`;
  const token = () => t.token(learner);
  const form = (fields: { answers: object; page?: number; id?: string }, files: [string, Uint8Array, string][]) => {
    const f = new FormData();
    f.set("id", fields.id ?? randomUUID());
    f.set("page", String(fields.page ?? 0));
    f.set("answers", JSON.stringify(fields.answers));
    for (const [field, bytes, name] of files) f.append(field, new Blob([bytes as BlobPart]), name);
    return f;
  };
  return {
    start: async () => (await (await t.request("PUT", path, { token: await token() })).json()) as AssessmentAttempt,
    page: async () => (await (await t.request("GET", path, { token: await token() })).json()) as AssessmentAttempt,
    upload: async (answers: object, files: [string, Uint8Array, string][], id?: string) =>
      t.request("POST", `${path}/answers`, {
        token: await token(),
        body: form({ answers, id }, files),
        headers: sync,
      }),
    save: async (answers: object) =>
      t.request("POST", `${path}/answers`, {
        token: await token(),
        body: { id: randomUUID(), page: 0, answers },
        headers: sync,
      }),
    submit: async () =>
      t.request("POST", `${path}/submit`, { token: await token(), body: { id: randomUUID() }, headers: sync }),
    /** This learner's attempt's stored answer files. */
    files: async () => {
      const [attempt] = await db
        .select({ id: s.assessmentAttempts.id })
        .from(s.assessmentAttempts)
        .where(eq(s.assessmentAttempts.activityWorkflowId, aw.id));
      return attempt ? db.select().from(s.assessmentFiles).where(eq(s.assessmentFiles.attemptId, attempt.id)) : [];
    },
  };
}

const read = async (url: string, user: string) => t.request("GET", url, { token: await t.token(user) });
const PLAN = answerFileField("plan", "RESPONSE");

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "qti-uploads-"));
  t = await createTestApi({
    dataDir,
    chatAttachments: { maxBytes: 1024, maxCount: 3, kinds: ["pdf", "png", "txt", "zip"] },
    writeLimits: {
      packageImport: { points: 100, durationSeconds: 60 },
      command: { points: 1000, durationSeconds: 60 },
    },
  });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a QTI upload's answer through /api/assessment/v1 (decision 068)", () => {
  it("the file is stored with the page's answers, shown on resume, replaced by the next, read by its learner", async () => {
    const c = await uploadCourse();
    const started = await c.start();
    const plan = started.page!.items.find((i) => i.ref === "plan")!;
    expect(plan.view.body.some((n) => n.kind === "interaction" && n.interaction.type === "upload")).toBe(true);
    const saved = await c.upload({ firewall: { RESPONSE: ["edge"] }, plan: {} }, [[PLAN, PDF, "plan.pdf"]]);
    expect(saved.status, await saved.clone().text()).toBe(200);

    const page = await c.page();
    const item = page.page!.items.find((i) => i.ref === "plan")!;
    const file = item.files!.RESPONSE!;
    expect(file).toMatchObject({ name: "plan.pdf", size: PDF.byteLength, type: "application/pdf" });
    expect(item.response).toEqual({ RESPONSE: [file.id] });
    expect(page.page!.items.find((i) => i.ref === "firewall")!.response).toEqual({ RESPONSE: ["edge"] });
    expect(page.pages[0]!.items.find((i) => i.ref === "plan")!.answered).toBe(true);
    const got = await read(file.url, "ada");
    expect(got.status).toBe(200);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PDF);

    // A save without a file (the autosave, a JSON client) keeps it.
    expect((await c.save({ firewall: { RESPONSE: ["desk"] }, plan: {} })).status).toBe(200);
    expect((await c.page()).page!.items.find((i) => i.ref === "plan")!.files!.RESPONSE!.id).toBe(file.id);

    // A new file replaces it: one row, the old bytes gone.
    expect((await c.upload({ plan: {} }, [[PLAN, PNG, "plan.png"]])).status).toBe(200);
    const after = (await c.page()).page!.items.find((i) => i.ref === "plan")!;
    expect(after.files!.RESPONSE).toMatchObject({ name: "plan.png", type: "image/png" });
    expect((await c.files()).filter((f) => f.id === file.id || f.id === after.files!.RESPONSE!.id)).toHaveLength(1);
    expect((await read(file.url, "ada")).status).toBe(404);
    // The other answers of the item's page, saved before, are as they were.
    expect((await c.page()).page!.items.find((i) => i.ref === "firewall")!.response).toEqual({ RESPONSE: ["desk"] });
  });

  it.each([
    ["a type the item does not ask for", [PLAN, new TextEncoder().encode("plain words"), "plan.txt"], "attachmentType"],
    ["a file over the hand-in limit", [PLAN, new Uint8Array(2048).fill(0x25), "plan.pdf"], "attachmentTooLarge"],
    ["contents that are not what the name says", [PLAN, PNG, "plan.pdf"], "attachmentType"],
    ["a question of no page", [answerFileField("nope", "RESPONSE"), PDF, "plan.pdf"], "assessmentNotOnPage"],
    ["a response that is no upload", [answerFileField("firewall", "RESPONSE"), PDF, "plan.pdf"], "assessmentNotOnPage"],
  ] as const)("%s is a 400 with its message; nothing of the page is saved", async (_, part, code) => {
    const c = await uploadCourse();
    await c.start();
    const res = await c.upload({ firewall: { RESPONSE: ["edge"] }, plan: {} }, [[...part]]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Record<string, { code: string; message: string }[]> };
    const first = Object.values(body.errors).flat()[0]!;
    expect(first.code).toBe(code);
    expect(first.message.length).toBeGreaterThan(5);
    if (code === "attachmentType" && part[2] === "plan.txt") expect(first.message).toMatch(/pdf, png/);
    expect(await c.files()).toHaveLength(0);
    expect((await c.page()).page!.items.find((i) => i.ref === "firewall")!.response).toBeNull();
  });

  it("a JSON client cannot name a file it did not send: 400, and [] clears the stored one", async () => {
    const c = await uploadCourse();
    await c.start();
    const forged = await c.save({ plan: { RESPONSE: [randomUUID()] } });
    expect(forged.status).toBe(400);
    expect(JSON.stringify(await forged.json())).toContain("responseInvalid");
    expect((await c.upload({ plan: {} }, [[PLAN, PDF, "plan.pdf"]])).status).toBe(200);
    const id = (await c.page()).page!.items.find((i) => i.ref === "plan")!.files!.RESPONSE!.id;
    expect((await c.save({ plan: { RESPONSE: [id] } })).status).toBe(200);
    expect((await c.save({ plan: { RESPONSE: [] } })).status).toBe(200);
    const cleared = (await c.page()).page!.items.find((i) => i.ref === "plan")!;
    expect(cleared.files).toBeUndefined();
    expect(cleared.response).toEqual({ RESPONSE: [] });
  });

  it("submitted, it waits in grading; the grader sees the file and reads it; others get 404; her score ends it", async () => {
    const c = await uploadCourse();
    await c.start();
    await c.upload({ firewall: { RESPONSE: ["edge"] }, plan: {} }, [[PLAN, PDF, "plan.pdf"]]);
    const url = (await c.page()).page!.items.find((i) => i.ref === "plan")!.files!.RESPONSE!.url;
    // Before the submit, not even a grader reads it.
    expect((await read(url, "grace")).status).toBe(404);
    expect((await c.submit()).status).toBe(200);
    const attempt = await c.page();
    expect(attempt.state).toBe(AttemptState.inGrading);
    const attemptId = attempt.id;
    const grading = `/api/assessment/v1/grading/attempts/${attemptId}`;
    const seen = (await (await read(grading, "grace")).json()) as QuizGradingAttempt;
    const item = seen.items.find((i) => i.ref === "plan")!;
    expect(item.files!.RESPONSE).toMatchObject({ name: "plan.pdf", url });
    const byGrader = await read(url, "grace");
    expect(byGrader.status).toBe(200);
    expect(byGrader.headers.get("content-type")).toMatch(/application\/pdf/);
    expect((await read(url, "ada")).status).toBe(200);
    // Another learner of the tenant, an unknown file: 404.
    expect((await read(url, "katherine")).status).toBe(404);
    expect((await read(`/api/lms-storage/v1/assessment-files/${randomUUID()}`, "grace")).status).toBe(404);
    expect((await t.request("GET", url, { token: null })).status).toBe(401);

    const scored = await t.request("PUT", `${grading}/scores`, {
      token: await t.token("grace"),
      body: { scores: { plan: 4 } },
    });
    expect(scored.status, await scored.clone().text()).toBe(200);
    expect(((await scored.json()) as { state: number }).state).toBe(AttemptState.done);
  });
});
