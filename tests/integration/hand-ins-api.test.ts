/**
 * Hand-ins and grading (decision 048, spec 3 Assignment, spec 4.1): a learner saves a draft with text
 * and files (each checked by its contents, stored in the file store), hands it in (late when past the
 * due date, or refused), withdraws and hands in again; a grader sees the queue, saves a draft grade,
 * releases it — the attempt is graded, the course result recomputed and the certificate issued when it
 * passes — and a second grader's save from an older version is a conflict. Another learner's hand-in
 * and files are 404; a non-grader's queue is 403.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { strToU8 } from "fflate";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { ActivityType, ActivityWorkflowState, ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { GradingHandIn, GradingQueue, LearnerHandIn } from "../../domain/contract/hand-ins";

let t: TestApi;
let tenantId: string;
let dataDir: string;

const PDF = strToU8("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const EXE = new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]);
const file = (bytes: Uint8Array, name: string) => new File([bytes as Uint8Array<ArrayBuffer>], name);

const tokens = new Map<string, Promise<string>>();
const tokenOf = (who: string) => {
  if (!tokens.has(who)) tokens.set(who, t.token(who));
  return tokens.get(who)!;
};
const post = async (path: string, body: unknown, who = "ada") =>
  t.request("POST", `/api/lms/v1/${path}`, {
    token: await tokenOf(who),
    body,
    headers: { Prefer: "respond-sync" },
  });
const get = async (path: string, who = "ada") => t.request("GET", path, { token: await tokenOf(who) });
const errorCodes = async (res: Response) => {
  const body = (await res.json()) as { errors: Record<string, { code: string }[]> };
  return Object.fromEntries(Object.entries(body.errors).map(([k, v]) => [k, v.map((m) => m.code)]));
};
function form(fields: Record<string, string>, files: File[] = []) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  for (const x of files) f.append("files", x);
  return f;
}

interface Setup {
  objectiveId: string;
  partId: string;
  otherPartId: string;
  wfId: string;
}

/** A course with an assignment (max 20) and a plain activity, a passing scale and a certificate; ada started it. */
async function setup(options: { due?: string; late?: "refuse"; approval?: boolean } = {}): Promise<Setup> {
  const db = t.database.db;
  const [scale] = await db
    .insert(s.gradingScales)
    .values({ tenantId, name: "Pass at half", maxScore: 100, normalizedPassingScore: 0.5 })
    .returning();
  const [template] = await db
    .insert(s.certificateTemplates)
    .values({ tenantId, name: "Hand-in certificate", validityDays: null })
    .returning();
  const { objective, access } = await createCourse(db, tenantId, {
    activityKind: 3,
    gradingScaleId: scale.id,
    certificateTemplateId: template.id,
    gradingApproval: options.approval ?? false,
  });
  const tree = await createTree(db, tenantId, objective.id, [
    { name: "Report", maxScore: 20, manualGrading: true, constraint: options.due ? { due: options.due } : {} },
    { name: "Reading", maxScore: null },
  ]);
  const [part] = await db.select().from(s.activityParts).where(eq(s.activityParts.id, tree.partIds[0]));
  await db
    .update(s.activities)
    .set({
      type: ActivityType.Assignment,
      content: {
        html: "<p>Hand in your report.</p>",
        handIn: { kinds: ["pdf", "png"], maxFiles: 2, maxBytes: 4096, late: options.late },
      },
    })
    .where(eq(s.activities.id, part.activityId));
  const { aggregate } = await enrolUser(db, {
    tenantId,
    userId: t.users.ada,
    objectiveId: objective.id,
    accessId: access.id,
  });
  const wfId = crypto.randomUUID();
  expect(
    (await post("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: wfId })).status,
  ).toBe(200);
  return { objectiveId: objective.id, partId: tree.partIds[0], otherPartId: tree.partIds[1], wfId };
}

const save = (c: Setup, fields: Record<string, string>, files: File[] = [], who = "ada") =>
  post(
    "save-hand-ins",
    form({ id: crypto.randomUUID(), objectiveId: c.objectiveId, activityPartId: c.partId, ...fields }, files),
    who,
  );
const target = (c: Setup) => ({ id: crypto.randomUUID(), objectiveId: c.objectiveId, activityPartId: c.partId });
const view = async (c: Setup, who = "ada") => {
  const res = await get(`/api/lms/v1/users/me/objectives/${c.objectiveId}/hand-ins/${c.partId}`, who);
  expect(res.status).toBe(200);
  return (await res.json()) as LearnerHandIn;
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "hand-ins-"));
  t = await createTestApi({ dataDir });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("handing in (the learner)", () => {
  it("a draft with text and two files; refusals store nothing; hand in; withdraw; hand in again", async () => {
    const c = await setup();
    const before = await view(c);
    expect(before).toMatchObject({
      handIn: null,
      mayEdit: true,
      rules: { text: true, files: true, maxCount: 2, maxBytes: 4096, types: ["pdf", "png"], allowLate: true },
    });

    // Too big, a refused kind, an .exe renamed .pdf: each a 400 with the spec's message, nothing stored.
    const big = await save(c, { body: "x" }, [file(new Uint8Array(5000).fill(0x25), "big.pdf")]);
    expect(big.status).toBe(400);
    expect(await errorCodes(big)).toEqual({ files: ["attachmentTooLarge"] });
    const kind = await save(c, { body: "x" }, [file(strToU8("hello"), "notes.txt")]);
    expect(await errorCodes(kind)).toEqual({ files: ["attachmentType"] });
    const renamed = await save(c, { body: "x" }, [file(EXE, "report.pdf")]);
    expect(await errorCodes(renamed)).toEqual({ files: ["attachmentType"] });
    const three = await save(c, { body: "x" }, [file(PDF, "a.pdf"), file(PDF, "b.pdf"), file(PNG, "c.png")]);
    expect(await errorCodes(three)).toEqual({ files: ["attachmentCount"] });
    expect((await view(c)).handIn).toBeNull();

    const saved = await save(c, { body: "My findings.\n\nSecond paragraph." }, [
      file(PDF, "report.pdf"),
      file(PNG, "chart.png"),
    ]);
    expect(saved.status).toBe(200);
    const draft = await view(c);
    expect(draft.handIn).toMatchObject({ state: "draft", body: "My findings.\n\nSecond paragraph." });
    expect(draft.handIn!.files.map((f) => [f.name, f.type, f.viewable])).toEqual([
      ["chart.png", "image/png", true],
      ["report.pdf", "application/pdf", true],
    ]);
    // The bytes are in the store, under hand-ins/<hand-in>/<file>.
    expect(existsSync(join(dataDir, "storage", "hand-ins", draft.handIn!.id, draft.handIn!.files[0].id))).toBe(true);
    // A third file does not fit beside the two kept.
    const more = await save(c, { body: "x" }, [file(PDF, "more.pdf")]);
    expect(await errorCodes(more)).toEqual({ files: ["attachmentCount"] });

    // Her file, to her: inline PDF; HEAD its size.
    const pdf = draft.handIn!.files.find((f) => f.name === "report.pdf")!;
    const served = await get(pdf.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("content-disposition")).toMatch(/^inline/);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF);
    // Another learner: 404 for the page and the file; a grader may read it once it is handed in, not a draft.
    expect((await get(`/api/lms/v1/users/me/objectives/${c.objectiveId}/hand-ins/${c.partId}`, "rita")).status).toBe(
      404,
    );
    expect((await get(pdf.url, "rita")).status).toBe(404);
    expect((await get(pdf.url, "grace")).status).toBe(404);

    // "Mark as done" is no way around handing in.
    const aw = await t.database.db
      .select()
      .from(s.activityWorkflows)
      .where(
        and(eq(s.activityWorkflows.objectiveWorkflowId, c.wfId), eq(s.activityWorkflows.activityPartId, c.partId)),
      );
    expect(aw).toHaveLength(1);
    const done = await post("finish-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityWorkflowIds: [aw[0].id],
    });
    expect(await errorCodes(done)).toEqual({ "": ["handInRequired"] });

    // Hand in (a double submit is one command).
    const cmd = target(c);
    const [a, b] = await Promise.all([post("submit-hand-ins", cmd), post("submit-hand-ins", cmd)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const submitted = await view(c);
    expect(submitted).toMatchObject({ mayEdit: false, mayWithdraw: true, handIn: { state: "submitted", late: false } });
    expect((await get(pdf.url, "grace")).status).toBe(200);
    const [inGrading] = await t.database.db
      .select()
      .from(s.activityWorkflows)
      .where(eq(s.activityWorkflows.id, aw[0].id));
    expect(inGrading.state).toBe(ActivityWorkflowState.inGrading);
    // Editing a handed-in draft: 409.
    expect(await errorCodes(await save(c, { body: "changed" }))).toEqual({ "": ["handInNotDraft"] });

    // Withdraw and edit: a draft again, the activity in progress again; then hand in again.
    expect((await post("withdraw-hand-ins", target(c))).status).toBe(200);
    expect((await view(c)).handIn!.state).toBe("draft");
    const removed = await save(c, { body: "Final version.", removeFileIds: pdf.id });
    expect(removed.status).toBe(200);
    expect((await view(c)).handIn!.files.map((f) => f.name)).toEqual(["chart.png"]);
    expect((await get(pdf.url)).status).toBe(404);
    expect((await post("submit-hand-ins", target(c))).status).toBe(200);
  });

  it("an empty hand-in is refused; bad input is 400, never 500", async () => {
    const c = await setup();
    expect(await errorCodes(await post("submit-hand-ins", target(c)))).toEqual({ "": ["handInEmpty"] });
    expect((await post("save-hand-ins", { id: "nope", objectiveId: c.objectiveId })).status).toBe(400);
    // An activity that takes no hand-in, and a course of no standing: 404.
    const other = await post("save-hand-ins", {
      id: crypto.randomUUID(),
      objectiveId: c.objectiveId,
      activityPartId: c.otherPartId,
      body: "x",
    });
    expect(other.status).toBe(404);
    expect((await save(c, { body: "x" }, [], "rita")).status).toBe(404);
  });

  it("after the due date: handed in and marked late, or refused as the activity says", async () => {
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const late = await setup({ due: past });
    await save(late, { body: "Sorry, late." });
    expect((await post("submit-hand-ins", target(late))).status).toBe(200);
    expect((await view(late)).handIn).toMatchObject({ state: "submitted", late: true });

    const refused = await setup({ due: past, late: "refuse" });
    await save(refused, { body: "Too late." });
    expect(await errorCodes(await post("submit-hand-ins", target(refused)))).toEqual({ "": ["handInLateRefused"] });
  });
});

describe("grading (the grader)", () => {
  it("the queue, a draft grade, a conflict, the release: graded, recomputed, certified, and the learner reads it", async () => {
    const c = await setup();
    await save(c, { body: "My report." }, [file(PDF, "report.pdf")]);
    await post("submit-hand-ins", target(c));
    // Ada finishes the other activity and submits the course: it waits in grading.
    const aws = await (
      await post("start-activity-workflows", { objectiveWorkflowId: c.wfId, activityPartIds: [c.otherPartId] })
    ).json();
    await post("finish-activity-workflows", {
      objectiveWorkflowId: c.wfId,
      activityWorkflowIds: aws.data.activityWorkflows.map((a: { id: string }) => a.id),
    });
    const submitted = (await (await post("submit-objective-workflows", { id: c.wfId })).json()).data;
    expect(submitted.state).toBe(ObjectiveWorkflowState.inGrading);
    // Withdrawing after the course was submitted: no.
    expect(await errorCodes(await post("withdraw-hand-ins", target(c)))).toEqual({ "": ["handInNotWithdrawable"] });

    // A learner has no queue.
    expect((await get("/api/lms/v1/grading/hand-ins", "ada")).status).toBe(403);
    const queue = (await (
      await get(`/api/lms/v1/grading/hand-ins?objectiveId=${c.objectiveId}`, "grace")
    ).json()) as GradingQueue;
    expect(queue.data).toHaveLength(1);
    const item = queue.data[0];
    expect(item).toMatchObject({
      state: "submitted",
      late: false,
      fileCount: 1,
      activity: { name: "Report", maxScore: 20 },
    });
    expect(queue.courses.find((x) => x.id === c.objectiveId)?.activities.map((a) => a.name)).toEqual(["Report"]);
    // One hand-in: ada cannot open the grader's view.
    expect((await get(`/api/lms/v1/grading/hand-ins/${item.id}`, "ada")).status).toBe(404);
    const one = (await (await get(`/api/lms/v1/grading/hand-ins/${item.id}`, "grace")).json()) as GradingHandIn;
    expect(one).toMatchObject({ body: "My report.", version: 0, mayGrade: true, score: null });

    // Out of range, and a release without a score: 400.
    const tooHigh = await post(
      "grade-hand-ins",
      { id: crypto.randomUUID(), handInId: item.id, version: 0, score: 21 },
      "grace",
    );
    expect(await errorCodes(tooHigh)).toEqual({ score: ["gradingScoreRange"] });
    const noScore = await post(
      "grade-hand-ins",
      { id: crypto.randomUUID(), handInId: item.id, version: 0, release: true },
      "grace",
    );
    expect(await errorCodes(noScore)).toEqual({ score: ["gradingScoreRequired"] });

    // A draft grade: the learner sees nothing yet; withdrawing is over (grading started).
    const draft = await post(
      "grade-hand-ins",
      { id: crypto.randomUUID(), handInId: item.id, version: 0, score: 15, comment: "Good start." },
      "grace",
    );
    expect(draft.status).toBe(200);
    expect((await view(c)).handIn).toMatchObject({ state: "inGrading", feedback: null });

    // A second save written from version 0: a conflict, nothing lost.
    const stale = await post(
      "grade-hand-ins",
      { id: crypto.randomUUID(), handInId: item.id, version: 0, score: 5, comment: "Overwrite?" },
      "grace",
    );
    expect(stale.status).toBe(409);
    expect(await errorCodes(stale)).toEqual({ "": ["gradingConflict"] });

    // Release with a feedback file (multipart).
    const release = await post(
      "grade-hand-ins",
      form(
        {
          id: crypto.randomUUID(),
          handInId: item.id,
          version: "1",
          score: "18",
          comment: "Clear and well argued.",
          release: "true",
        },
        [file(PDF, "feedback.pdf")],
      ),
      "grace",
    );
    expect(release.status).toBe(200);
    const read = await view(c);
    expect(read.handIn).toMatchObject({
      state: "graded",
      feedback: { score: 18, maxScore: 20, comment: "Clear and well argued." },
    });
    expect(read.handIn!.feedback!.files.map((f) => f.name)).toEqual(["feedback.pdf"]);
    expect((await get(read.handIn!.feedback!.files[0].url)).status).toBe(200);
    expect((await get(read.handIn!.feedback!.files[0].url, "rita")).status).toBe(404);

    // The attempt: graded, its record recomputed (18 of 20 on the only scored activity), the certificate issued.
    const db = t.database.db;
    const [wf] = await db.select().from(s.objectiveWorkflows).where(eq(s.objectiveWorkflows.id, c.wfId));
    expect(wf.state).toBe(ObjectiveWorkflowState.graded);
    const [record] = await db.select().from(s.objectiveRecords).where(eq(s.objectiveRecords.id, wf.objectiveRecordId!));
    expect(record.normalizedScore).toBeCloseTo(0.9);
    expect(record.passed).toBe(true);
    const certs = await db
      .select()
      .from(s.certificateRecords)
      .where(eq(s.certificateRecords.objectiveRecordId, record.id));
    expect(certs).toHaveLength(1);
    const [rec] = await db
      .select()
      .from(s.activityRecords)
      .where(and(eq(s.activityRecords.objectiveWorkflowId, c.wfId), eq(s.activityRecords.activityPartId, c.partId)));
    expect(rec.score).toBe(18);

    // Released: no more grading; the audit has each step with old and new values.
    const again = await post(
      "grade-hand-ins",
      { id: crypto.randomUUID(), handInId: item.id, version: 2, score: 1 },
      "grace",
    );
    expect(await errorCodes(again)).toEqual({ "": ["gradingReleased"] });
    const audited = (await (await get(`/api/lms/v1/grading/hand-ins/${item.id}`, "grace")).json()) as GradingHandIn;
    expect(audited.events.map((e) => [e.action, e.before.score, e.after.score])).toEqual([
      ["saveDraft", null, 15],
      ["release", 15, 18],
    ]);
    expect(audited.events[0].actor).toMatch(/Grace/);
  });

  it("where the course asks for approval, a second grader approves and the attempt is grading approved", async () => {
    const c = await setup({ approval: true });
    await save(c, { body: "Essay." });
    await post("submit-hand-ins", target(c));
    await post("submit-objective-workflows", { id: c.wfId });
    const { data } = (await (
      await get(`/api/lms/v1/grading/hand-ins?objectiveId=${c.objectiveId}`, "grace")
    ).json()) as GradingQueue;
    const id = data[0].id;
    expect(
      (
        await post(
          "grade-hand-ins",
          { id: crypto.randomUUID(), handInId: id, version: 0, score: 20, release: true },
          "grace",
        )
      ).status,
    ).toBe(200);
    const db = t.database.db;
    const state = async () =>
      (await db.select().from(s.objectiveWorkflows).where(eq(s.objectiveWorkflows.id, c.wfId)))[0].state;
    expect(await state()).toBe(ObjectiveWorkflowState.graded);
    // The grader who released it cannot approve it.
    expect(
      await errorCodes(await post("approve-hand-ins", { id: crypto.randomUUID(), handInId: id }, "grace")),
    ).toEqual({
      "": ["gradingSameGrader"],
    });
    // Another instructor approves it.
    await db.insert(s.userRoles).values({ userId: t.users.katherine, role: "Instructor" }).onConflictDoNothing();
    expect((await post("approve-hand-ins", { id: crypto.randomUUID(), handInId: id }, "katherine")).status).toBe(200);
    expect(await state()).toBe(ObjectiveWorkflowState.gradingApproved);
  });
});
