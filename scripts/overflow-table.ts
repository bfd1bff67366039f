// Issue 25 item 1: prints the sideways-overflow table of every page route (route × width × language ×
// JavaScript) as Markdown. `npm run overflow` builds, runs tests/e2e/phone-walk.spec.ts in both projects
// with OVERFLOW_REPORT set, and prints what it measured; `npm run overflow -- --from <file>` prints a
// report written before. Cells are the document's `scrollWidth − clientWidth` in px (· = 0).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Row {
  route: string;
  label: string;
  width: number;
  lng: string;
  js: boolean;
  overflow: number;
}

const from = process.argv.indexOf("--from");
let file: string;
let status = 0;
if (from > 0) {
  file = process.argv[from + 1];
} else {
  file = join(mkdtempSync(join(tmpdir(), "overflow-")), "report.jsonl");
  const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
  const run = spawnSync(
    "npx",
    ["playwright", "test", "tests/e2e/phone-walk.spec.ts", "--project=js", "--project=nojs", "--workers=1"],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        OVERFLOW_REPORT: file,
        PLAYWRIGHT_CHROMIUM_PATH: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? chromium ?? "",
      },
    },
  );
  status = run.status ?? 1;
}
if (!existsSync(file)) {
  console.error(`no report at ${file}`);
  process.exit(1);
}

const rows = readFileSync(file, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row);
const columns = [true, false].flatMap((js) =>
  [320, 390].flatMap((width) => ["en-US", "ar"].map((lng) => ({ js, width, lng }))),
);
const stops = [...new Map(rows.map((r) => [`${r.route}\u0000${r.label}`, r])).values()];
const cell = (s: Row, c: (typeof columns)[number]) => {
  const r = rows.findLast(
    (x) => x.route === s.route && x.label === s.label && x.js === c.js && x.width === c.width && x.lng === c.lng,
  );
  return r === undefined ? "–" : r.overflow > 0 ? `+${r.overflow}` : "·";
};
const head = columns.map((c) => `${c.js ? "JS" : "no JS"} ${c.width} ${c.lng === "ar" ? "ar" : "en"}`);
console.log(`| page (route) | ${head.join(" | ")} |`);
console.log(`| --- | ${columns.map(() => "---:").join(" | ")} |`);
for (const s of stops) console.log(`| ${s.label} (\`${s.route}\`) | ${columns.map((c) => cell(s, c)).join(" | ")} |`);
const over = rows.filter((r) => r.overflow > 0).length;
console.log(`\n${rows.length} measurements, ${over} with sideways overflow (report: ${file}).`);
process.exit(over > 0 ? 1 : status);
