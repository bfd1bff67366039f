import { describe, expect, it } from "vitest";
import {
  createOverloadResponder,
  eventLoopDelaySource,
  isCheapRequest,
  loadOverloadTexts,
  LoadShedder,
  type DelaySource,
} from "./overload.server";

/** A delay source the test sets by hand: the shedder's decisions are then deterministic. */
function fakeDelay(ms = 0): DelaySource & { set(ms: number): void } {
  let value = ms;
  return { delayMs: () => value, set: (v) => void (value = v) };
}

describe("load shedding (issue 17 item 17: refuse beyond capacity instead of queueing)", () => {
  it("admits up to maxInFlight requests, refuses the next, and admits again once one is answered", () => {
    const shedder = new LoadShedder({ maxInFlight: 3, maxEventLoopDelayMs: 0, retryAfterSeconds: 1 }, fakeDelay());
    const admitted = [shedder.admit(), shedder.admit(), shedder.admit()];
    expect(admitted.every((a) => a.admitted)).toBe(true);
    expect(shedder.admit()).toEqual({ admitted: false, reason: "inFlight" });
    const first = admitted[0]!;
    if (first.admitted) first.release();
    expect(shedder.admit().admitted).toBe(true);
    expect(shedder.stats()).toEqual({ inFlight: 3, admitted: 4, refused: 1 });
  });

  it("counts a request once even if its release runs twice (finish and close)", () => {
    const shedder = new LoadShedder({ maxInFlight: 1, maxEventLoopDelayMs: 0, retryAfterSeconds: 1 }, fakeDelay());
    const a = shedder.admit();
    if (!a.admitted) throw new Error("expected admission");
    a.release();
    a.release();
    expect(shedder.stats().inFlight).toBe(0);
    expect(shedder.admit().admitted).toBe(true);
    expect(shedder.admit().admitted).toBe(false);
  });

  it.each([
    // [delay ms, requests already in flight, admitted?]
    [0, 5, true],
    [500, 5, true],
    [500.1, 5, false],
    [5_000, 0, true], // idle: a late timer alone (GC pause, start-up) refuses nothing
    [5_000, 1, false],
  ])("event-loop delay %s ms with %s in flight → admitted %s", (delay, inFlight, expected) => {
    const source = fakeDelay(0);
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 500, retryAfterSeconds: 1 }, source);
    for (let i = 0; i < inFlight; i++) expect(shedder.admit().admitted).toBe(true);
    source.set(delay);
    const decision = shedder.admit();
    expect(decision.admitted).toBe(expected);
    if (!decision.admitted) expect(decision.reason).toBe("delay");
  });

  it("recovers as soon as the delay falls back under the limit", () => {
    const source = fakeDelay(900);
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 500, retryAfterSeconds: 1 }, source);
    expect(shedder.admit().admitted).toBe(true);
    expect(shedder.admit().admitted).toBe(false);
    source.set(20);
    expect(shedder.admit().admitted).toBe(true);
  });

  it("limits set to 0 refuse nothing", () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 0, retryAfterSeconds: 1 }, fakeDelay(1e6));
    for (let i = 0; i < 10_000; i++) expect(shedder.admit().admitted).toBe(true);
  });

  it.each([
    ["GET", "/learn/assets/root-abc123.js", true],
    ["HEAD", "/learn/assets/root-abc123.css?v=1", true],
    ["GET", "/learn/favicon.ico", true],
    ["GET", "/config-ui/config.json", true],
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

  it("the event-loop delay source reports a blocked loop, then forgets it", async () => {
    const source = eventLoopDelaySource(50);
    const waitFor = async (check: (ms: number) => boolean) => {
      for (let i = 0; i < 50 && !check(source.delayMs()); i++) await new Promise((r) => setTimeout(r, 20));
      return source.delayMs();
    };
    try {
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // Block the loop for 300 ms, as a long render would.
      }
      expect(await waitFor((ms) => ms > 200)).toBeGreaterThan(200);
      expect(await waitFor((ms) => ms < 100)).toBeLessThan(100);
    } finally {
      source.stop();
    }
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
