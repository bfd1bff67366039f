/**
 * Two nodes behind nginx lose nothing when one dies or is restarted (decision 037), with
 * a cluster of their own (tests/nodes/cluster.ts: PostgreSQL, nginx with docs/nginx/learner-app.conf,
 * s3rver):
 *
 * 1. `kill -9` of node A during a load of writes — self-enrolments, chat posts with a file, SCORM
 *    commits carrying a score — sent by clients that resend a write (same command id, same sequence)
 *    when they get no answer: every write is committed once or refused, none lost, none twice; node
 *    B serves throughout.
 * 2. A rolling restart (SIGTERM A, start A, SIGTERM B, start B) under a load of reads and writes sent
 *    once each, never resent: every request is answered, none fails.
 * 3. The health endpoints and metrics, as a load balancer and Prometheus read them.
 *
 * Every count is printed (the note of issue 28 quotes them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, rmSync } from "node:fs";
import pg from "pg";
import { importJWK, SignJWT, type JWK } from "jose";
import { startCluster, PORTS, type Cluster } from "../nodes/cluster";
import { ObjectiveState } from "../../domain/vocabulary";
import { LMS_API_RESOURCE } from "../../api/runtime";
import { zipFolder } from "../../api/scorm/zip-folder";
import { contentKeyFromSessionSecret, signContentGrant } from "../../api/scorm/content-token";

const server = process.env.TEST_DATABASE_URL;
/** Ports of their own, beside the browser tests' cluster: 3530–3535. */
const ports = {
  A: PORTS.A + 10,
  B: PORTS.B + 10,
  balancer: PORTS.balancer + 10,
  metricsA: PORTS.metricsA + 10,
  metricsB: PORTS.metricsB + 10,
  s3: PORTS.s3 + 10,
} as typeof PORTS;

let cluster: Cluster;
let db: pg.Client;
let startup: { both: number };

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(text, values)).rows;
}

interface Learner {
  id: string;
  email: string;
  token: string;
  /** The onboarding course (its chat), anti-bribery's SCORM activity workflow. */
  chatCourse: string;
  scorm: { workflowId: string; activityWorkflowId: string };
}

const api = (path: string) => `${cluster.appUrl}/api/lms/v1${path}`;

/** An access token as the provider signs them, with the key both nodes found in the database. */
async function tokenFor(user: { id: string; email: string }): Promise<string> {
  const [row] = await sql<{ value: { current: JWK } }>(
    "select value from deployment_secrets where name = 'signing-keys'",
  );
  const key = row.value.current;
  return new SignJWT({ email: user.email })
    .setProtectedHeader({ alg: "RS256", kid: key.kid })
    .setIssuer(`${cluster.appUrl}/idp`)
    .setAudience(LMS_API_RESOURCE)
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime("2h")
    .sign(await importJWK(key, "RS256"));
}

