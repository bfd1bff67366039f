// The server build (issue 27 item 3, decision 038): `server/`, the LMS API the database thread
// hosts, the certificate renderer's module and the operators' CLIs, compiled to plain JavaScript in
// build/node/ with esbuild, so production runs no transpiler. `npm run build` runs it after the app's
// build; `npm start` runs `node build/node/server.js` (scripts/ensure-build.mjs builds when stale).
//
// Each entry is one bundle of the project's own code; packages stay in node_modules (imported at run
// time as usual), except BUNDLED_PACKAGES below. Project code finds files beside its source (`new URL("../../locales",
// import.meta.url)`: locales, migrations, the demo data, the worker scripts): in a bundle
// `import.meta.url` would be the bundle's, so every `import.meta.url` of a project module is replaced
// by its source file's URL, written relative to the bundle (the repository can move with its build).
// The worker scripts (`api/db/pglite-worker.mjs`, `api/files/render-child.mjs`) are plain JavaScript
// and run from the source tree; they load the compiled modules the bundle names (`SERVER_BUILD`).
import { build } from "esbuild";
import { readFile, rm } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER_OUT = join(root, "build", "node");

/** Output name (without .js) → source. */
export const SERVER_ENTRIES = {
  // The entry starts the database thread, then imports server-main.js (server/entry.ts).
  server: "server/entry.ts",
  "server-main": "server/index.ts",
  // Hosted by the database thread (api/db/pglite-worker.mjs `host`, decision 012).
  "app-thread": "api/app-thread.ts",
  // Loaded by the certificate renderer's process (api/files/render-child.mjs, decisions 020 and 038).
  "certificate-render": "api/files/certificate-render.ts",
  // The operators' commands (npm run ops, and its aliases sessions | lti:tool | certificates | people | content:import-*).
  "ops-cli": "ops/cli.ts",
  // A node on PostgreSQL seeds the demo from a child process (demo/seed-process.ts, decision 038).
  "seed-child": "demo/seed-child.ts",
};

/**
 * Packages compiled into the bundles rather than imported from node_modules at run time. Node resolves
 * each file of an imported package against its package.json, and Node 24 parses that file's `exports`
 * again for every resolution: drizzle-orm's package.json is 179 KB and a thread resolves its files 444
 * times, which made module loading ~1 s of CPU per thread at start (decision 038, addendum 8). Pure
 * JavaScript with no files of its own to find, so it bundles as it is.
 */
const BUNDLED_PACKAGES = /^drizzle-orm(?:\/|$)/;

/** Every other package stays external (esbuild's `packages: "external"`, less the bundled ones). */
const externalPackages = {
  name: "external-packages",
  setup(b) {
    // Bare specifiers: not relative, not absolute, not the project's `#…` imports or `~/…` alias.
    b.onResolve({ filter: /^[^./#~]/ }, (args) =>
      BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

/** `import.meta.url` of a project module → its source file's URL, relative to the bundle. */
const sourceUrls = {
  name: "source-urls",
  setup(b) {
    b.onLoad({ filter: /\.(?:ts|tsx|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const fromBundle = relative(SERVER_OUT, args.path).split(sep).join("/");
      const sourceUrl = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      const loader = args.path.endsWith(".tsx") ? "tsx" : /\.m?ts$/.test(args.path) ? "ts" : "js";
      return { contents: text.replaceAll("import.meta.url", sourceUrl), loader };
    });
  },
};

export async function buildServer() {
  await rm(SERVER_OUT, { recursive: true, force: true });
  const started = performance.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.entries(SERVER_ENTRIES).map(([out, src]) => ({ out, in: src })),
    outdir: SERVER_OUT,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    // Packages load from node_modules at run time (PGlite's WebAssembly, fonts, pdf.js find their files
    // there), except BUNDLED_PACKAGES.
    outExtension: { ".js": ".js" },
    // Tells the thread hosts to load the compiled modules beside the bundle (api/app-thread.ts, api/files/render-process.ts).
    define: { SERVER_BUILD: "true" },
    sourcemap: "linked",
    logLevel: "warning",
    metafile: true,
    plugins: [externalPackages, sourceUrls],
  });
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"));
  const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
  console.log(
    `[build] server: ${outputs.length} bundles, ${(bytes / 1e6).toFixed(1)} MB in ${relative(root, SERVER_OUT)} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer();
