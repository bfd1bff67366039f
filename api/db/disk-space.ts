/**
 * Disk full at start, in the embedded mode (decision 053, issue 53 item 4): PGlite needs room to open
 * its data directory (its write-ahead log, the lock and pid files); on a full disk it dies with
 * "PGlite failed to initialize properly", which names neither the cause nor the folder. The start
 * checks the free space first and stops with a message that names both; a failed open is explained
 * the same way when the disk turns out to be the cause.
 *
 * DISK_MIN_FREE_MB (default 64) is the free space the start asks for.
 */
import { existsSync, statfsSync } from "node:fs";
import { dirname, resolve } from "node:path";

const DEFAULT_MIN_FREE_MB = 64;

export function minFreeBytesFromEnv(value = process.env.DISK_MIN_FREE_MB): number {
  if (value === undefined || value === "") return DEFAULT_MIN_FREE_MB * 1024 * 1024;
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb < 0)
    throw new Error(`DISK_MIN_FREE_MB must be a number of megabytes ≥ 0, got "${value}"`);
  return Math.round(mb * 1024 * 1024);
}

type Statfs = (path: string) => { bavail: number | bigint; bsize: number | bigint };

/** Bytes free for this process in the file system that holds `dir` (or would: its nearest existing parent). */
export function freeBytes(dir: string, statfs: Statfs = statfsSync): number {
  let at = resolve(dir);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  const s = statfs(at);
  return Number(s.bavail) * Number(s.bsize);
}

export class DiskFull extends Error {
  constructor(
    readonly dir: string,
    readonly free: number,
    readonly needed: number,
  ) {
    super(
      `disk full: ${dir} has ${megabytes(free)} free and the embedded database needs at least ${megabytes(needed)} to start; ` +
        "free some space there (or move DATA_DIR), then start again",
    );
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Throws `DiskFull` when the folder's file system has less than `needed` bytes free. */
export function requireFreeSpace(dir: string, needed = minFreeBytesFromEnv(), statfs: Statfs = statfsSync): void {
  const free = freeBytes(dir, statfs);
  if (free < needed) throw new DiskFull(resolve(dir), free, needed);
}

/** A failed open explained: `DiskFull` when the disk is (nearly) full, else the error itself. */
export function explainOpenFailure(error: unknown, dir: string, statfs: Statfs = statfsSync): unknown {
  try {
    const free = freeBytes(dir, statfs);
    const needed = minFreeBytesFromEnv();
    if (free < needed || /ENOSPC|No space left/i.test(String((error as Error)?.message))) {
      const full = new DiskFull(resolve(dir), free, needed);
      (full as { cause?: unknown }).cause = error;
      return full;
    }
  } catch {
    // the file system cannot be asked: the error as it was
  }
  return error;
}
