/**
 * Operations of a node (decision 037): health endpoints, the drain, metrics, request ids —
 * each on a real HTTP server on a free loopback port.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Drain } from "./drain";
import { healthEndpoints } from "./health";
import { createMetrics, routeLabel } from "./metrics";
import { currentRequestId, inRequest, log, requestIdFrom, withRequestIdHeader } from "../../app/services/logger.server";
import { maskedPath, refusalLineBudget } from "./operations";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function listen(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((ok) =>
    server.listen(0, "127.0.0.1", () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

describe("health endpoints", () => {
  it("liveness always; readiness by the database and the drain; HEAD; nothing else on those paths", async () => {
    const reason: string | null = null;
    let draining = false;
    let checks = 0;
    const health = healthEndpoints({
      database: async () => {
        checks++;
        return reason;
      },
      draining: () => draining,
    });
    const base = await listen(
      createServer((req, res) => {
        if (!health(req, res)) res.end("app");
      }),
    );
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, ready.headers.get("cache-control")]).toEqual([200, "no-store"]);
    // Checked at most once a second, however often it is asked.
    await Promise.all([1, 2, 3, 4].map(() => fetch(`${base}/readyz`)));
    expect(checks).toBe(1);
    expect((await fetch(`${base}/readyz`, { method: "POST" })).status).toBe(405);
    expect(await (await fetch(`${base}/other`)).text()).toBe("app");
    draining = true;
    const drainingAnswer = await fetch(`${base}/readyz`);
    expect(drainingAnswer.status).toBe(503);
    expect(await drainingAnswer.json()).toEqual({ status: "not ready", reason: "draining" });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it("a database that fails or lacks a migration is not ready, with the reason", async () => {
    let fail: "throw" | "missing" = "throw";
    const health = healthEndpoints({
      database: async () => {
        if (fail === "throw") throw new Error("connection refused");
        return "migrations: 0024_deployment_secrets is not applied";
      },
      draining: () => false,
    });
    const base = await listen(createServer((req, res) => void health(req, res)));
    const down = await fetch(`${base}/readyz`);
    expect([down.status, await down.json()]).toEqual([
      503,
      { status: "not ready", reason: "database: connection refused" },
    ]);
    fail = "missing";
    await new Promise((r) => setTimeout(r, 1_050));
    expect((await (await fetch(`${base}/readyz`)).json()).reason).toMatch(/^migrations: /);
  });
});

describe("the drain", () => {
  it("stops accepting, lets the request in flight finish with Connection: close, aborts event streams, then cleans up", async () => {
    const drain = new Drain({ delayMs: 0, timeoutMs: 5_000 });
    let release = () => {};
    const server = createServer((req, res) => {
      drain.track(req, res);
      if (req.url === "/slow") {
        release = () => res.end("finished");
        return;
      }
      res.end("quick");
    });
    const base = await listen(server);
    const slow = fetch(`${base}/slow`);
    await new Promise((r) => setTimeout(r, 100));
    expect(drain.inFlight).toBe(1);
    let cleaned = false;
    const done = drain.run(server, async () => void (cleaned = true));
    expect(drain.draining).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(drain.shutdown.aborted).toBe(true);
    // New connections are refused; the request in flight is still being answered.
    await expect(fetch(`${base}/quick`)).rejects.toThrow();
    expect(cleaned).toBe(false);
    release();
    const answer = await slow;
    expect(await answer.text()).toBe("finished");
    expect(answer.headers.get("connection")).toBe("close");
    await done;
    expect(cleaned).toBe(true);
  });

  it("cuts what is still in flight after the timeout", async () => {
    const drain = new Drain({ delayMs: 0, timeoutMs: 200 });
    const server = createServer((req, res) => drain.track(req, res)); // never answers
    const base = await listen(server);
    const hanging = fetch(`${base}/`).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await drain.run(server, async () => {});
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await hanging).toBeInstanceOf(Error);
  });
});

describe("metrics", () => {
  it("a route label is the template the answer names, never the path; none or a strange one is (unmatched)", () => {
    const answer = (template?: unknown) => ({ getHeader: () => template as string | undefined });
    expect(routeLabel(answer("/learn/courses/:id/view/content"))).toBe("/learn/courses/:id/view/content");
    expect(routeLabel(answer())).toBe("(unmatched)");
    expect(routeLabel(answer(""))).toBe("(unmatched)");
    expect(routeLabel(answer("x".repeat(201)))).toBe("(unmatched)");
  });

  it("a flood of random paths to one route adds no series", async () => {
    const metrics = createMetrics({ draining: () => false, inFlight: () => 0 });
    const base = await listen(
      createServer((req, res) => {
        metrics.track(req, res);
        // As the content origin names its answers: a package's files under their grant.
        if (req.url!.startsWith("/scorm/")) res.setHeader("X-Route-Template", "/scorm/:grant/*");
        res.writeHead(req.url!.startsWith("/scorm/") ? 403 : 404);
        res.end();
      }),
    );
    const word = () =>
      Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
    const series = async () => (await metrics.registry.getSingleMetric("http_requests_total")!.get()).values.length;
    await (await fetch(`${base}/scorm/${word()}/x`)).text();
    await (await fetch(`${base}/idp/interaction/${word()}`)).text();
    const before = await series();
    for (let i = 0; i < 300; i++) {
      await (await fetch(`${base}/scorm/${word()}/x`)).text();
      await (await fetch(`${base}/idp/interaction/${word()}`)).text();
    }
    expect(await series()).toBe(before);
    expect(before).toBe(2);
  });

  it("counts and times answers and refusals, and serves /metrics on its own port only", async () => {
    const metrics = createMetrics({
      draining: () => false,
      inFlight: () => 0,
      pool: () => ({ total: 3, idle: 2, waiting: 0 }),
      pendingJobs: async () => ({ certificate_files: 4 }),
    });
    const base = await listen(
      createServer((req, res) => {
        metrics.track(req, res);
        res.setHeader("X-Route-Template", req.url!);
        if (req.url === "/busy") res.writeHead(503, { "Retry-After": "2" });
        else if (req.url === "/big") res.writeHead(413);
        res.end();
      }),
    );
    for (const path of ["/learn/courses", "/learn/courses", "/busy", "/big"])
      await (await fetch(`${base}${path}`)).text();
    // Port 0: the system picks a free one (a random one once collided with another test's port).
    const server = metrics.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as AddressInfo).port;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toContain('http_requests_total{method="GET",route="/learn/courses",status="200"} 2');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/learn/courses"} 2');
    expect(text).toContain('http_requests_refused_total{reason="overload"} 1');
    expect(text).toContain('http_requests_refused_total{reason="body_too_large"} 1');
    expect(text).toContain('db_pool_connections{state="idle"} 2');
    expect(text).toContain('jobs_pending{job="certificate_files"} 4');
    expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});

describe("the request log's path", () => {
  it.each([
    ["/learn/courses", "/learn/courses"],
    // A calendar feed's token (43 characters) and a content grant (96): never written whole.
    [`/api/lms/v1/calendar-feeds/${"A".repeat(43)}.ics`, "/api/lms/v1/calendar-feeds/AAAA…(47)"],
    [`/scorm/${"Ab9-_x".repeat(16)}/shared/launch.html`, "/scorm/Ab9-…(96)/shared/launch.html"],
    ["/learn/courses/123456789012345", "/learn/courses/123456789012345"], // 15 characters: kept
  ])("%s → %s", (path, logged) => {
    expect(maskedPath(path)).toBe(logged);
  });
});

describe("request ids", () => {
  it("a proxy's sane id is kept, anything else replaced", () => {
    expect(requestIdFrom("a1b2-c3.d4:e5_f6")).toBe("a1b2-c3.d4:e5_f6");
    for (const bad of [undefined, "", "x".repeat(129), "has space", "new\nline", "<script>"])
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("every line a request logs carries its id, through awaits; API calls carry it as a header", async () => {
    const seen: (string | undefined)[] = [];
    const transport = withRequestIdHeader((r) => {
      seen.push(r.headers.get("x-request-id") ?? undefined);
      return new Response("ok");
    });
    await inRequest("req-42", async () => {
      await new Promise((r) => setTimeout(r, 5));
      expect(currentRequestId()).toBe("req-42");
      expect(log().bindings()).toMatchObject({ reqId: "req-42" });
      await transport(new Request("http://api.test/x"));
      await transport(new Request("http://api.test/y", { headers: { "x-request-id": "given" } }));
    });
    expect(seen).toEqual(["req-42", "given"]);
    expect(currentRequestId()).toBeUndefined();
    expect(log().bindings().reqId).toBeUndefined();
  });
});

describe("lines of 503 answers under a storm (decision 038, addendum 12)", () => {
  it("writes the first of each second one by one, and one line a second later with how many were left out", () => {
    vi.useFakeTimers();
    try {
      let t = 0;
      const summaries: number[] = [];
      const line = refusalLineBudget(
        3,
        (n) => summaries.push(n),
        () => t,
      );
      const second = (count: number) => Array.from({ length: count }, () => line()).filter(Boolean).length;
      expect(second(10)).toBe(3);
      expect(summaries).toEqual([]);
      vi.advanceTimersByTime(1_000);
      expect(summaries).toEqual([7]);
      t += 1_000;
      expect(second(2)).toBe(2); // a quiet second: every answer has its line, nothing to sum up
      vi.advanceTimersByTime(2_000);
      expect(summaries).toEqual([7]);
      t += 1_000;
      expect(second(5)).toBe(3);
      vi.advanceTimersByTime(1_000);
      expect(summaries).toEqual([7, 2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
