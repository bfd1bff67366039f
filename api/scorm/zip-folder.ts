/**
 * A package's source folder zipped to a temporary file: the demo packages (demo/data/scorm/) are
 * kept as folders and zipped when the seed imports them, and the tests make their packages the same
 * way (fflate; the files are small). `extra` adds or overrides entries (a test's unsafe names).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { tmpdir } from "node:os";
import { randomUUID } from "node:crypto";
import { zipSync, type Zippable } from "fflate";

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesOf(full) : [full];
  });
}

/** Zips `dir` (and `extra` entries) into a new temporary file and returns its path. */
export function zipFolder(dir: string | null, extra: Record<string, Uint8Array | string> = {}): string {
  const entries: Zippable = {};
  for (const file of dir ? filesOf(dir) : []) entries[relative(dir!, file).split(sep).join("/")] = readFileSync(file);
  for (const [name, content] of Object.entries(extra))
    entries[name] = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const path = join(tmpdir(), `scorm-${randomUUID()}.zip`);
  writeFileSync(path, zipSync(entries));
  return path;
}
