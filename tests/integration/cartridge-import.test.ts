import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { randomUUID } from "node:crypto";
import { zipSync, type Zippable } from "fflate";
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../api/db/client";
import { activities, activityParts, objectives } from "../../api/db/schema";
import { seedDemo } from "../../demo/seed";
import { courseFileKey, importCartridge, matchTool } from "../../api/cartridge/import";
import { localStore } from "../../api/files/object-store";
import type { LtiTool } from "../../api/lti/registry";
import { CartridgeError } from "../../api/cartridge/manifest";
import { ActivityContentType, ActivityKind, ObjectiveState } from "../../domain/vocabulary";
import { openTestDatabase } from "../fixtures/database";
import { createTestApi, type TestApi } from "../fixtures/api";

/**
 * Issue 50 item 1 (decision 049): IMS Common Cartridge 1.1–1.3 into a course, on real PGlite, from
 * cartridges built here (fflate): the organisation's items as the module tree in order, pages as sanitised
 * texts with their links rewritten and images inlined, web links, discussions, LTI links launching the
 * registered tool of their host (else, and QTI, kept as "not available yet" drafts with the reason in the
 * report), re-import in place, and the zip's defences.
 */
let database: Database;
const made: string[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, { catalog: false });
});
afterAll(async () => {
  for (const f of made) rmSync(f, { force: true, recursive: true });
  await database.close();
});

const PNG = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
);

function cartridge(entries: Record<string, string | Uint8Array>): string {
  const zippable: Zippable = {};
  for (const [name, content] of Object.entries(entries))
    zippable[name] = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const path = join(tmpdir(), `cc-${randomUUID()}.imscc`);
  writeFileSync(path, zipSync(zippable));
  made.push(path);
  return path;
}

const manifest = (version: string, pageTitle = "Welcome") => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="cc-intro-course" xmlns="http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1"
  xmlns:lomimscc="http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest">
  <metadata>
    <schema>IMS Common Cartridge</schema>
    <schemaversion>${version}</schemaversion>
    <lomimscc:lom><lomimscc:general><lomimscc:title><lomimscc:string language="en">Introduction to Cartography</lomimscc:string></lomimscc:title></lomimscc:general></lomimscc:lom>
  </metadata>
  <organizations>
    <organization identifier="org" structure="rooted-hierarchy">
      <item identifier="root">
        <item identifier="week1">
          <title>Week 1</title>
          <item identifier="i-welcome" identifierref="r-welcome"><title>${pageTitle}</title></item>
          <item identifier="i-maps" identifierref="r-maps"><title>Reading maps</title></item>
          <item identifier="i-link" identifierref="r-link"><title>Map library</title></item>
        </item>
        <item identifier="week2">
          <title>Week 2</title>
          <item identifier="i-topic" identifierref="r-topic"><title>Your favourite map</title></item>
          <item identifier="i-lti" identifierref="r-lti"><title>Map drawing tool</title></item>
          <item identifier="i-quiz" identifierref="r-quiz"><title>Quiz 1</title></item>
          <item identifier="i-pdf" identifierref="r-pdf"><title>Handbook</title></item>
        </item>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r-welcome" type="webcontent" href="web_resources/welcome.html"><file href="web_resources/welcome.html"/></resource>
    <resource identifier="r-maps" type="webcontent" href="web_resources/pages/maps.html"><file href="web_resources/pages/maps.html"/></resource>
    <resource identifier="r-link" type="imswl_xmlv1p3"><file href="link.xml"/></resource>
    <resource identifier="r-topic" type="imsdt_xmlv1p3"><file href="topic.xml"/></resource>
    <resource identifier="r-lti" type="imsbasiclti_xmlv1p0"><file href="lti.xml"/></resource>
    <resource identifier="r-quiz" type="imsqti_xmlv1p2/imscc_xmlv1p3/assessment"><file href="quiz/assessment.xml"/></resource>
    <resource identifier="r-pdf" type="webcontent" href="web_resources/handbook.pdf"><file href="web_resources/handbook.pdf"/></resource>
  </resources>
