/**
 * Importing a SCORM package (issue 15 item 1, decision 025): the zip is read with yauzl, which streams
 * and tells each entry's name and size before anything is extracted. Every entry name is checked
 * (no "../", no absolute paths), the declared sizes are summed against a limit (zip bombs), yauzl
 * checks while inflating that no entry is larger than it declared, the manifest is parsed and every
 * launch file must be in the package. Only then are the files written — into a staging folder that is
 * moved into the store (renamed into DATA_DIR/storage, or uploaded to the bucket: decision 037) — and
 * the package row and the activity's content written in one transaction. A refused package leaves
 * nothing behind.
 */
import { createWriteStream } from "node:fs";
import { uploadPath } from "../files/temporary";
import { mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { randomUUID } from "node:crypto";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import type yauzl from "yauzl";
import {
  isSafeEntryName,
  launchFile,
  SCORM_DEFAULT_MAX_SCORE,
  scormScos,
  type ScormManifest,
} from "../../domain/scorm";
import { reindexContentPages } from "../content-pages";
import { ActivityContentType, ActivityKind, ActivityType } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import { importTarget } from "./import-target";
import type { FileStore } from "../files/object-store";
import { storageRoots } from "../files/roots";
import { activities, objectives, scormPackages } from "../db/schema";
import { parseManifest, ScormPackageError } from "./manifest";

/** Default limits; `SCORM_MAX_BYTES` / `SCORM_MAX_ENTRIES` change them (server.ts, the CLI). */
export const SCORM_LIMITS = { maxBytes: 500 * 1024 * 1024, maxEntries: 10_000 };

const MANIFEST = "imsmanifest.xml";
const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;

/** Where packages live under the storage root: scorm/<package id>/… */
export const scormDir = (packageId: string) => `scorm/${packageId}`;

export interface ImportOptions {
  /** The zip on disk (the API streams an upload to a temporary file first). */
  zipPath: string;
  /** Where the package's files go (DATA_DIR/storage or a bucket). */
  store: FileStore;
  /** The course's tenant; the operator's CLI leaves it out (a code held by two tenants is refused then). */
  tenantId?: string;
  /** The course by its code: its root activity receives the package unless `activityId` names another. */
  courseCode: string;
  activityId?: string;
  title?: string;
  limits?: { maxBytes: number; maxEntries: number };
}

export interface ImportedPackage {
  id: string;
  activityId: string;
  version: ScormManifest["version"];
  title: string;
  scoCount: number;
  bytes: number;
}

/** yauzl is imported by the first package, not at every start (decision 038). */
export const openZip = async (path: string) => {
  const { default: unzip } = await import("yauzl");
  return new Promise<yauzl.ZipFile>((resolve, reject) =>
    unzip.open(
      path,
      { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
      (err, zip) =>
        err || !zip ? reject(new ScormPackageError("notZip", "The file is not a zip archive.", 400)) : resolve(zip),
    ),
  );
};

export const readStream = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(err) : resolve(stream))),
  );

/** Every entry of the zip's central directory, without reading any content. */
export function listEntries(
  zip: yauzl.ZipFile,
  limits: { maxBytes: number; maxEntries: number },
): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    let total = 0;
    zip.on("entry", (entry: yauzl.Entry) => {
      if (!isSafeEntryName(entry.fileName)) {
        reject(new ScormPackageError("unsafePath", `The zip holds an unsafe path: "${entry.fileName.slice(0, 200)}".`));
        return;
      }
      total += entry.uncompressedSize;
      if (entries.length >= limits.maxEntries || total > limits.maxBytes) {
        reject(
          new ScormPackageError(
            "tooLarge",
            `The package unpacks to more than ${limits.maxBytes} bytes or ${limits.maxEntries} files.`,
            413,
          ),
        );
        return;
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.on("error", (e: Error) =>
      reject(
        // yauzl itself refuses absolute and "../" names while it reads the central directory.
        /invalid relative path|absolute path|invalid characters in fileName/.test(e.message)
          ? new ScormPackageError("unsafePath", `The zip holds an unsafe path (${e.message}).`)
          : new ScormPackageError("notZip", `The zip archive is damaged: ${e.message}`, 400),
      ),
    );
    zip.readEntry();
  });
}

