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
const stale = !existsSync(output) || sources.some((d) => newest(d) > statSync(output).mtimeMs);
if (stale) {
  console.log("[start] building the app (react-router build)…");
  execSync("npm run build", { stdio: "inherit" });
}