</manifest>`;

const FILES = {
  "web_resources/welcome.html": `<html><head><title>x</title><script>alert(1)</script></head><body>
<h1>Welcome</h1><p onclick="steal()">Start with <a href="pages/maps.html#legend">reading maps</a>.</p>
<p><img src="images/compass.png" alt="A compass"> and the <a href="handbook.pdf">handbook</a>.</p>
<script>document.cookie</script></body></html>`,
  "web_resources/pages/maps.html": `<body><p>Back to <a href="../welcome.html">the welcome</a>; see <a href="https://maps.example.org/">maps</a>.</p></body>`,
  "web_resources/images/compass.png": PNG,
  "web_resources/handbook.pdf": "%PDF-1.4 not really",
  "link.xml": `<?xml version="1.0"?><webLink xmlns="http://www.imsglobal.org/xsd/imsccv1p3/imswl_v1p3"><title>Map library</title><url href="https://library.example.org/maps" target="_blank"/></webLink>`,
  "topic.xml": `<?xml version="1.0"?><topic xmlns="http://www.imsglobal.org/xsd/imsccv1p3/imsdt_v1p3"><title>Your favourite map</title><text texttype="text/html">&lt;p&gt;Which map do you like best, and &lt;b&gt;why&lt;/b&gt;?&lt;/p&gt;</text></topic>`,
  "lti.xml": `<?xml version="1.0"?><cartridge_basiclti_link xmlns="http://www.imsglobal.org/xsd/imslticc_v1p0" xmlns:blti="http://www.imsglobal.org/xsd/imsbasiclti_v1p0"><blti:title>Map drawing tool</blti:title><blti:launch_url>https://draw.example.com/lti</blti:launch_url><blti:custom><lticm:property xmlns:lticm="http://www.imsglobal.org/xsd/imslticm_v1p0" name="map_set">europe</lticm:property><lticm:property xmlns:lticm="http://www.imsglobal.org/xsd/imslticm_v1p0" name="bad name">x</lticm:property></blti:custom></cartridge_basiclti_link>`,
  "quiz/assessment.xml": `<?xml version="1.0"?><questestinterop><assessment ident="q1" title="Quiz 1"/></questestinterop>`,
};

async function tree(code: string) {
  const [course] = await database.db.select().from(objectives).where(eq(objectives.code, code));
  const rows = await database.db
    .select({
      partId: activityParts.id,
      activityId: activities.id,
      axis: activityParts.axis,
      name: activities.name,
      kind: activities.kind,
      state: activities.state,
      content: activities.content,
    })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(eq(activityParts.objectiveId, course.id))
    .orderBy(asc(activityParts.axis));
  return { course, rows };
}

