/**
 * `npm run bench:exam-storm` (issue 48): 1,000 learners start the same 20-item timed QTI test within
 * 60 s and each saves an answer every 10 s for 5 minutes, as the test page's autosave does (decision
 * 057: the page's own action, intent `assessmentAutosave`, posted by React Router's fetcher to
 * `<page>.data`). Before the storm, a closed loop of the same saves at saturation measures the run's
 * capacity. Refusals are retried as the page retries them, some acknowledged saves are sent again with
 * the same command id, and at the end the database is read: each learner's stored answers must be
 * exactly what was acknowledged. See bench/README.md and decision 069.
 *
 *   npx tsx bench/exam-storm.ts [--learners 1000] [--minutes 5] [--interval 10] [--start-window 60] [--port 3600] [--strict]
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { Browser, unescapeHtml } from "./lib/http";
import { freePort, logTail, startServer, type RunningServer } from "./lib/server";
import { run, signIn } from "./lib/setup";
import { cpuMeter, groupRss, mb, type CpuReading } from "./lib/processes";
import { zipFolder } from "../api/scorm/zip-folder";
import { openDatabase } from "../api/db/client";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RESULTS_DIR = join(ROOT, "bench", "results");
/** The issue's targets. */
const TARGETS = { saveP99Ms: 1_000, goodputRatio: 0.8 };
/** The page's autosave (app/components/assessment/autosave.tsx): its pause after a change, its backoff. */
const AUTOSAVE_DELAY_MS = 1200;
const pageBackoffMs = (failures: number) => Math.min(30, 2 ** Math.min(failures, 5)) * 1000;
/** The demo course the storm's test is imported into (its root activity becomes the test). */
const COURSE = { slug: "stats-refresher", code: "ST-100" };
/** The Moodle anchor the issue names (its quiz load test). */
const MOODLE = "Moodle's quiz load test: about 35 pages/s on 12 app vCPUs + 4 DB vCPUs";

