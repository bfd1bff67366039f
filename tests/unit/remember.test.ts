/**
 * The per-learner caches of the shell and the filter lists (app/services/request.server.ts):
 * fresh values are reused, stale ones are answered while exactly one refresh loads, nothing waits
 * behind a refresh, and failures are never remembered.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { remember, type Entry } from "../../app/services/read-cache.server";

const TTL = 30_000;

describe("remember", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-22T10:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("loads once and answers from memory while fresh", async () => {
    const cache = new Map<string, Entry<string>>();
    const load = vi.fn(async () => "shell v1");
    expect(await remember(cache, "ada", load, 10)).toBe("shell v1");
    vi.advanceTimersByTime(TTL - 1);
    expect(await remember(cache, "ada", load, 10)).toBe("shell v1");
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("answers a stale value at once and refreshes it once in the background", async () => {
    const cache = new Map<string, Entry<string>>();
    await remember(cache, "ada", async () => "v1", 10);
    vi.advanceTimersByTime(TTL + 1);
    let finish!: (value: string) => void;
    const refresh = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    // Many requests during the refresh: all get the stale value, one load runs.
    const answers = await Promise.all([1, 2, 3].map(() => remember(cache, "ada", refresh, 10)));
    expect(answers).toEqual(["v1", "v1", "v1"]);
    expect(refresh).toHaveBeenCalledTimes(1);
    finish("v2");
    await vi.runAllTimersAsync();
    expect(await remember(cache, "ada", refresh, 10)).toBe("v2");
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("loads anew (and waits) once a value is too old to answer", async () => {
    const cache = new Map<string, Entry<string>>();
    await remember(cache, "ada", async () => "v1", 10);
    vi.advanceTimersByTime(2 * TTL + 1);
    expect(await remember(cache, "ada", async () => "v2", 10)).toBe("v2");
  });

  it("forgets a failed refresh and a failed load, so the next request tries again", async () => {
    const cache = new Map<string, Entry<string>>();
    await remember(cache, "ada", async () => "v1", 10);
    vi.advanceTimersByTime(TTL + 1);
    expect(await remember(cache, "ada", () => Promise.reject(new Error("API down")), 10)).toBe("v1");
    await vi.runAllTimersAsync();
    expect(cache.has("ada")).toBe(false);
    await expect(remember(cache, "ada", () => Promise.reject(new Error("API down")), 10)).rejects.toThrow("API down");
    expect(cache.has("ada")).toBe(false);
    expect(await remember(cache, "ada", async () => "v3", 10)).toBe("v3");
  });

  it("keeps at most `max` entries, dropping the oldest", async () => {
    const cache = new Map<string, Entry<string>>();
    for (const user of ["a", "b", "c"]) await remember(cache, user, async () => user, 2);
    expect([...cache.keys()]).toEqual(["b", "c"]);
  });
});
