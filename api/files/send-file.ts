import { existsSync, statSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { Context } from "hono";
import type { FileStore } from "./object-store";

const RANGE = /^bytes=(\d*)-(\d*)$/;

/** A file under `root` (never outside it: "../" in a stored path finds nothing), or null. */
export function fileIn(root: string, relative: string): string | null {
  const full = resolve(root, relative);
  if (!full.startsWith(root + sep)) return null;
  return existsSync(full) && statSync(full).isFile() ? full : null;
}

/**
 * Streams a stored file (a folder's or a bucket's: decision 037) with range support (206 for
 * `Range: bytes=a-b`, 416 when unsatisfiable) — PDF viewers and download managers resume with it;
 * HEAD answers the size only and reads nothing.
 */
export async function sendStored(
  c: Context,
  file: { store: FileStore; key: string; size: number },
  headers: Record<string, string>,
): Promise<Response> {
  const { size } = file;
  const out: Record<string, string> = { ...headers, "Accept-Ranges": "bytes", "X-Content-Type-Options": "nosniff" };
  const range = c.req.header("range");
  let start = 0;
  let end = size - 1;
  let status = 200;
  if (range) {
    const m = RANGE.exec(range.trim());
    const from = m?.[1] ? Number(m[1]) : null;
    const to = m?.[2] ? Number(m[2]) : null;
    if (!m || (from === null && to === null)) return c.body(null, 416, { ...out, "Content-Range": `bytes */${size}` });
    if (from === null) start = Math.max(0, size - (to as number));
    else {
      start = from;
      end = to === null ? size - 1 : Math.min(to, size - 1);
    }
    if (start > end || start >= size) return c.body(null, 416, { ...out, "Content-Range": `bytes */${size}` });
    status = 206;
    out["Content-Range"] = `bytes ${start}-${end}/${size}`;
  }
  out["Content-Length"] = String(end - start + 1);
  if (c.req.method === "HEAD" || size === 0) return c.body(null, status as 200, out);
  const stream = await file.store.read(file.key, status === 206 ? { start, end } : undefined);
  return c.body(stream, status as 200, out);
}
