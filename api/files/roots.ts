import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fileIn } from "./send-file";
import { localStore, type FileStore } from "./object-store";

/** The repository's demo storage (the demo's private files, read-only). */
const demoStorage = localStore(fileURLToPath(new URL("../../storage", import.meta.url)));

/** DATA_DIR/storage, or a folder of this process's own when the API runs without one (tests). */
export function storageDir(dataDir: string | undefined): string {
  return dataDir ? resolve(dataDir, "storage") : join(tmpdir(), `learner-app-storage-${process.pid}`);
}

const stores = new WeakMap<object, FileStore>();

/**
 * Where this API stores files (decision 037): its configured store (`deps.files`: a bucket, or
 * DATA_DIR/storage), else DATA_DIR/storage.
 */
export function fileStore(deps: { files?: FileStore; dataDir?: string }): FileStore {
  if (deps.files) return deps.files;
  let store = stores.get(deps);
  if (!store) stores.set(deps, (store = localStore(storageDir(deps.dataDir))));
  return store;
}

/** Where private activity files are looked for: the store first, then the repository's demo storage. */
export function storageRoots(primary?: FileStore): FileStore[] {
  return primary ? [primary, demoStorage] : [demoStorage];
}

/** The first store's bytes of a stored file (never outside a store: "../" finds nothing), or null. */
export async function readFromRoots(roots: FileStore[], key: string): Promise<Uint8Array | null> {
  for (const root of roots) {
    const bytes = await root.readBytes(key);
    if (bytes) return bytes;
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
