// `npm start` and the operators' commands build what is missing or older than its sources (decision 038):
// the app (react-router build, then the server build) when there is no app build or app/, domain/,
// locales/ or public/ changed since; only the server build (scripts/build-server.mjs, about a second)
// when just the server's sources changed. `--server` checks the server build alone (the CLIs need no app).
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const appOutput = "build/server/index.js";
const serverOutput = "build/node/server.js";
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.endsWith(".test.ts")) continue;
    t = Math.max(t, newest(join(path, entry.name)));
  }
  return t;
}
const builtAt = (output) => (existsSync(output) ? statSync(output).mtimeMs : 0);
const stale = (output, sources) => sources.some((s) => newest(s) > builtAt(output));

const serverOnly = process.argv.includes("--server");
// The content origin's launcher (decision 040) and the service worker (decision 044) are builds
// of their own: missing, the app build is stale too.
const ownBuildsMissing = !existsSync("build/content/scorm-launcher.js") || !existsSync("build/client/sw.js");
if (
  !serverOnly &&
  (ownBuildsMissing ||
    stale(appOutput, ["app", "domain", "locales", "public", "vite.sw.config.ts", "scripts/pwa-icons.mjs"]))
) {
  console.log("[start] building the app (npm run build)…");
  execSync("npm run build", { stdio: "inherit" });
} else if (
  stale(serverOutput, [
    "server",
    "ops",
    "api",
    "app",
    "domain",
    "demo",
    "scripts/build-server.mjs",
    "package-lock.json",
  ])
) {
  console.log("[start] building the server (scripts/build-server.mjs)…");
  execSync(`"${process.execPath}" scripts/build-server.mjs`, { stdio: "inherit" });
}
