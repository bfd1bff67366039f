import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { testDatabaseUrl } from "../fixtures/database";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, createTree } from "../fixtures/courses";
import { keyedTool } from "../fixtures/lti";
import * as s from "../../api/db/schema";
import { AttachError, runAttachmentCommand } from "../../api/lti/attach";
import { listStoredTools, registryOf, type LtiTool } from "../../api/lti/registry";
import { ActivityContentType, ActivityKind } from "../../domain/vocabulary";
import { operatorCommand } from "../fixtures/operator-cli";

/**
 * Issue 32 item 2: `npm run lti:tool -- attach|detach` — which activity launches which tool — with the
 * SCORM import's safety (refusals say why and change nothing), a clash with a demo tool's key refused,
 * and an http: tool accepted where APP_URL is http:, a warning otherwise. Decision 043: the command
 * keeps the registry in the database — the embedded one of its DATA_DIR when no process holds it (two
 * commands at once take turns), DATABASE_URL's in the project "postgres", where a running API sees the
 * tool at once. The running-server path (/operator/v1/lti-tools, /operator/v1/lti-attachments) is the
 * browser test's (tests/e2e/lti-outside-tool.spec.ts).
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

  it("names a module's LTI activities when a module is named (not its text or its SCORM player)", async () => {
    const c = await course();
    const refusal = runAttachmentCommand(t.database.db, registry, {
      command: "attach",
      key: "lab",
      course: c.code,
      custom: {},
    });
    await expect(refusal).rejects.toThrow(`${c.code}-LAB (${c.lti.name})`);
    await expect(refusal).rejects.not.toThrow(c.scorm.id);
    await expect(refusal).rejects.not.toThrow(c.text.name);
  });
});

const exec = promisify(execFile);
/** `npm run lti:tool -- …` as the operator runs it (the compiled CLI), on a DATA_DIR of its own (no server holds it). */
async function cli(args: string[], env: Record<string, string>) {
  try {
    const [program, argv] = operatorCommand("lti:tool", args);
    const { stdout, stderr } = await exec(program, argv, { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("npm run lti:tool (the operator's command)", () => {
  // The embedded database of a DATA_DIR of its own, whichever project runs the file: once, in the PGlite
  // project (each command opens and migrates it, ≈2 s a run); the postgres project runs the DATABASE_URL case.
  const embedded = it.runIf(testDatabaseUrl() === null);
  const add = (key: string, origin: string, clientId = `${key}-client`) => [
    "add",
    ...["--key", key, "--client-id", clientId, "--deployment-id", "d1"],
    ...["--login-url", `${origin}/login`, "--launch-url", `${origin}/launch`],
    ...["--jwks-url", `${origin}/jwks`, "--redirect-uri", `${origin}/launch`],
  ];

  /** The tools the command lists, by key (the list is tab-separated, key first; log lines are JSON). */
  const keys = (stdout: string) =>
    stdout
      .trim()
      .split("\n")
      .filter((line) => line.includes("\t"))
      .map((line) => line.split("\t")[0])
      .sort();

  embedded(
    "keeps the tools in the embedded database: refuses a demo tool's key and a client id taken, warns of http: only where APP_URL is https:, takes turns",
    { timeout: 600_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "lti-cli-"));
      dirs.push(dir);
      const local = { DATA_DIR: dir, APP_URL: "http://localhost:3999" };
      const demoKey = await cli(add("demo-lab", "https://lab.test"), local);
      expect(demoKey.code).toBe(1);
      expect(demoKey.stderr).toContain('keys beginning with "demo-" belong to the demo\'s tools');
      const plain = await cli(add("lab", "http://lab.test"), local);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toContain("Registered lab (LTI 1.3).");
      expect(plain.stderr).not.toContain("Warning");
      const taken = await cli(add("lab2", "https://lab2.test", "lab-client"), local);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('the client id "lab-client" is the tool lab\'s');
      const onHttps = await cli(add("lab3", "http://lab3.test"), { DATA_DIR: dir, APP_URL: "https://lms.example" });
      expect(onHttps.code).toBe(0);
      expect(onHttps.stderr).toContain("Warning: lab3 is served over http:");
      expect(keys((await cli(["list"], local)).stdout)).toEqual(["lab", "lab3"]);
      // Two commands at once (the browser tests' two projects do this): one waits for the other's database.
      const both = await Promise.all([
        cli(add("lab4", "https://lab4.test"), local),
        cli(add("lab5", "https://lab5.test"), local),
      ]);
      expect(both.map((r) => r.code)).toEqual([0, 0]);
      const removed = await cli(["remove", "lab3"], local);
      expect(removed.code).toBe(0);
      expect((await cli(["remove", "lab3"], local)).stderr).toContain('No tool "lab3" is registered.');
      expect(keys((await cli(["list"], local)).stdout)).toEqual(["lab", "lab4", "lab5"]);
      // Nothing of it in a file: DATA_DIR holds the embedded database, not a registry of its own.
      expect(existsSync(join(dir, "lti-tools.json"))).toBe(false);
    },
  );

  embedded(
    "takes over a DATA_DIR/lti-tools.json from before: its tools are listed from the database, the file is renamed",
    { timeout: 300_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "lti-cli-old-"));
      dirs.push(dir);
      const secret = "quiz-shared-secret";
      writeFileSync(join(dir, "lti-tools.json"), JSON.stringify({ tools: [lab, { ...quiz, secret }] }));
      const listed = await cli(["list"], { DATA_DIR: dir });
      expect(listed.code).toBe(0);
      expect(keys(listed.stdout)).toEqual(["lab", "quiz"]);
      expect(listed.stdout).toContain(`Took over 2 tools from ${join(dir, "lti-tools.json")}`);
      expect(listed.stdout).not.toContain(secret);
      expect(existsSync(join(dir, "lti-tools.json"))).toBe(false);
      expect(existsSync(join(dir, "lti-tools.json.moved-to-database"))).toBe(true);
    },
  );

  it.runIf(testDatabaseUrl() !== null)(
    "with DATABASE_URL it writes PostgreSQL, and a running API launches the tool at once",
    { timeout: 300_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "lti-cli-pg-"));
      dirs.push(dir);
      const deps = { database: t.database, lti: {} };
      expect((await registryOf(deps)).byKey("pg-lab")).toBeNull();
      const added = await cli(add("pg-lab", "https://pg-lab.test"), { DATA_DIR: dir, DATABASE_URL: t.database.url! });
      expect(added.code).toBe(0);
      expect((await listStoredTools(t.database.db)).map((x) => x.key)).toContain("pg-lab");
      // The API's registry had read the tools before; the command's notice made it read them again.
      const until = Date.now() + 2_000;
      while (!(await registryOf(deps)).byKey("pg-lab") && Date.now() < until)
        await new Promise((r) => setTimeout(r, 25));
      expect((await registryOf(deps)).byKey("pg-lab")?.clientId).toBe("pg-lab-client");
      expect(existsSync(join(dir, "pglite"))).toBe(false);
    },
  );

  embedded(
    "attach without a server opens the embedded database; a refusal says why, exits 1 and changes nothing",
    { timeout: 300_000 },
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
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("Usage: npm run lti:tool -- attach <key> --course CODE");
      const badCustom = await cli(["attach", "lab", "--course", "X", "--custom", "novalue"], env);
      expect(badCustom.stderr).toContain("--custom novalue: write it as name=value.");
    },
  );
});