describe("Common Cartridge import", () => {
  it("makes the course: modules and items in order, pages, links, a discussion; LTI, QTI and a PDF kept as drafts and reported", async () => {
    const report = await importCartridge(database.db, {
      zipPath: cartridge({ "imsmanifest.xml": manifest("1.3.0"), ...FILES }),
      code: "CART-101",
    });
    expect(report.course).toMatchObject({ code: "CART-101", name: "Introduction to Cartography", outcome: "created" });
    expect(report.items.map((i) => [i.title, i.became])).toEqual([
      ["Week 1", "module"],
      ["Welcome", "text"],
      ["Reading maps", "text"],
      ["Map library", "link"],
      ["Week 2", "module"],
      ["Your favourite map", "discussion"],
      ["Map drawing tool", "notAvailable"],
      ["Quiz 1", "notAvailable"],
      ["Handbook", "notAvailable"],
    ]);
    expect(report.items.find((i) => i.title === "Map drawing tool")!.reason).toContain("https://draw.example.com/lti");
    expect(report.filesNotServed).toEqual(["web_resources/handbook.pdf"]);

    const { course, rows } = await tree("CART-101");
    expect(course).toMatchObject({ childrenCount: 2, inCatalog: false });
    expect(rows.map((r) => [r.axis, r.name])).toEqual([
      ["0", "Introduction to Cartography"],
      ["01", "Week 1"],
      ["01.01", "Welcome"],
      ["01.02", "Reading maps"],
      ["01.03", "Map library"],
      ["02", "Week 2"],
      ["02.01", "Your favourite map"],
      ["02.02", "Map drawing tool"],
      ["02.03", "Quiz 1"],
      ["02.04", "Handbook"],
    ]);
    const byName = new Map(rows.map((r) => [r.name, r]));
    const welcome = (byName.get("Welcome")!.content as { html: string }).html;
    // Sanitised: no script, no handler; the link to the other page is the course's own page of it.
    expect(welcome).not.toMatch(/script|onclick|alert/);
    expect(welcome).toContain(
      `href="/learn/courses/${course.id}/view/content?activityPathId=${byName.get("Reading maps")!.partId}"`,
    );
    expect(welcome).toContain('src="data:image/png;base64,');
    // A file the product does not serve yet keeps its text, without a dead link.
    expect(welcome).toContain("the <span>handbook</span>");
    expect(welcome).not.toContain("handbook.pdf");
    const maps = (byName.get("Reading maps")!.content as { html: string }).html;
    expect(maps).toContain(`activityPathId=${byName.get("Welcome")!.partId}`);
    expect(maps).toContain('href="https://maps.example.org/"');
    expect((byName.get("Map library")!.content as { html: string }).html).toContain(
      'href="https://library.example.org/maps"',
    );
    expect(byName.get("Your favourite map")).toMatchObject({
      kind: ActivityKind.discussion,
      content: { prompt: "Which map do you like best, and why?" },
    });
    for (const name of ["Map drawing tool", "Quiz 1", "Handbook"])
      expect(byName.get(name)!.state).toBe(ObjectiveState.draft);
  });

  it("importing the cartridge again updates the course in place: the same activities and parts, the new title", async () => {
    const before = await tree("CART-101");
    const report = await importCartridge(database.db, {
      zipPath: cartridge({ "imsmanifest.xml": manifest("1.3.0", "Welcome, cartographers"), ...FILES }),
      code: "CART-101",
    });
    expect(report.course).toMatchObject({ id: before.course.id, outcome: "updated" });
    const after = await tree("CART-101");
    expect(after.rows.map((r) => [r.partId, r.activityId])).toEqual(before.rows.map((r) => [r.partId, r.activityId]));
    expect(after.rows[2].name).toBe("Welcome, cartographers");
    const [{ n }] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(objectives)
      .where(eq(objectives.code, "CART-101"));
    expect(n).toBe(1);
  });

  it("reads 1.1 and 1.2 cartridges too", async () => {
    for (const version of ["1.1.0", "1.2.0"]) {
      const report = await importCartridge(database.db, {
        zipPath: cartridge({ "imsmanifest.xml": manifest(version), ...FILES }),
        code: `CART-${version}`,
      });
      expect(report.items.filter((i) => i.became === "text")).toHaveLength(2);
    }
  });

  const refused = async (
    entries: Record<string, string | Uint8Array>,
    code: string,
    limits?: { maxBytes: number; maxEntries: number },
  ) => {
    const count = async () => (await database.db.select({ n: sql<number>`count(*)::int` }).from(activities))[0].n;
    const before = await count();
    const error = await importCartridge(database.db, { zipPath: cartridge(entries), code: "CART-BAD", limits }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CartridgeError);
    expect((error as CartridgeError).code).toBe(code);
    expect(await count()).toBe(before);
    expect(await database.db.select().from(objectives).where(eq(objectives.code, "CART-BAD"))).toEqual([]);
  };

  it("refuses a DOCTYPE (external entities), a ../ path, a zip bomb's sizes, too many files, no manifest — nothing written", async () => {
    await refused(
      {
        "imsmanifest.xml": `<?xml version="1.0"?><!DOCTYPE manifest [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><manifest identifier="x"><metadata><schema>IMS Common Cartridge</schema></metadata><title>&xxe;</title></manifest>`,
      },
      "xmlInvalid",
    );
    await refused(
      {
        "imsmanifest.xml": manifest("1.3.0"),
        ...FILES,
        "link.xml": `<?xml version="1.0"?><!DOCTYPE webLink [<!ENTITY x SYSTEM "file:///etc/passwd">]><webLink><title>&x;</title><url href="https://x.example"/></webLink>`,
      },
      "xmlInvalid",
    );
    await refused({ "imsmanifest.xml": manifest("1.3.0"), "../evil.html": "<p>x</p>" }, "unsafePath");
    await refused({ "imsmanifest.xml": manifest("1.3.0"), ...FILES }, "tooLarge", { maxBytes: 1000, maxEntries: 100 });
    await refused({ "imsmanifest.xml": manifest("1.3.0"), ...FILES }, "tooLarge", {
      maxBytes: 10_000_000,
      maxEntries: 3,
    });
    await refused({ "welcome.html": "<p>hi</p>" }, "noManifest");
    await refused({ "imsmanifest.xml": manifest("2.0.0") }, "unsupportedVersion");
  });
});