const { values: args } = parseArgs({
  options: {
    learners: { type: "string", default: "1000" },
    minutes: { type: "string", default: "5" },
    interval: { type: "string", default: "10" },
    "start-window": { type: "string", default: "60" },
    "capacity-duration": { type: "string", default: "15" },
    "capacity-connections": { type: "string", default: "24" },
    "capacity-learners": { type: "string", default: "64" },
    resend: { type: "string", default: "0.05" },
    items: { type: "string", default: "20" },
    "setup-concurrency": { type: "string", default: "4" },
    timeout: { type: "string", default: "60" },
    port: { type: "string", default: "3600" },
    strict: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const num = (name: string, value: string, min = 0) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}, got "${value}"`);
  return n;
};
const options = {
  learners: Math.round(num("learners", args.learners, 1)),
  minutes: num("minutes", args.minutes, 0.1),
  intervalS: num("interval", args.interval, 1),
  startWindowS: num("start-window", args["start-window"]),
  capacityS: num("capacity-duration", args["capacity-duration"], 1),
  capacityConnections: Math.round(num("capacity-connections", args["capacity-connections"], 1)),
  capacityLearners: Math.round(num("capacity-learners", args["capacity-learners"], 1)),
  resendShare: num("resend", args.resend),
  items: Math.round(num("items", args.items, 1)),
  setupConcurrency: Math.round(num("setup-concurrency", args["setup-concurrency"], 1)),
  timeoutMs: num("timeout", args.timeout, 1) * 1000,
  port: Math.round(num("port", args.port, 1)),
};
if (options.intervalS * 1000 <= AUTOSAVE_DELAY_MS)
  throw new Error(
    `--interval must be longer than the page's autosave pause (${AUTOSAVE_DELAY_MS} ms): a learner who changes an answer sooner is saved only when she pauses`,
  );
if (options.capacityLearners < options.capacityConnections)
  throw new Error("--capacity-learners must be at least --capacity-connections (one save in flight per learner)");
const say = (line: string) => console.log(`[exam-storm] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "—");
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

// ---------------------------------------------------------------------------------------------
// The test: `--items` single-choice items in sections of five (one page each), nonlinear, timed.
// ---------------------------------------------------------------------------------------------

const NS = `xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"`;
const CHOICES = ["a", "b", "c", "d"];

function stormPackage(items: number, maxTimeS: number): string {
  const files: Record<string, string> = {};
  const refs: string[] = [];
  for (let i = 1; i <= items; i++) {
    const href = `items/q${i}.xml`;
    refs.push(`q${i}`);
    files[href] = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${NS} identifier="q${i}" title="Question ${i}" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>a</qti-value></qti-correct-response></qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body><qti-choice-interaction response-identifier="RESPONSE" max-choices="1" shuffle="true"><qti-prompt>Question ${i} of the storm exam: which one is right?</qti-prompt>
${CHOICES.map((c) => `    <qti-simple-choice identifier="${c}">Answer ${c.toUpperCase()} to question ${i}</qti-simple-choice>`).join("\n")}
  </qti-choice-interaction></qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;
  }
  const sections: string[] = [];
  for (let s = 0; s * 5 < items; s++) {
    const refsHere = refs.slice(s * 5, s * 5 + 5);
    sections.push(`    <qti-assessment-section identifier="s${s + 1}" title="Part ${s + 1}" visible="true">
${refsHere.map((r) => `      <qti-assessment-item-ref identifier="${r}" href="items/${r}.xml"/>`).join("\n")}
    </qti-assessment-section>`);
  }
  files["test.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-test ${NS} identifier="storm-exam" title="Storm exam">
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-time-limits max-time="${Math.round(maxTimeS)}"/>
  <qti-test-part identifier="exam" navigation-mode="nonlinear" submission-mode="simultaneous">
    <qti-item-session-control max-attempts="1" allow-review="true" allow-skipping="true"/>
${sections.join("\n")}
  </qti-test-part>
</qti-assessment-test>`;
  files["imsmanifest.xml"] = `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="storm-exam-package">
  <resources>
    <resource identifier="storm-exam" type="imsqti_test_xmlv3p0" href="test.xml"><file href="test.xml"/></resource>
${refs.map((r) => `    <resource identifier="${r}" type="imsqti_item_xmlv3p0" href="items/${r}.xml"><file href="items/${r}.xml"/></resource>`).join("\n")}
  </resources>
</manifest>`;
  return zipFolder(null, files);
}

// ---------------------------------------------------------------------------------------------
// HTTP: one request on a new connection (a browser whose idle connection the server closed), timed.
// ---------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
  /** A socket error or no answer within the timeout. */
  error?: string;
}

function request(
  browser: Browser,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const url = new URL(path, browser.origin);
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const done = (a: Omit<Answer, "ms">) => resolvePromise({ ...a, ms: performance.now() - started });
    const req = httpRequest(
      url,
      {
        method: init.method ?? "GET",
        headers: browser.headersFor(url, init.headers),
        agent: false,
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          browser.jar.store(res.headers["set-cookie"]);
          done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", (e) => done({ status: 0, headers: {}, body: "", error: e.message }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (e) => done({ status: 0, headers: {}, body: "", error: e.message }));
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

const retryAfterMs = (a: Answer) => {
  const s = Number(a.headers["retry-after"]);
  return Number.isFinite(s) && s >= 0 ? s * 1000 : null;
};

// ---------------------------------------------------------------------------------------------
// The test page's form, read from its HTML as a browser would fill it.
// ---------------------------------------------------------------------------------------------

interface PageForm {
  index: number;
  /** The form's fields in document order: hidden ones with their value, choices as groups. */
  fields: (
    { kind: "hidden"; name: string; value: string } | { kind: "choice"; name: string } | { kind: "flag"; ref: string }
  )[];
  /** Item ref → the radio group's name (`ref::RESPONSE`) and its values. */
  items: Map<string, { name: string; values: string[] }>;
  /** The choices checked now (name → value). */
  checked: Map<string, string>;
  flagged: Set<string>;
  pageCount: number;
}

const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? unescapeHtml(m[1]!) : null;
};

function readPage(html: string): PageForm {
  const start = html.indexOf('id="qti-form"');
  if (start < 0) throw new Error(`no test form on the page: ${html.slice(0, 300).replace(/\s+/g, " ")}`);
  const end = html.indexOf("</form>", start);
  const form = html.slice(start, end);
  const fields: PageForm["fields"] = [];
  const items = new Map<string, { name: string; values: string[] }>();
  const checked = new Map<string, string>();
  const flagged = new Set<string>();
  let index = -1;
  for (const m of form.matchAll(/<input\b[^>]*>/g)) {
    const tag = m[0];
    const type = attr(tag, "type");
    const name = attr(tag, "name");
    const value = attr(tag, "value") ?? "";
    if (!name) continue;
    if (type === "hidden") {
      fields.push({ kind: "hidden", name, value });
      if (name === "page") index = Number(value);
    } else if (type === "radio") {
      const ref = name.split("::")[0]!;
      let group = items.get(ref);
      if (!group) {
        group = { name, values: [] };
        items.set(ref, group);
        fields.push({ kind: "choice", name });
      }
      group.values.push(value);
      if (/\schecked(?:=""|\s|>|\/)/.test(tag)) checked.set(name, value);
    } else if (type === "checkbox" && name === "flagged") {
      fields.push({ kind: "flag", ref: value });
      if (/\schecked(?:=""|\s|>|\/)/.test(tag)) flagged.add(value);
    }
  }
  const of = /Page \d+ of (\d+)|(\d+)\s*\/\s*(\d+)/.exec(html);
  const navigator = [...html.matchAll(/[?&]amp;page=(\d+)|\?page=(\d+)/g)].map((x) => Number(x[1] ?? x[2]));
  const pageCount = Math.max(index + 1, ...navigator.map((n) => n + 1), of?.[1] ? Number(of[1]) : 0);
  if (index < 0 || items.size === 0) throw new Error("the test page's form has no page index or no items");
  return { index, fields, items, checked, flagged, pageCount };
}

/** The form's content as the page's autosave sends it (FormData of the form, intent and command id set). */
function formBody(form: PageForm, commandId: string): { body: string; key: string } {
  const out = new URLSearchParams();
  const content: [string, string][] = [];
  for (const f of form.fields) {
    if (f.kind === "hidden") {
      const value = f.name === "intent" ? "assessmentAutosave" : f.name === "commandId" ? commandId : f.value;
      out.append(f.name, value);
      if (f.name !== "intent" && f.name !== "commandId") content.push([f.name, value]);
    } else if (f.kind === "choice") {
      const v = form.checked.get(f.name);
      if (v !== undefined) {
        out.append(f.name, v);
        content.push([f.name, v]);
      }
    } else if (form.flagged.has(f.ref)) {
      out.append("flagged", f.ref);
      content.push(["flagged", f.ref]);
    }
  }
  return { body: out.toString(), key: JSON.stringify(content) };
}

/** What the page's action answered the autosave (its turbo-stream body names the outcome). */
function autosaveOutcome(a: Answer): "saved" | "retry" | "timeUp" | "refused" | "front" | "error" {
  if (a.status === 0) return "error";
  if (a.headers["x-remix-response"] === undefined) return a.status >= 400 ? "front" : "error";
  for (const kind of ["saved", "retry", "timeUp", "refused"] as const) if (a.body.includes(`"${kind}"`)) return kind;
  return "error";
}

// ---------------------------------------------------------------------------------------------
// Learners
// ---------------------------------------------------------------------------------------------

interface Learner {
  id: string;
  email: string;
  browser: Browser;
  /** The test page (`/learn/courses/…/assessment/<workflow>/<activity workflow>`). */
  base: string;
  /** Where the page is now (`base` or `base?page=N`): the fetcher posts to its `.data`. */
  at: string;
  form: PageForm | null;
  /** The content last acknowledged per page (page index → item ref → value or null), and its key. */
  acked: Map<number, Map<string, string | null>>;
  savedKey: string | null;
  /** The command for the content sent last: the same id for the same content (the page's rule). */
  sent: { key: string; id: string } | null;
  ackedIds: Set<string>;
  resentIds: Set<string>;
}

/** Figures of one phase. */
function phaseStats() {
  return {
    requests: 0,
    saved: 0,
    /** Latency of each autosave request that was answered "saved" (ms). */
    savedMs: [] as number[],
    /** From the moment the content was due to be saved to its acknowledgement, retries included (ms). */
    dueToSavedMs: [] as number[],
    savedAt: [] as number[],
    frontRefusals: 0,
    frontRefusalsWithRetryAfter: 0,
    actionRetries: 0,
    actionRetriesWithRetryAfter: 0,
    timeUp: 0,
    refused: 0,
    errors: 0,
    other: new Map<number, number>(),
    resent: 0,
    resentSaved: 0,
    /** What the resent commands were answered, each try (a refusal for load is retried as the page does). */
    resentOutcomes: new Map<string, number>(),
    refusedMs: [] as number[],
    refusedAt: [] as number[],
    maxMs: 0,
  };
}
type PhaseStats = ReturnType<typeof phaseStats>;

/** The learner changes the answer of one item of her page (a choice other than the one checked). */
function changeAnswer(l: Learner, rand: () => number) {
  const form = l.form!;
  const refs = [...form.items.keys()];
  const ref = refs[Math.floor(rand() * refs.length)]!;
  const group = form.items.get(ref)!;
  const current = form.checked.get(group.name);
  const others = group.values.filter((v) => v !== current);
  form.checked.set(group.name, others[Math.floor(rand() * others.length)]!);
}

function contentOfForm(form: PageForm): Map<string, string | null> {
  return new Map([...form.items].map(([ref, g]) => [ref, form.checked.get(g.name) ?? null]));
}

/**
 * One autosave as the page sends it, retried as the page retries it until it is acknowledged (or the
 * time is up, or the app refuses it): the action's retry after its Retry-After, a refusal of the front
 * (which the page's clientAction turns into a retry without Retry-After) after the page's backoff. The
 * same command id while the content is the same; `changed()` says the learner changed it meanwhile
 * (the page then sends the new content with a new id instead). Some acknowledged saves are sent again
 * with the same id, as after an answer lost on the way, to prove the command is idempotent.
 */
async function autosave(l: Learner, stats: PhaseStats, rand: () => number, dueAt: number, changed: () => boolean) {
  let failures = 0;
  for (;;) {
    const form = l.form!;
    const { key } = formBody(form, "");
    if (key === l.savedKey) return;
    const id = l.sent?.key === key ? l.sent.id : randomUUID();
    l.sent = { key, id };
    const { body } = formBody(form, id);
    const content = contentOfForm(form);
    const a = await postAutosave(l, body);
    stats.requests++;
    stats.maxMs = Math.max(stats.maxMs, a.ms);
    const outcome = autosaveOutcome(a);
    if (outcome === "saved") {
      if (options.resendShare > 0 && rand() < options.resendShare) {
        // The answer "was lost": the page sends the same command again; it must be one save.
        stats.resent++;
        l.resentIds.add(id);
        for (let tries = 1; tries <= 10; tries++) {
          const again = await postAutosave(l, body);
          stats.requests++;
          const kind = autosaveOutcome(again);
          stats.resentOutcomes.set(kind, (stats.resentOutcomes.get(kind) ?? 0) + 1);
          if (kind === "saved") {
            stats.resentSaved++;
            break;
          }
          if (kind !== "front" && kind !== "retry" && kind !== "error") break;
          await sleep(retryAfterMs(again) ?? pageBackoffMs(tries));
        }
      }
      stats.saved++;
      stats.savedMs.push(a.ms);
      const now = performance.now();
      stats.dueToSavedMs.push(now - dueAt);
      stats.savedAt.push(now);
      l.savedKey = key;
      l.ackedIds.add(id);
      l.acked.set(form.index, content);
      return;
    }
    stats.refusedMs.push(a.ms);
    stats.refusedAt.push(performance.now());
    let wait: number;
    if (outcome === "retry") {
      stats.actionRetries++;
      const ra = retryAfterMs(a);
      if (ra !== null) stats.actionRetriesWithRetryAfter++;
      failures++;
      const said = /"retryAfter",(\d+)/.exec(a.body);
      wait = said ? Number(said[1]) * 1000 : pageBackoffMs(failures);
    } else if (outcome === "front") {
      if (a.status === 503) {
        stats.frontRefusals++;
        if (retryAfterMs(a) !== null) stats.frontRefusalsWithRetryAfter++;
      } else stats.other.set(a.status, (stats.other.get(a.status) ?? 0) + 1);
      failures++;
      wait = pageBackoffMs(failures);
    } else if (outcome === "error") {
      stats.errors++;
      failures++;
      wait = pageBackoffMs(failures);
    } else if (outcome === "timeUp") {
      stats.timeUp++;
      return;
    } else {
      stats.refused++;
      return;
    }
    await sleep(wait);
    if (changed()) return; // the learner's next change sends the new content (a new command)
  }
}

function postAutosave(l: Learner, body: string) {
  const at = new URL(l.at, l.browser.origin);
  return request(l.browser, `${at.pathname}.data${at.search}`, {
    method: "POST",
    headers: { Accept: "*/*", "Content-Type": "application/x-www-form-urlencoded", Origin: l.browser.origin },
    body,
  });
}

/** A document request, retried after its Retry-After while the front refuses it (what its page asks). */
async function load(
  l: Learner,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  pages: PageLoads,
): Promise<Answer> {
  const first = performance.now();
  for (let attempt = 0; ; attempt++) {
    const a = await request(l.browser, path, init);
    // The refusal page asks to try again after Retry-After; a learner does, for ten minutes at most.
    if ((a.status === 503 || a.status === 0) && performance.now() - first < 600_000) {
      pages.refused++;
      await sleep(retryAfterMs(a) ?? pageBackoffMs(attempt + 1));
      continue;
    }
    pages.served++;
    pages.ms.push(a.ms);
    pages.waitMs.push(performance.now() - first);
    return a;
  }
}

/** The test's page loads (open, start, the next page): served, refused and retried after Retry-After. */
interface PageLoads {
  served: number;
  refused: number;
  /** Each served load's own time, and the learner's wait for it (refusals and retries included). */
  ms: number[];
  waitMs: number[];
}
const pageLoads = (): PageLoads => ({ served: 0, refused: 0, ms: [], waitMs: [] });

/** Opens the test, starts it (the start page's form) and reads its first page. */
async function startTest(l: Learner, refusals: PageLoads): Promise<number> {
  const started = performance.now();
  const first = await load(l, l.base, {}, refusals);
  if (first.status !== 200) throw new Error(`${l.base}: ${first.status}`);
  if (!first.body.includes('id="qti-form"')) {
    const post = await load(
      l,
      l.base,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: l.browser.origin },
        body: new URLSearchParams({ intent: "assessmentStart" }).toString(),
      },
      refusals,
    );
    if (post.status < 300 || post.status >= 400) throw new Error(`start ${l.base}: ${post.status}`);
  }
  await openPage(l, l.base, refusals);
  return performance.now() - started;
}

async function openPage(l: Learner, path: string, refusals: PageLoads) {
  const page = await load(l, path, {}, refusals);
  if (page.status !== 200) throw new Error(`${path}: ${page.status}`);
  l.at = path;
  l.form = readPage(page.body);
  l.savedKey = formBody(l.form, "").key;
  l.sent = null;
}

/**
 * CPU of the server's threads by name (`/proc/<pid>/task/*`: MainThread renders the pages, the
 * WorkerThread runs the API and its database, V8Worker and libuv-worker are the collector's and
 * the pool's) and of this load generator, between two readings, as shares of one CPU.
 */
function threadMeter(pid: number) {
  const read = () => {
    const byName = new Map<string, number>();
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim();
        const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        byName.set(name, (byName.get(name) ?? 0) + Number(f[11]) + Number(f[12]));
      } catch {
        // The thread ended.
      }
    }
    return { byName, self: process.cpuUsage(), at: performance.now() };
  };
  const before = read();
  return () => {
    const after = read();
    const ms = after.at - before.at;
    const share = (ticks: number) => Math.round((1000 * ticks * 10) / ms) / 10;
    const threads = Object.fromEntries(
      [...after.byName].map(([name, t]) => [name, share(t - (before.byName.get(name) ?? 0))]),
    );
    const selfMs = (after.self.user + after.self.system - before.self.user - before.self.system) / 1000;
    return { threads, loadGenerator: Math.round((1000 * selfMs) / ms) / 10 };
  };
}
type ThreadReading = ReturnType<ReturnType<typeof threadMeter>>;
const threadLine = (r: ThreadReading | null) =>
  r
    ? `CPU % of one core: ${Object.entries(r.threads)
        .filter(([, v]) => v >= 1)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}; this load generator ${r.loadGenerator}`
    : "";

/** A small seeded random source per learner, so a run's choices do not depend on timing. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4_294_967_296;
  };
}

/** `npm run content:import-qti -- zip --course CODE`, the product's importer, streaming to the running server. */
function importThroughServer(zip: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "build", "node", "ops-cli.js"), "import-qti", zip, "--course", COURSE.code, "--title", "Storm exam"],
      { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] },
    );
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolvePromise() : reject(new Error(`import-qti exited with ${code}`))));
  });
}

