/**
 * The LMS storage API on a bucket (decision 037): with the S3 backend (s3rver here), chat
 * attachments, SCORM packages' files and certificate files are written to the bucket and served from
 * it with the same access checks, ranges and HEAD as from DATA_DIR/storage — nothing on the disk.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { strToU8 } from "fflate";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree, enrolUser, gradeActivityWorkflows } from "../fixtures/courses";
import { startTestS3, type TestS3 } from "../fixtures/s3";
import { openFileStore } from "../../api/files/object-store";
import { zipFolder } from "../../api/scorm/zip-folder";
import * as s from "../../api/db/schema";
import { contentKeyOf, signContentGrant } from "../../api/scorm/content-token";

let t: TestApi;
let s3: TestS3;
let dataDir: string;
let tenantId: string;

beforeAll(async () => {
  s3 = await startTestS3();
  dataDir = mkdtempSync(join(tmpdir(), "object-storage-api-"));
  t = await createTestApi({ dataDir, files: openFileStore(s3.config("lms/")) });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async (path: string, who: string | null, headers: Record<string, string> = {}, method = "GET") =>
  t.request(method, path, { token: who ? await t.token(who) : null, headers });

describe("chat attachments in the bucket", () => {
  it("are written with their message, read by hub members with ranges and HEAD, refused to others", async () => {
    const db = t.database.db;
    const { objective, access } = await createCourse(db, tenantId, { announcementChannelId: crypto.randomUUID() });
    await enrolUser(db, { tenantId, userId: t.users.ada, objectiveId: objective.id, accessId: access.id });
    await enrolUser(db, { tenantId, userId: t.users.grace, objectiveId: objective.id, accessId: access.id });
    const pdf = strToU8("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
    const form = new FormData();
    const id = crypto.randomUUID();
    for (const [k, v] of Object.entries({ id, objectiveId: objective.id, channel: "chat", body: "notes" }))
      form.set(k, v);
    form.append("attachments", new File([pdf as Uint8Array<ArrayBuffer>], "notes.pdf"));
    const res = await t.request("POST", "/api/lms/v1/create-chat-messages", {
      token: await t.token("ada"),
      body: form,
      headers: { Prefer: "respond-sync" },
    });
    expect(res.status).toBe(200);
    const [attachment] = ((await res.json()) as { data: { attachments: { id: string; url: string }[] } }).data
      .attachments;
    expect(await s3.keys(`lms/chat/${id}/`)).toEqual([`lms/chat/${id}/${attachment.id}`]);
    expect(existsSync(join(dataDir, "storage", "chat"))).toBe(false);

    const whole = await get(attachment.url, "grace");
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("application/pdf");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(pdf);
    const part = await get(attachment.url, "grace", { Range: "bytes=0-7" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-7/${pdf.length}`);
    expect(await part.text()).toBe("%PDF-1.4");
    const head = await get(attachment.url, "grace", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(pdf.length));
    expect((await get(attachment.url, "grace", { Range: "bytes=999-" })).status).toBe(416);
    // Rita is not in the course's hub; nobody without a session.
    expect((await get(attachment.url, "rita")).status).toBe(404);
    expect((await get(attachment.url, null)).status).toBe(401);
  });
});

describe("SCORM packages in the bucket", () => {
  it("are unpacked into the bucket and served to the learner the activity is open to", async () => {
    const db = t.database.db;
    const { objective } = await createCourse(db, tenantId, { activityKind: 2, type: 9, code: "S3-SC" });
    const [a] = await db
      .insert(s.activities)
      .values({ tenantId, name: "Quiz", kind: 2, contentType: 1, type: 9, maxScore: 100 })
      .returning();
    await db.insert(s.activityParts).values({ objectiveId: objective.id, activityId: a.id, axis: "0" });
    await enrolUser(db, { tenantId, userId: t.users.ada, objectiveId: objective.id }, { workflowState: 1 });
    const zip = zipFolder("demo/data/scorm/gifts-quiz-12");
    const body = readFileSync(zip);
    rmSync(zip, { force: true });
    const res = await t.api.fetch(
      new Request("http://lms.test/api/scorm/v1/packages?course=S3-SC", {
        method: "POST",
        headers: { Authorization: `Bearer ${await t.token("admin")}`, "Content-Type": "application/zip" },
        body,
      }),
    );
    expect(res.status).toBe(201);
    const imported = (await res.json()) as { id: string };
    const keys = await s3.keys(`lms/scorm/${imported.id}/`);
    expect(keys).toContain(`lms/scorm/${imported.id}/imsmanifest.xml`);
    expect(existsSync(join(dataDir, "storage", "scorm"))).toBe(false);

    // The content origin reads the files under the learner's grant (decision 040), with no session.
    const grant = (user: string) =>
      signContentGrant(contentKeyOf({}), {
        packageId: imported.id,
        activityId: a.id,
        userId: (t.users as Record<string, string>)[user]!,
        expires: Math.floor(Date.now() / 1000) + 3600,
      });
    const path = `/api/lms-storage/v1/scorm-content/${grant("ada")}/imsmanifest.xml`;
    const file = await get(path, null);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/xml/);
    const manifest = await file.text();
    expect(manifest).toContain("<manifest");
    const part = await get(path, null, { Range: "bytes=5-9" });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe(manifest.slice(5, 10));
    expect((await get(path, null, {}, "HEAD")).headers.get("content-length")).toBe(String(Buffer.byteLength(manifest)));
    // Grace is not enrolled; a file the package does not have is 404, and so is a path that climbs out.
    expect((await get(`/api/lms-storage/v1/scorm-content/${grant("grace")}/imsmanifest.xml`, null)).status).toBe(403);
    expect((await get(`/api/lms-storage/v1/scorm-content/${grant("ada")}/nothing.html`, null)).status).toBe(404);
    expect((await get(`/api/lms-storage/v1/scorm-content/${grant("ada")}/..%2F..%2Fsecrets.json`, null)).status).toBe(
      404,
    );

    // A refused package leaves nothing in the bucket.
    const before = (await s3.keys("lms/scorm/")).length;
    const bad = await t.api.fetch(
      new Request("http://lms.test/api/scorm/v1/packages?course=S3-SC", {
        method: "POST",
        headers: { Authorization: `Bearer ${await t.token("admin")}`, "Content-Type": "application/zip" },
        body: new Uint8Array([1, 2, 3]),
      }),
    );
    expect(bad.status).toBe(400);
    expect((await s3.keys("lms/scorm/")).length).toBe(before);
  });
});

describe("certificate files in the bucket", () => {
  it("are drawn once into the bucket and streamed from it", async () => {
    const db = t.database.db;
    const [scale] = await db
      .insert(s.gradingScales)
      .values({ tenantId, name: "Pct", maxScore: 100, normalizedPassingScore: 0.6 })
      .returning();
    await db.insert(s.grades).values([{ gradingScaleId: scale.id, name: "A", color: "#080", normalizedMinScore: 0 }]);
    const [template] = await db
      .insert(s.certificateTemplates)
      .values({ tenantId, name: "Stored Tester", validityDays: 365 })
      .returning();
    const { objective, access } = await createCourse(db, tenantId, {
      gradingScaleId: scale.id,
      activityKind: 3,
      certificateTemplateId: template.id,
    });
    const tree = await createTree(db, tenantId, objective.id, [{ maxScore: 10 }]);
    const { aggregate } = await enrolUser(
      db,
      { tenantId, userId: t.users.ada, objectiveId: objective.id, accessId: access.id },
      { retake: true },
    );
    const call = async (path: string, body: unknown) =>
      t.request("POST", `/api/lms/v1/${path}`, {
        token: await t.token("ada"),
        body,
        headers: { Prefer: "respond-sync" },
      });
    const wfId = crypto.randomUUID();
    await call("start-objective-workflows", { objectiveWorkflowAggregateId: aggregate.id, id: wfId });
    const aws = await (
      await call("start-activity-workflows", { objectiveWorkflowId: wfId, activityPartIds: tree.partIds })
    ).json();
    const awIds = aws.data.activityWorkflows.map((w: { id: string }) => w.id);
    await call("finish-activity-workflows", { objectiveWorkflowId: wfId, activityWorkflowIds: awIds });
    await gradeActivityWorkflows(db, awIds);
    expect((await call("submit-objective-workflows", { id: wfId })).status).toBe(200);
    const [cert] = await db
      .select()
      .from(s.certificateRecords)
      .where(eq(s.certificateRecords.objectiveId, objective.id));
    expect(cert).toBeDefined();

    const pdf = await get(`/api/lms-storage/v1/certificate-records/${cert.id}/pdf`, "ada");
    expect(pdf.status).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    expect(await s3.keys(`lms/certificates/${cert.id}`)).toEqual([
      `lms/certificates/${cert.id}.pdf`,
      `lms/certificates/${cert.id}.png`,
    ]);
    const png = await get(`/api/lms-storage/v1/certificate-records/${cert.id}/png`, "ada", { Range: "bytes=1-3" });
    expect(png.status).toBe(206);
    expect(await png.text()).toBe("PNG");
    expect((await get(`/api/lms-storage/v1/certificate-records/${cert.id}/pdf`, "grace")).status).toBe(404);
    expect(existsSync(join(dataDir, "storage", "certificates"))).toBe(false);
  });
});
