/**
 * `npm run bench:overload`: 1,000 concurrent connections for 20 s against My courses (issue 17 item 17).
 * Prints what the clients got (2xx, 503, 429, other, errors, timeouts), whether cheap requests
 * (a build asset on a new connection) still passed, how long the server took to answer normally again
 * after the load stopped, the server's resident memory (idle, peak, after), and whether every write
 * sent during the load (enrolments, retried after 503 as `Retry-After` says) was recorded exactly once.
 * See bench/README.md.
 *
 *   npx tsx bench/overload.ts [--connections 1000] [--duration 20] [--writes 20] [--port 3262] [--strict]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { cpus, loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { Browser, BROWSER_USER_AGENT, send } from "./lib/http";
import { freePort, logTail, startServer, type RunningServer } from "./lib/server";
import { ensureBigData, run, signIn } from "./lib/setup";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DATA_DIR = join(ROOT, "bench", ".data-big");
const RESULTS_DIR = join(ROOT, "bench", "results");
const TARGETS = { recoveryS: 5, peakRssMb: 1024, afterRssRatio: 1.5 };

const { values: args } = parseArgs({
  options: {
    connections: { type: "string", default: "1000" },
    duration: { type: "string", default: "20" },
    writes: { type: "string", default: "20" },
    timeout: { type: "string", default: "10" },
    port: { type: "string", default: "3262" },
    proxy: { type: "string", default: "none" },
    cluster: { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
    strict: { type: "boolean", default: false },
  },
});
const num = (name: string, value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${value}"`);
  return n;
};
const options = {
  connections: Math.round(num("connections", args.connections)),
  duration: num("duration", args.duration),
  writes: Math.round(num("writes", args.writes)),
  timeout: num("timeout", args.timeout),
  port: Math.round(num("port", args.port)),
};
if (args.proxy !== "none" && args.proxy !== "nginx")
  throw new Error(`--proxy must be none or nginx, got "${args.proxy}"`);
const say = (line: string) => console.log(`[overload] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "—");

// ---------------------------------------------------------------------------------------------
// Resident memory of the server: every process of its group (tsx and the node process it runs).
// ---------------------------------------------------------------------------------------------

/** The group's resident memory: every process summed, and the largest one (the node process serving). */
function groupRss(pgid: number): { total: number; largest: number } {
  let total = 0;
  let largest = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name (which may hold spaces) start at ") ": state ppid pgrp …
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1];
      if (rss) {
        total += Number(rss) * 1024;
        largest = Math.max(largest, Number(rss) * 1024);
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return { total, largest };
}
const groupRssBytes = (pgid: number) => groupRss(pgid).total;

function memoryWatch(pgid: number) {
  let peak = 0;
  let peakLargest = 0;
  const sample = () => {
    const now = groupRss(pgid);
    peak = Math.max(peak, now.total);
    peakLargest = Math.max(peakLargest, now.largest);
  };
  const timer = setInterval(sample, 200);
  return {
    peak: () => (sample(), peak),
    peakLargest: () => peakLargest,
    stop: () => clearInterval(timer),
  };
}
const mb = (bytes: number) => bytes / (1024 * 1024);

// ---------------------------------------------------------------------------------------------
// One request on a connection of its own (what a new visitor does), timed.
// ---------------------------------------------------------------------------------------------

