import { describe, expect, it } from "vitest";
import { retryAfterOf } from "#domain/retry-after";
import {
  AdmissionControl,
  admissionOptionsFrom,
  createOverloadResponder,
  DEFAULT_ADMISSION,
  VegasLimit,
  isCheapRequest,
  loadOverloadTexts,
  type AdmissionOptions,
  type Ticket,
} from "./admission";

/** A clock the test moves by hand: the gate's decisions are then deterministic. */
function fakeClock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** A candidate that records what happened to it. */
function candidate() {
  const c = {
    state: "new" as "new" | "started" | "refused",
    ticket: null as Ticket | null,
    start: (ticket: Ticket) => {
      c.state = "started";
      c.ticket = ticket;
    },
    refuse: () => void (c.state = "refused"),
  };
  return c;
}

const options = (o: Partial<AdmissionOptions> = {}): AdmissionOptions => ({
  maxWaitMs: 1_000,
  maxQueue: 100,
  minConcurrency: 2,
  maxConcurrency: 2,
  retryAfterSeconds: 2,
  ...o,
});

describe("admission by waiting time (issue 27 item 1)", () => {
  it("starts up to the limit at once, queues the rest first come first served, and starts them as places free", () => {
    const clock = fakeClock();
    const gate = new AdmissionControl(options(), clock.now);
    const cs = Array.from({ length: 5 }, candidate);
    cs.forEach((c) => gate.admit(c));
    expect(cs.map((c) => c.state)).toEqual(["started", "started", "new", "new", "new"]);
    expect(gate.stats()).toMatchObject({ limit: 2, inProgress: 2, waiting: 3 });
    clock.advance(100);
    cs[0]!.ticket!.done();
    expect(cs.map((c) => c.state)).toEqual(["started", "started", "started", "new", "new"]);
    cs[1]!.ticket!.done();
    cs[2]!.ticket!.done();
    expect(cs.map((c) => c.state)).toEqual(Array(5).fill("started"));
    expect(gate.stats()).toMatchObject({ inProgress: 2, waiting: 0, started: 5, queued: 3, refused: 0 });
    gate.close();
  });

  it("serves the newest first once the oldest has waited three quarters of maxWaitMs, and refuses the oldest at maxWaitMs as before", () => {
    const clock = fakeClock();
    const gate = new AdmissionControl(options({ maxWaitMs: 1_000 }), clock.now);
    const running = [candidate(), candidate()];
    running.forEach((c) => gate.admit(c));
    const [a, b, c, d] = [candidate(), candidate(), candidate(), candidate()];
    gate.admit(a); // waits from 0
    clock.advance(100);
    gate.admit(b); // from 100
    clock.advance(600);
    // a has waited 700 ms: still in order.
    running[0]!.ticket!.done();
    expect([a.state, b.state]).toEqual(["started", "new"]);
    gate.admit(c); // from 700
    clock.advance(150);
    gate.admit(d); // from 850
    // b has waited 750 ms: the queue does not drain, the newest (d) goes first, then c.
    a.ticket!.done();
    expect([b.state, c.state, d.state]).toEqual(["new", "new", "started"]);
    d.ticket!.done();
    expect([b.state, c.state]).toEqual(["new", "started"]);
    // b is refused when it has waited maxWaitMs, no sooner.
    clock.advance(249);
    gate.admit(candidate());
    expect(b.state).toBe("new");
    clock.advance(1);
    gate.admit(candidate());
    expect(b.state).toBe("refused");
    gate.close();
  });

  it("refuses a request that waited maxWaitMs without a place, and never one that still may start", () => {
    const clock = fakeClock();
    const gate = new AdmissionControl(options({ maxWaitMs: 500 }), clock.now);
    const running = [candidate(), candidate()];
    running.forEach((c) => gate.admit(c));
    const early = candidate();
    gate.admit(early);
    clock.advance(300);
    const late = candidate();
    gate.admit(late);
    clock.advance(199);
    gate.admit(candidate()); // any call looks at the queue's head
    expect([early.state, late.state]).toEqual(["new", "new"]);
    clock.advance(1);
    running[0]!.ticket!.done(); // a place frees just as `early` has waited 500 ms: too late for it
    expect([early.state, late.state]).toEqual(["refused", "started"]);
    expect(gate.stats().refused).toBe(1);
    gate.close();
  });

  it("refuses at once beyond maxQueue waiting, and forgets a waiting request whose client left", () => {
    const clock = fakeClock();
    const gate = new AdmissionControl(options({ maxQueue: 2 }), clock.now);
    [candidate(), candidate()].forEach((c) => gate.admit(c));
    const a = candidate();
    const leaveA = gate.admit(a);
    gate.admit(candidate());
    const overflow = candidate();
    gate.admit(overflow);
    expect(overflow.state).toBe("refused");
    leaveA();
    leaveA();
    expect(gate.stats().waiting).toBe(1);
    const next = candidate();
    gate.admit(next);
    expect(next.state).toBe("new");
    gate.close();
  });

  it("counts a request once even if its ticket is done twice (finish and close)", () => {
    const gate = new AdmissionControl(options({ minConcurrency: 1, maxConcurrency: 1 }), fakeClock().now);
    const a = candidate();
    gate.admit(a);
    a.ticket!.done();
    a.ticket!.done();
    expect(gate.stats().inProgress).toBe(0);
    const b = candidate();
    const c = candidate();
    gate.admit(b);
    gate.admit(c);
    expect([b.state, c.state]).toEqual(["started", "new"]);
    gate.close();
  });

  it("maxWaitMs 0 turns the gate off: everything starts at once", () => {
    const gate = new AdmissionControl(options({ maxWaitMs: 0 }), fakeClock().now);
    const cs = Array.from({ length: 1_000 }, candidate);
    cs.forEach((c) => gate.admit(c));
    expect(cs.every((c) => c.state === "started")).toBe(true);
  });

  it("refuses waiting requests by its own timer when nothing finishes", async () => {
    const gate = new AdmissionControl(options({ maxWaitMs: 30, minConcurrency: 1, maxConcurrency: 1 }));
    gate.admit(candidate());
    const waiting = candidate();
    gate.admit(waiting);
    for (let i = 0; i < 50 && waiting.state === "new"; i++) await new Promise((r) => setTimeout(r, 10));
    expect(waiting.state).toBe("refused");
    gate.close();
  });
});

