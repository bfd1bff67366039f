/**
 * ADL's SCORM 2004 4th edition LMS conformance packages API, DMI and DMB (issue 30 "Prove it",
 * decision 040), run against the product's run-time without a browser: each package is imported
 * through the API, each SCO launch gets its data from the runtime endpoint, runs its visit's command
 * list (tests/conformance/cts.ts) on the same run-time adapter the launcher uses (scorm-again with our
 * guards), and its commits go through the API's PUT — the server's attempt, entry, total-time and
 * validation rules included. What happens after each Terminate follows the player's rules
 * (domain/scorm-attempt.ts); where the test asks its human tester to act ("launch Data Model
 * Implementation Test 2", "relaunch the package") the harness does so. The browser run of the same
 * packages, through the content origin and the launcher, is tests/conformance/scorm-cts.spec.ts.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import { zipFolder } from "../../api/scorm/zip-folder";
import { navOutcome, navValidity, sessionEnding, type NavOutcome } from "../../domain/scorm-attempt";
import type { ScormRuntime } from "../../domain/contract/scorm";
import { createRuntime } from "../../app/components/scorm/runtime-adapter";
import type { LaunchData, SessionCommit } from "../../app/components/scorm/bridge";
import { CTS_DIR, passes, perform, readBundle, readTestCase, translate, type Api2004, type Visit } from "./cts";

let t: TestApi;
let tenantId: string;
const bundle = readBundle(`${CTS_DIR}/testcases/Commands.properties`);

/** The pass/fail counts of each package, written for the closing note (npm run test:scorm-conformance). */
const report: Record<string, { passed: number; failed: number; failures: string[] }> = {};

beforeAll(async () => {
  t = await createTestApi();
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(async () => {
  mkdirSync("test-results", { recursive: true });
  writeFileSync("test-results/scorm-cts-api.json", JSON.stringify(report, null, 2));
  await t.close();
});

/** A course holding the package as its root activity, ada enrolled and the activity started. */
async function importPackage(name: string) {
  const db = t.database.db;
  const { objective } = await createCourse(db, tenantId, { activityKind: 2, type: 9 });
  const [a] = await db
    .insert(s.activities)
    .values({ tenantId, name, kind: 5, contentType: 7, type: 0, maxScore: 10 })
    .returning();
  const [part] = await db
    .insert(s.activityParts)
    .values({ objectiveId: objective.id, activityId: a.id, axis: "0" })
    .returning();
  const zip = zipFolder(`${CTS_DIR}/LMSTestPackage_${name}`);
  const body = readFileSync(zip);
  rmSync(zip);
  const res = await t.api.fetch(
    new Request(`http://lms.test/api/scorm/v1/packages?course=${objective.code}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await t.token("admin")}`, "Content-Type": "application/zip" },
      body,
    }),
  );
  expect(res.status).toBe(201);
  const { workflowId } = await enrolUser(
    db,
    { tenantId, userId: t.users.ada, objectiveId: objective.id },
    { workflowState: 1 },
  );
  const [aw] = await db
    .insert(s.activityWorkflows)
    .values({ objectiveWorkflowId: workflowId!, activityPartId: part.id, userId: t.users.ada })
    .returning();
  const base = `/objective-workflows/${workflowId}/activity-workflows/${aw.id}`;
  return {
    awId: aw.id,
    runtime: async () =>
      (await (
        await t.request("GET", `/api/scorm/v1/users/me${base}/runtime`, { token: await t.token("ada") })
      ).json()) as ScormRuntime,
    commit: async (scorm: object) => {
      const res = await t.request("PUT", `/api/lms/v1/users/me${base}`, {
        token: await t.token("ada"),
        body: { scorm },
      });
      return { status: res.status, body: (await res.json()) as unknown };
    },
  };
}

/** The launch data the player hands the launcher for SCO `index` (the same fields, the same rules). */
function launchData(rt: ScormRuntime, index: number): LaunchData {
  const sco = rt.scos[index];
  return {
    version: rt.version,
    title: sco.title,
    launch: sco.launch,
    token: rt.contentToken,
    asset: sco.asset,
    entry: sco.entry,
    cmi: sco.cmi,
    totalTime: sco.totalTime,
    learner: rt.learner,
    launchData: sco.launchData,
    masteryScore: sco.masteryScore,
    scaledPassingScore: sco.scaledPassingScore,
    completionThreshold: sco.completionThreshold,
    timeLimit: sco.timeLimit,
    timeLimitAction: sco.timeLimitAction,
    sharedData: { maps: sco.sharedData, stores: rt.sharedData },
    nav: navValidity(
      rt.scos.map((s) => s.id),
      index,
      rt.controlMode,
    ),
  };
}

/**
 * Plays one test package as the CTS's tester would with the product's player: returns each
 * command's and each launch's verdict.
 */
