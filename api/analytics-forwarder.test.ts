import { afterEach, describe, expect, it, vi } from "vitest";
import { createForwarder } from "./analytics-forwarder";

/** Issue 16 item 8 (decision 029): forwarding keeps order, is bounded, and does not retry a refusal. */
describe("the analytics forwarder", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends in order in batches, drops the oldest past its bound, and does not retry a 4xx", async () => {
    const batches: number[][] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: { body: string }) => {
        batches.push((JSON.parse(init.body) as { events: number[] }).events);
        return new Response(null, { status: batches.length === 1 ? 400 : 204 });
      }),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const f = createForwarder("http://collector.test/in", { maxQueue: 5, batchSize: 2, backoffMs: 1 });
    f.enqueue([1, 2, 3, 4, 5, 6, 7]);
    await f.idle();
    // 1 and 2 were dropped (bound 5); the first batch was refused (400) once, not retried.
    expect(batches).toEqual([[3, 4], [5, 6], [7]]);
  });
});
