/**
 * After a burst, once the node is quiet (nothing refused or waiting, under 20 requests a second), V8's
 * free heap and the C allocator's free memory go back to the system (decision 038).
 * MEMORY_TRIM_AFTER_MB=0 turns it off.
 */
import { rootLog } from "../../app/services/logger.server";
import type { AdmissionControl } from "./admission";
import { loadFullCollection, loadMallocTrim, quietTrimmer, releaseMemory } from "./memory-trim";

export function trimMemoryWhenQuiet(admission: AdmissionControl, requestsSeen: () => number, afterMb: number): void {
  const mallocTrim = loadMallocTrim();
  if (!mallocTrim || afterMb <= 0) return;
  let last = admission.stats();
  let lastSeen = requestsSeen();
  const trimmer = quietTrimmer({
    trim: releaseMemory(mallocTrim, loadFullCollection()),
    rss: () => process.memoryUsage.rss(),
    busy: () => {
      const now = admission.stats();
      const seen = requestsSeen();
      const busy = now.refused !== last.refused || now.waiting > 0 || seen - lastSeen >= 20;
      last = now;
      lastSeen = seen;
      return busy;
    },
    growthBytes: afterMb * 1024 * 1024,
    report: ({ beforeBytes, afterBytes, ms }) =>
      rootLog.info(
        { beforeMb: Math.round(beforeBytes / 2 ** 20), afterMb: Math.round(afterBytes / 2 ** 20), ms: Math.round(ms) },
        "memory: returned to the system after a burst",
      ),
  });
  setInterval(() => trimmer.check(), 1_000).unref();
}
