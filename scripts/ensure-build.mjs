// `npm start` builds the app when there is no build yet or the sources are newer than it.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const output = "build/server/index.js";
function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
const sources = ["app", "domain", "locales", "public"].filter(existsSync);
// The content origin's launcher is a build of its own (decision 040): missing, the build is stale too.
const stale =
  !existsSync(output) ||
  !existsSync("build/content/scorm-launcher.js") ||
  sources.some((d) => newest(d) > statSync(output).mtimeMs);
if (stale) {
  console.log("[start] building the app (react-router build)…");
  execSync("npm run build", { stdio: "inherit" });
}
