/**
 * `npm run layers:graph`: draws docs/layers.md (Mermaid) from the import graph, one box per room of
 * scripts/layers.cjs, one arrow per pair of rooms that import each other (tests left out), with the
 * number of imports on it. Run it after moving files; CI's `npm run layers` checks the rules.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { rooms, roomOf } = require("./layers.cjs");

const json = execFileSync(
  "npx",
  [
    "depcruise",
    "app",
    "api",
    "identity",
    "demo",
    "domain",
    "server",
    "ops",
    "--config",
    ".dependency-cruiser.cjs",
    "--output-type",
    "json",
    "--exclude",
    "\\.(test|spec)\\.tsx?$",
  ],
  { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
);
const { modules } = JSON.parse(json);

const id = (room) => `r${rooms.indexOf(room)}`;
const edges = new Map();
const sizes = new Map();
for (const m of modules) {
  const from = roomOf(m.source);
  if (!from) continue;
  sizes.set(from, (sizes.get(from) ?? 0) + 1);
  for (const d of m.dependencies) {
    const to = roomOf(d.resolved);
    if (!to || to === from) continue;
    const key = `${id(from)}-->${id(to)}`;
    edges.set(key, (edges.get(key) ?? 0) + 1);
  }
}

const sides = [
  ["launcher", "launcher"],
  ["app", "app/ — the web app"],
  ["identity", "identity/ — the identity provider and sessions (main thread)"],
  ["demo", "demo/ — the demo's data, seeders and tools"],
  ["api", "api/ — the embedded LMS API"],
  ["domain", "domain/ — pure rules, shared"],
];
let out = "flowchart TB\n";
for (const [side, title] of sides) {
  const inSide = rooms.filter((r) => r.side === side && sizes.has(r));
  if (inSide.length === 0) continue;
  out += `  subgraph ${side}["${title}"]\n    direction TB\n`;
  for (const floor of [...new Set(inSide.map((r) => r.floor))].sort((a, b) => b - a)) {
    for (const r of inSide.filter((x) => x.floor === floor))
      out += `    ${id(r)}["${r.name}<br/><small>floor ${r.floor} · ${sizes.get(r)} files</small>"]\n`;
  }
  out += "  end\n";
}
for (const [key, count] of [...edges].sort()) {
  const [a, b] = key.split("-->");
  out += `  ${a} -->|${count}| ${b}\n`;
}

const doc = `# The floors of the house

Drawn by \`npm run layers:graph\` from the imports of \`main\` (tests left out) and the rooms of
[\`scripts/layers.cjs\`](../scripts/layers.cjs); \`npm run layers\` (part of \`npm run validate\`) fails on an
arrow that runs up a floor, a forbidden sideways arrow, or a circle of imports (type-only ones included).
The rules and their reasons are in [\`.dependency-cruiser.cjs\`](../.dependency-cruiser.cjs); the
decision is [033](decisions/033-floors.md). Each arrow carries its number of imports.

\`\`\`mermaid
${out}\`\`\`
`;
writeFileSync(new URL("../docs/layers.md", import.meta.url), doc);
console.log(
  `docs/layers.md: ${[...sizes.values()].reduce((a, b) => a + b, 0)} files in ${sizes.size} rooms, ${edges.size} arrows`,
);
