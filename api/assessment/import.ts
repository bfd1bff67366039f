/**
 * Issue 48 item 4 (decision 055): importing a QTI package into a course's activity. A QTI 3.0 package (an
 * imsmanifest.xml with an `imsqti_test_xmlv3p0` resource, or items only), a QTI 2.1/2.2 one (read with
 * 3.0's names), or a single item. The zip gets the SCORM import's defences (entry names, symbolic links,
 * sizes summed against the limits, inflated sizes checked, no DOCTYPE); images an item shows are kept in
 * the item (data: URIs), so they reach only the learners the item is delivered to. A refusal names the
 * file, the line when known and the reason, and stores nothing; the activity's type and content are set
 * in the same transaction as the package.
 */
import { randomUUID } from "node:crypto";
import { posix } from "node:path";
import { eq } from "drizzle-orm";
import type yauzl from "yauzl";
import { isSafeEntryName } from "../../domain/scorm";
import { parseItem, type AssessmentItem, type BodyNode } from "../../domain/qti/item";
import { itemMaxScore } from "../../domain/qti/processing";
import { allItemRefs, parseTest, type AssessmentTest } from "../../domain/qti/test";
import { parseXml, QtiError, childrenNamed, childNamed } from "../../domain/qti/xml";
import { ActivityContentType, ActivityKind, ActivityType } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import { importTarget } from "../scorm/import-target";
import { activities, qtiItems, qtiPackages } from "../db/schema";
import { listEntries, openZip, readStream, SCORM_LIMITS } from "../scorm/import";
import { ScormPackageError } from "../scorm/manifest";

/** A refused QTI package: the import's 4xx (the API) or the CLI's message. */
class QtiPackageError extends ScormPackageError {}

const DOCUMENT_MAX_BYTES = 4 * 1024 * 1024;
const IMAGE_MAX_BYTES = 512 * 1024;
const SYMLINK = 0o120000;
const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".webp": "image/webp",
};

export interface QtiContent {
  test: AssessmentTest;
  items: Map<string, AssessmentItem>;
}

type Files = Map<string, () => Promise<Buffer>>;

const refusal = (e: QtiError) => new QtiPackageError(e.code, e.message, 422);

/** A test of the items of a package without one: one nonlinear part, one section, in the manifest's order. */
function testOfItems(hrefs: string[], title: string): AssessmentTest {
  return {
    identifier: "items",
    title,
    timeLimits: null,
    outcomes: [],
    outcomeProcessing: null,
    parts: [
      {
        identifier: "part",
        navigationMode: "nonlinear",
        submissionMode: "simultaneous",
        control: {},
        timeLimits: null,
        sections: [
          {
            kind: "section",
            identifier: "section",
            title,
            visible: true,
            fixed: false,
            required: false,
            select: null,
            shuffle: false,
            control: {},
            timeLimits: null,
            children: hrefs.map((href, i) => ({
              kind: "item" as const,
              identifier: `item-${i + 1}`,
              href,
              fixed: false,
              required: false,
              categories: [],
              weights: {},
              control: {},
            })),
          },
        ],
      },
    ],
  };
}

/** The test and item files a manifest names (QTI 3.0 and 2.x resource types). */
function manifestResources(xml: string) {
  const root = parseXml(xml, "imsmanifest.xml");
  const resources = childNamed(root, "resources");
  const list = resources ? childrenNamed(resources, "resource") : [];
  const tests: string[] = [];
  const items: string[] = [];
  for (const r of list) {
    const type = r.attrs.type ?? "";
    const href = r.attrs.href ?? childrenNamed(r, "file")[0]?.attrs.href;
    if (!href) continue;
    if (/imsqti_test_xmlv3p0|imsqti_test_xmlv2p[12]|imsqti_assessment_xmlv2p[12]/.test(type)) tests.push(href);
    else if (/imsqti_item_xmlv3p0|imsqti_item_xmlv2p[12]/.test(type)) items.push(href);
  }
  return { tests, items };
}

async function text(files: Files, name: string): Promise<string> {
  const read = files.get(name);
  if (!read) throw new QtiPackageError("qtiMissingFile", `${name} is named by the package but is not in it.`);
  return (await read()).toString("utf8").replace(/^\uFEFF/, "");
}