/** A registered tool, as `npm run lti:tool -- add` keeps it. */
const tool = (over: Partial<LtiTool>): LtiTool => ({
  key: "draw",
  name: "Map drawing",
  version: "1.3",
  clientId: "c-draw",
  deploymentId: "d-1",
  loginUrl: "https://draw.example.com/login",
  launchUrl: "https://draw.example.com/lti",
  jwksUrl: "https://draw.example.com/jwks",
  redirectUris: ["https://draw.example.com/lti"],
  domains: [],
  ...over,
});

describe("which registered tool a cartridge's LTI link launches (matchTool)", () => {
  const draw = tool({});
  const drawOld = tool({
    key: "draw-old",
    version: "1.1",
    launchUrl: "https://draw.example.com/legacy",
    clientId: undefined,
  });
  const viaDomain = tool({
    key: "maps",
    launchUrl: "https://launch.maps.example/lti",
    domains: ["https://tiles.maps.example"],
  });
  it.each([
    ["the tool of the link's host", "https://draw.example.com/lti/resource/7", [draw, viaDomain], "draw"],
    ["hosts compare without case", "https://DRAW.example.com/x", [draw], "draw"],
    ["a host among the tool's domains", "https://tiles.maps.example/launch", [draw, viaDomain], "maps"],
    [
      "two tools on the host: the one whose launch URL is the link's",
      "https://draw.example.com/legacy/",
      [draw, drawOld],
      "draw-old",
    ],
    [
      "two tools on the host, neither the link's URL: none",
      "https://draw.example.com/other",
      [draw, drawOld],
      /Several registered LTI tools serve draw\.example\.com \(draw, draw-old\)/,
    ],
    [
      "another host: none",
      "https://paint.example.com/lti",
      [draw],
      /LTI tool not registered \(https:\/\/paint\.example\.com\/lti\)/,
    ],
    ["another port is another host", "https://draw.example.com:8443/lti", [draw], /not registered/],
    ["no launch URL", null, [draw], /no launch URL/],
  ] as const)("%s", (_, url, tools, expected) => {
    const match = matchTool(url, tools);
    if (typeof expected === "string") expect(match.tool?.key).toBe(expected);
    else {
      expect(match.tool).toBeNull();
      expect(match.tool === null && match.reason).toMatch(expected);
    }
  });
});