describe("a client that comes back before Retry-After (decision 038, addendum 12)", () => {
  /** A candidate on a given connection (its socket, in the server). */
  const on = (connection: object) => Object.assign(candidate(), { connection });
  /** Any admission looks at the queue's head: one that leaves at once (the gate is full in these tests). */
  const tick = (gate: AdmissionControl) => gate.admit(candidate())();

  it("is refused when its last refusal's Retry-After has passed, not at maxWaitMs; a new connection at maxWaitMs", () => {
    const clock = fakeClock();
    const gate = new AdmissionControl(options({ maxWaitMs: 1_000, retryAfterSeconds: 2 }), clock.now);
    const running = [candidate(), candidate()];
    running.forEach((c) => gate.admit(c));
    const socket = {};
    const first = on(socket);
    gate.admit(first);
    clock.advance(1_000);
    tick(gate);
    expect(first.state).toBe("refused"); // at maxWaitMs: refused at t = 1,000
    clock.advance(10);
    const again = on(socket); // came back at once, ignoring Retry-After: 2
    const stranger = on({}); // another visitor, same moment
    gate.admit(again);
    gate.admit(stranger);
    clock.advance(1_000);
    tick(gate);
    expect([again.state, stranger.state]).toEqual(["new", "refused"]);
    clock.advance(989); // 1 ms before Retry-After has passed since its refusal
    tick(gate);
    expect(again.state).toBe("new");
    clock.advance(1);
    tick(gate);
    expect(again.state).toBe("refused");
    expect(gate.stats().refused).toBe(3);
    gate.close();
  });

  it("is still served as soon as a place frees for it, and one that waited Retry-After is not held", () => {
    const clock = fakeClock();
    const gate = new AdmissionControl(
      options({ maxWaitMs: 1_000, retryAfterSeconds: 2, minConcurrency: 1, maxConcurrency: 1 }),
      clock.now,
    );
    const running = candidate();
    gate.admit(running);
    const socket = {};
    const refused = on(socket);
    gate.admit(refused);
    clock.advance(1_000);
    tick(gate);
    expect(refused.state).toBe("refused");
    const held = on(socket);
    gate.admit(held);
    clock.advance(500);
    running.ticket!.done();
    expect(held.state).toBe("started"); // held only from being refused, never from a place
    held.ticket!.done();
    // Once Retry-After has passed, the same connection waits maxWaitMs like anyone.
    const blocker = candidate();
    gate.admit(blocker);
    clock.advance(1_500);
    const polite = on(socket);
    gate.admit(polite);
    clock.advance(1_000);
    tick(gate);
    expect(polite.state).toBe("refused");
    gate.close();
  });

  it("is not started once it has waited maxWaitMs (a newer request is), and others are refused when due, not behind it", () => {
    const clock = fakeClock();
    const gate = new AdmissionControl(options({ maxWaitMs: 1_000, retryAfterSeconds: 5 }), clock.now);
    const running = [candidate(), candidate()];
    running.forEach((c) => gate.admit(c));
    const socket = {};
    const refused = on(socket);
    gate.admit(refused);
    clock.advance(1_000);
    tick(gate); // refuses `refused`
    const held = on(socket); // from t = 1,000, refused at 6,000
    gate.admit(held);
    clock.advance(500);
    const later = candidate(); // from 1,500, refused at 2,500
    gate.admit(later);
    clock.advance(1_000);
    tick(gate);
    expect([held.state, later.state]).toEqual(["new", "refused"]); // due first, refused first
    const newest = candidate(); // from 2,500
    gate.admit(newest);
    running[0]!.ticket!.done();
    expect([held.state, newest.state]).toEqual(["new", "started"]); // held has waited 1,500 ms: not started
    running[1]!.ticket!.done();
    expect(held.state).toBe("new"); // a place is free, but its answer would only come later than its wait
    const visitor = candidate();
    gate.admit(visitor);
    expect(visitor.state).toBe("started"); // takes the free place at once
    clock.advance(3_500);
    tick(gate);
    expect(held.state).toBe("refused");
    gate.close();
  });
});

