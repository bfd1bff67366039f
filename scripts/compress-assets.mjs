// After `react-router build`: writes a brotli (.br) and a gzip (.gz) copy beside every compressible
// file of the client build, so the server sends them as they are (chosen by Accept-Encoding) instead
// of compressing the same bytes on every request (decision 016).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = "build/client";
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml|map|webmanifest)$/;
let files = 0;
let before = 0;
let after = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (COMPRESSIBLE.test(entry.name) && statSync(path).size >= 1024) {
      const data = readFileSync(path);
      const br = brotliCompressSync(data, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      });
      writeFileSync(`${path}.br`, br);
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
      files++;
      before += data.length;
      after += br.length;
    }
  }
}
walk(root);
console.log(
  `[build] precompressed ${files} files: ${(before / 1000).toFixed(0)} KB → ${(after / 1000).toFixed(0)} KB brotli`,
);