function fresh(
  origin: string,
  path: string,
  headers: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const req = httpRequest(new URL(path, origin), { headers, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on("error", () => resolvePromise({ status: 0, ms: performance.now() - started }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolvePromise({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : NaN;

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

let server: RunningServer | null = null;
let nginx: ChildProcess | null = null;

/**
 * nginx in front (bench/nginx.conf, the documented reverse proxy of decision 031) on the next free
 * port, in the foreground, with its files under bench/results/nginx; stopped with the bench.
 */
function startNginx(appPort: number, port: number): string {
  const prefix = join(RESULTS_DIR, "nginx");
  mkdirSync(join(prefix, "logs"), { recursive: true });
  const conf = readFileSync(join(ROOT, "bench", "nginx.conf"), "utf8")
    .replaceAll("listen 8080", `listen ${port}`)
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${appPort}`)
    .replaceAll("/srv/learner-app/build/client/assets/", `${join(ROOT, "build", "client", "assets")}/`);
  writeFileSync(join(prefix, "nginx.conf"), conf);
  nginx = spawn("nginx", ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-g", "daemon off; pid nginx.pid;"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  nginx.once("error", (error) => say(`nginx did not start (apt-get install nginx-light?): ${error.message}`));
  say(`nginx on port ${port} in front of the server (pid ${nginx.pid})`);
  return `http://localhost:${port}`;
}
let load: autocannon.Instance | null = null;

async function main(): Promise<number> {
  say(`node ${process.version}, ${cpus().length} CPU(s), load average ${loadavg()[0].toFixed(1)} before the run`);
  await run(process.execPath, [join(ROOT, "scripts", "ensure-build.mjs")], ROOT);
  await ensureBigData({ root: ROOT, dataDir: DATA_DIR, courses: 10_000, aggregates: 1_000, fresh: args.fresh, say });
  mkdirSync(RESULTS_DIR, { recursive: true });
  const port = await freePort(options.port);
  // With --proxy nginx, nginx is the public origin (APP_URL): the load, the probes, the writes and
  // the sign-in go through it, as in a deployment behind bench/nginx.conf.
  const proxied = args.proxy === "nginx" ? startNginx(port, await freePort(port + 1)) : null;
  const logFile = join(RESULTS_DIR, "overload-server.log");
  server = startServer({
    cwd: ROOT,
    port,
    env: { NODE_ENV: "production", APP_ENV: "test", DATA_DIR, ...(proxied ? { APP_URL: proxied } : {}) },
    readyOrigin: proxied ?? undefined,
    logFile,
    entry: args.cluster ? "bench/cluster-primary.ts" : undefined,
    readyPath: "/config-ui/config.json",
    readyTimeoutMs: 120_000,
  });
  await server.ready;
  const origin = proxied ?? server.origin;
  say(`server ready at ${origin} (pid ${server.pid}); its shedding settings are the defaults unless OVERLOAD_* is set`);

  const browser = new Browser(origin);
  await signIn(browser, { email: "ada@example.com", password: "demo" }, say);
  const list = await browser.navigate("/learn/courses?clear");
  if (list.status !== 200) throw new Error(`/learn/courses?clear: ${list.status}`);
  const pagePath = list.url.pathname + list.url.search;
  const headers = { Cookie: browser.jar.header(pagePath), Accept: "text/html", "User-Agent": BROWSER_USER_AGENT };

  // Courses ada is not enrolled in (their page offers the enrol form), for the writes.
  const candidates: string[] = [];
  for (let page = 1; candidates.length < options.writes && page <= 50; page++) {
    const catalog = await browser.navigate(`/learn/catalog?page=${page}`);
    const ids = [...new Set([...catalog.body.matchAll(/\/learn\/catalog\/([0-9a-f-]{36})/g)].map((m) => m[1]))];
    if (ids.length === 0) break;
    for (const id of ids) {
      if (candidates.length >= options.writes) break;
      const detail = await browser.fetch(`/learn/catalog/${id}`);
      if (detail.status === 200 && detail.body.includes('name="enrolId"')) candidates.push(id);
    }
  }
  if (candidates.length < options.writes)
    say(`note: only ${candidates.length} courses to enrol in were found (asked for ${options.writes})`);
  const asset = /"(\/learn\/assets\/[^"]+\.js)"/.exec(list.body)?.[1];
  if (!asset) throw new Error(`${pagePath} names no build asset (/learn/assets/….js)`);
  const loadOrigin = origin;
  const assetCheck = await fresh(loadOrigin, asset, { "User-Agent": BROWSER_USER_AGENT });
  if (assetCheck.status !== 200) throw new Error(`${asset} answered ${assetCheck.status} before the load`);

  // JIT warm-up, nothing recorded (as `npm run bench` does).
  await new Promise<void>((done) =>
    autocannon({ url: `${loadOrigin}${pagePath}`, connections: 10, duration: 3, headers }, () => done()),
  );
  await sleep(2_000);
  const idleRss = groupRssBytes(server.pid);
  const idleLargest = groupRss(server.pid).largest;
  const memory = memoryWatch(server.pid);
  say(
    `idle resident memory ${fixed(mb(idleRss), 0)} MB; loading ${pagePath} with ${options.connections} connections for ${options.duration} s`,
  );

  // --- The load, with writes and cheap probes running beside it ------------------------------
  let loadRunning = true;
  const loadDone = new Promise<autocannon.Result>((resolvePromise, reject) => {
    load = autocannon(
      {
        url: `${loadOrigin}${pagePath}`,
        connections: options.connections,
        duration: options.duration,
        timeout: options.timeout,
        headers,
      },
      (error: unknown, result: autocannon.Result) => {
        load = null;
        loadRunning = false;
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolvePromise(result);
      },
    );
  });
  const loadStarted = performance.now();

  const probes: { status: number; ms: number }[] = [];
  const probing = (async () => {
    await sleep(1_000);
    while (loadRunning) {
      probes.push(await fresh(loadOrigin, asset, { "User-Agent": BROWSER_USER_AGENT }, 20_000));
      await sleep(250);
    }
  })();

  type Write = {
    course: string;
    enrolId: string;
    attempts: number;
    statuses: number[];
    acknowledged: boolean;
    refused: boolean;
  };
  const writes: Write[] = candidates.map((course) => ({
    course,
    enrolId: randomUUID(),
    attempts: 0,
    statuses: [],
    acknowledged: false,
    refused: false,
  }));
  const otherRedirects: string[] = [];
  const writing = Promise.all(
    writes.map(async (w, i) => {
      // Spread over the load: the i-th write starts at i/n of its duration.
      await sleep(1_000 + (i * (options.duration - 2) * 1000) / Math.max(1, writes.length));
      for (let attempt = 0; attempt < 60 && !w.acknowledged && !w.refused; attempt++) {
        w.attempts++;
        const res = await send(new URL(`/learn/catalog/${w.course}`, loadOrigin), {
          method: "POST",
          headers: {
            ...browser.headersFor(new URL(`/learn/catalog/${w.course}`, origin)),
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: loadOrigin,
          },
          body: new URLSearchParams({ intent: "enrol", enrolId: w.enrolId }).toString(),
          timeoutMs: 30_000,
        }).catch(() => ({ status: 0, headers: {} as Record<string, string | undefined> }));
        w.statuses.push(res.status);
        if (res.status >= 300 && res.status < 400 && !String(res.headers.location ?? "").startsWith("/learn/courses")) {
          // The app refused the enrolment itself (its toast says why): a clean, final refusal.
          const toastCookie = ((res.headers["set-cookie"] as string[] | undefined) ?? []).map((c) => c.split(";")[0]);
          const back = await send(new URL(String(res.headers.location), origin), {
            headers: {
              ...browser.headersFor(new URL(String(res.headers.location), origin)),
              Cookie: [browser.jar.header("/learn"), ...toastCookie].join("; "),
            },
          }).catch(() => null);
          const why = back ? (/role="alert"><span>([^<]*)</.exec(back.body)?.[1] ?? "?") : "?";
          otherRedirects.push(`${w.course.slice(0, 8)}: “${why}”`);
          w.refused = true;
          break;
        }
        if (res.status >= 300 && res.status < 400 && String(res.headers.location ?? "").startsWith("/learn/courses")) {
          w.acknowledged = true;
          break;
        }
        // A refusal says when to come back; anything else (a timeout) is retried after a second.
        const retryAfter = Number(res.headers["retry-after"] ?? "1");
        await sleep(Math.max(1, Number.isFinite(retryAfter) ? retryAfter : 1) * 1000);
      }
    }),
  );

  const result = await loadDone;
  const loadStopped = performance.now();
  say(
    `load stopped after ${fixed((loadStopped - loadStarted) / 1000)} s; waiting for the server to answer My courses normally`,
  );

  // --- Recovery: My courses on a new connection answers 200 three times in a row, each under 1 s.
  let recoveredAt = NaN;
  let streak = 0;
  const recoveryLog: string[] = [];
  while (performance.now() - loadStopped < 120_000) {
    const r = await fresh(loadOrigin, pagePath, headers, 30_000);
    recoveryLog.push(`${r.status}/${fixed(r.ms, 0)}ms`);
    if (r.status === 200 && r.ms < 1_000) {
      if (++streak === 3) {
        recoveredAt = performance.now();
        break;
      }
    } else streak = 0;
    await sleep(100);
  }
  const recoveryS = (recoveredAt - loadStopped) / 1000;
  await Promise.all([probing, writing]);

  await sleep(5_000);
  const afterRss = groupRssBytes(server.pid);
  const afterLargest = groupRss(server.pid).largest;
  const peakRss = memory.peak();
  const peakLargest = memory.peakLargest();
  memory.stop();

  // --- Every write acknowledged is recorded: the course page now says "enrolled" (no form).
  // A write the app refused (its own answer, not an overload refusal) must not be recorded.
  let recorded = 0;
  let refusedButRecorded = 0;
  for (const w of writes) {
    const detail = await browser.fetch(`/learn/catalog/${w.course}`);
    const isRecorded = detail.status === 200 && !detail.body.includes('name="enrolId"');
    if (isRecorded && w.acknowledged) recorded++;
    if (isRecorded && w.refused) refusedButRecorded++;
  }
  const refusedByApp = writes.filter((w) => w.refused).length;
  let alive = true;
  try {
    process.kill(server.pid, 0);
  } catch {
    alive = false;
  }
  const serverLog = readFileSync(logFile, "utf8");
  const serverErrors = serverLog.split("\n").filter((l) => /\b(Error|FATAL|heap out of memory)\b/.test(l)).length;
  await server.stop();
  server = null;

  // --- Figures -------------------------------------------------------------------------------
  const codes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]),
  ) as Record<string, number>;
  const count = (test: (code: number) => boolean) =>
    Object.entries(codes).reduce((n, [code, c]) => n + (test(Number(code)) ? c : 0), 0);
  const ok = count((c) => c >= 200 && c < 300);
  const refused503 = count((c) => c === 503);
  const refused429 = count((c) => c === 429);
  const other = count((c) => !(c >= 200 && c < 300) && c !== 503 && c !== 429);
  const probeMs = probes.map((p) => p.ms).sort((a, b) => a - b);
  const probesOk = probes.filter((p) => p.status === 200).length;
  const writeAttempts = writes.reduce((n, w) => n + w.attempts, 0);
  const writeRefused = writes.reduce((n, w) => n + w.statuses.filter((s) => s === 503 || s === 429).length, 0);
  const writeOther = writes.reduce(
    (n, w) => n + w.statuses.filter((s) => !(s >= 300 && s < 400) && s !== 503 && s !== 429).length,
    0,
  );
  const acknowledged = writes.filter((w) => w.acknowledged).length;

  console.log(
    `\nOverload${args.proxy === "nginx" ? " through nginx" : ""}${args.cluster ? " (cluster primary + 1 worker)" : ""}: ${pagePath} as ada (1,000 enrolments), ${options.connections} connections × ${options.duration} s, autocannon on the same machine (${cpus().length} CPUs); load average ${loadavg()[0].toFixed(1)} after`,
  );
  console.log(
    `  answers              ${result.requests.total} in ${options.duration} s (${fixed(result.requests.average, 0)}/s on average)`,
  );
  console.log(
    `    2xx                ${ok} (${fixed(ok / options.duration)}/s), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (all answers, refusals included)`,
  );
  console.log(`    503 + Retry-After  ${refused503}`);
  console.log(`    429                ${refused429}`);
  console.log(`    other              ${other} ${other ? JSON.stringify(codes) : ""}`);
  console.log(`  errors               ${result.errors} (timeouts ${result.timeouts}, after ${options.timeout} s)`);
  console.log(
    `  cheap requests       ${probesOk}/${probes.length} build-asset requests on a new connection answered 200 (${[...new Set(probes.map((p) => p.status))].join(", ")}); p50 ${fixed(percentile(probeMs, 50), 0)} ms, p99 ${fixed(percentile(probeMs, 99), 0)} ms, max ${fixed(probeMs.at(-1) ?? NaN, 0)} ms`,
  );
  console.log(
    `  recovery             ${fixed(recoveryS)} s until My courses answered 200 in < 1 s three times in a row (${recoveryLog.slice(0, 12).join(" ")}${recoveryLog.length > 12 ? " …" : ""})`,
  );
  console.log(
    `  resident memory      idle ${fixed(mb(idleRss), 0)} MB, peak ${fixed(mb(peakRss), 0)} MB, 5 s after recovery ${fixed(mb(afterRss), 0)} MB (tsx and the node process it runs; the node process alone: ${fixed(mb(idleLargest), 0)}, ${fixed(mb(peakLargest), 0)}, ${fixed(mb(afterLargest), 0)} MB)`,
  );
  console.log(
    `  writes               ${writes.length} enrolments sent during the load: ${acknowledged} acknowledged and ${recorded} of them recorded; ${refusedByApp} refused by the app (${refusedByApp - refusedButRecorded} of them not recorded, as answered); ${writeAttempts} attempts, ${writeRefused} shed (503/429, retried after Retry-After), ${writeOther} other`,
  );
  if (otherRedirects.length)
    console.log(`    refused by the app: ${[...new Set(otherRedirects)].slice(0, 5).join("; ")}`);
  console.log(
    `  server               ${alive ? "still running" : "DIED"}; ${serverErrors} error lines in ${relative(ROOT, logFile)}`,
  );

  const checks = [
    {
      target: "the server keeps answering (refusals are answers), no crash",
      pass: alive && result.requests.total > 0 && other === 0,
    },
    { target: "cheap requests pass during the load", pass: probes.length > 0 && probesOk === probes.length },
    { target: `recovery ≤ ${TARGETS.recoveryS} s`, pass: recoveryS <= TARGETS.recoveryS },
    { target: `peak resident memory < ${TARGETS.peakRssMb} MB`, pass: mb(peakRss) < TARGETS.peakRssMb },
    {
      target: `memory returns near idle (≤ ${TARGETS.afterRssRatio} × idle)`,
      pass: afterRss <= TARGETS.afterRssRatio * idleRss,
    },
    {
      target: "no write lost: every enrolment answered (acknowledged or refused), as answered in the data",
      pass:
        acknowledged + refusedByApp === writes.length &&
        recorded === acknowledged &&
        refusedButRecorded === 0 &&
        writeOther === 0,
    },
  ];
  console.log("\nTargets");
  for (const c of checks) console.log(`  ${c.pass ? "PASS" : "FAIL"}  ${c.target}`);

  writeFileSync(
    join(RESULTS_DIR, "overload.json"),
    `${JSON.stringify(
      {
        startedAt: new Date().toISOString(),
        options,
        answers: { total: result.requests.total, ok, refused503, refused429, other, codes },
        errors: result.errors,
        timeouts: result.timeouts,
        probes: { count: probes.length, ok: probesOk, p50Ms: percentile(probeMs, 50), p99Ms: percentile(probeMs, 99) },
        recoveryS,
        rssMb: { idle: mb(idleRss), peak: mb(peakRss), after: mb(afterRss) },
        nodeRssMb: { idle: mb(idleLargest), peak: mb(peakLargest), after: mb(afterLargest) },
        writes: {
          sent: writes.length,
          acknowledged,
          recorded,
          attempts: writeAttempts,
          refused: writeRefused,
          other: writeOther,
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
  nginx?.kill("SIGTERM");
  nginx = null;
  (load as autocannon.Instance | null)?.stop();
  const s = server;
  server = null;
  if (s) await s.stop();
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void shutdown().finally(() => process.exit(130)));
}
main()
  .then((code) => (process.exitCode = code))
  .catch((error: unknown) => {
    console.error(`\n[overload] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    if (server) console.error(logTail(server.logFile, 15));
    process.exitCode = 1;
  })
  .finally(shutdown);