describe("the adaptive concurrency limit (Vegas)", () => {
  const noProbe = { probeMultiplier: 1e9, random: () => 1 };

  it("grows while the time per request stays at its no-load time and the limit is in use", () => {
    const limit = new VegasLimit({ initial: 4, min: 4, max: 64, ...noProbe });
    for (let i = 0; i < 50; i++) limit.update(20, limit.limit);
    expect(limit.limit).toBe(64);
  });

  it("does not grow while less than half of it is in use", () => {
    const limit = new VegasLimit({ initial: 10, min: 4, max: 64, ...noProbe });
    for (let i = 0; i < 50; i++) limit.update(20, 4);
    expect(limit.limit).toBe(10);
  });

  it("shrinks when requests wait for the CPU (two threads: time = limit ÷ 2 × the no-load time), never under min", () => {
    const shared = (min: number) => {
      const limit = new VegasLimit({ initial: 40, min, max: 64, ...noProbe });
      limit.update(20, 40);
      for (let i = 0; i < 200; i++) limit.update(20 * (limit.limit / 2), limit.limit);
      return limit.limit;
    };
    // Down to about 2 running and 6 waiting for the CPU (Vegas keeps 3–6 units queued)…
    expect(shared(1)).toBeGreaterThanOrEqual(6);
    expect(shared(1)).toBeLessThanOrEqual(9);
    // …never under the minimum.
    expect(shared(12)).toBe(12);
  });

  it("holds a limit where the requests overlap (two threads: time rises only past two at once)", () => {
    const limit = new VegasLimit({ initial: 4, min: 1, max: 64, ...noProbe });
    limit.update(20, 1);
    for (let i = 0; i < 300; i++) limit.update(20 * Math.max(1, limit.limit / 2), limit.limit);
    expect(limit.limit).toBeGreaterThanOrEqual(2);
    expect(limit.limit).toBeLessThanOrEqual(16);
  });
});

