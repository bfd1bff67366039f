import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fileIn } from "./send-file";

/** Where private files live: DATA_DIR/storage first, then the repository's demo storage. */
export function storageRoots(dataDir?: string): string[] {
  const roots = [fileURLToPath(new URL("../../storage", import.meta.url))];
  if (dataDir) roots.unshift(resolve(dataDir, "storage"));
  return roots;
}

/** The first root that holds the file (never outside a root: "../" in a stored path finds nothing). */
export function resolveInRoots(roots: string[], relative: string): string | null {
  for (const root of roots) {
    const full = fileIn(root, relative);
    if (full) return full;
  }
  return null;
}

const PUBLIC_DIR = fileURLToPath(new URL("../../public", import.meta.url));

/**
 * The file in public/ behind a public-file URL the app itself serves (`/learn/…`: the app serves public/
 * under its base path), or null — a file on another host is not read by the server.
 */
export function publicFile(url: string): string | null {
  const m = /^\/learn\/([^?#]+)$/.exec(url);
  if (!m) return null;
  try {
    return fileIn(PUBLIC_DIR, decodeURIComponent(m[1]));
  } catch {
    return null;
  }
}
