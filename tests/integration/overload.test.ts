import { afterEach, describe, expect, it } from "vitest";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AdmissionControl,
  admissionGate,
  createOverloadResponder,
  loadOverloadTexts,
  type AdmissionOptions,
} from "../../server/overload/admission";

/**
 * Issue 27 item 1 (decision 038): a real HTTP server with the front's gate wired as server.ts wires it,
 * and a page that takes `pageMs` to answer (the database, the API). A burst the server can work off
 * within the wait limit is queued and served, none refused; a longer one is served at capacity and the
 * rest refused with 503 + Retry-After in the caller's language after at most the wait limit; build
 * assets pass; pages pass again as soon as the load is gone.
 */
let server: Server | null = null;
let control: AdmissionControl | null = null;
afterEach(async () => {
  control?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function start(options: Partial<AdmissionOptions> & { pageMs?: number }) {
  control = new AdmissionControl({
    maxWaitMs: 1_000,
    maxQueue: 1_000,
    minConcurrency: 4,
    maxConcurrency: 4,
    retryAfterSeconds: 2,
    ...options,
  });
  const gate = admissionGate(control, createOverloadResponder(loadOverloadTexts("locales"), 2));
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (gate(req, res, handle)) return;
    if (req.url?.startsWith("/learn/assets/")) {
      res.writeHead(200, { "Content-Type": "text/javascript" }).end("export {};");
      return;
    }
    setTimeout(
      () => res.writeHead(200, { "Content-Type": "text/html" }).end("<h1>My courses</h1>"),
      options.pageMs ?? 50,
    );
  };
  server = createServer(handle);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { port: (server!.address() as AddressInfo).port, control };
}

function get(port: number, path: string, headers: Record<string, string> = {}) {
  const sent = performance.now();
  return new Promise<{
    status: number;
    ms: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - sent, headers: res.headers, body }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("overload control by waiting time (issue 27 item 1)", () => {
  it("queues a burst it can serve within the wait limit: every request answered 200, none refused", async () => {
    // 40 requests, 4 at a time, 50 ms each: the last waits about 500 ms, under the 1 s limit.
    const { port, control } = await start({ pageMs: 50 });
    const burst = await Promise.all(Array.from({ length: 40 }, () => get(port, "/learn/courses")));
    expect(burst.map((r) => r.status)).toEqual(Array(40).fill(200));
    expect(control.stats()).toMatchObject({ refused: 0, started: 40, inProgress: 0, waiting: 0 });
    expect(control.stats().queued).toBeGreaterThan(30);
  });

  it("beyond it, serves at capacity and refuses the rest after the wait limit with 503 + Retry-After, in the caller's language, then recovers", async () => {
    // 60 requests, 4 at a time, 100 ms each, 300 ms wait limit: about 4 × (1 + 300/100) are served.
    const { port, control } = await start({ pageMs: 100, maxWaitMs: 300 });
    const burst = await Promise.all(
      Array.from({ length: 60 }, () => get(port, "/learn/courses", { "Accept-Language": "fr-FR,fr;q=0.9" })),
    );
    const ok = burst.filter((r) => r.status === 200);
    const refused = burst.filter((r) => r.status === 503);
    expect(ok.length + refused.length).toBe(60);
    expect(ok.length).toBeGreaterThanOrEqual(12);
    expect(refused.length).toBeGreaterThan(30);
    for (const r of refused) {
      expect(r.headers["retry-after"]).toBe("2");
      expect(r.headers["cache-control"]).toBe("no-store");
      expect(r.body).toContain('lang="fr"');
      expect(r.body).toContain("Service surchargé");
      // Refused once it had waited the limit, not after it was served, nor held longer.
      expect(r.ms).toBeLessThan(300 + 500);
    }
    // Served ones waited at most the limit too.
    expect(Math.max(...ok.map((r) => r.ms))).toBeLessThan(300 + 100 + 500);
    expect(control.stats()).toMatchObject({ inProgress: 0, waiting: 0 });
    expect((await get(port, "/learn/courses")).status).toBe(200);
  });

  it("serves build assets at once while pages wait", async () => {
    const { port } = await start({ pageMs: 200, minConcurrency: 1, maxConcurrency: 1 });
    const pages = Array.from({ length: 5 }, () => get(port, "/learn/courses"));
    const asset = await get(port, "/learn/assets/root-abc.js");
    expect(asset.status).toBe(200);
    expect(asset.ms).toBeLessThan(150);
    await Promise.all(pages);
  });

  it("takes a request whose client left off the queue, so it is never started", async () => {
    const { port, control } = await start({ pageMs: 200, minConcurrency: 1, maxConcurrency: 1 });
    const first = get(port, "/learn/courses");
    await new Promise((r) => setTimeout(r, 20));
    const gone = request({ host: "127.0.0.1", port, path: "/learn/courses", agent: false });
    gone.on("error", () => {});
    gone.end();
    await new Promise((r) => setTimeout(r, 50));
    expect(control.stats().waiting).toBe(1);
    gone.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(control.stats().waiting).toBe(0);
    expect((await first).status).toBe(200);
    expect(control.stats().started).toBe(1);
  });

  it("drops the connection after refusing a request with a body it did not read", async () => {
    const { port } = await start({ pageMs: 300, minConcurrency: 1, maxConcurrency: 1, maxWaitMs: 50 });
    const first = get(port, "/learn/courses");
    const refused = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/learn/catalog/x",
          method: "POST",
          agent: false,
          headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
        },
      );
      req.on("error", reject);
      req.end("intent=enrol");
    });
    expect(refused).toEqual({ status: 503, connection: "close" });
    expect((await first).status).toBe(200);
  });
});