describe("settings from the environment", () => {
  it("reads the defaults, numbers, and refuses what is not a number ≥ 0", () => {
    expect(admissionOptionsFrom({})).toEqual(DEFAULT_ADMISSION);
    expect(
      admissionOptionsFrom({
        OVERLOAD_MAX_WAIT_MS: "250",
        OVERLOAD_MIN_CONCURRENCY: "8",
        OVERLOAD_MAX_CONCURRENCY: "4",
      }),
    ).toMatchObject({
      maxWaitMs: 250,
      maxConcurrency: 8, // never under the minimum
    });
    expect(() => admissionOptionsFrom({ OVERLOAD_MAX_WAIT_MS: "soon" })).toThrow(/OVERLOAD_MAX_WAIT_MS/);
    expect(() => admissionOptionsFrom({ OVERLOAD_MAX_QUEUE: "-1" })).toThrow(/OVERLOAD_MAX_QUEUE/);
  });
});

describe("cheap requests are never queued", () => {
  it.each([
    ["GET", "/learn/assets/root-abc123.js", true],
    ["HEAD", "/learn/assets/root-abc123.css?v=1", true],
    ["GET", "/learn/favicon.ico", true],
    ["GET", "/config-ui/config.json", true],
    ["GET", "/healthz", true],
    ["HEAD", "/readyz", true],
    ["GET", "/healthz/x", false],
    ["GET", "/learn/courses", false],
    ["GET", "/learn/courses.data", false],
    ["GET", "/api/v1/courses", false],
    ["POST", "/learn/assets/x.js", false],
    ["GET", "/idp/interaction/abc", false],
    ["GET", "/learn/files/abc.png", false],
  ])("%s %s is cheap: %s", (method, url, cheap) => {
    // Storage files (/learn/files/…) go through the session and the API: not cheap.
    expect(isCheapRequest(method, url)).toBe(cheap);
  });
});

describe("the refusal (503, Retry-After, in the learner's language)", () => {
  const texts = loadOverloadTexts("locales");
  const respond = createOverloadResponder(texts, 3);

  it("is a short page with Retry-After and no-store, in the Accept-Language's locale", () => {
    const answer = respond({ acceptLanguage: "de-DE,de;q=0.9,en;q=0.5", accept: "text/html" });
    expect(answer.status).toBe(503);
    expect(answer.headers["Retry-After"]).toBe("3");
    expect(answer.headers["Cache-Control"]).toBe("no-store");
    const html = answer.body.toString();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain(texts.de!.title);
    expect(html).toContain("3 Sekunden");
    // For a script that reads the body but not the headers (the test page's autosave, decision 069).
    expect(retryAfterOf(html)).toBe(3);
    expect(answer.body.length).toBeLessThan(600);
  });

  it("follows the learner's lng cookie first, right to left for Arabic", () => {
    const html = respond({ cookie: "a=1; lng=ar", acceptLanguage: "fr" }).body.toString();
    expect(html).toContain('<html lang="ar" dir="rtl">');
  });

  it("falls back to English for an unknown language, and answers JSON clients in the API's error shape", () => {
    expect(respond({ acceptLanguage: "xx" }).body.toString()).toContain("Service busy");
    const json = respond({ accept: "application/json", acceptLanguage: "fr" });
    expect(json.headers["Content-Type"]).toBe("application/problem+json");
    expect(JSON.parse(json.body.toString())).toMatchObject({
      status: 503,
      errors: { "": [{ code: "overloaded", params: { seconds: 3 } }] },
    });
  });

  it("caches per header pair (same object twice)", () => {
    const a = respond({ acceptLanguage: "ja" });
    expect(respond({ acceptLanguage: "ja" })).toBe(a);
    expect(a.body.toString()).toContain(texts.ja!.title);
  });
});
