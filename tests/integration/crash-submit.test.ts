/**
 * "A kill -9 of the server during a submit leaves the workflow either fully submitted or not at all."
 *
 * Real processes on a real on-disk PGlite directory: tests/fixtures/crash-child.ts serves the API over
 * HTTP; this test starts a workflow, sends the submit command, SIGKILLs the server at some moment,
 * starts a new server on the same directory and checks — by SQL and through the API — that the submit
 * left everything or nothing, that the same command then completes exactly once, and that the database
 * is intact. The same directory goes through every crash in turn (recovery after recovery); at the end
 * PGlite's amcheck verifies every index and table.
 *
 * Kill moments: at a stepped delay after sending the submit (0 … 1.3 × a measured submit), while the
 * submit's transaction is open with all its writes done (the child's test-only pause before COMMIT),
 * after COMMIT but before the answer, and right after the answer arrived.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { LMS_API_RESOURCE } from "../../identity/provider";
import { stableUuid } from "../../api/ids";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = fileURLToPath(new URL("../fixtures/crash-child.ts", import.meta.url));
const ISSUER = "https://idp.test";

type Mode = "timed" | "paused-open" | "paused-committed" | "after-answer";
const PLAN: Mode[] = [
  "paused-open",
  "timed",
  "paused-committed",
  "timed",
  "timed",
  "after-answer",
  "timed",
  "paused-open",
  "timed",
  "paused-committed",
  "timed",
];
const TIMED = PLAN.filter((m) => m === "timed").length;

interface Ready {
  pid: number;
  port: number;
  openMs: number;
  users: { ada: string };
  aggregates: { aggregateId: string; partIds: string[] }[];
}
interface Child {
  proc: ChildProcess;
  ready: Ready;
  base: string;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor(pred: (line: Record<string, unknown>) => boolean, ms: number): Promise<Record<string, unknown>>;
}

const work = mkdtempSync(join(tmpdir(), "crash-submit-"));
const children: ChildProcess[] = [];
/** Each run of the test (a retry too) has its own database: a timed-out run's last child may still hold the old one. */
let dataDir = join(work, "pglite");
let runs = 0;
function freshRun() {
  for (const p of children) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  dataDir = join(work, `pglite-${++runs}`);
}

