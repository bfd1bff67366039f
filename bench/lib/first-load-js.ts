/**
 * First-load JavaScript per route, from the production build: what a browser downloads on a
 * document request for that route — the client entry and its imports, and the module of every
 * route in the match chain (root → layouts → page) with their imports — each file gzipped at
 * level 9, summed. The manifest script (manifest-*.js) counts only with route discovery "initial":
 * with "lazy" (the default, used here) the page inlines the part of the manifest it needs instead.
 *
 * The list comes from React Router's client manifest (build/client/assets/manifest-*.js, the
 * `window.__reactRouterManifest = {...}` script), which is exactly what the server turns into the
 * page's <link rel="modulepreload"> tags. The bench cross-checks it against the served HTML
 * (scriptsInHtml). Vite's own manifest (build/client/.vite/manifest.json) is not used: React Router
 * deletes it after the build unless `build.manifest` is on, and it does not know the route chain.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

interface ManifestEntry {
  module: string;
  imports?: string[];
  css?: string[];
}
interface ManifestRoute extends ManifestEntry {
  id: string;
  parentId?: string;
  path?: string;
}
interface ReactRouterManifest {
  entry: ManifestEntry;
  routes: Record<string, ManifestRoute>;
  url?: string;
}

interface FileSize {
  url: string;
  bytes: number;
  gzipBytes: number;
}

export interface FirstLoadJs {
  routeId: string;
  /** Route ids from root to the page. */
  chain: string[];
  files: FileSize[];
  bytes: number;
  gzipBytes: number;
}

const MANIFEST_PREFIX = "window.__reactRouterManifest=";

export interface ClientManifest {
  manifest: ReactRouterManifest;
  /** URL of the manifest script. */
  url: string;
  /** React Router's route discovery mode: "lazy" inlines the manifest in the page, "initial" loads the script. */
  discovery: "lazy" | "initial";
}

/** Reads the client manifest the server build points at (the first one if it cannot tell). */
export function readManifest(buildDir: string): ClientManifest {
  const assets = join(buildDir, "client", "assets");
  const candidates = readdirSync(assets).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (candidates.length === 0) throw new Error(`no React Router manifest (manifest-*.js) in ${assets}: build first`);
  const serverBuild = join(buildDir, "server", "index.js");
  const serverSource = existsSync(serverBuild) ? readFileSync(serverBuild, "utf8") : "";
  const file = candidates.find((c) => serverSource.includes(`/assets/${c}`)) ?? candidates[0];
  const discovery = /\brouteDiscovery\s*=\s*\{\s*"mode"\s*:\s*"initial"/.test(serverSource) ? "initial" : "lazy";
  const text = readFileSync(join(assets, file), "utf8").trim();
  if (!text.startsWith(MANIFEST_PREFIX)) throw new Error(`${file} does not start with ${MANIFEST_PREFIX}`);
  const manifest = JSON.parse(text.slice(MANIFEST_PREFIX.length).replace(/;\s*$/, "")) as ReactRouterManifest;
  const base = manifest.entry.module.slice(0, manifest.entry.module.lastIndexOf("/") + 1);
  return { manifest, url: `${base}${file}`, discovery };
}

/** Route ids from the root down to `routeId`. */
function routeChain(manifest: ReactRouterManifest, routeId: string): string[] {
  const chain: string[] = [];
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    if (!manifest.routes[id]) throw new Error(`route "${id}" is not in the build's manifest`);
    chain.unshift(id);
  }
  return chain;
}

/** Every JavaScript URL a document request for `routeId` loads, in load order, without duplicates. */
export function firstLoadUrls({ manifest, url: manifestUrl, discovery }: ClientManifest, routeId: string): string[] {
  const urls = new Set<string>([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
  if (discovery === "initial") urls.add(manifestUrl);
  for (const id of routeChain(manifest, routeId)) {
    const route = manifest.routes[id];
    urls.add(route.module);
    for (const url of route.imports ?? []) urls.add(url);
  }
  return [...urls].filter((url) => url.endsWith(".js"));
}

export function measureFirstLoadJs(buildDir: string, routeIds: string[]): FirstLoadJs[] {
  const client = readManifest(buildDir);
  const { manifest } = client;
  const assetsUrlBase = manifest.entry.module.slice(0, manifest.entry.module.lastIndexOf("/assets/") + 1);
  const sizes = new Map<string, FileSize>();
  const sizeOf = (url: string): FileSize => {
    let size = sizes.get(url);
    if (!size) {
      const content = readFileSync(join(buildDir, "client", url.slice(assetsUrlBase.length)));
      size = { url, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
      sizes.set(url, size);
    }
    return size;
  };
  return routeIds.map((routeId) => {
    const files = firstLoadUrls(client, routeId).map(sizeOf);
    return {
      routeId,
      chain: routeChain(manifest, routeId),
      files,
      bytes: files.reduce((sum, f) => sum + f.bytes, 0),
      gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
    };
  });
}

/** Script URLs a served document loads: module preloads, script tags and inline import()s. */
export function scriptsInHtml(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (href) urls.add(href);
  }
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/\bimport\s*\(?\s*"([^"]+\.js)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/\bimport\s+[\w*{}\s,$]+\s+from\s+"([^"]+\.js)"/g)) urls.add(m[1]);
  return [...urls].filter((url) => url.endsWith(".js"));
}