/** A package's image as a data: URI (an absolute URL is kept); refused when it is missing or too large. */
async function inlineSrc(src: string, from: string, files: Files): Promise<string> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src)) return src;
  const path = posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(src.split(/[?#]/)[0]!)));
  const type = IMAGE_TYPES[posix.extname(path).toLowerCase()];
  const read = isSafeEntryName(path) ? files.get(path) : undefined;
  if (!type || !read) throw new QtiPackageError("qtiMissingFile", `${from}: the image "${src}" is not in the package.`);
  const bytes = await read();
  if (bytes.length > IMAGE_MAX_BYTES)
    throw new QtiPackageError("tooLarge", `${from}: the image "${src}" is larger than ${IMAGE_MAX_BYTES} bytes.`, 413);
  return `data:${type};base64,${bytes.toString("base64")}`;
}

/** Images of an item body kept in it as data: URIs (the package's files are not served apart). */
async function inlineImages(nodes: BodyNode[], from: string, files: Files): Promise<void> {
  for (const n of nodes) {
    if (n.kind === "element") {
      if (n.tag === "img" && n.attrs.src) n.attrs.src = await inlineSrc(n.attrs.src, from, files);
      await inlineImages(n.children, from, files);
    } else if (n.kind === "feedback" || n.kind === "hottext") await inlineImages(n.children, from, files);
    else if (n.kind === "interaction") {
      const i = n.interaction;
      if ("prompt" in i) await inlineImages(i.prompt, from, files);
      if ("choices" in i) for (const c of i.choices) if ("content" in c) await inlineImages(c.content, from, files);
      if (i.type === "match") for (const c of [...i.sources, ...i.targets]) await inlineImages(c.content, from, files);
      if (i.type === "gapMatch" || i.type === "hottext") await inlineImages(i.content, from, files);
      if ("image" in i) i.image.src = await inlineSrc(i.image.src, from, files);
      const pictures = i.type === "graphicGapMatch" ? i.gapChoices : i.type === "gapMatch" ? i.gapTexts : [];
      for (const g of pictures) if (g.image) g.image.src = await inlineSrc(g.image.src, from, files);
    }
  }
}

/** Reads the package's test and items from its files (no zip: the seed and the tests hand files directly). */
export async function readQtiFiles(files: Files, fallbackTitle: string): Promise<QtiContent> {
  try {
    let testFile: string | null = null;
    let itemFiles: string[] = [];
    if (files.has("imsmanifest.xml")) {
      const m = manifestResources(await text(files, "imsmanifest.xml"));
      if (m.tests.length > 1)
        throw new QtiPackageError(
          "qtiSeveralTests",
          "imsmanifest.xml names more than one test; import one test per activity.",
        );
      testFile = m.tests[0] ?? null;
      itemFiles = m.items;
      if (!testFile && itemFiles.length === 0)
        throw new QtiPackageError(
          "qtiNoTest",
          "imsmanifest.xml names no QTI test or item (imsqti_test_xmlv3p0, imsqti_item_xmlv3p0).",
        );
    } else {
      const xml = [...files.keys()].filter((n) => n.endsWith(".xml"));
      if (xml.length !== 1)
        throw new QtiPackageError("noManifest", "The package has no imsmanifest.xml at the top of the zip.");
      itemFiles = xml;
    }
    const items = new Map<string, AssessmentItem>();
    let test: AssessmentTest;
    if (testFile) {
      test = parseTest(await text(files, testFile), testFile);
      const base = posix.dirname(testFile);
      for (const ref of allItemRefs(test)) {
        const path = posix.normalize(posix.join(base, ref.href));
        if (!isSafeEntryName(path))
          throw new QtiPackageError("unsafePath", `${testFile}: the item path "${ref.href}" is unsafe.`);
        ref.href = path;
      }
    } else test = testOfItems(itemFiles, fallbackTitle);
    for (const ref of allItemRefs(test)) {
      if (items.has(ref.href)) continue;
      const item = parseItem(await text(files, ref.href), ref.href);
      await inlineImages(item.body, ref.href, files);
      items.set(ref.href, item);
    }
    const ids = allItemRefs(test).map((r) => r.identifier);
    if (new Set(ids).size !== ids.length)
      throw new QtiPackageError("qtiInvalid", "Two item refs of the test have the same identifier.");
    if (ids.length === 0) throw new QtiPackageError("qtiNoTest", "The test has no items.");
    return { test, items };
  } catch (e) {
    if (e instanceof QtiError) throw refusal(e);
    throw e;
  }
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number): Promise<Buffer> {
  if (entry.uncompressedSize > max)
    throw new QtiPackageError("tooLarge", `${entry.fileName} is larger than ${max} bytes.`, 413);
  const chunks: Buffer[] = [];
  for await (const chunk of await readStream(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads a zip with the SCORM import's defences, then its QTI content. */
export async function readQtiZip(zipPath: string, fallbackTitle: string, limits = SCORM_LIMITS): Promise<QtiContent> {
  const zip = await openZip(zipPath);
  try {
    const entries = await listEntries(zip, limits);
    for (const e of entries)
      if (((e.externalFileAttributes >>> 16) & 0o170000) === SYMLINK)
        throw new QtiPackageError("unsafePath", `The package holds a symbolic link: "${e.fileName.slice(0, 200)}".`);
    const files: Files = new Map(
      entries
        .filter((e) => !e.fileName.endsWith("/"))
        .map((e) => [
          e.fileName,
          () =>
            readEntry(
              zip,
              e,
              IMAGE_TYPES[posix.extname(e.fileName).toLowerCase()] ? IMAGE_MAX_BYTES : DOCUMENT_MAX_BYTES,
            ),
        ]),
    );
    return await readQtiFiles(files, fallbackTitle);
  } catch (e) {
    if (e instanceof ScormPackageError)
      throw new QtiPackageError(e.code, e.message.replace("The package", "The QTI package"), e.status);
    if (e instanceof Error && /too many bytes|invalid|bad|unexpected/i.test(e.message))
      throw new QtiPackageError("notZip", `The zip archive is damaged: ${e.message}`, 400);
    throw e;
  } finally {
    zip.close();
  }
}

export interface StoreOptions {
  tenantId?: string;
  courseCode: string;
  activityId?: string;
  title?: string;
  /** Normalised cut value (0–1) → passed; the test's own PASS outcome wins. */
  cutValue?: number | null;
  survey?: boolean;
  anonymous?: boolean;
}

type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Stores the package and makes the activity deliver it, in one transaction. */
export async function storeQtiPackage(db: Queryable, content: QtiContent, options: StoreOptions) {
  const { course, part } = await importTarget(db, options, "a test");
  const id = randomUUID();
  const survey = options.survey ?? false;
  const title = options.title ?? content.test.title;
  const needsPerson = [...content.items.values()].some((i) => i.needsPerson);
  const write = async (tx: Queryable) => {
    await tx.insert(qtiPackages).values({
      id,
      tenantId: course.tenantId,
      activityId: part.activityId,
      title,
      test: content.test,
      cutValue: options.cutValue ?? null,
      survey,
      anonymous: survey && (options.anonymous ?? false),
    });
    await tx
      .insert(qtiItems)
      .values([...content.items].map(([href, item]) => ({ packageId: id, href, item, maxScore: itemMaxScore(item) })));
    await tx
      .update(activities)
      .set({
        kind: ActivityKind.lti,
        contentType: ActivityContentType.Lti13,
        type: survey ? ActivityType.Survey : ActivityType.Assessment,
        content: { qti: { packageId: id } },
        toolUrl: null,
        preferredWidth: null,
        preferredHeight: null,
        manualGrading: needsPerson && !survey,
        // A test is scored out of the activity's maximum (100 by default); a survey has none.
        maxScore: survey ? null : (part.maxScore ?? 100),
        supportLtiGrading: false,
        supportCollaborativeMode: false,
        supportPersonalMode: true,
      })
      .where(eq(activities.id, part.activityId));
  };
  await db.transaction((tx) => write(tx));
  return { id, activityId: part.activityId, title, items: content.items.size, survey };
}