async function readText(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  if (entry.uncompressedSize > MANIFEST_MAX_BYTES)
    throw new ScormPackageError("manifestInvalid", "imsmanifest.xml is too large.");
  const chunks: Buffer[] = [];
  for await (const chunk of await readStream(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
}

/** Reads, checks and stores a package; throws ScormPackageError (nothing stored) when it is refused. */
/** The database or a transaction on it (the seed imports inside its own). */
type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export async function importScormPackage(db: Queryable, options: ImportOptions): Promise<ImportedPackage> {
  const limits = options.limits ?? SCORM_LIMITS;
  const { course, part } = await importTarget(db, options, "a package");
  const activityId = part.activityId;

  const zip = await openZip(options.zipPath);
  const id = randomUUID();
  const prefix = scormDir(id);
  const tmpDir = options.store.stagingDir(prefix);
  let moved = false;
  try {
    const entries = await listEntries(zip, limits);
    const files = new Map(entries.filter((e) => !e.fileName.endsWith("/")).map((e) => [e.fileName, e]));
    const manifestEntry = files.get(MANIFEST);
    if (!manifestEntry)
      throw new ScormPackageError("noManifest", "The package has no imsmanifest.xml at the top of the zip.");
    const manifest = parseManifest(await readText(zip, manifestEntry));
    const scos = scormScos(manifest.items);
    for (const sco of scos) {
      const file = launchFile(sco.launch!);
      if (/^[a-z][a-z0-9+.-]*:/i.test(file)) continue; // an absolute URL is launched as it is
      if (!isSafeEntryName(file)) throw new ScormPackageError("unsafePath", `The launch path "${file}" is unsafe.`);
      if (!files.has(file))
        throw new ScormPackageError(
          "missingLaunch",
          `The launch file "${file}" of "${sco.title}" is not in the package.`,
        );
    }
    let bytes = 0;
    for (const [name, entry] of files) {
      const out = join(tmpDir, name);
      await mkdir(dirname(out), { recursive: true });
      // yauzl fails the stream when an entry inflates to more than its declared size (validateEntrySizes).
      await pipeline(await readStream(zip, entry), createWriteStream(out, { flags: "wx" }));
      bytes += entry.uncompressedSize;
    }
    await mkdir(tmpDir, { recursive: true });
    await options.store.putFolder(prefix, tmpDir);
    moved = true;
    const title = options.title ?? (manifest.title || scos[0]?.title || options.courseCode);
    try {
      await db.transaction(async (tx) => {
        await tx.insert(scormPackages).values({
          id,
          tenantId: course.tenantId,
          activityId,
          version: manifest.version,
          title,
          manifest,
          bytes,
        });
        // Issue 30 item 7: every field that decides how the activity is shown, whatever it was before
        // (a video's content type made the learner see a video frame and "Mark as done").
        await tx
          .update(activities)
          .set({
            kind: ActivityKind.lti,
            contentType: ActivityContentType.Lti13,
            type: ActivityType.Scorm,
            content: { scorm: { packageId: id, version: manifest.version } },
            toolUrl: null,
            duration: null,
            preferredWidth: null,
            preferredHeight: null,
            manualGrading: false,
            // The package grades itself: its score counts out of the activity's maximum, 100 by default.
            maxScore: sql`coalesce(${activities.maxScore}, ${SCORM_DEFAULT_MAX_SCORE})`,
            supportLtiGrading: false,
            supportCollaborativeMode: false,
            supportPersonalMode: true,
          })
          .where(eq(activities.id, activityId));
        // A course whose root activity is the package is a SCORM course: its own kind and type say so
        // (the course page and the cards read them).
        if (part.parentPartId === null)
          await tx
            .update(objectives)
            .set({ activityKind: ActivityKind.lti, type: ActivityType.Scorm })
            .where(eq(objectives.id, course.id));
        // The activity's content changed: the tutor's index of it follows (a PDF it held is gone).
        await reindexContentPages(tx, [activityId], storageRoots(options.store));
      });
    } catch (e) {
      await options.store.deletePrefix(prefix);
      throw e;
    }
    return { id, activityId, version: manifest.version, title, scoCount: scos.length, bytes };
  } catch (e) {
    if (!moved) await rm(tmpDir, { recursive: true, force: true });
    if (e instanceof ScormPackageError) throw e;
    if (e instanceof Error && /too many bytes|invalid|bad|unexpected/i.test(e.message))
      throw new ScormPackageError("notZip", `The zip archive is damaged: ${e.message}`, 400);
    throw e;
  } finally {
    zip.close();
  }
}

/**
 * Streams an upload to a temporary file, refusing it (413) past `maxBytes` while it streams — a
 * package is never held in memory. The caller removes the file.
 */
export async function saveUpload(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) throw new ScormPackageError("notZip", "The request has no body (send the zip as application/zip).", 400);
  // Named with this process's id: the clean-up removes those of processes that are gone.
  const path = uploadPath();
  let seen = 0;
  const counted = Readable.fromWeb(body as import("node:stream/web").ReadableStream).map((chunk: Buffer) => {
    seen += chunk.length;
    if (seen > maxBytes) throw new ScormPackageError("tooLarge", `The package is larger than ${maxBytes} bytes.`, 413);
    return chunk;
  });
  try {
    await pipeline(counted, createWriteStream(path));
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
  return path;
}