async function runPackage(name: string) {
  const visits: Visit[] = readTestCase(`${CTS_DIR}/testcases/${name}.properties`);
  const pkg = await importPackage(name);
  const out = { passed: 0, failed: 0, failures: [] as string[] };
  const check = (ok: boolean, what: string) => {
    if (ok) out.passed++;
    else {
      out.failed++;
      out.failures.push(what);
    }
  };
  let pos = 0;
  let rt = await pkg.runtime();
  if (!rt.scos) throw new Error(JSON.stringify(rt));
  /** What the next launch is: the player's own start (counted or not) or a choice the tester makes. */
  let next: { index: number; counted: boolean } | null = { index: rt.start, counted: true };
  let guard = 0;
  while (next && pos < visits.length && guard++ < 200) {
    const index: number = next.index;
    const counted = next.counted;
    next = null;
    const sco = rt.scos[index];
    if (!sco)
      throw new Error(
        `no SCO ${index} at visit ${pos + 1}: ${JSON.stringify(rt.scos.map((s) => s.id))} start ${rt.start}`,
      );
    const visit = visits[pos];
    const launched = sco.id.replace(/^activity_/, "");
    // testSCOLaunch(): the test page checks it is the activity the test expects now.
    if (launched !== visit.activity) {
      if (counted) check(false, `visit ${pos + 1}: expected activity ${visit.activity}, the LMS launched ${launched}`);
      next = { index: rt.scos.findIndex((s) => s.id === `activity_${visit.activity}`), counted: true };
      continue;
    }
    check(true, `visit ${pos + 1}: activity ${launched} launched`);
    const commits: SessionCommit[] = [];
    if (sco.asset) {
      // An asset: no API; the player records its launch.
      await pkg.commit({ scoId: sco.id, attempt: sco.attempt, sequence: sco.sequence + 1, cmi: {}, finish: true });
    } else {
      const runtime = await createRuntime(launchData(rt, index), (c) => commits.push(c));
      const api = runtime.api as unknown as Api2004;
      for (const command of visit.commands) {
        const call = translate(command, bundle, rt.learner);
        if (!call) continue;
        const answer = perform(api, call);
        check(
          passes(call, answer),
          `${name} visit ${pos + 1} (activity ${launched}): ${command} → ${JSON.stringify(answer)}`,
        );
      }
      api.Terminate("");
    }
    pos++;
    let sequence = sco.sequence;
    for (const c of commits) {
      if (process.env.CTS_DEBUG) console.log(`[cts] commit ${JSON.stringify(c).length} bytes`);
      const res = await pkg.commit({
        scoId: sco.id,
        attempt: sco.attempt,
        sequence: ++sequence,
        cmi: c.cmi,
        ...(c.finish ? { finish: true, navRequest: c.navRequest } : {}),
        ...(Object.keys(c.shared).length ? { shared: c.shared } : {}),
      });
      check(res.status === 200, `${name} visit ${pos}: commit refused ${res.status} ${JSON.stringify(res.body)}`);
    }
    const finish = commits.find((c) => c.finish);
    // Every visit ends with the page's Terminate: a finishing save must reach the server (the browser
    // run's navigation depends on it).
    if (!sco.asset) check(finish !== undefined, `${name} visit ${pos}: Terminate sent no finishing save`);
    const cui = visit.cui;
    rt = await pkg.runtime();
    const ids = rt.scos.map((s) => s.id);
    const ending = finish ? sessionEnding(rt.version, finish.cmi["cmi.exit"] ?? "", finish.navRequest) : null;
    const outcome: NavOutcome = finish
      ? navOutcome(finish.navRequest, index, ids, rt.controlMode)
      : { kind: "stay" as const };
    if (pos >= visits.length || cui === "Exit") break;
    const expected = visits[pos];
    const chosen = ids.indexOf(`activity_${expected.activity}`);
    if (ending?.exitAll || outcome.kind === "leave" || cui === "DMBx" || cui === "DMBxAct") {
      // The learner left the package (or is told to relaunch it): a new visit starts where the player starts.
      next = { index: rt.start, counted: cui !== "DMBxAct" };
    } else if (outcome.kind === "launch") next = { index: outcome.index, counted: true };
    else next = { index: chosen, counted: true }; // the tester chooses the next activity in the table of contents
  }
  check(pos === visits.length, `${name}: ${visits.length - pos} visits never ran`);
  report[name] = out;
  return out;
}

describe("ADL SCORM 2004 4th edition LMS conformance packages, on the API and the run-time adapter", () => {
  for (const name of ["API", "DMI", "DMB"]) {
    it(`${name}: every command answers as the test expects`, async () => {
      const r = await runPackage(name);
      console.log(`[cts] ${name}: ${r.passed} passed, ${r.failed} failed`);
      expect(r.failures.slice(0, 40)).toEqual([]);
    }, 120_000);
  }
});
