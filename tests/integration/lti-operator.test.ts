import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree } from "../fixtures/courses";
import { keyedTool } from "../fixtures/lti";
import * as s from "../../api/db/schema";
import { AttachError, runAttachmentCommand } from "../../api/lti/attach";
import { registryOf, writeToolsFile, type LtiTool } from "../../api/lti/registry";
import { ActivityContentType, ActivityKind } from "../../domain/vocabulary";
import { log } from "../../api/db/log";

/**
 * Issue 32 item 2: `npm run lti:tool -- attach|detach` — which activity launches which tool — with the
 * SCORM import's safety (refusals say why and change nothing), a clash with a demo tool's key refused,
 * and an http: tool accepted where APP_URL is http:, a warning otherwise. The running-server path
 * (/operator/v1/lti-attachments) is the browser test's (tests/e2e/lti-outside-tool.spec.ts).
 */
let t: TestApi;
let tenantId: string;
let lab: LtiTool;
let quiz: LtiTool;
const dirs: string[] = [];

beforeAll(async () => {
  t = await createTestApi();
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
  lab = (await keyedTool("lab")).tool;
  quiz = {
    key: "quiz",
    name: "Quiz",
    version: "1.1",
    launchUrl: "https://quiz.test/lti",
    redirectUris: [],
    domains: [],
    consumerKey: "q",
    secret: "s",
  };
});
afterAll(async () => {
  await t.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const registry = { byKey: (key: string) => [lab, quiz].find((x) => x.key === key) ?? null };

/** A course (its code) with a module holding an LTI activity, a text activity, and a SCORM activity. */
async function course() {
  const db = t.database.db;
  const { objective } = await createCourse(db, tenantId);
  const tree = await createTree(db, tenantId, objective.id, [
    { kind: ActivityKind.lti, maxScore: 10 },
    { kind: ActivityKind.text },
    { kind: ActivityKind.lti },
  ]);
  const rows = await db
    .select({ part: s.activityParts, activity: s.activities })
    .from(s.activityParts)
    .innerJoin(s.activities, eq(s.activities.id, s.activityParts.activityId))
    .where(eq(s.activityParts.objectiveId, objective.id));
  const leaf = (partId: string) => rows.find((r) => r.part.id === partId)!.activity;
  const [ltiActivity, text, scorm] = tree.partIds.map(leaf);
  await db
    .update(s.activities)
    .set({ code: `${objective.code}-LAB` })
    .where(eq(s.activities.id, ltiActivity!.id));
  await db
    .update(s.activities)
    .set({ content: { scorm: { packageId: crypto.randomUUID() } } })
    .where(eq(s.activities.id, scorm!.id));
  const root = rows.find((r) => r.part.parentPartId === null)!.activity;
  return { code: objective.code, lti: ltiActivity!, text: text!, scorm: scorm!, root };
}

const activity = async (id: string) =>
  (await t.database.db.select().from(s.activities).where(eq(s.activities.id, id)))[0]!;

describe("attach and detach (runAttachmentCommand)", () => {
  it("attaches a registered tool to an activity by id or code, with custom parameters; again changes nothing", async () => {
    const c = await course();
    const result = await runAttachmentCommand(t.database.db, registry, {
      command: "attach",
      key: "lab",
      course: c.code,
      activity: `${c.code}-LAB`,
      custom: { level: "2", who: "$User.id" },
    });
    expect(result).toMatchObject({ activityId: c.lti.id, tool: "lab", custom: { level: "2" }, changed: true });
    expect(await activity(c.lti.id)).toMatchObject({
      content: { tool: "lab", custom: { level: "2", who: "$User.id" } },
      contentType: ActivityContentType.Lti13,
    });
    const again = await runAttachmentCommand(t.database.db, registry, {
      command: "attach",
      key: "lab",
      course: c.code,
      activity: c.lti.id,
      custom: { level: "2", who: "$User.id" },
    });
    expect(again.changed).toBe(false);
    // An LTI 1.1 tool: the activity's content type follows.
    await runAttachmentCommand(t.database.db, registry, {
      command: "attach",
      key: "quiz",
      course: c.code,
      activity: c.lti.id,
      custom: {},
    });
    expect(await activity(c.lti.id)).toMatchObject({
      content: { tool: "quiz" },
      contentType: ActivityContentType.Lti11,
    });
    // Detach: another tool's name is refused; the right one removes the tool and its parameters.
    await expect(
      runAttachmentCommand(t.database.db, registry, {
        command: "detach",
        key: "lab",
        course: c.code,
        activity: c.lti.id,
      }),
    ).rejects.toThrow(/launches the tool "quiz", not "lab"/);
    const detached = await runAttachmentCommand(t.database.db, registry, {
      command: "detach",
      key: "quiz",
      course: c.code,
      activity: c.lti.id,
    });
    expect(detached).toMatchObject({ tool: null, changed: true });
    const content = (await activity(c.lti.id)).content as Record<string, unknown>;
    expect(content.tool).toBeUndefined();
    expect(content.custom).toBeUndefined();
    // What the activity held besides stays.
    expect(content.html).toBe(c.lti.content && (c.lti.content as { html?: string }).html);
  });

  it.each([
    ["an unregistered tool", { key: "nope" }, /No tool "nope" is registered/],
    ["an unknown course", { course: "NO-SUCH" }, /No course has the code "NO-SUCH"/],
    ["an unknown activity", { activity: "NO-SUCH" }, /has no activity "NO-SUCH"/],
    ["a module (the root)", {}, /is a module/],
    ["a text activity", { activity: "text" }, /is not an LTI activity/],
    ["a SCORM activity", { activity: "scorm" }, /plays a SCORM package/],
  ])("refuses %s and changes nothing", async (_what, over, reason) => {
    const c = await course();
    const before = await t.database.db.select().from(s.activities);
    const activityOf = { text: c.text.id, scorm: c.scorm.id } as Record<string, string>;
    const command = {
      command: "attach" as const,
      key: "lab",
      course: c.code,
      custom: {},
      ...over,
      ...("activity" in over ? { activity: activityOf[over.activity as string] ?? (over.activity as string) } : {}),
    };
    const refusal = runAttachmentCommand(t.database.db, registry, command);
    await expect(refusal).rejects.toThrow(AttachError);
    await expect(refusal).rejects.toThrow(reason);
    expect(await t.database.db.select().from(s.activities)).toEqual(before);
  });
});

describe("the registry (decision 023): a registered tool may not take a demo tool's key or ids", () => {
  it("leaves out, with an error, a registered tool whose key or client id a given tool has", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lti-registry-"));
    dirs.push(dir);
    const file = join(dir, "lti-tools.json");
    const demo = { ...lab, key: "demo-lti13", clientId: "demo-client" };
    writeToolsFile(file, [
      { ...lab, key: "demo-lti13", name: "Mine" },
      { ...lab, key: "mine", clientId: "demo-client" },
      { ...lab, key: "fine", clientId: "fine-client" },
    ]);
    // The registry says so in the structured log (decision 037), one error per tool left out.
    const errors = vi.spyOn(log(), "error").mockImplementation(() => {});
    try {
      const r = registryOf({ lti: { file, tools: [demo] } });
      expect(r.all().map((x) => x.key)).toEqual(["demo-lti13", "fine"]);
      expect(r.byKey("demo-lti13")?.name).toBe(demo.name);
      expect(r.byClientId("demo-client")?.key).toBe("demo-lti13");
      expect(errors.mock.calls.map((c) => [c[0], c[1]])).toEqual([
        [
          { tool: "demo-lti13", file, clash: expect.stringContaining(`the key "demo-lti13" is a demo tool's`) },
          "lti: tool left out of the registry",
        ],
        [
          {
            tool: "mine",
            file,
            clash: expect.stringContaining(`the client id "demo-client" is the tool demo-lti13's`),
          },
          "lti: tool left out of the registry",
        ],
      ]);
    } finally {
      errors.mockRestore();
    }
  });
});

const exec = promisify(execFile);
/** `npm run lti:tool -- …` as the operator runs it, on a DATA_DIR of its own (no server holds it). */
async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await exec(join(process.cwd(), "node_modules/.bin/tsx"), ["api/lti/cli.ts", ...args], {
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("npm run lti:tool (the operator's command)", () => {
  const add = (key: string, origin: string, clientId = `${key}-client`) => [
    "add",
    ...["--key", key, "--client-id", clientId, "--deployment-id", "d1"],
    ...["--login-url", `${origin}/login`, "--launch-url", `${origin}/launch`],
    ...["--jwks-url", `${origin}/jwks`, "--redirect-uri", `${origin}/launch`],
  ];

  it(
    "refuses a demo tool's key and a client id taken; warns of an http: tool only where APP_URL is https:",
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "lti-cli-"));
      dirs.push(dir);
      const file = join(dir, "lti-tools.json");
      const local = { DATA_DIR: dir, APP_URL: "http://localhost:3999" };
      const demoKey = await cli(add("demo-lab", "https://lab.test"), local);
      expect(demoKey.code).toBe(1);
      expect(demoKey.stderr).toContain('keys beginning with "demo-" belong to the demo\'s tools');
      const plain = await cli(add("lab", "http://lab.test"), local);
      expect(plain.code).toBe(0);
      expect(plain.stderr).not.toContain("Warning");
      const taken = await cli(add("lab2", "https://lab2.test", "lab-client"), local);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('the client id "lab-client" is the tool lab\'s');
      const onHttps = await cli(add("lab3", "http://lab3.test"), { DATA_DIR: dir, APP_URL: "https://lms.example" });
      expect(onHttps.code).toBe(0);
      expect(onHttps.stderr).toContain("Warning: lab3 is served over http:");
      expect(JSON.parse(readFileSync(file, "utf8")).tools.map((x: LtiTool) => x.key)).toEqual(["lab", "lab3"]);
      // Two commands at once (the browser tests' two projects do this): neither loses the other's tool.
      const both = await Promise.all([
        cli(add("lab4", "https://lab4.test"), local),
        cli(add("lab5", "https://lab5.test"), local),
      ]);
      expect(both.map((r) => r.code)).toEqual([0, 0]);
      expect(
        JSON.parse(readFileSync(file, "utf8"))
          .tools.map((x: LtiTool) => x.key)
          .sort(),
      ).toEqual(["lab", "lab3", "lab4", "lab5"]);
    },
  );

  it(
    "attach without a server opens the embedded database; a refusal says why, exits 1 and changes nothing",
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "lti-cli-db-"));
      dirs.push(dir);
      writeFileSync(join(dir, "lti-tools.json"), JSON.stringify({ tools: [lab] }));
      const env = { DATA_DIR: dir, PORT: "3998" };
      const unknown = await cli(["attach", "lab", "--course", "NO-SUCH"], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('Refused: No course has the code "NO-SUCH".');
      const unregistered = await cli(["attach", "nope", "--course", "NO-SUCH"], env);
      expect(unregistered.stderr).toContain('Refused: No tool "nope" is registered');
      const usage = await cli(["attach", "lab"], env);
      expect(usage.code).toBe(1);
      expect(usage.stderr).toContain("Usage: npm run lti:tool -- attach <key> --course CODE");
      const badCustom = await cli(["attach", "lab", "--course", "X", "--custom", "novalue"], env);
      expect(badCustom.stderr).toContain("--custom novalue: write it as name=value.");
    },
  );
});
