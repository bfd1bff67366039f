/**
 * The node's read cache (app/services/read-cache.server.ts, decision 019): the shell and a
 * learner's lists are remembered per session until the database says that user (or everyone)
 * changed — on this node or another — and a load under way when the notice came is not kept.
 */
import { describe, expect, it, vi } from "vitest";
import { ReadCache, readCacheFor } from "../../app/services/read-cache.server";
import type { ChangeFeed, DataChange } from "../../domain/contract/changes";

const ADA = "11111111-1111-4111-8111-111111111111";
const GRACE = "22222222-2222-4222-8222-222222222222";

/** A change feed the test drives, as the database would. */
function feed() {
  const listeners = new Set<(change: DataChange) => void>();
  const source: ChangeFeed = {
    subscribe: (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
  return { source, send: (change: DataChange) => listeners.forEach((l) => l(change)) };
}

const shellOf = (id: string, timezone: string) => ({ user: { id, timezone } });

describe("ReadCache", () => {
  it("remembers a session's shell until a notice about its user arrives", async () => {
    const { source, send } = feed();
    const cache = new ReadCache(source);
    let tz = "UTC";
    const load = vi.fn(async () => shellOf(ADA, tz));
    expect((await cache.shell("ada-session", false, load)).user.timezone).toBe("UTC");
    tz = "Asia/Tokyo"; // written on another node
    expect((await cache.shell("ada-session", false, load)).user.timezone).toBe("UTC");
    send({ kind: "user", userId: ADA });
    expect((await cache.shell("ada-session", false, load)).user.timezone).toBe("Asia/Tokyo");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("forgets every session of the user, and only theirs", async () => {
    const { source, send } = feed();
    const cache = new ReadCache(source);
    await cache.shell("ada-phone", false, async () => shellOf(ADA, "UTC"));
    await cache.shell("ada-laptop", false, async () => shellOf(ADA, "UTC"));
    await cache.list("ada-laptop", ADA, "/terms", async () => ["term 1"]);
    await cache.shell("grace", false, async () => shellOf(GRACE, "UTC"));
    expect(cache.size).toBe(3);
    send({ kind: "user", userId: ADA });
    expect(cache.size).toBe(1);
    const graceLoad = vi.fn(async () => shellOf(GRACE, "Europe/Oslo"));
    expect((await cache.shell("grace", false, graceLoad)).user.timezone).toBe("UTC");
    expect(graceLoad).not.toHaveBeenCalled();
    expect(await cache.list("ada-laptop", ADA, "/terms", async () => ["term 1", "term 2"])).toEqual([
      "term 1",
      "term 2",
    ]);
  });

  it("forgets everything on a notice for everyone (the tenant's settings, the catalog)", async () => {
    const { source, send } = feed();
    const cache = new ReadCache(source);
    await cache.shell("ada", false, async () => shellOf(ADA, "UTC"));
    await cache.shell("grace", false, async () => shellOf(GRACE, "UTC"));
    send({ kind: "all" });
    expect(cache.size).toBe(0);
  });

  it("does not keep a load that was under way when a notice about its user came", async () => {
    const { source, send } = feed();
    const cache = new ReadCache(source);
    let finish!: (value: ReturnType<typeof shellOf>) => void;
    const slow = cache.shell(
      "ada",
      false,
      () => new Promise<ReturnType<typeof shellOf>>((resolve) => (finish = resolve)),
    );
    send({ kind: "user", userId: ADA }); // the write committed while the old data was on its way
    finish(shellOf(ADA, "UTC"));
    expect((await slow).user.timezone).toBe("UTC"); // this request had started before the write
    const next = vi.fn(async () => shellOf(ADA, "Asia/Tokyo"));
    expect((await cache.shell("ada", false, next)).user.timezone).toBe("Asia/Tokyo");
    expect(next).toHaveBeenCalledTimes(1);
  });

  it("after this node's own write, loads the shell anew and forgets the session's lists", async () => {
    const cache = new ReadCache();
    await cache.shell("ada", false, async () => shellOf(ADA, "UTC"));
    await cache.list("ada", ADA, "/terms", async () => ["term 1"]);
    expect((await cache.shell("ada", true, async () => shellOf(ADA, "Asia/Tokyo"))).user.timezone).toBe("Asia/Tokyo");
    expect(await cache.list("ada", ADA, "/terms", async () => ["term 2"])).toEqual(["term 2"]);
  });

  it("is one per change feed: every request of a node shares it", () => {
    const { source } = feed();
    const config = {};
    expect(readCacheFor(source, config)).toBe(readCacheFor(source, {}));
    expect(readCacheFor(undefined, config)).toBe(readCacheFor(undefined, config));
    expect(readCacheFor(undefined, config)).not.toBe(readCacheFor(source, config));
  });
});
