/** Disk full at start: a message that names the folder and the space needed (issue 53 item 4). */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiskFull, explainOpenFailure, freeBytes, minFreeBytesFromEnv, requireFreeSpace } from "./disk-space";

const MB = 1024 * 1024;
const disk = (freeMb: number) => () => ({ bavail: BigInt(Math.floor(freeMb * 256)), bsize: 4096 });

describe("requireFreeSpace", () => {
  it.each([
    [0, 64, true],
    [63.9, 64, true],
    [64, 64, false],
    [5_000, 64, false],
  ])("%s MB free, %s MB needed → refused %s", (free, needed, refused) => {
    const run = () => requireFreeSpace("/srv/learner/data/pglite", needed * MB, disk(free));
    if (refused) expect(run).toThrow(DiskFull);
    else expect(run).not.toThrow();
  });

  it("names the folder, the free space and the space needed", () => {
    expect(() => requireFreeSpace("/srv/learner/data/pglite", 64 * MB, disk(2))).toThrow(
      /\/srv\/learner\/data\/pglite has 2\.0 MB free and the embedded database needs at least 64\.0 MB/,
    );
  });

  it("a folder not made yet is measured on its nearest parent", () => {
    expect(freeBytes(join(tmpdir(), "not-there", "pglite"))).toBeGreaterThan(0);
  });
});

describe("explainOpenFailure", () => {
  const pgliteFailure = new Error("PGlite failed to initialize properly");
  it("on a full disk: DiskFull, with the original as its cause", () => {
    const explained = explainOpenFailure(pgliteFailure, "/data/pglite", disk(1));
    expect(explained).toBeInstanceOf(DiskFull);
    expect((explained as Error).cause).toBe(pgliteFailure);
  });
  it("with room: the error as it was", () =>
    expect(explainOpenFailure(pgliteFailure, "/data/pglite", disk(10_000))).toBe(pgliteFailure));
});

it("DISK_MIN_FREE_MB", () => {
  expect(minFreeBytesFromEnv(undefined)).toBe(64 * MB);
  expect(minFreeBytesFromEnv("0")).toBe(0);
  expect(() => minFreeBytesFromEnv("lots")).toThrow(/DISK_MIN_FREE_MB/);
});
