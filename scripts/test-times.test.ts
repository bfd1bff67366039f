import { describe, expect, it } from "vitest";
import { playwrightPart, summary, vitestPart, type PlaywrightReport } from "./test-times";

const cwd = "/repo";
/** A Playwright JSON report's shape: files → describe blocks → specs → one test per project. */
const report: PlaywrightReport = {
  config: { rootDir: "/repo/tests/e2e" },
  suites: [
    {
      file: "walk.spec.ts",
      specs: [
        {
          file: "walk.spec.ts",
          tests: [
            { projectName: "js", status: "expected", results: [{ duration: 10_000 }] },
            { projectName: "nojs", status: "skipped", results: [{ duration: 0 }] },
          ],
        },
      ],
      suites: [
        {
          specs: [
            {
              file: "walk.spec.ts",
              tests: [
                // A retried test: both runs count.
                { projectName: "js", status: "flaky", results: [{ duration: 4_000 }, { duration: 6_000 }] },
                { projectName: "nojs", status: "expected", results: [{ duration: 3_000 }] },
              ],
            },
          ],
        },
      ],
    },
    {
      file: "form.spec.ts",
      specs: [
        { file: "form.spec.ts", tests: [{ projectName: "nojs", status: "expected", results: [{ duration: 2_000 }] }] },
      ],
    },
  ],
};

describe("npm test's times", () => {
  it("adds a Playwright run's tests per project and per file, retries in, skipped tests out", () => {
    const part = playwrightPart("e2e", 30_000, report, cwd);
    expect(part.projects).toEqual([
      { project: "js", tests: 2, ms: 20_000 },
      { project: "nojs", tests: 2, ms: 5_000 },
    ]);
    expect(part.files).toEqual([
      { file: "tests/e2e/walk.spec.ts", part: "e2e", project: "js", ms: 20_000 },
      { file: "tests/e2e/walk.spec.ts", part: "e2e", project: "nojs", ms: 3_000 },
      { file: "tests/e2e/form.spec.ts", part: "e2e", project: "nojs", ms: 2_000 },
    ]);
  });

  it("prints the parts, the counts and the slowest files, a file's projects added", () => {
    const vitest = vitestPart(50_000, [
      { project: "pglite", file: "api/a.test.ts", ms: 30_000, collectMs: 1_000, tests: 40 },
      { project: "postgres", file: "api/a.test.ts", ms: 12_000, collectMs: 1_000, tests: 40 },
      { project: "pglite", file: "domain/b.test.ts", ms: 100, collectMs: 50, tests: 7 },
    ]);
    const lines = summary([vitest, playwrightPart("e2e", 30_000, report, cwd)], 16 * 60_000, 2);
    expect(lines).toContain("  all of npm test: 16.0 min (budget 15.0 min: 1.0 min over)");
    expect(lines).toContain("[test] 91 tests: 87 in vitest, 4 browser runs, 2 of them without JavaScript");
    expect(lines.find((l) => l.startsWith("  vitest"))).toContain("pglite 47 tests 30 s · postgres 40 tests 12 s");
    const slowest = lines.slice(
      lines.indexOf("[test] the 2 slowest test files (their tests' times, all projects):") + 1,
    );
    expect(slowest).toEqual([
      "      42 s  api/a.test.ts  (vitest pglite 30 s, vitest postgres 12 s)",
      "      23 s  tests/e2e/walk.spec.ts  (e2e js 20 s, e2e nojs 3 s)",
    ]);
  });

  it("says nothing is over when the run is within the budget", () => {
    expect(summary([], 14 * 60_000)).toContain("  all of npm test: 14.0 min (budget 15.0 min)");
  });
});
