/**
 * Page views wait up to 250 ms for others of the same sender (decision 038); the drain sends what
 * still waits before the database closes (decision 037), so the last views before SIGTERM are kept.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RouterContextProvider } from "react-router";

const command = vi.fn(async () => ({}));
vi.mock("./config.server", () => ({ appConfig: () => ({ appEnv: "prod" }), clientIp: () => "192.0.2.1" }));
vi.mock("./request.server", () => ({ state: () => ({ session: async () => null }) }));
vi.mock("./user.server", () => ({ publicLms: () => ({ command }) }));

const { flushPendingEvents, record } = await import("./analytics.server");
const context = {} as Readonly<RouterContextProvider>;
const view = (page: string) => [{ name: "page_view" as const, page, props: {} }];

describe("batched page views", () => {
  afterEach(() => {
    command.mockClear();
    vi.useRealTimers();
  });

  it("waits for the batch, then sends the sender's views together", async () => {
    vi.useFakeTimers();
    const first = record(new Request("http://app.test/learn"), context, view("/learn"));
    const second = record(new Request("http://app.test/learn/catalog"), context, view("/learn/catalog"));
    await vi.advanceTimersByTimeAsync(100);
    expect(command).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    await expect(first).resolves.toEqual({ kind: "sent" });
    await expect(second).resolves.toEqual({ kind: "sent" });
    expect(command).toHaveBeenCalledTimes(1);
    expect((command.mock.calls[0] as unknown[])[1]).toMatchObject({
      events: [{ page: "/learn" }, { page: "/learn/catalog" }],
    });
  });

  it("sends what waits at once when the server drains", async () => {
    vi.useFakeTimers();
    const pending = record(new Request("http://app.test/learn"), context, view("/learn"));
    await vi.advanceTimersByTimeAsync(10);
    await flushPendingEvents();
    expect(command).toHaveBeenCalledTimes(1);
    await expect(pending).resolves.toEqual({ kind: "sent" });
    await flushPendingEvents(); // nothing left: no second call
    expect(command).toHaveBeenCalledTimes(1);
  });
});
