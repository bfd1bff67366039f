// `npm test`: unit + integration tests (vitest), then browser tests (Playwright, JavaScript on and off).
// Finds a Chromium by itself and says what it did; ends with one line "N passed, N failed".
import { spawnSync, execSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const e2eOnly = process.argv.includes("--e2e-only");
const unitOnly = process.argv.includes("--unit-only");
const work = mkdtempSync(join(tmpdir(), "learner-tests-"));
let passed = 0;
let failed = 0;

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function findChromium() {
  if (process.env.PLAYWRIGHT_CHROMIUM_PATH && existsSync(process.env.PLAYWRIGHT_CHROMIUM_PATH)) {
    console.log(`[test] using Chromium from PLAYWRIGHT_CHROMIUM_PATH: ${process.env.PLAYWRIGHT_CHROMIUM_PATH}`);
    return process.env.PLAYWRIGHT_CHROMIUM_PATH;
  }
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (existsSync(p)) {
      console.log(`[test] using Debian's Chromium at ${p}`);
      return p;
    }
  }
  const own = () => {
    try {
      const out = execSync(`node -e "import('@playwright/test').then(m=>console.log(m.chromium.executablePath()))"`, {
        encoding: "utf8",
      }).trim();
      return out && existsSync(out) ? out : null;
    } catch {
      return null;
    }
  };
  let path = own();
  if (path) {
    console.log(`[test] using Playwright's own Chromium at ${path}`);
    return "";
  }
  console.log("[test] no Chromium found: trying `npx playwright install chromium`…");
  if (run("npx", ["playwright", "install", "chromium"]) === 0 && own()) {
    console.log("[test] installed Playwright's Chromium");
    return "";
  }
  if (process.getuid?.() === 0) {
    console.log("[test] Playwright's download failed; installing Debian's chromium with apt-get (running as root)…");
    run("apt-get", ["update", "-qq"]);
    if (run("apt-get", ["install", "-y", "-qq", "chromium"]) === 0 && existsSync("/usr/bin/chromium")) {
      console.log("[test] installed /usr/bin/chromium");
      return "/usr/bin/chromium";
    }
  }
  console.error(
    "[test] could not find or install Chromium. Install it (apt-get install chromium) or set PLAYWRIGHT_CHROMIUM_PATH.",
  );
  return null;
}

if (!e2eOnly) {
  const out = join(work, "vitest.json");
  const status = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`]);
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, "utf8"));
    passed += r.numPassedTests ?? 0;
    failed += (r.numFailedTests ?? 0) + (r.numFailedTestSuites && !r.numFailedTests ? r.numFailedTestSuites : 0);
  } else if (status !== 0) {
    failed += 1;
  }
}

if (!unitOnly) {
  const chromium = findChromium();
  if (chromium === null) {
    failed += 1;
  } else {
    run("node", ["scripts/ensure-build.mjs"]);
    const out = join(work, "playwright.json");
    const dataDir = join(work, "data");
    const status = run("npx", ["playwright", "test"], {
      PW_JSON_OUTPUT: out,
      E2E_DATA_DIR: dataDir,
      ...(chromium ? { PLAYWRIGHT_CHROMIUM_PATH: chromium } : {}),
    });
    if (existsSync(out)) {
      const r = JSON.parse(readFileSync(out, "utf8"));
      passed += (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0);
      failed += r.stats?.unexpected ?? 0;
      if (status !== 0 && !(r.stats?.unexpected > 0)) failed += 1;
    } else if (status !== 0) {
      failed += 1;
    }
  }
}

rmSync(work, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
