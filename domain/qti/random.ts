/**
 * The attempt's random choices (selection, ordering, shuffled choices) come from its seed, so they
 * are the same on every reload and device, and differ between attempts.
 */

/** A 32-bit hash of a string (FNV-1a). */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, well-spread generator of numbers in [0, 1) from a 32-bit seed. */
export function rng(seed: string): () => number {
  let a = hash32(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles the entries that are not fixed (Fisher–Yates); fixed ones keep their places (QTI's `fixed`). */
export function shuffleKeepingFixed<T>(list: readonly T[], fixed: (t: T) => boolean, random: () => number): T[] {
  const out = [...list];
  const free = out.map((t, i) => (fixed(t) ? -1 : i)).filter((i) => i >= 0);
  const moved = free.map((i) => out[i]!);
  for (let i = moved.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [moved[i], moved[j]] = [moved[j]!, moved[i]!];
  }
  free.forEach((at, k) => (out[at] = moved[k]!));
  return out;
}
