/**
 * Decision 043: the operator's LTI tools are rows of the database — PGlite here, PostgreSQL in the vitest
 * project "postgres" — read once by each API instance and again only after the change notice "lti-tools"
 * that every write commits with. A tool added through one node is launched by every node at once (two API
 * instances on one PostgreSQL below); the registry file of a node from before is taken over once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as s from "../../api/db/schema";
import { log } from "../../api/db/log";
import { listStoredTools, registryOf, type LtiTool } from "../../api/lti/registry";
import { removeTool, runToolCommand, saveTool, takeOverToolsFile, ToolStoreError } from "../../api/lti/tool-store";
import type { DataChange } from "../../domain/contract/changes";
import { testDatabaseUrl } from "../fixtures/database";
import { createTestApi, type TestApi, type TestNode } from "../fixtures/api";
import { createLtiCourse, keyedTool, serviceAccessToken } from "../fixtures/lti";

const APP = "https://lms.example";
let t: TestApi;
let tenantId: string;
let demo: LtiTool;
const dirs: string[] = [];

const quiz = (key: string, consumerKey: string): LtiTool => ({
  key,
  name: key,
  version: "1.1",
  launchUrl: `https://${key}.test/lti`,
  redirectUris: [],
  domains: [],
  consumerKey,
  secret: "s3cret",
});

beforeAll(async () => {
  demo = { ...(await keyedTool("demo-lti13")).tool, clientId: "demo-client" };
  t = await createTestApi({ appUrl: APP, lti: { tools: [demo] } });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(async () => {
  await t.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Waits until `read` gives what `ok` wants (a notice travels between connections on PostgreSQL). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 2_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the tools in the database", () => {
  it("are added, replaced, listed without a secret and removed; another tool's client id or consumer key is refused", async () => {
    const db = t.database.db;
    const lab = (await keyedTool("store-lab")).tool;
    expect(await saveTool(db, lab)).toEqual({ replaced: false });
    expect(await saveTool(db, { ...lab, name: "Lab, renamed" })).toEqual({ replaced: true });
    await saveTool(db, quiz("store-quiz", "store-quiz-key"));
    const stored = await listStoredTools(db);
    expect(stored.find((x) => x.key === "store-lab")).toEqual({ ...lab, name: "Lab, renamed" });

    await expect(saveTool(db, { ...lab, key: "store-lab-2" })).rejects.toThrow(
      'the client id "store-lab-client" is the tool store-lab\'s',
    );
    await expect(saveTool(db, quiz("store-quiz-2", "store-quiz-key"))).rejects.toThrow(
      'the consumer key "store-quiz-key" is the tool store-quiz\'s',
    );
    // An LTI 1.1 tool may have the consumer key that an LTI 1.3 tool's client id is: looked up apart.
    expect(await saveTool(db, quiz("store-quiz-3", "store-lab-client"))).toEqual({ replaced: false });

    const listed = await runToolCommand(db, { command: "list" });
    expect(listed.command === "list" && listed.tools.find((x) => x.key === "store-quiz")).toMatchObject({
      consumerKey: "store-quiz-key",
    });
    expect(JSON.stringify(listed)).not.toContain("s3cret");

    expect(await removeTool(db, "store-quiz-3")).toBe(true);
    expect(await removeTool(db, "store-quiz-3")).toBe(false);
    await expect(runToolCommand(db, { command: "remove", key: "store-quiz-3" })).rejects.toThrow(
      'No tool "store-quiz-3" is registered.',
    );
  });

  it("refuses through the operator's command what the registry would not launch, and a given tool's ids", async () => {
    const db = t.database.db;
    const lab = (await keyedTool("cmd-lab")).tool;
    const refusals: [LtiTool, RegExp][] = [
      [{ ...lab, key: "demo-mine" }, /keys beginning with "demo-" belong to the demo's tools/],
      [{ ...lab, clientId: undefined }, /an LTI 1.3 tool needs --client-id/],
      [{ ...lab, clientId: "demo-client" }, /the client id "demo-client" is the tool demo-lti13's/],
      [quiz("cmd-quiz", "") as LtiTool, /an LTI 1.1 tool needs --consumer-key and --secret/],
    ];
    const before = await listStoredTools(db);
    for (const [tool, reason] of refusals) {
      const refusal = runToolCommand(db, { command: "add", tool }, [demo]);
      await expect(refusal).rejects.toThrow(ToolStoreError);
      await expect(refusal).rejects.toThrow(reason);
    }
    expect(await listStoredTools(db)).toEqual(before);
  });
});

describe("each API instance's registry", () => {
  it("reads the database once, then again only after a change notice: a tool added is launched at once", async () => {
    const deps = { lti: { tools: [demo] }, database: t.database };
    const heard: DataChange[] = [];
    const stop = t.database.changes.subscribe((c) => heard.push(c));
    try {
      const first = await registryOf(deps);
      expect(first.byKey("demo-lti13")).toEqual(demo);
      const before = t.database.queryCount();
      await registryOf(deps);
      await registryOf(deps);
      expect(t.database.queryCount() - before).toBe(0);

      const added = (await keyedTool("live-lab")).tool;
      await saveTool(t.database.db, added);
      const seen = await eventually(
        () => registryOf(deps),
        (r) => r.byKey("live-lab") !== null,
      );
      expect(seen.byClientId("live-lab-client")).toEqual(added);
      expect(heard).toContainEqual({ kind: "ltiTools" });

      await removeTool(t.database.db, "live-lab");
      const gone = await eventually(
        () => registryOf(deps),
        (r) => r.byKey("live-lab") === null,
      );
      expect(gone.byKey("live-lab")).toBeNull();
    } finally {
      stop();
    }
  });

  it("leaves out a stored tool that takes a given tool's key or client id, or that no browser would frame; says so", async () => {
    // Rows written around the store's checks (by hand, or before a demo tool took the id).
    const lab = (await keyedTool("shadow")).tool;
    await t.database.db.insert(s.ltiTools).values([
      { key: "demo-lti13", version: "1.3", clientId: "other-id", definition: { ...lab, key: "demo-lti13" } },
      { key: "shadow", version: "1.3", clientId: "x-demo-client", definition: { ...lab, clientId: "demo-client" } },
      {
        key: "unframed",
        version: "1.3",
        clientId: "unframed-client",
        definition: { ...lab, key: "unframed", clientId: "unframed-client", sandbox: "allow-everything" },
      },
    ]);
    const errors = vi.spyOn(log(), "error");
    const warnings = vi.spyOn(log(), "warn");
    try {
      const r = await registryOf({ lti: { tools: [demo] }, database: t.database });
      expect(r.byKey("demo-lti13")).toEqual(demo);
      expect(r.byClientId("demo-client")?.key).toBe("demo-lti13");
      expect(r.byKey("shadow")).toBeNull();
      expect(r.byKey("unframed")).toBeNull();
      expect(errors.mock.calls.map((c) => c[0])).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ tool: "demo-lti13", clash: 'the key "demo-lti13" is a demo tool\'s' }),
          expect.objectContaining({ tool: "shadow", clash: 'the client id "demo-client" is the tool demo-lti13\'s' }),
        ]),
      );
      expect(warnings.mock.calls.map((c) => c[0])).toEqual(
        expect.arrayContaining([expect.objectContaining({ tool: "unframed" })]),
      );
    } finally {
      errors.mockRestore();
      warnings.mockRestore();
      for (const key of ["demo-lti13", "shadow", "unframed"]) await removeTool(t.database.db, key);
    }
  });

  it("an activity of a tool added while the API runs gets the tool's frame at once (the API's own registry)", async () => {
    const tool = { ...(await keyedTool("frame-lab")).tool, sandbox: "allow-popups" };
    const course = await createLtiCourse(t, tenantId, "frame-lab");
    const frame = async () => {
      const res = await t.request("GET", `/api/lms/v1/users/me/activities/${course.activityId}/content`, {
        token: await t.token("ada"),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { frame: { sandbox: string | null } }).frame;
    };
    expect((await frame()).sandbox).toBeNull();
    await saveTool(t.database.db, tool);
    expect((await eventually(frame, (f) => f.sandbox !== null)).sandbox).toBe("allow-scripts allow-forms allow-popups");
    await removeTool(t.database.db, "frame-lab");
    expect((await eventually(frame, (f) => f.sandbox === null)).sandbox).toBeNull();
  });
});

describe("the registry file of a node from before (DATA_DIR/lti-tools.json)", () => {
  it("is taken over once: its tools become rows, clashes are left out and said, the file is renamed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lti-takeover-"));
    dirs.push(dir);
    const file = join(dir, "lti-tools.json");
    const kept = (await keyedTool("file-kept")).tool;
    const same = (await keyedTool("file-same")).tool;
    await saveTool(t.database.db, same);
    await saveTool(t.database.db, quiz("db-quiz", "shared-key"));
    writeFileSync(
      file,
      JSON.stringify({ tools: [kept, same, { ...same, key: "file-clash" }, quiz("file-quiz", "shared-key")] }),
    );
    const result = await takeOverToolsFile(t.database, file);
    expect(result).toMatchObject({
      added: ["file-kept"],
      same: ["file-same"],
      leftOut: [
        { key: "file-clash", reason: 'the client id "file-same-client" is the tool file-same\'s' },
        { key: "file-quiz", reason: 'the consumer key "shared-key" is the tool db-quiz\'s' },
      ],
    });
    expect((await listStoredTools(t.database.db)).find((x) => x.key === "file-kept")).toEqual(kept);
    expect(existsSync(file)).toBe(false);
    expect(JSON.parse(readFileSync(`${file}.moved-to-database`, "utf8")).tools).toHaveLength(4);
    // Nothing to take over the next time.
    expect(await takeOverToolsFile(t.database, file)).toBeNull();
  });

  it("an unreadable file stays where it is and nothing is stored from it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lti-takeover-"));
    dirs.push(dir);
    const file = join(dir, "lti-tools.json");
    writeFileSync(file, '{"tools": [{"key": "Not A Key"}]}');
    const before = await listStoredTools(t.database.db);
    expect(await takeOverToolsFile(t.database, file)).toBeNull();
    expect(existsSync(file)).toBe(true);
    expect(await listStoredTools(t.database.db)).toEqual(before);
  });
});

describe.runIf(testDatabaseUrl() !== null)("two API instances on one PostgreSQL", () => {
  let b: TestNode;
  beforeAll(async () => {
    b = await t.otherNode();
  });
  afterAll(() => b?.close());

  it("a tool added through one is launched by the other at once, and removed from both", async () => {
    const lab = await keyedTool("two-nodes");
    const tokenFromB = () =>
      serviceAccessToken(b, APP, lab, "https://purl.imsglobal.org/spec/lti-ags/scope/score").then(
        (token) => token,
        (err: Error) => err.message,
      );
    // B has read its registry (the tool is unknown: the token endpoint refuses the client)…
    expect(await tokenFromB()).toMatch(/^token endpoint: 401/);
    // …then the tool is added through A's database connection (node A, or the command on any machine).
    const started = Date.now();
    await saveTool(t.database.db, lab.tool);
    const token = await eventually(tokenFromB, (v) => !v.startsWith("token endpoint"));
    expect(token).not.toMatch(/^token endpoint/);
    expect(Date.now() - started).toBeLessThan(2_000);

    await removeTool(t.database.db, "two-nodes");
    expect(await eventually(tokenFromB, (v) => v.startsWith("token endpoint"))).toMatch(/^token endpoint: 401/);
  });
});