describe("a cartridge's files shown as items", () => {
  it("with a file store, a PDF item is the activity's private file (the PDF viewer) and the pages' links to it go to its page", async () => {
    const folder = join(tmpdir(), `cc-store-${randomUUID()}`);
    made.push(folder);
    const store = localStore(folder);
    const report = await importCartridge(database.db, {
      zipPath: cartridge({ "imsmanifest.xml": manifest("1.3.0"), ...FILES }),
      code: "CART-FILES",
      store,
    });
    expect(report.items.find((i) => i.title === "Handbook")).toMatchObject({ became: "file" });
    expect(report.filesNotServed).toEqual([]);
    const { course, rows } = await tree("CART-FILES");
    const handbook = rows.find((r) => r.name === "Handbook")!;
    expect(handbook).toMatchObject({
      kind: ActivityKind.text,
      state: ObjectiveState.ready,
      content: {
        path: courseFileKey(course.id, handbook.activityId),
        fileName: "handbook.pdf",
        mimeType: "application/pdf",
      },
    });
    const [row] = await database.db.select().from(activities).where(eq(activities.id, handbook.activityId));
    expect(row.contentType).toBe(ActivityContentType.PrivateFile);
    expect(Buffer.from((await store.readBytes(courseFileKey(course.id, handbook.activityId)))!).toString()).toBe(
      "%PDF-1.4 not really",
    );
    const welcome = (rows.find((r) => r.name === "Welcome")!.content as { html: string }).html;
    expect(welcome).toContain(
      `href="/learn/courses/${course.id}/view/content?activityPathId=${handbook.partId}">handbook</a>`,
    );
  });
});

describe("a cartridge's LTI links and the registered tools", () => {
  it("a link whose host a registered tool serves becomes an LTI activity launching it, with its custom parameters; a re-import without the tool keeps it", async () => {
    const zip = cartridge({ "imsmanifest.xml": manifest("1.3.0"), ...FILES });
    const report = await importCartridge(database.db, { zipPath: zip, code: "CART-LTI", tools: [tool({})] });
    expect(report.items.find((i) => i.title === "Map drawing tool")).toMatchObject({
      became: "lti",
      reason: 'Launches the registered tool "draw".',
    });
    const drawing = (await tree("CART-LTI")).rows.find((r) => r.name === "Map drawing tool")!;
    expect(drawing).toMatchObject({
      kind: ActivityKind.lti,
      state: ObjectiveState.ready,
      content: { tool: "draw", custom: { map_set: "europe" } },
    });
    const [row] = await database.db.select().from(activities).where(eq(activities.id, drawing.activityId));
    expect(row.contentType).toBe(ActivityContentType.Lti13);

    // Imported again where the registry does not list it by host (say the tool moved): the tool stays attached.
    const again = await importCartridge(database.db, {
      zipPath: zip,
      code: "CART-LTI",
      tools: [tool({ launchUrl: "https://draw2.example.com/lti" })],
    });
    expect(again.items.find((i) => i.title === "Map drawing tool")).toMatchObject({
      became: "lti",
      reason: 'Keeps the tool "draw" attached earlier.',
    });
    expect((await tree("CART-LTI")).rows.find((r) => r.name === "Map drawing tool")).toMatchObject({
      activityId: drawing.activityId,
      content: { tool: "draw" },
      state: ObjectiveState.ready,
    });
  });
});

describe("POST /api/lms/v1/cartridges", () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await createTestApi({ lti: { tools: [tool({})] } });
  });
  afterAll(() => t.close());
  const send = (token: string, path: string, query = "") =>
    t.request("POST", `/api/lms/v1/cartridges${query}`, {
      token,
      body: new Uint8Array(readFileSync(path)),
      headers: { "Content-Type": "application/zip" },
    });

  it("a learner is refused; an administrator's cartridge becomes a course (201, the report); a refused one is a 422 with its code", async () => {
    const zip = cartridge({ "imsmanifest.xml": manifest("1.3.0"), ...FILES });
    expect((await send(await t.token("ada"), zip)).status).toBe(403);
    const admin = await t.token("admin");
    const res = await send(admin, zip, "?code=CART-API");
    expect(res.status).toBe(201);
    const answer = await res.json();
    expect(answer).toMatchObject({ course: { code: "CART-API", outcome: "created" } });
    // The API's registry: its tool on the link's host is the one launched.
    expect(answer.items.find((i: { title: string }) => i.title === "Map drawing tool")).toMatchObject({
      became: "lti",
    });
    const bad = await send(admin, cartridge({ "imsmanifest.xml": `<!DOCTYPE x><manifest/>` }), "?code=CART-API2");
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ errors: { cartridge: [{ code: "xmlInvalid" }] } });
    expect((await send(admin, zip, "?code=../x")).status).toBe(400);
  });
});
