import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CommitQueue } from "./commit-queue";

/** The browser around the queue: storage, window events and a network whose answers never come. */
let sent: { body: { sequence: number }; keepalive: boolean }[];
beforeEach(() => {
  sent = [];
  const store = new Map<string, string>();
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  vi.stubGlobal("window", { addEventListener: () => undefined, removeEventListener: () => undefined });
  vi.stubGlobal("fetch", (_url: string, init: RequestInit) => {
    sent.push({ body: JSON.parse(String(init.body)), keepalive: init.keepalive === true });
    return new Promise(() => undefined); // a slow network: the page closes before it answers
  });
});
afterEach(() => vi.unstubAllGlobals());

const queueOf = () =>
  new CommitQueue(
    "/learn/scorm-runtime/w/a",
    {},
    () => undefined,
    () => undefined,
    "k",
  );

describe("the SCORM commits when the page goes away", () => {
  it("sends every queued commit at once with keepalive, the one in flight included", () => {
    const q = queueOf();
    for (const location of ["p1", "p2", "p3"]) q.push({ scoId: "one", attempt: 1, cmi: { "cmi.location": location } });
    // One at a time while the page lives: only the first is on its way.
    expect(sent.map((s) => [s.body.sequence, s.keepalive])).toEqual([[1, false]]);
    q.sendWhileLeaving();
    expect(sent.filter((s) => s.keepalive).map((s) => s.body.sequence)).toEqual([1, 2, 3]);
  });

  it("keeps within the browser's keepalive budget, leaving the rest in storage for the next visit", () => {
    const q = queueOf();
    q.push({ scoId: "one", attempt: 1, cmi: { "cmi.suspend_data": "x".repeat(40_000) } });
    q.push({ scoId: "one", attempt: 1, cmi: { "cmi.suspend_data": "y".repeat(40_000) } });
    q.sendWhileLeaving();
    expect(sent.filter((s) => s.keepalive).map((s) => s.body.sequence)).toEqual([1]);
    expect(JSON.parse(localStorage.getItem("k")!)).toHaveLength(2);
  });
});
