import { describe, expect, it } from "vitest";
import { loadFullCollection, loadMallocTrim, quietTrimmer, releaseMemory } from "./memory-trim";

const MB = 2 ** 20;

/** A node whose memory, load and clock the test sets; a look every second; `trim` gives back `freed` MB. */
function node(start: number) {
  const state = { rss: start * MB, busy: false, freed: 0, trims: 0, clock: 0 };
  const trimmer = quietTrimmer({
    trim: () => {
      state.trims++;
      state.rss -= state.freed * MB;
      return 1;
    },
    rss: () => state.rss,
    busy: () => state.busy,
    growthBytes: 32 * MB,
    settleMs: 15_000,
    now: () => state.clock,
  });
  const check = () => {
    state.clock += 1_000;
    return trimmer.check();
  };
  return { state, check };
}

describe("quietTrimmer (decision 038, addendum 15)", () => {
  it("trims once, on the second quiet look after memory grew by the threshold", () => {
    const n = node(450);
    expect(n.check()).toBe(false); // settles at 450
    n.state.busy = true;
    n.state.rss = 520 * MB; // the storm
    expect(n.check()).toBe(false);
    expect(n.check()).toBe(false);
    n.state.busy = false;
    n.state.freed = 100;
    expect(n.check()).toBe(false); // quiet for the first time: not yet (another wave may come)
    expect(n.check()).toBe(true);
    expect(n.state.rss).toBe(420 * MB);
    for (let i = 0; i < 60; i++) expect(n.check()).toBe(false);
    expect(n.state.trims).toBe(1);
  });

  it("never trims while busy, however large the growth", () => {
    const n = node(300);
    n.state.busy = true;
    for (let i = 0; i < 10; i++) {
      n.state.rss += 20 * MB;
      expect(n.check()).toBe(false);
    }
    expect(n.state.trims).toBe(0);
  });

  it("does not trim below the threshold: ordinary movement never pays for it", () => {
    const n = node(300);
    for (let i = 0; i < 30; i++) {
      n.state.rss = (300 + (i % 3) * 10) * MB; // ±20 MB
      expect(n.check()).toBe(false);
    }
    expect(n.state.trims).toBe(0);
  });

  it("a heap that grows back after a trim is where memory settles: one trim, not one a second", () => {
    const n = node(320);
    n.check();
    n.state.rss = 362 * MB;
    n.state.freed = 44;
    n.check();
    expect(n.state.trims).toBe(1);
    // Light traffic: within seconds the heap is back at its working size.
    for (let i = 0; i < 120; i++) {
      n.state.rss = (358 + (i % 3) * 3) * MB;
      n.check();
    }
    expect(n.state.trims).toBe(1);
    // A second burst from there trims again.
    n.state.rss = 400 * MB;
    n.state.freed = 40;
    n.check();
    expect(n.state.trims).toBe(2);
  });

  it("follows memory down: growth is measured from the lowest settled point", () => {
    const n = node(400);
    n.check();
    n.state.rss = 350 * MB;
    n.check(); // settled at 350
    n.state.rss = 390 * MB; // +40 from 350, only −10 from the start
    expect(n.check()).toBe(true);
  });
});

describe("loadMallocTrim", () => {
  it.runIf(process.platform === "linux")("reaches glibc's malloc_trim on Linux (koffi), and calling it is safe", () => {
    const trim = loadMallocTrim();
    expect(trim).not.toBeNull();
    expect([0, 1]).toContain(trim!());
  });
});

describe("releaseMemory", () => {
  it("collects V8's garbage first (it frees the C memory its objects held), then trims", () => {
    const calls: string[] = [];
    const release = releaseMemory(
      () => (calls.push("trim"), 1),
      () => void calls.push("collect"),
    );
    expect(release()).toBe(1);
    expect(calls).toEqual(["collect", "trim"]);
    // Without --expose-gc (as here, under vitest) only the trim runs.
    expect(loadFullCollection()).toBeNull();
    expect(releaseMemory(() => (calls.push("trim"), 0), null)()).toBe(0);
  });
});
