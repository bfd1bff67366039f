import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { test, expect, login } from "../e2e/fixtures";
import { zipFolder } from "../../api/scorm/zip-folder";
import { CTS_DIR, passes, readBundle, readTestCase, translate, type Answer, type Call } from "./cts";

/**
 * ADL's SCORM 2004 4th edition LMS conformance packages API, DMI and DMB (issue 30 "Prove it",
 * decision 040) in Chromium, through the whole product: imported by the product's import, opened by a
 * learner, run by the player in the content origin's launcher. The test pages are the packages' own;
 * the Java applet they call (`runCommands()`, `evalID()`…) is replaced by a small shim injected into
 * each SCO page, which asks this harness for the current visit, runs the visit's command list on the
 * API the page found, and reports the answers here to be judged (tests/conformance/cts.ts). Between
 * visits the harness does what the test's instructions ask a human tester to do: pick the next activity
 * in the table of contents, or leave the package and open it again.
 */
const bundle = readBundle(`${CTS_DIR}/testcases/Commands.properties`);

interface ShimVisit {
  activity: string;
  calls: { method: string; arg: string; value?: string }[];
  cui: string;
}

/** Runs in every frame; acts only in a test package's SCO page (its URL carries ?tc=…&act=…). */
function shim() {
  if (!/[?&]tc=/.test(location.search)) return;
  const w = window as unknown as Record<string, unknown> & {
    __ctsVisit(act: string): Promise<ShimVisit | null>;
    __ctsReport(report: object): Promise<void>;
  };
  document.addEventListener("DOMContentLoaded", () => {
    const driver = document.getElementById("NNLMSTestSCODriver") as unknown as Record<string, unknown> | null;
    const performTest = w.performTest as (() => void) | undefined;
    if (!driver || !performTest) return;
    // The page's unload handler calls `driver.completed()`: set before its (deferred) test starts.
    w.driver = driver;
    const act = /[?&]act=([^&#]+)/.exec(location.search)?.[1] ?? "";
    let visit: ShimVisit | null = null;
    let answers: { value: string; error: string }[] = [];
    let launchedAs = "";
    let status = true;
    const api = () => (w.getAPIHandle as () => Record<string, (...a: string[]) => string>)();
    const perform = (call: ShimVisit["calls"][number]) => {
      const a = api();
      let element = call.arg;
      if (element.includes("&")) {
        const [before, id, after] = element.split("&");
        const collection = before.includes("data")
          ? "adl.data"
          : before.includes("objective")
            ? "cmi.objectives"
            : null;
        if (collection) {
          const count = Number(a.GetValue(`${collection}._count`)) || 0;
          let index = -1;
          for (let i = 0; i < count; i++) if (a.GetValue(`${collection}.${i}.id`) === id) index = i;
          if (index < 0) return { value: "", error: "-999" };
          element = `${before}${index}${after}`;
        }
      }
      const value =
        call.method === "SetValue"
          ? a.SetValue(element, call.value ?? "")
          : call.method === "GetLastError"
            ? a.GetLastError()
            : a[call.method](element);
      return { value: String(value), error: String(a.GetLastError()) };
    };
    Object.assign(driver, {
      evalID: (id: string) => {
        launchedAs = id.split("!")[1] ?? "";
        return visit !== null && visit.activity === launchedAs;
      },
      runCommands: () => {
        answers = (visit?.calls ?? []).map(perform);
        return true;
      },
      curUserInstructions: () => {
        void w.__ctsReport({ launchedAs, answers });
        return visit?.cui ?? "";
      },
      getScoStatus: () => (status ? "" : "terminated"),
      setSCOStatus: (s: boolean) => (status = s),
      writeToLog: () => {},
      terminateTest: () => (status = false),
      completed: () => {},
    });
    // The page starts its test on load: first the harness says which visit this launch is.
    w.performTest = () => {
      void w.__ctsVisit(act).then((v) => {
        visit = v;
        if (v === null) void w.__ctsReport({ launchedAs: act, answers: [], unexpected: true });
        performTest();
      });
    };
  });
}

/** One package, played to its end: the verdict of every command and every launch. */
async function runPackage(page: Page, name: string, learner: { id: string; name: string }) {
  const visits = readTestCase(`${CTS_DIR}/testcases/${name}.properties`).map((v) => ({
    ...v,
    calls: v.commands.map((c) => translate(c, bundle, learner)).filter((c): c is Call => c !== null),
  }));
  const out = { passed: 0, failed: 0, failures: [] as string[] };
  const check = (ok: boolean, what: string) => {
    if (ok) out.passed++;
    else {
      out.failed++;
      out.failures.push(what);
    }
  };
  let pos = 0;
  /** A launch the tester did not ask for yet (the player's own start after the package is reopened). */
  let lenient = false;
  type Report = { launchedAs: string; answers: Answer[]; unexpected?: boolean };
  /** Reports not yet judged, in order; `cursor` is the visit the next launch must be (moved at each report). */
  const reports: Report[] = [];
  let waiting: (() => void) | null = null;
  let cursor = 0;
  await page.exposeBinding("__ctsVisit", (_source, act: string) => {
    const visit = visits[cursor];
    if (!visit) return null;
    if (act !== visit.activity) {
      if (!lenient)
        check(false, `${name} visit ${cursor + 1}: expected activity ${visit.activity}, the LMS launched ${act}`);
      return { activity: visit.activity, calls: [], cui: "" };
    }
    check(true, `${name} visit ${cursor + 1}: activity ${act} launched`);
    return {
      activity: visit.activity,
      calls: visit.calls.map(({ method, arg, value }) => ({ method, arg, value })),
      cui: visit.cui,
    };
  });
  await page.exposeBinding("__ctsReport", (_source, report: Report) => {
    if (visits[cursor] && report.launchedAs === visits[cursor].activity) cursor++;
    reports.push(report);
    waiting?.();
  });
  const nextReport = async () => {
    while (reports.length === 0) await new Promise<void>((resolve) => (waiting = resolve));
    return reports.shift()!;
  };

  await page.getByRole("button", { name: "Start activity" }).click();
  const toc = page.getByRole("navigation", { name: "Parts of this package" });
  const saved = page.locator('.scorm__status[data-status="saved"]');
  while (pos < visits.length) {
    const visit = visits[pos];
    const r = await Promise.race([
      nextReport(),
      new Promise<never>((_, fail) =>
        setTimeout(() => fail(new Error(`${name}: visit ${pos + 1} (activity ${visit.activity}) never ran`)), 60_000),
      ),
    ]);
    if (process.env.CTS_DEBUG) console.log(`[cts] ${name} report for visit ${pos + 1}: launched ${r.launchedAs}`);
    if (r.launchedAs !== visit.activity) {
      // A launch the tester did not want (the player's start after reopening): choose the expected one.
      lenient = false;
      await toc.getByRole("button", { name: activityTitle(name, visit.activity) }).click();
      continue;
    }
    lenient = false;
    visit.calls.forEach((call, i) =>
      check(
        passes(call, r.answers[i] ?? null),
        `${name} visit ${pos + 1} (activity ${visit.activity}): ${call.source} → ${JSON.stringify(r.answers[i])}`,
      ),
    );
    pos++;
    if (pos >= visits.length || visit.cui === "Exit") break;
    // The visit's Terminate (right after the report) reaches the server before the tester acts.
    await page.waitForTimeout(300);
    if (process.env.CTS_DEBUG) console.log(`[cts] ${name} visit ${pos} done (${visit.cui || "no instruction"})`);
    await expect(saved, `${name}: the save after visit ${pos}`).toBeAttached({ timeout: 15_000 });
    const nav = visit.calls.findLast((c) => c.method === "SetValue" && c.arg === "adl.nav.request")?.value ?? "";
    const exit = visit.calls.findLast((c) => c.method === "SetValue" && c.arg === "cmi.exit")?.value ?? "";
    const leaves =
      ["suspendAll", "exitAll", "exit", "abandonAll"].includes(nav) || ["time-out", "logout"].includes(exit);
    if (leaves || visit.cui === "DMBx" || visit.cui === "DMBxAct") {
      // "Relaunch the package": the learner comes back to the course (the player starts where it should).
      lenient = visit.cui === "DMBxAct";
      await page.reload();
    } else if (!/^\{target=|^(continue|previous)$/.test(nav)) {
      await toc.getByRole("button", { name: activityTitle(name, visits[pos].activity) }).click();
    }
  }
  check(pos === visits.length, `${name}: ${visits.length - pos} visits never ran`);
  return out;
}

/** An activity's title in the package's manifest (the table of contents' button). */
function activityTitle(name: string, activity: string): string {
  const manifest = readFileSync(`${CTS_DIR}/LMSTestPackage_${name}/imsmanifest.xml`, "utf8");
  const item = new RegExp(`identifier="activity_${activity}"[^>]*>\\s*<title>([^<]+)</title>`).exec(manifest);
  return item![1].trim();
}

const results: Record<string, { passed: number; failed: number; failures: string[] }> = {};
test.afterAll(() => {
  mkdirSync("test-results", { recursive: true });
  writeFileSync("test-results/scorm-cts-browser.json", JSON.stringify(results, null, 2));
});

for (const name of ["API", "DMI", "DMB"]) {
  test(`ADL LMS test package ${name} in the browser`, async ({ page, request, learner }) => {
    test.setTimeout(600_000);
    const zip = zipFolder(`${CTS_DIR}/LMSTestPackage_${name}`);
    const body = readFileSync(zip);
    rmSync(zip);
    const made = await request.post(
      `/api/test-support/v1/scorm-courses?learner=${learner.id}&name=${encodeURIComponent(`LMS Test Package ${name}`)}`,
      { data: body, headers: { "Content-Type": "application/zip" } },
    );
    expect(made.status()).toBe(201);
    await page.addInitScript(shim);
    if (process.env.CTS_DEBUG) {
      page.on("console", (m) => console.log(`[browser ${m.type()}] ${m.text().slice(0, 300)}`));
      page.on("pageerror", (e) => console.log(`[browser error] ${String(e).slice(0, 300)}`));
      page.on("framenavigated", (f) => console.log(`[frame] ${f.url().slice(0, 160)}`));
    }
    await login(page, learner, "/learn/courses");
    await page
      .getByRole("link", { name: `LMS Test Package ${name}` })
      .first()
      .click();
    const [lastName, firstName] = [learner.name.split(" ").slice(1).join(" "), learner.name.split(" ")[0]];
    const r = await runPackage(page, name, { id: learner.id, name: `${lastName}, ${firstName}` });
    results[name] = r;
    console.log(`[cts browser] ${name}: ${r.passed} passed, ${r.failed} failed`);
    expect(r.failures.slice(0, 40)).toEqual([]);
  });
}
