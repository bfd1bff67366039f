/**
 * Gives memory back to the system once the node is quiet again after a burst (decision 038, addendum
 * 15): V8's heap, collected and compacted, and the C allocator's free memory.
 *
 * A storm of 1,000 connections leaves glibc's arenas holding ~30–40 MB they no longer use: freed
 * chunks between live ones, which `free()` never returns (it trims only the top of the heap). Only
 * `malloc_trim(0)` does, and Node neither calls nor exposes it; here it is reached through koffi (a
 * foreign-function library). Measured with gdb on the node after a storm: 497 → 452 MB.
 *
 * It runs only when the process is quiet (nothing queued, nothing refused since the last look) and
 * its resident memory is `growthBytes` above where it last settled, so a steady load never pays for
 * it. Where there is no glibc (another platform, musl) there is nothing to call and nothing runs.
 */
import { createRequire } from "node:module";

/** `malloc_trim(0)`: 1 if memory was released. */
export type Trim = () => number;

/** glibc's `malloc_trim`, or null where there is none (not Linux, musl, koffi not installed). */
export function loadMallocTrim(): Trim | null {
  if (process.platform !== "linux") return null;
  try {
    const koffi = createRequire(import.meta.url)("koffi") as typeof import("koffi");
    const trim = koffi.load("libc.so.6").func("int malloc_trim(size_t pad)") as (pad: number) => number;
    return () => trim(0);
  } catch {
    return null;
  }
}

/**
 * V8's "last resort" collection (all garbage, compacted, its free pages released) where the process
 * was started with `--expose-gc` (`npm start` is); null otherwise. A pause of ~0.15 s on a node after
 * a storm, which is why it runs only when the node is quiet.
 */
export function loadFullCollection(): (() => void) | null {
  const gc = (globalThis as { gc?: (options?: { type: string; execution: string; flavor: string }) => void }).gc;
  return gc ? () => gc({ type: "major", execution: "sync", flavor: "last-resort" }) : null;
}

/** What a quiet node gives back: V8's free pages (when it can), then the C allocator's. */
export function releaseMemory(trim: Trim, collect: (() => void) | null): Trim {
  return () => {
    collect?.();
    return trim();
  };
}

export interface QuietTrimOptions {
  /** What gives memory back (`releaseMemory`). */
  trim: Trim;
  /** The process's resident memory in bytes. */
  rss: () => number;
  /** Something is waiting or was refused since the last look: not quiet. */
  busy: () => boolean;
  /** Trim when resident memory is this far above where it last settled (bytes). */
  growthBytes: number;
  /** After a trim, how long the heap has to grow back before memory's mark is taken again (ms). */
  settleMs?: number;
  now?: () => number;
  report?: (trimmed: { beforeBytes: number; afterBytes: number; ms: number }) => void;
}

/**
 * Call `check()` now and then (every second or so). It trims on the second quiet look in a row (quiet
 * for one interval at least, so not between two waves of a storm) when memory has grown by
 * `growthBytes` since it last settled. After a trim the heap grows back to its working size: where
 * memory settles is measured again `settleMs` later (no trim before), so a light load never pays for
 * a trim a second (the first version did: 152 in a bench's 3 minutes).
 */
export function quietTrimmer(options: QuietTrimOptions) {
  const now = options.now ?? (() => performance.now());
  const settleMs = options.settleMs ?? 15_000;
  let settled: number | null = null;
  let settleAt = 0;
  let quietBefore = false;
  return {
    check(): boolean {
      if (options.busy()) {
        quietBefore = false;
        return false;
      }
      const wasQuiet = quietBefore;
      quietBefore = true;
      if (now() < settleAt) return false;
      const before = options.rss();
      if (settled === null) {
        settled = before;
        return false;
      }
      settled = Math.min(settled, before);
      if (!wasQuiet || before < settled + options.growthBytes) return false;
      const started = now();
      options.trim();
      const ms = now() - started;
      const after = options.rss();
      settled = null;
      settleAt = now() + settleMs;
      options.report?.({ beforeBytes: before, afterBytes: after, ms });
      return true;
    },
  };
}
