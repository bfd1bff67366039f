import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { zipSync } from "fflate";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { storageDir } from "../../api/files/roots";
import { zipFolder } from "../../api/scorm/zip-folder";
import { contentKeyOf, signContentGrant, type ContentGrant } from "../../api/scorm/content-token";

let t: TestApi;
let tenantId: string;
let courseCode: string;
let activityId: string;
const scormRoot = () => join(storageDir(undefined), "scorm");
const packagesOnDisk = () => (existsSync(scormRoot()) ? readdirSync(scormRoot()).length : 0);
const demo = (name: string) => `demo/data/scorm/${name}`;
const tmp = join(tmpdir(), `scorm-test-${process.pid}`);

beforeAll(async () => {
  t = await createTestApi();
  const db = t.database.db;
  [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
  const { objective } = await createCourse(db, tenantId, { activityKind: 2, type: 9, code: "SC-1" });
  courseCode = objective.code;
  const [a] = await db
    .insert(s.activities)
    .values({ tenantId, name: "Quiz", kind: 2, contentType: 1, type: 9, maxScore: 100 })
    .returning();
  activityId = a.id;
  await db.insert(s.activityParts).values({ objectiveId: objective.id, activityId: a.id, axis: "0" });
  await enrolUser(db, { tenantId, userId: t.users.ada, objectiveId: objective.id }, { workflowState: 1 });
});
afterAll(() => t.close());

/** POSTs a zip as the request body (the bytes, as an authoring tool sends them). */
async function post(api: TestApi, zipPath: string, query: string, user: string) {
  const body = readFileSync(zipPath);
  rmSync(zipPath, { force: true });
  const headers = { Authorization: `Bearer ${await api.token(user)}`, "Content-Type": "application/zip" };
  return api.api.fetch(
    new Request(`http://lms.test/api/scorm/v1/packages?${query}`, { method: "POST", headers, body }),
  );
}
const upload = (zipPath: string, query = `course=${courseCode}`, user = "admin") => post(t, zipPath, query, user);

/**
 * The grant the runtime answer hands a learner (decision 040): the content origin reads the package's
 * files under it, with no session. Signed here with the in-process API's own key.
 */
async function grant(user = "ada", over: Partial<ContentGrant> = {}) {
  const [activity] = await t.database.db.select().from(s.activities).where(eq(s.activities.id, activityId));
  const packageId = (activity.content as { scorm: { packageId: string } }).scorm.packageId;
  const userId = (t.users as Record<string, string>)[user];
  return signContentGrant(contentKeyOf({}), {
    packageId,
    activityId,
    userId,
    expires: Math.floor(Date.now() / 1000) + 3600,
    ...over,
  });
}
const fileOf = async (path: string, user = "ada", headers: Record<string, string> = {}) =>
  t.request("GET", `/api/lms-storage/v1/scorm-content/${await grant(user)}/${path}`, { headers });

describe("importing a SCORM package (issue 15 item 1)", () => {
  it("imports a 1.2 package into the course's activity and serves its files to the enrolled learner", async () => {
    // What the tutor had indexed of the activity's earlier content (a PDF's page) goes with it (decision 028).
    await t.database.db
      .insert(s.contentPages)
      .values({ activityId, page: 1, source: "private/old.pdf", text: "The old handout." });
    const res = await upload(zipFolder(demo("gifts-quiz-12")));
    expect(res.status).toBe(201);
    const imported = await res.json();
    expect(imported).toMatchObject({ activityId, version: "1.2", scoCount: 1 });
    const [activity] = await t.database.db.select().from(s.activities).where(eq(s.activities.id, activityId));
    expect(activity.content).toEqual({ scorm: { packageId: imported.id, version: "1.2" } });
    expect(await t.database.db.select().from(s.contentPages).where(eq(s.contentPages.activityId, activityId))).toEqual(
      [],
    );

    const html = await fileOf("quiz.html");
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await html.text()).toContain("Gifts and hospitality quiz");
    const js = await fileOf("quiz.js", "ada", { Range: "bytes=0-9" });
    expect(js.status).toBe(206);
    expect(js.headers.get("content-type")).toMatch(/javascript/);
    expect((await js.text()).length).toBe(10);
    expect((await fileOf("style.css")).headers.get("content-type")).toMatch(/^text\/css/);
  });

  it("serves nothing to a learner without the course, outside the package, or under a grant that is not good", async () => {
    expect((await fileOf("quiz.html", "grace")).status).toBe(403);
    expect((await fileOf("missing.html")).status).toBe(404);
    expect((await fileOf("..%2F..%2Fpackage.json")).status).toBe(404);
    const path = (token: string) => `/api/lms-storage/v1/scorm-content/${token}/quiz.html`;
    // Expired, forged, garbled: 403; a grant for a package the activity no longer runs: 404.
    expect(
      (await t.request("GET", path(await grant("ada", { expires: Math.floor(Date.now() / 1000) - 1 })))).status,
    ).toBe(403);
    const good = await grant();
    const forged = good.slice(0, -2) + (good.endsWith("AA") ? "BB" : "AA");
    expect((await t.request("GET", path(forged))).status).toBe(403);
    expect((await t.request("GET", path("x".repeat(96)))).status).toBe(403);
    expect(
      (await t.request("GET", path(await grant("ada", { packageId: "00000000-0000-4000-8000-000000000000" })))).status,
    ).toBe(404);
  });

  it("imports a 2004 multi-SCO package over the previous one", async () => {
    const res = await upload(zipFolder(demo("phishing-lesson-2004")), `course=${courseCode}&activity=${activityId}`);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ version: "2004", scoCount: 2 });
    expect((await fileOf("check.html")).status).toBe(200);
  });

  it("serves files in folders with their media types (a launch page under shared/, as many packages have)", async () => {
    const manifest = readFileSync(`${demo("gifts-quiz-12")}/imsmanifest.xml`, "utf8").replace(
      /href="quiz\.html"/g,
      'href="shared/launchpage.html"',
    );
    const res = await upload(
      zipFolder(null, {
        "imsmanifest.xml": manifest,
        "shared/launchpage.html": "<!doctype html><title>Launch</title>",
        "shared/scormfunctions.js": "var x = 1;",
        "shared/style.css": "p{}",
        "Etiquette/course.jpg": new Uint8Array([0xff, 0xd8, 0xff]),
      }),
      `course=${courseCode}&activity=${activityId}`,
    );
    expect(res.status).toBe(201);
    const types = await Promise.all(
      ["shared/launchpage.html", "shared/scormfunctions.js", "shared/style.css", "Etiquette/course.jpg"].map(
        async (path) => (await fileOf(path)).headers.get("content-type"),
      ),
    );
    expect(types).toEqual([
      "text/html; charset=utf-8",
      "application/javascript; charset=utf-8",
      "text/css; charset=utf-8",
      "image/jpeg",
    ]);
  });

  it("lets only authors and administrators import", async () => {
    const res = await upload(zipFolder(demo("gifts-quiz-12")), `course=${courseCode}`, "ada");
    expect(res.status).toBe(403);
  });

  const manifest = readFileSync(`${demo("gifts-quiz-12")}/imsmanifest.xml`, "utf8");
  const unsafe = (name: string) => {
    // fflate keeps the names it is given: the archive really holds the unsafe path.
    const bytes = zipSync({ "imsmanifest.xml": new TextEncoder().encode(manifest), [name]: new Uint8Array([1]) });
    return writeTemp(bytes);
  };
  it.each([
    ["no manifest", () => zipFolder(null, { "quiz.html": "<p>hi</p>" }), 422, "noManifest"],
    ["a path outside the package", () => unsafe("../evil.html"), 422, "unsafePath"],
    ["an absolute path", () => unsafe("/tmp/evil.html"), 422, "unsafePath"],
    ["a missing launch file", () => zipFolder(null, { "imsmanifest.xml": manifest }), 422, "missingLaunch"],
    ["a file that is not a zip", () => writeTemp("not a zip"), 400, "notZip"],
    // Issue 29 item 4: an external entity was "Error: External entities are not supported", a 500.
    [
      "a manifest that declares an external entity",
      () =>
        zipFolder(null, {
          "imsmanifest.xml": manifest.replace(
            /<manifest/,
            '<!DOCTYPE manifest [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><manifest',
          ),
          "quiz.html": "<p>hi</p>",
        }),
      422,
      "manifestInvalid",
    ],
    [
      "a launch path that does not decode",
      () =>
        zipFolder(null, {
          "imsmanifest.xml": manifest.replace(/href="quiz\.html"/, 'href="quiz%E0%A4%A.html"'),
          "quiz.html": "x",
        }),
      422,
      "missingLaunch",
    ],
  ])("refuses a package with %s and stores nothing", async (_, make, status, code) => {
    const before = packagesOnDisk();
    const n = await t.database.db.$count(s.scormPackages);
    const res = await upload(make(), `course=${courseCode}`);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.errors.package[0].code).toBe(code);
    expect(packagesOnDisk()).toBe(before);
    expect(await t.database.db.$count(s.scormPackages)).toBe(n);
  });

  it("refuses a zip bomb over the size limit before extracting anything", async () => {
    const small = await createTestApi({ scormLimits: { maxBytes: 10_000, maxEntries: 100 } });
    try {
      const db = small.database.db;
      const [{ id }] = await db.select({ id: s.tenants.id }).from(s.tenants);
      const { objective } = await createCourse(db, id, { activityKind: 2, code: "SC-BOMB" });
      const [a] = await db
        .insert(s.activities)
        .values({ tenantId: id, name: "Bomb", kind: 2, contentType: 1 })
        .returning();
      await db.insert(s.activityParts).values({ objectiveId: objective.id, activityId: a.id, axis: "0" });
      const path = zipFolder(null, { "imsmanifest.xml": manifest, "quiz.html": new Uint8Array(1_000_000) });
      expect(readFileSync(path).length).toBeLessThan(10_000); // the zip is small, what it unpacks to is not
      const res = await post(small, path, "course=SC-BOMB", "admin");
      expect(res.status).toBe(413);
      expect((await res.json()).errors.package[0].code).toBe("tooLarge");
      expect(await db.$count(s.scormPackages)).toBe(0);
    } finally {
      await small.close();
    }
  });
});

function writeTemp(content: string | Uint8Array): string {
  mkdirSync(tmp, { recursive: true });
  const path = join(tmp, `upload-${Math.random()}.zip`);
  writeFileSync(path, content);
  return path;
}
