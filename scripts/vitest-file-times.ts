/**
 * A vitest reporter for `npm test` (scripts/test.mjs): each test file's time, per project (`pglite`,
 * `postgres`), written as JSON to the file named by VITEST_FILE_TIMES. vitest's JSON reporter has
 * neither: its per-file times start at the first test (no import, no `beforeAll`, where a file makes
 * its database or starts its servers) and a file run in both projects appears twice without a name.
 *
 * Only erasable TypeScript and type imports: vitest loads it through its own transform.
 */
import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/** One test file's run: `ms` all of it (environment, import, hooks and tests), `collectMs` its import. */
export interface VitestFileTime {
  project: string;
  file: string;
  ms: number;
  collectMs: number;
  tests: number;
}

export default class VitestFileTimes implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]) {
    const out = process.env.VITEST_FILE_TIMES;
    if (!out) return;
    const files: VitestFileTime[] = modules.map((m) => {
      const d = m.diagnostic();
      return {
        project: m.project.name,
        file: m.relativeModuleId,
        ms: Math.max(
          0,
          d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        ),
        collectMs: Math.max(0, d.collectDuration),
        tests: [...m.children.allTests()].length,
      };
    });
    writeFileSync(out, JSON.stringify(files));
  }
}
