import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dataUrl, scheduleRefresh, TREE_RETRY_MS } from "./scheduled-refresh";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("spec 9: the full-tree reload at a constraint time, retried after 30 s when it fails", () => {
  it("reloads at the time when the server answers", async () => {
    const reload = vi.fn();
    scheduleRefresh({ delay: 1000, check: async () => true, reload });
    await vi.advanceTimersByTimeAsync(999);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("a failed reload (error status or no network) is tried again 30 s later, until it works", async () => {
    const answers: (() => Promise<boolean>)[] = [
      async () => false,
      async () => {
        throw new Error("offline");
      },
      async () => true,
    ];
    const check = vi.fn(() => answers.shift()!());
    const reload = vi.fn();
    scheduleRefresh({ delay: 0, check, reload });
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(TREE_RETRY_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(TREE_RETRY_MS);
    expect(check).toHaveBeenCalledTimes(3);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(TREE_RETRY_MS).toBe(30_000);
  });

  it("stops when the page goes away", async () => {
    const check = vi.fn(async () => false);
    const stop = scheduleRefresh({ delay: 0, check, reload: vi.fn() });
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(TREE_RETRY_MS * 3);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it("asks React Router's single-fetch address of the page", () => {
    expect(dataUrl({ pathname: "/learn/courses/c1/view/content", search: "?activityPathId=p" })).toBe(
      "/learn/courses/c1/view/content.data?activityPathId=p",
    );
  });
});
