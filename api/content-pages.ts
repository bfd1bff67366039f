/**
 * The text of PDF activities, page by page, for the tutor's retrieval (issue 16 item 5, decision 028).
 *
 * A PDF activity's text is extracted on the server with pdfjs-dist (its legacy build runs in Node) when
 * the content is stored or changed — the demo seed, the SCORM import that replaces an activity's
 * content, any other path that writes `activities.content` calls `reindexContentPages` — and kept in
 * `content_pages`, one row per page. The tutor searches those rows at question time, only for the parts
 * the learner may open (api/queries/tutor.ts `retrieve`).
 */
import { readFile } from "node:fs/promises";
import type { FileStore } from "./files/object-store";
import { log } from "./db/log";
import { inArray } from "drizzle-orm";
import type { Db, Tx } from "./db/client";
import { activities, contentPages } from "./db/schema";
import { publicFile, readFromRoots } from "./files/roots";
import { ActivityContentType } from "../domain/vocabulary";

/** Pages read per document at most, and characters kept per page: a bound on one upload's work and rows. */
const CONTENT_PAGES_MAX = 2000;
const PAGE_TEXT_MAX = 20_000;

type Row = typeof contentPages.$inferInsert;

/** An activity as stored: what decides whether it is a PDF and where its bytes are. */
export interface StoredContent {
  id: string;
  contentType: number;
  content: unknown;
}

/**
 * A PDF activity's file: `source` as the content names it (its private `path`, or its public `url`),
 * `file` where the server reads it (null when it is not here, e.g. a public file on another host: the
 * server fetches nothing). Null for anything that is not a PDF file.
 */
function pdfFileOf(
  activity: StoredContent,
  roots: FileStore[],
): { source: string; read: (() => Promise<Uint8Array | null>) | null } | null {
  const c = (activity.content ?? {}) as { path?: unknown; url?: unknown; mimeType?: unknown; fileName?: unknown };
  const privateFile = activity.contentType === ActivityContentType.PrivateFile;
  if (!privateFile && activity.contentType !== ActivityContentType.PublicFile) return null;
  const source = privateFile ? c.path : c.url;
  if (typeof source !== "string" || !source) return null;
  const named = [source, c.fileName].some((n) => typeof n === "string" && /\.pdf$/i.test(n.split(/[?#]/)[0]));
  if (c.mimeType !== "application/pdf" && !named) return null;
  if (privateFile) return { source, read: () => readFromRoots(roots, source) };
  const file = publicFile(source);
  return { source, read: file ? () => readFile(file).then((b) => new Uint8Array(b)) : null };
}

/** The text of each page of a PDF, in reading order, whitespace collapsed (at most CONTENT_PAGES_MAX pages). */
async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  // Loaded on first use only: a server that indexes nothing never loads pdf.js.
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, CONTENT_PAGES_MAX); n++) {
      const page = await doc.getPage(n);
      const { items } = await page.getTextContent();
      const text = items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : " ") : ""))
        .join("")
        // PostgreSQL text holds no NUL; runs of spaces and line ends carry nothing for the search.
        .replace(/\0/g, "")
        .replace(/\s+/g, " ")
        .trim();
      pages.push(text.slice(0, PAGE_TEXT_MAX));
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/**
 * The page rows of these activities from their content as stored. Each file is read once however many
 * activities name it. A PDF that cannot be read or parsed gives no rows (the viewer still offers it);
 * the failure is logged.
 */
export async function contentPageRows(items: StoredContent[], roots: FileStore[]): Promise<Row[]> {
  const texts = new Map<string, Promise<string[]>>();
  const rows: Row[] = [];
  for (const activity of items) {
    const pdf = pdfFileOf(activity, roots);
    if (!pdf?.read) continue;
    const file = pdf.source;
    if (!texts.has(file))
      texts.set(
        file,
        pdf
          .read()
          .then((bytes) => (bytes ? pdfPageTexts(bytes) : []))
          .catch((err: unknown) => {
            log().warn({ err, source: pdf.source }, "content-pages: no text extracted");
            return [];
          }),
      );
    const pages = await texts.get(file)!;
    pages.forEach((text, i) => {
      if (text) rows.push({ activityId: activity.id, page: i + 1, source: pdf.source, text });
    });
  }
  return rows;
}

/** Writes page rows (in chunks: a long PDF is many rows). */
export async function insertContentPages(db: Db | Tx, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.insert(contentPages).values(rows.slice(i, i + 500));
}

/**
 * Re-indexes activities from their stored content after it was written: their pages replaced by the
 * pages of the PDF they now name, or removed when they no longer name one. Call it in the transaction
 * that changed the content, so a search never sees one without the other.
 */
export async function reindexContentPages(db: Db | Tx, activityIds: string[], roots: FileStore[]): Promise<void> {
  if (activityIds.length === 0) return;
  const stored = await db
    .select({ id: activities.id, contentType: activities.contentType, content: activities.content })
    .from(activities)
    .where(inArray(activities.id, activityIds));
  const rows = await contentPageRows(stored, roots);
  await db.delete(contentPages).where(inArray(contentPages.activityId, activityIds));
  await insertContentPages(db, rows);
}