afterAll(() => {
  for (const p of children) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

function startChild(env: Record<string, string>, timeoutMs = 60_000): Promise<Child> {
  const proc = spawn(process.execPath, ["--import", "tsx", CHILD], {
    cwd: ROOT,
    env: { ...process.env, CRASH_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(proc);
  const lines: string[] = [];
  const waiters: { pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] =
    [];
  let stderr = "";
  const shown = () =>
    `stdout:\n${lines.map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l)).join("\n")}\nstderr:\n${stderr}`;
  proc.stderr!.on("data", (d) => (stderr += String(d)));
  createInterface({ input: proc.stdout! }).on("line", (line) => {
    lines.push(line);
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    for (const w of [...waiters]) {
      if (!w.pred(parsed)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(parsed);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (pred: (l: Record<string, unknown>) => boolean, ms: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      for (const l of lines) {
        try {
          const parsed = JSON.parse(l);
          if (pred(parsed)) return resolve(parsed);
        } catch {
          /* not JSON */
        }
      }
      const timer = setTimeout(() => reject(new Error(`child: no expected line within ${ms} ms; ${shown()}`)), ms);
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`child exited (${code ?? signal}) before the expected line; ${shown()}`));
      });
      waiters.push({ pred, resolve: (l) => (clearTimeout(timer), resolve(l)) });
    });
  return waitFor((l) => l.ready === true || l.verified === true, timeoutMs).then((ready) => ({
    proc,
    ready: ready as unknown as Ready,
    base: `http://127.0.0.1:${(ready as unknown as Ready).port}`,
    lines,
    exited,
    waitFor,
  }));
}

async function kill9(child: Child) {
  process.kill(child.proc.pid!, "SIGKILL");
  const { signal } = await child.exited;
  expect(signal).toBe("SIGKILL");
}

interface State {
  workflow: {
    id: string;
    state: number;
    submitted: string | null;
    finished: string | null;
    objective_record_id: string | null;
  } | null;
  aggregate: { last_workflow_id: string; last_workflow_state: number; last_record_id: string | null } | null;
  records: {
    id: string;
    score: number | null;
    max_score: number | null;
    normalized_score: number | null;
    passed: boolean | null;
  }[];
  activityWorkflows: unknown[];
  activityRecords: unknown[];
  command: { id: string; type: string; state: string } | null;
}

/** The graded part of a record (the same for every workflow prepared alike). */
const grading = (r: State["records"][number] | null | undefined) =>
  r && { score: r.score, maxScore: r.max_score, normalizedScore: r.normalized_score, passed: r.passed };

describe("kill -9 during a submit (issue: all or nothing)", () => {
  it("every crash leaves the workflow fully submitted or untouched; the command then completes exactly once", async () => {
    freshRun();
    const t0 = Date.now();
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = JSON.stringify({ ...(await exportJWK(publicKey)), alg: "RS256", kid: "test" });
    const env = { CRASH_JWK: jwk, CRASH_AUDIENCE: LMS_API_RESOURCE };

    let child = await startChild({ ...env, CRASH_SETUP: String(3 * PLAN.length) }, 120_000);
    const setupMs = Date.now() - t0;
    const ada = child.ready.users.ada;
    const courses = [...child.ready.aggregates];
    const token = await new SignJWT({ scope: "lms" })
      .setProtectedHeader({ alg: "RS256", kid: "test" })
      .setSubject(ada)
      .setIssuer(ISSUER)
      .setAudience(LMS_API_RESOURCE)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Prefer: "respond-sync" };
    const post = (c: Child, path: string, body: unknown) =>
      fetch(`${c.base}/api/lms/v1/${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const get = async (c: Child, path: string) => fetch(`${c.base}${path}`, { headers });
    const state = async (c: Child, wf: string) => (await (await get(c, `/__crash/state/${wf}`)).json()) as State;

    // A workflow with activities in every state: two finished, one in progress, one not started.
    const prepare = async (c: Child) => {
      const course = courses.shift()!;
      const wf = crypto.randomUUID();
      expect(
        (await post(c, "start-objective-workflows", { objectiveWorkflowAggregateId: course.aggregateId, id: wf }))
          .status,
      ).toBe(200);
      const started = await (
        await post(c, "start-activity-workflows", {
          objectiveWorkflowId: wf,
          activityPartIds: course.partIds.slice(0, 3),
        })
      ).json();
      const byPart = new Map<string, string>(
        started.data.activityWorkflows.map((a: { id: string; activityPartId: string }) => [a.activityPartId, a.id]),
      );
      const done = course.partIds.slice(0, 2).map((p) => byPart.get(p)!);
      expect(
        (await post(c, "finish-activity-workflows", { objectiveWorkflowId: wf, activityWorkflowIds: done })).status,
      ).toBe(200);
      expect((await fetch(`${c.base}/__crash/grade/${wf}`, { method: "POST", headers })).status).toBe(200);
      return { wf, aggregateId: course.aggregateId, before: await state(c, wf) };
    };

    // Before each crash, an uncrashed submit on the same server process: it warms the code path the
    // crash will interrupt, gives the reference record, and measures one submit to scale the delays.
    let reference: State["records"][number] | null = null;
    const probeOnce = async (c: Child) => {
      const { wf } = await prepare(c);
      const s0 = performance.now();
      const res = await post(c, "submit-objective-workflows", { id: wf });
      await res.arrayBuffer();
      const ms = performance.now() - s0;
      expect(res.status).toBe(200);
      const [record] = (await state(c, wf)).records;
      if (reference) expect(grading(record)).toEqual(grading(reference));
      reference = record;
      return ms;
    };
    // The first submit of a fresh process is slower (cold code); the second is what the crash meets.
    const probe = async (c: Child) => (await probeOnce(c), await probeOnce(c));
    const submitDurations: number[] = [];

    const outcomes = { submitted: 0, untouched: 0 };
    const landings = { "before the transaction": 0, "in the transaction": 0, "after commit": 0 };
    const rows: string[] = [];
    const allWorkflows: string[] = [];
    const restartMs: number[] = [];
    let timedIndex = 0;

    for (const [i, mode] of PLAN.entries()) {
      const submitMs = await probe(child);
      submitDurations.push(submitMs);
      const { wf, aggregateId, before } = await prepare(child);
      allWorkflows.push(wf);
      expect(before.workflow!.state).toBe(1);
      const commandId = stableUuid(`submit:${wf}`);
      let answered = false;
      let delay = NaN;
      const linesBefore = child.lines.length;

      if (mode === "paused-open" || mode === "paused-committed") {
        const at = mode === "paused-open" ? "open" : "committed";
        await (
          await fetch(`${child.base}/__crash/arm`, { method: "POST", headers, body: JSON.stringify({ at }) })
        ).json();
        const submit = post(child, "submit-objective-workflows", { id: wf }).then(
          () => (answered = true),
          () => undefined,
        );
        await child.waitFor((l) => l.paused === at, 10_000);
        await kill9(child);
        await submit;
      } else if (mode === "after-answer") {
        const res = await post(child, "submit-objective-workflows", { id: wf });
        expect(res.status).toBe(200);
        answered = true;
        await kill9(child);
      } else {
        // Stepped from 0 to 1.3 × the probe's duration on this very process.
        delay = (1.3 * submitMs * timedIndex++) / (TIMED - 1);
        const submit = post(child, "submit-objective-workflows", { id: wf }).then(
          () => (answered = true),
          () => undefined,
        );
        await new Promise((r) => setTimeout(r, delay));
        await kill9(child);
        await submit;
      }

      // Where the kill landed, by the child's own markers (a kill just after COMMIT may precede its marker).
      const marks = child.lines.slice(linesBefore);
      const landed = marks.includes('{"tx":"committed"}')
        ? "after commit"
        : marks.includes('{"tx":"open"}')
          ? "in the transaction"
          : "before the transaction";

      // Restart on the same directory: PGlite recovers from the crash here.
      const r0 = Date.now();
      child = await startChild(env);
      restartMs.push(Date.now() - r0);

      // By SQL on the reopened database.
      const after = await state(child, wf);
      const dump = () => JSON.stringify({ iteration: i, mode, delay, answered, landed, before, after }, null, 1);
      expect(after.activityWorkflows, dump()).toEqual(before.activityWorkflows);
      expect(after.activityRecords, dump()).toEqual(before.activityRecords);
      let outcome: "submitted" | "untouched";
      if (after.workflow!.state === ObjectiveWorkflowState.inProgress) {
        outcome = "untouched";
        expect(after, dump()).toEqual(before);
        expect(after.workflow!.submitted, dump()).toBeNull();
        expect(after.records, dump()).toEqual([]);
        expect(after.command, dump()).toBeNull();
        expect(after.aggregate, dump()).toMatchObject({
          last_workflow_id: wf,
          last_workflow_state: 1,
          last_record_id: null,
        });
      } else {
        outcome = "submitted";
        expect(after.workflow, dump()).toMatchObject({ state: 6 });
        expect(after.workflow!.submitted, dump()).not.toBeNull();
        expect(after.workflow!.finished, dump()).not.toBeNull();
        expect(after.records, dump()).toHaveLength(1);
        expect(after.workflow!.objective_record_id, dump()).toBe(after.records[0].id);
        expect(grading(after.records[0]), dump()).toEqual(grading(reference));
        expect(after.aggregate, dump()).toMatchObject({
          last_workflow_id: wf,
          last_workflow_state: 6,
          last_record_id: after.records[0].id,
        });
        expect(after.command, dump()).toMatchObject({
          id: commandId,
          type: "submit-objective-workflow",
          state: "completed",
        });
      }
      // What each kill moment guarantees beyond all-or-nothing.
      if (mode === "paused-open") expect(outcome, dump()).toBe("untouched");
      if (mode === "paused-committed" || answered || landed === "after commit")
        expect(outcome, dump()).toBe("submitted");
      if (landed === "before the transaction") expect(outcome, dump()).toBe("untouched");
      landings[landed]++;
      outcomes[outcome]++;

      // Through the API.
      const apiWf = await (await get(child, `/api/lms/v1/objective-workflows/${wf}`)).json();
      expect(apiWf.state).toBe(outcome === "submitted" ? 6 : 1);
      const apiRecords = await (
        await get(child, `/api/lms/v1/objective-workflow-aggregates/${aggregateId}/objective-records`)
      ).json();
      expect(apiRecords.data).toHaveLength(outcome === "submitted" ? 1 : 0);
      const status = await get(child, `/api/lms/v1/commands/${commandId}`);
      expect(status.status).toBe(outcome === "submitted" ? 200 : 404);
      if (outcome === "submitted") expect((await status.json()).state).toBe("completed");
      else await status.arrayBuffer();

      // The same command again (its id derives from the workflow): completes exactly once.
      const again = await Promise.all([0, 1].map(() => post(child, "submit-objective-workflows", { id: wf })));
      const answers = await Promise.all(again.map((r) => r.json()));
      expect(again.map((r) => r.status)).toEqual([200, 200]);
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0]).toMatchObject({ id: commandId, state: "completed", data: { id: wf, state: 6 } });
      const final = await state(child, wf);
      expect(final.records).toHaveLength(1);
      expect(answers[0].data.objectiveRecordId).toBe(final.records[0].id);
      if (outcome === "submitted") expect(final.records[0].id).toBe(after.records[0].id);
      expect(grading(final.records[0])).toEqual(grading(reference));
      expect(final.command).toMatchObject({ state: "completed" });

      // The reopened database answers every table, by scan and by index.
      const health = await get(child, "/__crash/health");
      expect(health.status).toBe(200);
      const h = await health.json();
      expect(h.counts.objective_workflows).toBeGreaterThan(0);
      expect(h.commandsByIndex).toBe(h.counts.commands);

      rows.push(
        `#${String(i + 1).padStart(2)} ${mode.padEnd(16)} ${Number.isNaN(delay) ? "      " : `${delay.toFixed(1).padStart(5)}ms`} (submit ${submitMs.toFixed(1).padStart(5)}ms) killed ${landed.padEnd(22)} answered=${answered ? "yes" : "no "} → ${outcome}`,
      );
    }

    // Earlier crashes stay as they were after later ones: one record per workflow.
    for (const wf of allWorkflows) {
      const s = await state(child, wf);
      expect(s.workflow!.state).toBe(6);
      expect(s.records).toHaveLength(1);
    }

    // A clean stop, then amcheck over every index and every table of the directory.
    child.proc.kill("SIGTERM");
    expect((await child.exited).code).toBe(0);
    const verifier = await startChild({ CRASH_MODE: "verify" });
    const verified = verifier.ready as unknown as { indexes: number; tables: number; heapProblems: unknown[] };
    expect(verified.indexes).toBeGreaterThan(20);
    expect(verified.heapProblems).toEqual([]);

    const totalMs = Date.now() - t0;
    console.log(
      [
        `crash-submit: ${PLAN.length} kills, ${outcomes.submitted} submitted, ${outcomes.untouched} untouched, 0 inconsistent`,
        `  kills landed: ${Object.entries(landings)
          .map(([k, v]) => `${v} ${k}`)
          .join(", ")}`,
        `  one uncrashed submit ${Math.min(...submitDurations).toFixed(1)}–${Math.max(...submitDurations).toFixed(1)} ms; timed kills at 0…1.3× that after sending`,
        `  setup ${setupMs} ms, restart after kill ${Math.min(...restartMs)}–${Math.max(...restartMs)} ms, total ${totalMs} ms`,
        `  amcheck: ${verified.indexes} indexes, ${verified.tables} tables, no problems`,
        ...rows.map((r) => `  ${r}`),
      ].join("\n"),
    );
    expect(outcomes.submitted).toBeGreaterThan(0);
    expect(outcomes.untouched).toBeGreaterThan(0);
  }, 240_000);
});