async function inBatches<T>(items: T[], concurrency: number, work: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

let server: RunningServer | null = null;
let dataDir: string | null = null;

async function main(): Promise<number> {
  const loadBefore = loadavg()[0]!;
  const stormS = options.startWindowS + options.minutes * 60;
  say(
    `node ${process.version}, ${cpus().length} CPU(s), load average ${loadBefore.toFixed(1)}; ${options.learners} learners, ${options.items} items, a save every ${options.intervalS} s for ${options.minutes} min, starts within ${options.startWindowS} s`,
  );
  await run(process.execPath, [join(ROOT, "scripts", "ensure-build.mjs")], ROOT);
  mkdirSync(RESULTS_DIR, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), "exam-storm-"));
  const port = await freePort(options.port);
  const logFile = join(RESULTS_DIR, "exam-storm-server.log");
  // The production server with its overload control as deployed (decision 038), the demo data, and
  // the test-support API (decision 014) that makes the learners.
  const env = { NODE_ENV: "production", APP_ENV: "test", E2E_FIXTURES: "1", DATA_DIR: dataDir };
  server = startServer({ cwd: ROOT, port, env, logFile, readyPath: "/config-ui/config.json", readyTimeoutMs: 180_000 });
  await server.ready;
  const origin = server.origin;
  say(`server ready at ${origin} (pid ${server.pid}), demo data seeded in ${dataDir}`);

  // The test, imported into the course's root activity with the product's importer (through the server).
  const zip = stormPackage(options.items, Math.max(3600, (stormS + 600) * 1.5));
  await importThroughServer(zip, { DATA_DIR: dataDir, PORT: String(port) }).finally(() => rmSync(zip, { force: true }));
  say(`imported the ${options.items}-item test into ${COURSE.code} (npm run content:import-qti, through the server)`);

  // --- Learners: made by the test-support API, enrolled with the course started; signed in. ---------
  const total = options.learners + options.capacityLearners;
  const setupStarted = performance.now();
  const learners: Learner[] = [];
  let made = 0;
  await inBatches(
    Array.from({ length: total }, (_, i) => i),
    options.setupConcurrency,
    async () => {
      const browser = new Browser(origin);
      const res = await request(browser, "/api/test-support/v1/learners", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          enrolments: [{ course: COURSE.slug, attempts: [{ state: "inProgress", progress: 0, startedAgo: 0 }] }],
        }),
      });
      if (res.status !== 201) throw new Error(`test-support learners: ${res.status} ${res.body.slice(0, 300)}`);
      const created = JSON.parse(res.body) as { id: string; email: string; password: string };
      await signIn(browser, { email: created.email, password: created.password }, () => {});
      const list = await browser.navigate("/learn/courses?clear");
      const courseId = /href="\/learn\/courses\/([0-9a-f-]{36})\/view\/content"/.exec(list.body)?.[1];
      if (!courseId) throw new Error(`${created.email}: no course on My courses`);
      const content = await browser.navigate(`/learn/courses/${courseId}/view/content`);
      const base = /href="(\/learn\/courses\/[0-9a-f-]{36}\/assessment\/[0-9a-f-]{36}\/[0-9a-f-]{36})"/.exec(
        content.body,
      )?.[1];
      if (!base) throw new Error(`${created.email}: no test link on the course's content page (${content.status})`);
      learners.push({
        id: created.id,
        email: created.email,
        browser,
        base,
        at: base,
        form: null,
        acked: new Map(),
        savedKey: null,
        sent: null,
        ackedIds: new Set(),
        resentIds: new Set(),
      });
      if (++made % 100 === 0) say(`  ${made}/${total} learners made and signed in`);
    },
  );
  const setupS = (performance.now() - setupStarted) / 1000;
  say(`${total} learners made, enrolled and signed in in ${fixed(setupS, 0)} s`);
  const capacityLearners = learners.slice(0, options.capacityLearners);
  const stormLearners = learners.slice(options.capacityLearners);

  // --- Capacity: the same saves in a closed loop at saturation -----------------------------------
  const ignored = pageLoads();
  await inBatches(capacityLearners, options.setupConcurrency, async (l) => void (await startTest(l, ignored)));
  const capacity = phaseStats();
  const warmup = phaseStats();
  let measuring = false;
  let capacityEnd = 0;
  const capacityStart = performance.now() + 5_000; // 5 s of warm-up first (the JIT)
  const free = [...capacityLearners];
  const readCapacityCpu = { read: null as null | (() => CpuReading), threads: null as null | (() => ThreadReading) };
  setTimeout(() => {
    measuring = true;
    readCapacityCpu.read = cpuMeter(server!.pid);
    readCapacityCpu.threads = threadMeter(server!.pid);
  }, 5_000);
  say(
    `capacity: ${options.capacityConnections} saves in flight for 5 + ${options.capacityS} s over ${capacityLearners.length} learners`,
  );
  await Promise.all(
    Array.from({ length: options.capacityConnections }, async (_, w) => {
      const rand = rng(7919 * (w + 1));
      while (performance.now() < capacityStart + options.capacityS * 1000) {
        const l = free.shift()!;
        changeAnswer(l, rand);
        await autosave(l, measuring ? capacity : warmup, rand, performance.now(), () => false);
        free.push(l);
      }
    }),
  );
  capacityEnd = performance.now();
  const capacityCpu = readCapacityCpu.read?.() ?? null;
  const capacityThreads = readCapacityCpu.threads?.() ?? null;
  const measuredS = (capacityEnd - capacityStart) / 1000;
  const capacityRate = capacity.saved / measuredS;
  say(
    `  ${fixed(capacityRate)} saves/s (p50 ${fixed(percentile(capacity.savedMs, 50), 0)} ms, p99 ${fixed(percentile(capacity.savedMs, 99), 0)} ms), ${capacity.frontRefusals + capacity.actionRetries} refused`,
  );
  await sleep(3_000);

  // --- The storm ---------------------------------------------------------------------------------
  const storm = phaseStats();
  const startRefusals = pageLoads();
  const startMs: number[] = [];
  const begins: number[] = [];
  const sessionFailures: string[] = [];
  const startFailures: string[] = [];
  const stormStart = performance.now();
  const readStormCpu = cpuMeter(server.pid);
  const readStormThreads = threadMeter(server.pid);
  let peakRss = 0;
  const memory = setInterval(() => {
    if (server) peakRss = Math.max(peakRss, groupRss(server.pid).total);
  }, 1_000);
  say(
    `storm: ${stormLearners.length} learners start within ${options.startWindowS} s, then save every ${options.intervalS} s for ${options.minutes} min (offered ${fixed(stormLearners.length / options.intervalS)} saves/s)`,
  );
  const progress = setInterval(() => {
    const t = (performance.now() - stormStart) / 1000;
    say(
      `  t=${fixed(t, 0)} s: ${startMs.length} started, ${storm.saved} saved, ${storm.frontRefusals} refused by the front, ${storm.actionRetries} by the API, ${storm.errors} errors`,
    );
  }, 30_000);
  await Promise.all(
    stormLearners.map(async (l, i) => {
      const rand = rng(104_729 * (i + 1));
      await sleep(rand() * options.startWindowS * 1000);
      try {
        startMs.push(await startTest(l, startRefusals));
      } catch (e) {
        startFailures.push(`${l.email}: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      try {
        await takeTest(l, rand);
      } catch (e) {
        sessionFailures.push(`${l.email}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }),
  );
  async function takeTest(l: Learner, rand: () => number) {
    const began = performance.now();
    begins.push(began);
    const endAt = began + options.minutes * 60_000;
    const pages = l.form!.pageCount;
    // The first answer a moment after the page opened, then one every interval; the learner goes to
    // the next page as her time goes (the page's "Next" link: a new page, a new form).
    let tick = began + rand() * options.intervalS * 1000;
    let changes = 0;
    let saving: Promise<void> | null = null;
    while (tick < endAt) {
      await sleep(Math.max(0, tick - performance.now()));
      const wantPage = Math.min(pages - 1, Math.floor(((tick - began) / (endAt - began)) * pages));
      if (wantPage !== l.form!.index) {
        await saving; // the page's last save is answered before the learner leaves it
        await openPage(l, `${l.base}?page=${wantPage}`, startRefusals);
      }
      changeAnswer(l, rand);
      changes++;
      const mine = changes;
      const dueAt = tick + AUTOSAVE_DELAY_MS;
      const previous = saving;
      saving = (async () => {
        await previous; // one save in flight; the answer in flight schedules the next
        await sleep(Math.max(0, dueAt - performance.now()));
        if (mine !== changes) return; // a newer change took its place
        await autosave(l, storm, rand, dueAt, () => mine !== changes);
      })();
      tick += options.intervalS * 1000;
    }
    await saving;
    // The last content is saved before the learner leaves (the page hides: the same command).
    await autosave(l, storm, rand, performance.now(), () => false);
  }
  clearInterval(progress);
  clearInterval(memory);
  const stormCpu = readStormCpu();
  const stormThreads = readStormThreads();
  const stormEnd = performance.now();
  const stormLength = (stormEnd - stormStart) / 1000;
  // Goodput over the window in which every learner saves (after the last start, before the first stops).
  const steadyFrom = Math.max(...begins) + options.intervalS * 1000;
  const steadyTo = Math.min(...begins) + options.minutes * 60_000;
  // While saves are refused, the storm asks more than the server serves: goodput is measured over
  // that window against the capacity (the issue's figure). Without refusals, over the window in which
  // every learner saves (or the whole storm), against what was offered.
  const refusedAt = storm.refusedAt;
  const overloaded = refusedAt.length > 0 && refusedAt.at(-1)! - refusedAt[0]! > 10_000;
  const steady = !overloaded && steadyTo - steadyFrom > 10_000;
  const windowFrom = overloaded ? refusedAt[0]! : steady ? steadyFrom : stormStart;
  const windowTo = overloaded ? refusedAt.at(-1)! : steady ? steadyTo : stormEnd;
  const inWindow = storm.savedAt.filter((t) => t >= windowFrom && t < windowTo).length;
  const goodput = inWindow / ((windowTo - windowFrom) / 1000);
  const offered = stormLearners.length / options.intervalS;

  // --- The database: what was acknowledged is what is stored, once --------------------------------
  const serverLog = readFileSync(logFile, "utf8");
  const serverErrors = serverLog
    .split("\n")
    .filter((line) => /"level":(50|60)|\b(FATAL|heap out of memory)\b/.test(line));
  await server.stop();
  server = null;
  say("reading the database…");
  // The server's database: PostgreSQL with DATABASE_URL (the server had it from this environment), else its PGlite.
  const databaseUrl = process.env.DATABASE_URL;
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: join(dataDir, "pglite") });
  const rows = (
    await database.db.execute<{ user_id: string; item_ref: string; response: Record<string, string[]> }>(sql`
      select t.user_id, a.item_ref, a.response from assessment_answers a
      join assessment_attempts t on t.id = a.attempt_id join activity_workflows aw on aw.id = t.activity_workflow_id
      join activity_parts p on p.id = aw.activity_part_id join activities ac on ac.id = p.activity_id
      where ac.content->'qti' is not null and t.user_id in (select id from users where email like 'learner-%@example.com')`)
  ).rows;
  const commandRows = (
    await database.db.execute<{ user_id: string; id: string; state: string }>(sql`
      select user_id, id, state from commands where type = 'save-assessment-answers'`)
  ).rows;
  await database.close();
  const stored = new Map<string, Map<string, string | null>>();
  for (const r of rows) {
    const m = stored.get(r.user_id) ?? new Map<string, string | null>();
    m.set(r.item_ref, r.response.RESPONSE?.[0] ?? null);
    stored.set(r.user_id, m);
  }
  const commandsOf = new Map<string, { id: string; state: string }[]>();
  for (const c of commandRows) commandsOf.set(c.user_id, [...(commandsOf.get(c.user_id) ?? []), c]);
  let acknowledgedAnswers = 0;
  let lost = 0;
  let unacknowledged = 0;
  let ackedIds = 0;
  let ackedIdsStored = 0;
  let extraCommands = 0;
  let resentIds = 0;
  let resentStoredOnce = 0;
  const examples: string[] = [];
  for (const l of learners) {
    const expected = new Map<string, string | null>();
    for (const page of l.acked.values()) for (const [ref, v] of page) expected.set(ref, v);
    const have = stored.get(l.id) ?? new Map<string, string | null>();
    for (const [ref, v] of expected) {
      if (v === null) continue;
      acknowledgedAnswers++;
      if (have.get(ref) !== v) {
        lost++;
        if (examples.length < 5)
          examples.push(`${l.email} ${ref}: acknowledged ${v}, stored ${have.get(ref) ?? "nothing"}`);
      }
    }
    for (const [ref, v] of have)
      if (v !== null && expected.get(ref) !== v) {
        unacknowledged++;
        if (examples.length < 5)
          examples.push(`${l.email} ${ref}: stored ${v}, acknowledged ${expected.get(ref) ?? "nothing"}`);
      }
    const cmds = commandsOf.get(l.id) ?? [];
    const ids = new Map<string, number>();
    for (const c of cmds) ids.set(c.id, (ids.get(c.id) ?? 0) + 1);
    ackedIds += l.ackedIds.size;
    for (const id of l.ackedIds) if (cmds.some((c) => c.id === id && c.state === "completed")) ackedIdsStored++;
    extraCommands += [...ids.keys()].filter((id) => !l.ackedIds.has(id)).length;
    for (const id of l.resentIds) {
      resentIds++;
      if (ids.get(id) === 1) resentStoredOnce++;
    }
  }

  // --- Figures ---------------------------------------------------------------------------------
  const loadAfter = loadavg()[0]!;
  const stormSaveP99 = percentile(storm.dueToSavedMs, 99);
  const stormRequestP99 = percentile(storm.savedMs, 99);
  const refusals = storm.frontRefusals + storm.actionRetries;
  const refusalsWithRetryAfter = storm.frontRefusalsWithRetryAfter + storm.actionRetriesWithRetryAfter;
  const goodputTarget = TARGETS.goodputRatio * Math.min(offered, capacityRate);
  const cpuLine = (cpu: CpuReading | null) =>
    cpu
      ? `the server's main thread busy ${fixed(cpu.mainBusyPct, 0)} %, the machine's CPU stolen ${fixed(cpu.stealPct, 0)} %, idle ${fixed(cpu.idlePct, 0)} %`
      : "not measured";
  const lines = [
    `\nExam storm: ${stormLearners.length} learners, a ${options.items}-item timed test (${Math.ceil(options.items / 5)} pages), one save every ${options.intervalS} s for ${options.minutes} min each, starts within ${options.startWindowS} s; the page's autosave (POST <page>.data, intent assessmentAutosave); load generator on the same machine (${cpus().length} CPUs); load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`,
    `  setup               ${total} learners by the test-support API, enrolled, signed in: ${fixed(setupS, 0)} s (not measured)`,
    `  capacity            ${fixed(capacityRate)} saves/s with ${options.capacityConnections} in flight over ${fixed(measuredS, 0)} s (closed loop, after 5 s of warm-up); p50 ${fixed(percentile(capacity.savedMs, 50), 0)} ms, p99 ${fixed(percentile(capacity.savedMs, 99), 0)} ms; ${capacity.frontRefusals + capacity.actionRetries} refused, ${capacity.errors} errors; ${cpuLine(capacityCpu)}`,
    `                      ${threadLine(capacityThreads)}`,
    `  starts              ${startMs.length}/${stormLearners.length} started (open the test, start, first page: p50 ${fixed(percentile(startMs, 50), 0)} ms, p99 ${fixed(percentile(startMs, 99), 0)} ms, max ${fixed(Math.max(...startMs), 0)} ms); test page loads (open, start, next page) ${startRefusals.served} served (p99 ${fixed(percentile(startRefusals.ms, 99), 0)} ms), ${startRefusals.refused} refused with 503 and retried after Retry-After (the learner's wait for a page p50 ${fixed(percentile(startRefusals.waitMs, 50), 0)} ms, p99 ${fixed(percentile(startRefusals.waitMs, 99), 0)} ms, max ${fixed(Math.max(...startRefusals.waitMs), 0)} ms); ${sessionFailures.length} learners stopped${sessionFailures.length ? ` (${sessionFailures.slice(0, 3).join("; ")})` : ""}; ${startFailures.length} failed${startFailures.length ? ` (${startFailures.slice(0, 3).join("; ")})` : ""}`,
    `  storm               ${fixed(stormLength, 0)} s, ${storm.requests} autosave requests, ${storm.saved} saves acknowledged; ${cpuLine(stormCpu)}; peak resident memory ${fixed(mb(peakRss), 0)} MB`,
    `                      ${threadLine(stormThreads)}`,
    `  served              ${fixed((storm.saved + storm.resentSaved + startRefusals.served) / stormLength)} requests/s over the storm (saves, resent saves and test page loads)`,
    `  goodput             ${fixed(goodput)} saves/s ${overloaded ? `while saves were refused (${fixed((windowTo - windowFrom) / 1000, 0)} s)` : steady ? "while every learner saves" : "over the storm"} (offered ${fixed(offered)}/s) = ${fixed(goodput / capacityRate, 2)} × capacity, ${fixed(goodput / offered, 2)} × offered`,
    `  save latency        due → acknowledged (the learner's wait, retries included) p50 ${fixed(percentile(storm.dueToSavedMs, 50), 0)} ms, p99 ${fixed(stormSaveP99, 0)} ms, max ${fixed(Math.max(...storm.dueToSavedMs), 0)} ms; each acknowledged request p50 ${fixed(percentile(storm.savedMs, 50), 0)} ms, p99 ${fixed(stormRequestP99, 0)} ms; slowest answer ${fixed(storm.maxMs, 0)} ms`,
    `  refusals            ${refusals} (${storm.frontRefusals} by the front's overload control, ${storm.actionRetries} by the API through the action), ${refusalsWithRetryAfter} with Retry-After, each retried as the page does; refused after p99 ${fixed(percentile(storm.refusedMs, 99), 0)} ms; other statuses ${JSON.stringify(Object.fromEntries(storm.other))}; socket errors/timeouts ${storm.errors}; time up ${storm.timeUp}; refused by the app ${storm.refused}`,
    `  idempotency         ${storm.resent + capacity.resent + warmup.resent} acknowledged saves sent again with the same command id: ${storm.resentSaved + capacity.resentSaved + warmup.resentSaved} answered saved (answers to each try: ${JSON.stringify(Object.fromEntries([...storm.resentOutcomes, ...capacity.resentOutcomes, ...warmup.resentOutcomes].reduce((m, [k, v]) => m.set(k, (m.get(k) ?? 0) + v), new Map<string, number>())))}); ${resentStoredOnce}/${resentIds} of those ids stored once`,
    `  database            ${acknowledgedAnswers} answers acknowledged (the last of each item): ${lost} lost, ${unacknowledged} stored but not acknowledged; ${ackedIdsStored}/${ackedIds} acknowledged command ids stored, ${extraCommands} commands stored that were never acknowledged${examples.length ? `\n    e.g. ${examples.join("; ")}` : ""}`,
    `  server log          ${serverErrors.length} error lines${serverErrors.length ? `: ${serverErrors[0]!.slice(0, 200)}` : ""}`,
    `  anchor              ${MOODLE}; here ${fixed(goodput)} saves/s acknowledged (each save one request through the page's action and the API) on ${cpus().length} CPUs shared by the server, its database and this load generator`,
  ];
  for (const line of lines) console.log(line);

  const checks = [
    { target: "0 answers lost", pass: lost === 0 && ackedIdsStored === ackedIds },
    {
      target: "0 answers stored twice (a resent command id is one save; nothing stored that was not acknowledged)",
      pass: unacknowledged === 0 && resentStoredOnce === resentIds && extraCommands === 0,
    },
    { target: `save p99 ≤ ${TARGETS.saveP99Ms} ms (due → acknowledged)`, pass: stormSaveP99 <= TARGETS.saveP99Ms },
    {
      target: `goodput ≥ ${TARGETS.goodputRatio} × min(offered, capacity) = ${fixed(goodputTarget)} saves/s`,
      pass: goodput >= goodputTarget,
    },
    {
      target: "every refusal a 503 with Retry-After, retried; no other error",
      pass:
        refusalsWithRetryAfter === refusals &&
        storm.other.size === 0 &&
        storm.errors === 0 &&
        storm.refused === 0 &&
        storm.timeUp === 0 &&
        startFailures.length === 0 &&
        sessionFailures.length === 0,
    },
  ];
  console.log("\nTargets");
  for (const c of checks) console.log(`  ${c.pass ? "PASS" : "FAIL"}  ${c.target}`);
  const summary = (s: PhaseStats) => ({
    requests: s.requests,
    saved: s.saved,
    savedP50Ms: percentile(s.savedMs, 50),
    savedP99Ms: percentile(s.savedMs, 99),
    dueToSavedP99Ms: percentile(s.dueToSavedMs, 99),
    frontRefusals: s.frontRefusals,
    actionRetries: s.actionRetries,
    errors: s.errors,
    timeUp: s.timeUp,
    refused: s.refused,
    other: Object.fromEntries(s.other),
    resent: s.resent,
    resentSaved: s.resentSaved,
  });
  writeFileSync(
    join(RESULTS_DIR, "exam-storm.json"),
    `${JSON.stringify(
      {
        startedAt: new Date().toISOString(),
        options,
        loadAverage: { before: loadBefore, after: loadAfter },
        setupS,
        capacity: { perS: capacityRate, cpu: capacityCpu, threads: capacityThreads, ...summary(capacity) },
        storm: {
          lengthS: stormLength,
          started: startMs.length,
          startP99Ms: percentile(startMs, 99),
          goodputPerS: goodput,
          offeredPerS: offered,
          cpu: stormCpu,
          threads: stormThreads,
          peakRssMb: mb(peakRss),
          ...summary(storm),
        },
        database: {
          acknowledgedAnswers,
          lost,
          unacknowledged,
          ackedIds,
          ackedIdsStored,
          extraCommands,
          resentIds,
          resentStoredOnce,
        },
        checks,
      },
      null,
      2,
    )}\n`,
  );
  return args.strict && checks.some((c) => !c.pass) ? 1 : 0;
}

async function shutdown(): Promise<void> {
  const s = server;
  server = null;
  if (s) await s.stop();
  if (dataDir && !args.keep) rmSync(dataDir, { recursive: true, force: true });
  else if (dataDir) say(`kept ${dataDir}`);
  dataDir = null;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void shutdown().finally(() => process.exit(130)));
}
main()
  .then((code) => (process.exitCode = code))
  .catch((error: unknown) => {
    console.error(`\n[exam-storm] FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (server) console.error(logTail(server.logFile, 15));
    process.exitCode = 1;
  })
  .finally(shutdown);
