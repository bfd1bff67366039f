/**
 * What `npm test` (scripts/test.mjs) prints about its own time (decision 052): each part's wall
 * time and its tests' time per project, the count of tests and of runs without JavaScript, and the
 * slowest test files. Read from the reports the runs already write: Playwright's JSON reporter and
 * scripts/vitest-file-times.ts. docs/testing.md says how to read it.
 *
 * Only node: imports and erasable TypeScript, so Node 24 can import it without a loader.
 */
import { isAbsolute, join, relative } from "node:path";
import type { VitestFileTime } from "./vitest-file-times.ts";

/** `npm test`'s budget on the 2-core CI machine (docs/testing.md). */
export const BUDGET_MS = 15 * 60_000;

/** One project of one run: `ms` is its tests' own times added up (over the workers, retries included). */
export interface ProjectTime {
  project: string;
  tests: number;
  ms: number;
}

/** One run of a test runner: vitest, or one Playwright config. */
export interface Part {
  name: string;
  /** What ran it, for the part's line (e.g. its Playwright config). */
  source?: string;
  /** How long the run took, start to end (measured around the process). */
  wallMs: number;
  projects: ProjectTime[];
  files: FileTime[];
}

/** One test file in one project of one part. */
export interface FileTime {
  file: string;
  part: string;
  project: string;
  ms: number;
}

interface PlaywrightResult {
  duration?: number;
}
interface PlaywrightTest {
  projectName?: string;
  status?: string;
  results?: PlaywrightResult[];
}
interface PlaywrightSuite {
  file?: string;
  specs?: { file?: string; tests?: PlaywrightTest[] }[];
  suites?: PlaywrightSuite[];
}
export interface PlaywrightReport {
  config?: { rootDir?: string };
  suites?: PlaywrightSuite[];
}

function addProject(projects: Map<string, ProjectTime>, project: string, ms: number) {
  const p = projects.get(project) ?? { project, tests: 0, ms: 0 };
  p.tests += 1;
  p.ms += ms;
  projects.set(project, p);
}

/** A Playwright config's run from its JSON report; skipped tests are not counted. */
export function playwrightPart(
  name: string,
  wallMs: number,
  report: PlaywrightReport,
  cwd = process.cwd(),
  source?: string,
): Part {
  const root = report.config?.rootDir ?? cwd;
  const projects = new Map<string, ProjectTime>();
  const files = new Map<string, FileTime>();
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      const specFile = spec.file ?? suite.file ?? "?";
      const file = relative(cwd, isAbsolute(specFile) ? specFile : join(root, specFile));
      for (const t of spec.tests ?? []) {
        if (t.status === "skipped") continue;
        const project = t.projectName ?? "";
        const ms = (t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
        addProject(projects, project, ms);
        const key = `${project}\n${file}`;
        const f = files.get(key) ?? { file, part: name, project, ms: 0 };
        f.ms += ms;
        files.set(key, f);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return { name, source, wallMs, projects: [...projects.values()], files: [...files.values()] };
}

/** The vitest run from scripts/vitest-file-times.ts's report; one project `""` without projects. */
export function vitestPart(wallMs: number, times: VitestFileTime[]): Part {
  const projects = new Map<string, ProjectTime>();
  for (const t of times) {
    const p = projects.get(t.project) ?? { project: t.project, tests: 0, ms: 0 };
    p.tests += t.tests;
    p.ms += t.ms;
    projects.set(t.project, p);
  }
  return {
    name: "vitest",
    wallMs,
    projects: [...projects.values()],
    files: times.map((t) => ({ file: t.file, part: "vitest", project: t.project, ms: t.ms })),
  };
}

const seconds = (ms: number) => `${Math.round(ms / 1000).toLocaleString("en-US")} s`;
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const projectName = (p: ProjectTime) => p.project || "tests";

/** The summary's lines: parts, counts, the `slowest` files (a file's projects added, named after it). */
export function summary(parts: Part[], totalWallMs: number, slowest = 15): string[] {
  const lines = ["[test] time per part (wall: start to end; tests: the tests' own times added, over the workers)"];
  const width = Math.max(0, ...parts.map((p) => p.name.length));
  for (const part of parts) {
    const projects = part.projects.map((p) => `${projectName(p)} ${p.tests} tests ${seconds(p.ms)}`).join(" · ");
    const source = part.source ? ` (${part.source})` : "";
    lines.push(
      `  ${part.name.padEnd(width)}  wall ${seconds(part.wallMs).padStart(7)}   ${projects}${source}`.trimEnd(),
    );
  }
  const over = totalWallMs - BUDGET_MS;
  lines.push(
    `  all of npm test: ${minutes(totalWallMs)} (budget ${minutes(BUDGET_MS)}${over > 0 ? `: ${minutes(over)} over` : ""})`,
  );

  const all = parts.flatMap((p) => p.projects.map((project) => ({ part: p.name, ...project })));
  const tests = all.reduce((sum, p) => sum + p.tests, 0);
  const noJs = all.filter((p) => p.project === "nojs").reduce((sum, p) => sum + p.tests, 0);
  const browser = all.filter((p) => p.part !== "vitest").reduce((sum, p) => sum + p.tests, 0);
  lines.push(
    `[test] ${tests} tests: ${tests - browser} in vitest, ${browser} browser runs, ${noJs} of them without JavaScript`,
  );

  const byFile = new Map<string, { file: string; ms: number; parts: FileTime[] }>();
  for (const f of parts.flatMap((p) => p.files)) {
    const entry = byFile.get(f.file) ?? { file: f.file, ms: 0, parts: [] };
    entry.ms += f.ms;
    entry.parts.push(f);
    byFile.set(f.file, entry);
  }
  const top = [...byFile.values()].sort((a, b) => b.ms - a.ms).slice(0, slowest);
  lines.push(`[test] the ${top.length} slowest test files (their tests' times, all projects):`);
  for (const f of top) {
    const where = f.parts
      .sort((a, b) => b.ms - a.ms)
      .map((p) => `${p.part}${p.project ? ` ${p.project}` : ""} ${seconds(p.ms)}`)
      .join(", ");
    lines.push(`  ${seconds(f.ms).padStart(8)}  ${f.file}  (${where})`);
  }
  return lines;
}
