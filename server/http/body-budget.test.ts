import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { AdmissionControl, admissionGate, createOverloadResponder } from "../overload/admission";
import { BodyBudget, bodyBudgetAnswers, bodyBudgetStep } from "./body-budget";
import { bodyTooSlow, RateCheck, type BodyBudgetOptions } from "./body-rate";

const options: BodyBudgetOptions = {
  minBytesPerSecond: 1000,
  readTimeoutMs: 5_000,
  readersPerAddress: 3,
  graceMs: 300,
};

describe("bodyTooSlow: a body keeps up with the minimum rate after the grace, and ends within the total time", () => {
  it.each([
    // elapsed ms, bytes received, too slow?
    [0, 0, false],
    [299, 0, false], // within the grace
    [300, 299, true], // 1000 B/s × 0.3 s = 300 bytes due
    [300, 300, false],
    [2_000, 1_999, true],
    [2_000, 5_000, false],
    [4_999, 1_000_000, false],
    [5_000, 1_000_000, true], // the total time, whatever the rate
  ])("%d ms, %d bytes → %s", (elapsed, received, slow) => {
    expect(bodyTooSlow(options, elapsed, received)).toBe(slow);
  });

  it("with every bound at 0, no body is ever too slow", () => {
    const off = { minBytesPerSecond: 0, readTimeoutMs: 0, readersPerAddress: 0, graceMs: 0 };
    expect(bodyTooSlow(off, 10_000_000, 0)).toBe(false);
    expect(new RateCheck(off).deadline()).toBeNull();
  });

  it("RateCheck says when the body falls behind if nothing more comes", () => {
    let now = 0;
    const check = new RateCheck(options, () => now);
    expect(check.deadline()).toBe(300);
    check.progress(1_000);
    expect(check.deadline()).toBe(1_000);
    now = 999;
    expect(check.tooSlow()).toBe(false);
    now = 1_001;
    expect(check.tooSlow()).toBe(true);
  });
});

describe("the body budget in front of the overload gate (a slow body holds no place)", () => {
  let server: Server;
  let port = 0;
  const admission = new AdmissionControl({
    maxWaitMs: 300,
    maxQueue: 100,
    minConcurrency: 2,
    maxConcurrency: 2,
    retryAfterSeconds: 1,
  });
  const overload = createOverloadResponder({ "en-US": { title: "Busy", text: "Try again." } }, 1);
  const gate = admissionGate(admission, overload);
  const app = new Hono();
  app.post("/echo", async (c) => c.text(`got ${(await c.req.text()).length}`));
  app.get("/page", (c) => c.text("page"));
  const listener = getRequestListener(app.fetch);
  const step = bodyBudgetStep(new BodyBudget(options), {
    maxBytes: (path) => (path === "/small" ? 100 : 10_000),
    exempt: (path) => path === "/streamed",
    answers: bodyBudgetAnswers(overload),
  });
  const handle = (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) =>
    step(req, res, () => {
      if (!gate(req, res, handle)) void listener(req, res);
    });

  beforeAll(async () => {
    server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    admission.close();
    server.closeAllConnections();
    server.close();
  });

  /** A POST that sends its headers and then one byte now and then: resolves with the status line's code. */
  function slowPost(): { socket: Socket; status: Promise<number> } {
    const socket = connect(port, "127.0.0.1");
    socket.write(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nAccept-Language: de\r\nContent-Length: 6000\r\n\r\n",
    );
    const drip = setInterval(() => socket.writable && socket.write("a"), 200);
    const status = new Promise<number>((resolve) => {
      let text = "";
      socket.on("data", (d) => {
        text += d.toString("utf8");
        const m = /^HTTP\/1\.1 (\d+)/.exec(text);
        if (m) resolve(Number(m[1]));
      });
      socket.on("close", () => {
        clearInterval(drip);
        resolve(0);
      });
      socket.on("error", () => undefined);
    });
    return { socket, status };
  }

  it("three slow bodies from one address: pages are served meanwhile, the bodies get 408, a fourth gets 503 at once", async () => {
    const slow = [slowPost(), slowPost(), slowPost()];
    await new Promise((r) => setTimeout(r, 100));
    const fourth = slowPost();
    // Three readers per address: the fourth is refused before a byte of its body is read.
    expect(await fourth.status).toBe(503);
    // The gate has two places: more pages than that at once are all served while the bodies dribble.
    const pages = await Promise.all(
      Array.from({ length: 6 }, () => fetch(`http://127.0.0.1:${port}/page`).then((r) => r.status)),
    );
    expect(pages).toEqual([200, 200, 200, 200, 200, 200]);
    const statuses = await Promise.all(slow.map((s) => s.status));
    expect(statuses).toEqual([408, 408, 408]);
    for (const s of slow) s.socket.destroy();
  });

  it("the 408 page is in the client's language and closes the connection", async () => {
    const socket = connect(port, "127.0.0.1");
    socket.write(
      "POST /echo HTTP/1.1\r\nHost: x\r\nAccept-Language: fr\r\nAccept: text/html\r\nContent-Length: 100\r\n\r\nab",
    );
    const text = await new Promise<string>((resolve) => {
      let all = "";
      socket.on("data", (d) => (all += d.toString("utf8")));
      socket.on("close", () => resolve(all));
    });
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toMatch(/Connection: close/i);
    expect(text).toContain("Requête trop lente");
  });

  it("a body sent at once reaches its handler whole; a body past the limit gets 413", async () => {
    const ok = await fetch(`http://127.0.0.1:${port}/echo`, { method: "POST", body: "x".repeat(5_000) });
    expect(await ok.text()).toBe("got 5000");
    const chunked = new ReadableStream({
      start(c) {
        for (let i = 0; i < 30; i++) c.enqueue(new Uint8Array(1_000));
        c.close();
      },
    });
    const big = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: "POST",
      body: chunked,
      duplex: "half",
    } as RequestInit);
    expect(big.status).toBe(413);
  });

  it("a declared length past the path's own limit gets 413 at once, its body never waited for", async () => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    // 5,000 bytes pass /echo's limit, not /small's: only the headers are sent.
    socket.write("POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n");
    const started = Date.now();
    const status = await new Promise<number>((resolve) => {
      let text = "";
      socket.on("data", (d) => {
        text += d.toString("utf8");
        const m = /^HTTP\/1\.1 (\d+)/.exec(text);
        if (m) resolve(Number(m[1]));
      });
      socket.on("close", () => resolve(0));
    });
    socket.destroy();
    expect(status).toBe(413);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
