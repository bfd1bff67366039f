/**
 * The database's and the storage's probes (decision 053): one check a second whoever asks, a line
 * per change of state, and what readiness, the metrics and the pages make of them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DependencyProbe } from "./dependencies";
import { healthEndpoints } from "./health";
import { createMetrics } from "./metrics";
import { unavailableResponse, whileAvailable } from "../http/unavailable";

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

function fakeProbe(name: "database" | "storage") {
  let t = 0;
  let down: Error | null = null;
  let checks = 0;
  const lines: { level: string; msg: string; fields: object }[] = [];
  const probe = new DependencyProbe(
    name,
    async () => {
      checks++;
      if (down) throw down;
    },
    {
      now: () => t,
      log: {
        warn: (fields, msg) => void lines.push({ level: "warn", msg, fields }),
        info: (fields, msg) => void lines.push({ level: "info", msg, fields }),
      },
    },
  );
  return {
    probe,
    lines,
    checks: () => checks,
    advance: (ms: number) => (t += ms),
    fail: (error: Error | null) => (down = error),
  };
}

describe("DependencyProbe", () => {
  it("checks at most once a second and logs each change of state once", async () => {
    const p = fakeProbe("database");
    expect(await p.probe.status()).toBeNull();
    await Promise.all([p.probe.status(), p.probe.status()]);
    expect(p.checks()).toBe(1);
    p.fail(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
    p.advance(1_000);
    expect(await p.probe.status()).toBe("connect ECONNREFUSED 127.0.0.1:5432");
    expect(p.probe.knownDown()).toBe(true);
    for (let i = 0; i < 5; i++) {
      p.advance(1_000);
      await p.probe.status();
    }
    p.fail(null);
    p.advance(1_000);
    expect(await p.probe.status()).toBeNull();
    expect(p.probe.knownDown()).toBe(false);
    expect(p.lines.map((l) => [l.level, l.msg])).toEqual([
      ["warn", "database: unreachable"],
      ["info", "database: reachable again after 6.0 s"],
    ]);
  });

  it("a check that hangs is down", async () => {
    const probe = new DependencyProbe("storage", () => new Promise(() => {}), {
      timeoutMs: 20,
      log: { warn: () => {}, info: () => {} },
    });
    expect(await probe.status()).toBe("no answer within 20 ms");
  });
});

describe("readiness with the storage", () => {
  it("reports the bucket in every answer; gates only when asked to", async () => {
    const storageDown = async () => "unreachable: ECONNREFUSED";
    const report = healthEndpoints({
      database: async () => null,
      draining: () => false,
      storage: { status: storageDown, gates: false },
    });
    const gate = healthEndpoints({
      database: async () => null,
      draining: () => false,
      storage: { status: storageDown, gates: true },
    });
    const a = await listen(createServer((req, res) => void report(req, res)));
    const b = await listen(createServer((req, res) => void gate(req, res)));
    const reported = await fetch(`${a}/readyz`);
    expect([reported.status, await reported.json()]).toEqual([
      200,
      { status: "ready", storage: "unreachable: ECONNREFUSED" },
    ]);
    const gated = await fetch(`${b}/readyz`);
    expect([gated.status, await gated.json()]).toEqual([
      503,
      { status: "not ready", reason: "storage: unreachable: ECONNREFUSED", storage: "unreachable: ECONNREFUSED" },
    ]);
  });
});

describe("metrics", () => {
  it("db_up and storage_up; a 503 for an outage is counted apart from overload refusals", async () => {
    const db = fakeProbe("database");
    const storage = fakeProbe("storage");
    storage.fail(new Error("no such bucket"));
    const metrics = createMetrics({
      draining: () => false,
      inFlight: () => 0,
      dependencies: [db.probe, storage.probe],
    });
    const base = await listen(
      createServer((req, res) => {
        metrics.track(req, res);
        if (req.url === "/down") res.writeHead(503, { "Retry-After": "5", "X-Unavailable": "database" });
        else if (req.url === "/busy") res.writeHead(503, { "Retry-After": "2" });
        res.end();
      }),
    );
    for (const path of ["/down", "/down", "/busy"]) await (await fetch(`${base}${path}`)).text();
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^db_up 1$/m);
    expect(text).toMatch(/^storage_up 0$/m);
    expect(text).toContain('http_requests_unavailable_total{dependency="database"} 2');
    expect(text).toContain('http_requests_refused_total{reason="overload"} 1');
  });
});

describe("the pages while a dependency is down", () => {
  const request = (path = "/learn/courses", headers: Record<string, string> = {}) =>
    new Request(`http://localhost${path}`, { headers });

  it("a page's error or 404 becomes 503 with Retry-After when the check finds the database or storage down", async () => {
    const db = fakeProbe("database");
    const storage = fakeProbe("storage");
    let status = 200;
    const pages = whileAvailable(db.probe, storage.probe, async () => new Response("page", { status }));
    expect((await pages(request())).status).toBe(200);
    status = 404;
    expect((await pages(request())).status).toBe(404); // a real "not found": both answer
    storage.fail(new Error("unreachable: ECONNREFUSED"));
    db.advance(1_000);
    storage.advance(1_000);
    const missing = await pages(request("/learn/courses/c1/activities/a1", { "accept-language": "fr" }));
    expect([missing.status, missing.headers.get("retry-after"), missing.headers.get("x-unavailable")]).toEqual([
      503,
      "5",
      "storage",
    ]);
    expect(await missing.text()).toContain("Temporairement indisponible");
    status = 500;
    db.fail(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    db.advance(1_000);
    const failed = await pages(request());
    expect([failed.status, failed.headers.get("x-unavailable")]).toEqual([503, "database"]);
    // Known down: answered at once, the page is not rendered.
    let rendered = 0;
    const counted = whileAvailable(db.probe, storage.probe, async () => {
      rendered++;
      return new Response("page");
    });
    expect((await counted(request())).status).toBe(503);
    expect(rendered).toBe(0);
  });
});

describe("the unavailable page", () => {
  it.each([
    ["de", "de", "ltr", "Vorübergehend nicht verfügbar"],
    ["ar", "ar", "rtl", "غير متاح مؤقتًا"],
    ["xx", "en-US", "ltr", "Temporarily unavailable"],
  ])("Accept-Language %s → %s, %s", async (acceptLanguage, locale, dir, title) => {
    const res = unavailableResponse("database", { acceptLanguage }, 5);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.headers.get("content-language")).toBe(locale);
    const html = await res.text();
    expect(html).toContain(`<html lang="${locale}" dir="${dir}">`);
    expect(html).toContain(`<h1>${title}</h1>`);
    expect(html).not.toMatch(/<script|<style/);
  });
  it("the JSON shape for a JSON client", async () => {
    const res = unavailableResponse("storage", { accept: "application/json" }, 5);
    expect(await res.json()).toMatchObject({ status: 503, errors: { "": [{ code: "storageUnavailable" }] } });
  });
});