/** A setup call, sent again while the node sheds load (503 + Retry-After on a busy test machine). */
async function setupFetch(url: string, init: RequestInit): Promise<Response> {
  for (let i = 0; ; i++) {
    const res = await fetch(url, init);
    if (res.status !== 503 || i >= 20) return res;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function newLearner(n: number): Promise<Learner> {
  const res = await setupFetch(`${cluster.appUrl}/api/test-support/v1/learners`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      firstName: "Load",
      lastName: `Learner ${n}`,
      enrolments: [
        { course: "onboarding", selfEnrolled: true },
        {
          course: "anti-bribery",
          assigned: { mandatory: true },
          attempts: [{ state: "inProgress", progress: 0, startedAgo: 0 }],
        },
      ],
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id, email } = (await res.json()) as { id: string; email: string };
  const token = await tokenFor({ id, email });
  const [chat] = await sql<{ id: string }>("select id from objectives where code = 'ON-100'");
  const [wf] = await sql<{ id: string; objective_id: string }>(
    `select w.id, a.objective_id from objective_workflows w
       join objective_workflow_aggregates a on a.id = w.aggregate_id
       join objectives o on o.id = a.objective_id
     where a.user_id = $1 and o.code = 'AB-101'`,
    [id],
  );
  const [part] = await sql<{ id: string }>(
    "select id from activity_parts where objective_id = $1 and parent_part_id is null",
    [wf.objective_id],
  );
  const started = await setupFetch(api("/start-activity-workflows"), {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Prefer: "respond-sync" },
    body: JSON.stringify({ objectiveWorkflowId: wf.id, activityPartIds: [part.id] }),
  });
  expect(started.status, await started.clone().text()).toBe(200);
  const body = (await started.json()) as { data: { activityWorkflows: { id: string }[] } };
  return {
    id,
    email,
    token,
    chatCourse: chat.id,
    scorm: { workflowId: wf.id, activityWorkflowId: body.data.activityWorkflows[0].id },
  };
}

/**
 * Signs in over plain HTTP as a browser without JavaScript would: the app's sign-in start, the
 * provider's form, the callback — every step round-robin through nginx. Returns the cookies.
 */
async function signInOverHttp(email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookies = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let url = `${cluster.appUrl}/oidc/login?redirectUrl=%2Flearn%2Fcourses`;
  let body: string | undefined;
  for (let step = 0; step < 25; step++) {
    const res = await fetch(url, {
      method: body ? "POST" : "GET",
      body,
      redirect: "manual",
      headers: {
        cookie: cookies(),
        ...(body ? { "content-type": "application/x-www-form-urlencoded", origin: cluster.appUrl } : {}),
      },
    });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(";")[0]!;
      const name = pair.slice(0, pair.indexOf("="));
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, pair.slice(pair.indexOf("=") + 1));
    }
    body = undefined;
    if (res.status >= 300 && res.status < 400) {
      await res.arrayBuffer();
      url = new URL(res.headers.get("location")!, url).href;
      continue;
    }
    const html = await res.text();
    if (new URL(url).pathname === "/learn/courses" && res.status === 200) return cookies();
    const form = /<form[^>]*method="post"[^>]*>[\s\S]*?<\/form>/i.exec(html)?.[0];
    if (!form) throw new Error(`no form at ${url} (${res.status})`);
    const action = /action="([^"]*)"/.exec(form)?.[1] ?? url;
    const fields = new URLSearchParams();
    for (const input of form.match(/<input[^>]*>/g) ?? []) {
      const name = /name="([^"]*)"/.exec(input)?.[1];
      if (!name) continue;
      const value = /value="([^"]*)"/.exec(input)?.[1] ?? "";
      fields.set(
        name,
        /mail|login/i.test(name) ? email : /password/i.test(name) ? password : value.replace(/&amp;/g, "&"),
      );
    }
    url = new URL(action.replace(/&amp;/g, "&"), url).href;
    body = fields.toString();
  }
  throw new Error("sign-in did not end on My courses");
}

type Kind = "enrolment" | "chat" | "scorm";
interface Write {
  kind: Kind;
  learner: Learner;
  /** The command id (enrolment, chat) or the SCORM commit's sequence. */
  id: string;
  sequence?: number;
  objectiveAccessId?: string;
  outcome?: "committed" | "refused" | "lost";
  status?: number;
  attempts: number;
}

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

function send(w: Write): Promise<Response> {
  const auth = { Authorization: `Bearer ${w.learner.token}`, Prefer: "respond-sync" };
  if (w.kind === "enrolment")
    return fetch(api("/create-self-enrollments"), {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ id: w.id, objectiveAccessId: w.objectiveAccessId }),
    });
  if (w.kind === "chat") {
    const form = new FormData();
    form.set("id", w.id);
    form.set("objectiveId", w.learner.chatCourse);
    form.set("channel", "chat");
    form.set("body", `load ${w.id}`);
    form.append("attachments", new File([PDF], "load.pdf", { type: "application/pdf" }));
    return fetch(api("/create-chat-messages"), { method: "POST", headers: auth, body: form });
  }
  const { workflowId, activityWorkflowId } = w.learner.scorm;
  return fetch(api(`/users/me/objective-workflows/${workflowId}/activity-workflows/${activityWorkflowId}`), {
    method: "PUT",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({
      scorm: {
        scoId: "quiz",
        sequence: w.sequence,
        cmi: {
          "cmi.core.lesson_location": `q${w.sequence}`,
          "cmi.core.score.raw": String(w.sequence),
          "cmi.core.lesson_status": "incomplete",
        },
      },
    }),
  });
}

