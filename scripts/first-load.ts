// Prints the first-load JavaScript of every page route of the production build (gzip -9, KB = 1000 B).
// `npx react-router build && npx tsx scripts/first-load.ts` — the bench prints the same figures.
import { measureFirstLoadJs, readManifest } from "../bench/lib/first-load-js";

const manifest = readManifest("build");
const ids = Object.keys(manifest.manifest.routes).filter((id) => id !== "root");
for (const r of measureFirstLoadJs("build", ids).sort((a, b) => b.gzipBytes - a.gzipBytes)) {
  console.log(`${(r.gzipBytes / 1000).toFixed(1).padStart(6)} KB  ${r.routeId}`);
}
