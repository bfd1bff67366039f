/**
 * Files written so that a crash leaves nothing (issue 29 item 4, decision 039). Every kind of stored
 * file is written under a temporary name and renamed into place when whole — chat attachments,
 * certificate PDFs and PNGs, a SCORM package's unpacked folder, the outbox's e-mails, the LTI tool
 * registry, the deployment's secrets — and an upload is streamed to a temporary file first. A process
 * killed halfway leaves its temporary names behind (a killed chat upload left `<id>.<pid>.tmp` files
 * of 0.5 and 1.5 MB for good); `sweepTemporaryFiles` removes them at start and with the periodic
 * clean-up.
 */
import { existsSync, renameSync, rmSync, writeFileSync, type WriteFileOptions } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The temporary names this project writes (and the object store's, decision 037): `<name>.<pid>.tmp`,
 * `<name>.<pid>.<anything>.tmp`, and a SCORM package's staging folder `<uuid>.tmp` / `<uuid>.<uuid>.tmp`.
 */
const TEMPORARY = [/\.\d+(\.[\w-]+)?\.tmp$/, /^[0-9a-f]{8}-[0-9a-f-]{27}(\.[0-9a-f-]{36})?\.tmp$/i];
export const isTemporaryName = (name: string) => TEMPORARY.some((re) => re.test(name));

/** A temporary name beside `path`, of this process. */
const temporaryPath = (path: string) => `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;

/** Writes a file whole or not at all: a temporary file, then a rename (a reader never sees half of it). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options?: WriteFileOptions): void {
  const tmp = temporaryPath(path);
  try {
    writeFileSync(tmp, data, options);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Uploads streamed to disk before they are read (SCORM packages): in the system's temporary folder. */
const UPLOAD = /^scorm-upload-(\d+)-[\w-]+\.zip$/;
export const uploadPath = () => join(tmpdir(), `scorm-upload-${process.pid}-${randomUUID()}.zip`);

/** The newest change inside `path` (a folder's files included), in ms. */
async function newestChange(path: string): Promise<number> {
  const stats = await lstat(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestChange(join(path, entry)));
  return newest;
}

const alive = (pid: number) => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

export interface SweepOptions {
  /** Only what has not changed for this long (another node may be writing into a shared folder). 0: all. */
  olderThanMs: number;
  now?: number;
}

/**
 * Removes temporary files and folders left by killed writers: under DATA_DIR/storage (the kinds'
 * folders and a chat message's folder, never inside a package's files), the outbox and DATA_DIR itself
 * (atomic writes of the registry and the secrets), and uploads in the system's temporary folder whose
 * process is gone. Returns how many it removed.
 */
export async function sweepTemporaryFiles(dataDir: string, options: SweepOptions): Promise<number> {
  const now = options.now ?? Date.now();
  let removed = 0;
  // 0 means every one, whatever its time says (a file's mtime can be a moment ahead of Date.now()).
  const stale = async (path: string) =>
    options.olderThanMs <= 0 || now - (await newestChange(path)) >= options.olderThanMs;
  /** `into(relative)`: whether to look inside a folder (its path under the swept root). */
  const sweep = async (root: string, relative: string, into: (relative: string) => boolean) => {
    const dir = relative ? join(root, relative) : root;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      try {
        if (isTemporaryName(entry.name)) {
          if (await stale(path)) {
            await rm(path, { recursive: true, force: true });
            removed++;
          }
        } else {
          const inner = relative ? `${relative}/${entry.name}` : entry.name;
          if (entry.isDirectory() && into(inner)) await sweep(root, inner, into);
        }
      } catch {
        // gone meanwhile, or not ours to read: the next sweep looks again
      }
    }
  };
  // storage/<kind>/… and storage/chat/<message>/…; a SCORM package's own files are left alone.
  const storage = join(dataDir, "storage");
  await sweep(storage, "", (relative) => {
    const parts = relative.split("/");
    return parts.length === 1 || (parts.length === 2 && parts[0] !== "scorm");
  });
  await sweep(join(dataDir, "outbox"), "", () => false);
  await sweep(dataDir, "", () => false);
  // Uploads of processes of this machine that are gone (another server's are left to it).
  for (const name of existsSync(tmpdir()) ? await readdir(tmpdir()) : []) {
    const pid = Number(UPLOAD.exec(name)?.[1]);
    if (!pid || alive(pid)) continue;
    await rm(join(tmpdir(), name), { force: true }).catch(() => undefined);
    removed++;
  }
  return removed;
}