/** Sends a write until it is answered: a 2xx commits, a 4xx refuses; no answer (or 5xx) is sent again. */
async function deliver(w: Write, maxAttempts = 20): Promise<void> {
  while (w.attempts < maxAttempts) {
    w.attempts++;
    try {
      const res = await send(w);
      w.status = res.status;
      await res.arrayBuffer();
      if (res.status < 400) return void (w.outcome = "committed");
      if (res.status < 500 && res.status !== 429) return void (w.outcome = "refused");
    } catch {
      // no answer: the node died under it, or the proxy had nowhere to send it
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  w.outcome = "lost";
}

beforeAll(async () => {
  if (!server) return;
  const started = Date.now();
  cluster = await startCluster({ databaseServer: server, ports });
  startup = { both: Date.now() - started };
  db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
}, 600_000);

afterAll(async () => {
  await db?.end();
  await cluster?.stop();
}, 120_000);

describe.skipIf(!server)("two nodes behind nginx", () => {
  it("started at the same moment on an empty database and an empty data folder: one set of secrets, nothing in the folder", async () => {
    expect(await sql("select name from deployment_secrets order by name")).toHaveLength(4);
    expect(readFileSync(cluster.nodes.A.log, "utf8") + readFileSync(cluster.nodes.B.log, "utf8")).not.toMatch(
      /secrets\.json/,
    );
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(cluster.dataDir).filter((f) => f === "secrets.json" || f === "storage")).toEqual([]);
    console.log(`[nodes] both nodes ready ${startup.both} ms after they were started together`);
  });

  it("health endpoints as a load balancer reads them, metrics as Prometheus does, never through the proxy", async () => {
    for (const node of [cluster.nodes.A, cluster.nodes.B]) {
      const page = await fetch(`${cluster.appUrl}/learn/open-catalog`, { headers: { "x-node": node.name } });
      expect(page.status).toBe(200);
      await page.text();
      const live = await fetch(`http://127.0.0.1:${node.port}/healthz`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: "ok" });
      const ready = await fetch(`http://127.0.0.1:${node.port}/readyz`, { method: "HEAD" });
      expect(ready.status).toBe(200);
      const metrics = await fetch(`http://127.0.0.1:${node.metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await metrics.text();
      const rss = Number(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1]);
      console.log(`[nodes] node ${node.name}: resident memory ${Math.round(rss / 2 ** 20)} MiB after start-up`);
      for (const name of [
        "http_requests_total",
        "http_request_duration_seconds_bucket",
        "nodejs_eventloop_lag_p99_seconds",
        'db_pool_connections{state="total"}',
        'jobs_pending{job="certificate_files"}',
        "http_requests_in_flight",
      ])
        expect(text, name).toContain(name);
    }
    // The learner-facing port (and so the proxy) has no /metrics.
    expect((await fetch(`${cluster.appUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${ports.A}/metrics`)).status).toBe(404);
  });

  it("kill -9 of node A during a load of writes: every write committed once or refused, none lost, none twice", async () => {
    const learners = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => newLearner(n)));
    const accesses = await sql<{ id: string }>(
      `select a.id from objective_accesses a join objectives o on o.id = a.objective_id
       where a.user_id is null and o.allow_self_enrollment and (o.in_catalog or o.is_public)
         and o.state = $1 and o.code not in ('ON-100', 'AB-101')
       order by o.code limit 4`,
      [ObjectiveState.ready],
    );
    expect(accesses).toHaveLength(4);
    const writes: Write[] = [];
    const perLearner = learners.map((learner) => {
      const mine: Write[] = [];
      for (let i = 0; i < 8; i++) {
        mine.push({ kind: "chat", learner, id: crypto.randomUUID(), attempts: 0 });
        mine.push({ kind: "scorm", learner, id: `${learner.id}:${i + 1}`, sequence: i + 1, attempts: 0 });
        if (i < 4)
          mine.push({
            kind: "enrolment",
            learner,
            id: crypto.randomUUID(),
            objectiveAccessId: accesses[i].id,
            attempts: 0,
          });
      }
      writes.push(...mine);
      return mine;
    });
    let done = 0;
    let killedAt = -1;
    const killAfter = Math.floor(writes.length * 0.3);
    let killed: Promise<number | null> | null = null;
    const clients = perLearner.map(async (mine) => {
      for (const w of mine) {
        await deliver(w);
        if (++done === killAfter) {
          killedAt = done;
          killed = cluster.signal("A", "SIGKILL");
        }
      }
    });
    // B keeps serving while A is gone: reads straight to B during the load.
    let bServed = 0;
    let bFailed = 0;
    const watch = (async () => {
      while (done < writes.length) {
        const res = await fetch(`http://127.0.0.1:${ports.B}/readyz`).catch(() => null);
        if (res?.status === 200) bServed++;
        else bFailed++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await Promise.all(clients);
    await watch;
    expect(killed, "node A was killed during the load").not.toBeNull();
    await killed;

    const tally = (kind: Kind) => {
      const mine = writes.filter((w) => w.kind === kind);
      return {
        kind,
        writes: mine.length,
        committed: mine.filter((w) => w.outcome === "committed").length,
        refused: mine.filter((w) => w.outcome === "refused").length,
        lost: mine.filter((w) => w.outcome === "lost").length,
        resent: mine.filter((w) => w.attempts > 1).length,
      };
    };
    const tallies = (["enrolment", "chat", "scorm"] as const).map(tally);
    console.log(`[nodes] kill -9 of A after ${killedAt} of ${writes.length} writes:`);
    for (const t of tallies) console.log(`[nodes]   ${JSON.stringify(t)}`);
    console.log(`[nodes]   B's readiness during the load: ${bServed} ready, ${bFailed} not`);
    expect(writes.filter((w) => w.outcome === "lost")).toEqual([]);
    expect(bFailed).toBe(0);

    // None twice, none lost: what the database holds is what was answered.
    const chat = writes.filter((w) => w.kind === "chat");
    const messages = await sql<{ id: string; n: number; files: number }>(
      `select m.id, count(*)::int as n,
              (select count(*)::int from chat_attachments f where f.message_id = m.id) as files
         from chat_messages m where m.id = any($1::uuid[]) group by m.id`,
      [chat.map((w) => w.id)],
    );
    const byId = new Map(messages.map((m) => [m.id, m]));
    for (const w of chat) {
      if (w.outcome === "committed") expect(byId.get(w.id), w.id).toMatchObject({ n: 1, files: 1 });
      else expect(byId.has(w.id), w.id).toBe(false);
    }
    const commands = await sql<{ id: string; n: number }>(
      "select id, count(*)::int as n from commands where id = any($1::uuid[]) group by id",
      [writes.filter((w) => w.kind !== "scorm").map((w) => w.id)],
    );
    const commandCount = new Map(commands.map((c) => [c.id, c.n]));
    for (const w of writes.filter((x) => x.kind !== "scorm" && x.outcome === "committed"))
      expect(commandCount.get(w.id), `${w.kind} ${w.id}`).toBe(1);
    const enrolments = await sql<{ user_id: string; n: number }>(
      `select a.user_id, count(*)::int as n from objective_workflow_aggregates a
         join objective_accesses x on x.objective_id = a.objective_id
       where x.id = any($1::uuid[]) and a.user_id = any($2::uuid[]) group by a.user_id, a.objective_id`,
      [accesses.map((a) => a.id), learners.map((l) => l.id)],
    );
    expect(enrolments.every((e) => e.n === 1)).toBe(true);
    expect(enrolments).toHaveLength(writes.filter((w) => w.kind === "enrolment" && w.outcome === "committed").length);
    // Each learner's SCORM attempt holds its last committed commit: sequences are applied in order, once.
    for (const learner of learners) {
      const last = Math.max(
        0,
        ...writes
          .filter((w) => w.kind === "scorm" && w.learner === learner && w.outcome === "committed")
          .map((w) => w.sequence!),
      );
      const [row] = await sql<{ sequence: number; cmi: Record<string, string> }>(
        "select sequence, cmi from scorm_attempts where activity_workflow_id = $1",
        [learner.scorm.activityWorkflowId],
      );
      expect(row?.sequence ?? 0, learner.email).toBe(last);
      expect(row?.cmi["cmi.core.score.raw"], learner.email).toBe(String(last));
    }
    // Every committed chat file is in the bucket (an orphan of a write A died in may be there too).
    const keys = new Set(await cluster.s3.keys("chat/"));
    const files = await sql<{ path: string }>("select path from chat_attachments where message_id = any($1::uuid[])", [
      chat.map((w) => w.id),
    ]);
    for (const f of files) expect(keys.has(f.path), f.path).toBe(true);
    console.log(`[nodes]   chat files in the bucket: ${files.length} committed, ${keys.size - files.length} orphaned`);

    const { startupMs } = await cluster.start("A");
    console.log(`[nodes] node A ready again ${startupMs} ms after its restart`);
  }, 300_000);

  it("SIGTERM ends an open event stream with a retry hint; the reconnect is served by the other node", async () => {
    const res = await setupFetch(`${cluster.appUrl}/api/test-support/v1/learners`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ enrolments: [{ course: "onboarding", selfEnrolled: true }] }),
    });
    const learner = (await res.json()) as { email: string; password: string };
    const cookie = await signInOverHttp(learner.email, learner.password);
    const [course] = await sql<{ id: string }>("select id from objectives where code = 'ON-100'");
    const path = `/learn/courses/${course.id}/chat-events?channel=chat`;
    const stream = await fetch(`${cluster.appUrl}${path}`, { headers: { cookie, "x-node": "A" } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("x-served-by")).toBe("A");
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("retry: 3000")) text += decoder.decode((await reader.read()).value);
    const exited = cluster.signal("A", "SIGTERM");
    // The stream ends (it does not hang until the drain's timeout), its last words a retry hint.
    const started = Date.now();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    const hint = /retry: (\d+)\n\n$/.exec(text);
    expect(hint, text).not.toBeNull();
    expect(Number(hint![1])).toBeGreaterThanOrEqual(500);
    expect(Number(hint![1])).toBeLessThanOrEqual(2500);
    expect(await exited).toBe(0);
    // The browser's reconnect (no node chosen) reaches B, which serves the same session.
    const again = await fetch(`${cluster.appUrl}${path}`, { headers: { cookie, "Last-Event-ID": "0" } });
    expect(again.status).toBe(200);
    expect(again.headers.get("x-served-by")).toBe("B");
    await again.body!.cancel();
    const log = readFileSync(cluster.nodes.A.log, "utf8");
    expect(log).toMatch(/"msg":"drain: started, readiness says not ready"/);
    expect(log).toMatch(/"msg":"drain: done"/);
    await cluster.start("A");
  }, 300_000);

  it("a SCORM package uploaded through nginx to node A is served by node B from the bucket", async () => {
    const [admin] = await sql<{ id: string; email: string }>(
      "select id, email from users where email = 'admin@example.com'",
    );
    const token = await tokenFor(admin);
    const zip = zipFolder("demo/data/scorm/gifts-quiz-12");
    const body = readFileSync(zip);
    rmSync(zip, { force: true });
    const upload = await setupFetch(`${cluster.appUrl}/api/scorm/v1/packages?course=IS-026`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/zip", "x-node": "A" },
      body,
    });
    expect(upload.headers.get("x-served-by")).toBe("A");
    expect(upload.status, await upload.clone().text()).toBe(201);
    const imported = (await upload.json()) as { id: string; activityId: string };
    expect(await cluster.s3.keys(`scorm/${imported.id}/`)).toContain(`scorm/${imported.id}/imsmanifest.xml`);
    // A learner whose attempt has the activity open reads it through B: whole, by range, HEAD.
    const made = await setupFetch(`${cluster.appUrl}/api/test-support/v1/learners`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        enrolments: [
          {
            course: "info-security",
            assigned: { mandatory: true },
            attempts: [{ state: "inProgress", progress: 0, startedAgo: 0 }],
          },
        ],
      }),
    });
    const learner = (await made.json()) as { id: string; email: string };
    // The content origin reads the files under the learner's grant (decision 040), signed with the
    // deployment's key (derived from the session secret both nodes share), with no session.
    const [secret] = await sql<{ value: string }>("select value from deployment_secrets where name = 'session-secret'");
    const grant = signContentGrant(Buffer.from(contentKeyFromSessionSecret(secret.value), "base64url"), {
      packageId: imported.id,
      activityId: imported.activityId,
      userId: learner.id,
      expires: Math.floor(Date.now() / 1000) + 3600,
    });
    const path = `${cluster.appUrl}/api/lms-storage/v1/scorm-content/${grant}/imsmanifest.xml`;
    const headers = { "x-node": "B" };
    const whole = await fetch(path, { headers });
    const text = await whole.text();
    expect([whole.status, whole.headers.get("x-served-by")]).toEqual([200, "B"]);
    const part = await fetch(path, { headers: { ...headers, Range: "bytes=0-4" } });
    expect([part.status, await part.text()]).toEqual([206, text.slice(0, 5)]);
    const head = await fetch(path, { headers, method: "HEAD" });
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
  }, 120_000);

  it("a rolling restart (SIGTERM A, start A, SIGTERM B, start B) under load loses no request", async () => {
    const learners = await Promise.all([11, 12, 13, 14, 15, 16].map((n) => newLearner(n)));
    let running = true;
    const counts = {
      sent: 0,
      ok: 0,
      lost: 0,
      byStatus: {} as Record<string, number>,
      byNode: {} as Record<string, number>,
    };
    const lost: string[] = [];
    const one = async (learner: Learner, i: number, sequence: number) => {
      // A read of the API, a page, a write: a SCORM commit, or every sixth time a chat post with a file.
      const kind = ["api read", "page", i % 6 === 2 ? "chat post" : "scorm commit"][i % 3]!;
      counts.sent++;
      try {
        const res =
          kind === "api read"
            ? await fetch(api(`/users/me/objectives/${learner.chatCourse}/channels/chat/messages?limit=5`), {
                headers: { Authorization: `Bearer ${learner.token}` },
              })
            : kind === "page"
              ? await fetch(`${cluster.appUrl}/learn/open-catalog`)
              : kind === "chat post"
                ? await send({ kind: "chat", learner, id: crypto.randomUUID(), attempts: 0 })
                : await send({ kind: "scorm", learner, id: "", sequence, attempts: 0 });
        await res.arrayBuffer();
        const node = res.headers.get("x-served-by") ?? "?";
        counts.byNode[node] = (counts.byNode[node] ?? 0) + 1;
        counts.byStatus[res.status] = (counts.byStatus[res.status] ?? 0) + 1;
        if (res.status < 400) counts.ok++;
        // The proxy's own failures (no node answered) are lost requests; any answer of a node is not.
        if (res.status === 502 || res.status === 504 || !/^[AB]$/.test(node)) {
          counts.lost++;
          lost.push(`${kind}: ${res.status} from ${node}`);
        }
      } catch (error) {
        counts.lost++;
        lost.push(`${kind}: no answer (${(error as Error).message})`);
      }
    };
    const clients = learners.map(async (learner) => {
      let sequence = 0;
      for (let i = 0; running; i++) {
        await one(learner, i, i % 3 === 2 ? ++sequence : sequence);
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    const steps: string[] = [];
    const restart = async (name: "A" | "B") => {
      const t0 = Date.now();
      const code = await cluster.signal(name, "SIGTERM");
      const drained = Date.now() - t0;
      const { startupMs } = await cluster.start(name);
      // As an operator does: the next node stops once the proxy sends traffic to this one again.
      const seen = counts.byNode[name] ?? 0;
      const t1 = Date.now();
      while ((counts.byNode[name] ?? 0) <= seen + 5 && Date.now() - t1 < 30_000)
        await new Promise((r) => setTimeout(r, 100));
      steps.push(
        `${name}: SIGTERM → exited (${code}) in ${drained} ms; started again, ready in ${startupMs} ms, back in the proxy's rotation ${Date.now() - t1} ms later`,
      );
      expect(code).toBe(0);
    };
    await new Promise((r) => setTimeout(r, 2_000));
    await restart("A");
    await restart("B");
    await new Promise((r) => setTimeout(r, 2_000));
    running = false;
    await Promise.all(clients);
    console.log(`[nodes] rolling restart under load: ${JSON.stringify(counts)}`);
    for (const s of steps) console.log(`[nodes]   ${s}`);
    if (lost.length > 0)
      console.log(
        readFileSync(`${cluster.dataDir}/nginx/error.log`, "utf8")
          .split("\n")
          .filter((l) => !l.includes("no live upstreams") && !l.includes("client closed") && !l.includes("keepalive"))
          .slice(-30)
          .join("\n"),
      );
    expect(lost).toEqual([]);
    // Every request was answered by a node: served, or refused before any work (the overload control's
    // 503 on a busy machine, a write limit's 429) — none in error.
    expect(Object.keys(counts.byStatus).filter((s) => !["200", "429", "503"].includes(s))).toEqual([]);
    expect(counts.sent).toBeGreaterThan(100);
    for (const name of ["A", "B"] as const)
      expect(readFileSync(cluster.nodes[name].log, "utf8")).toMatch(/"msg":"learner app listening"/);
  }, 300_000);
});
