/**
 * Importing an IMS Common Cartridge (issue 50 item 1, decision 049) into a course: the organisation's items
 * become the course's module tree in order; web content pages become text activities (sanitised, links
 * between pages rewritten to the course's own pages, images inlined); a file shown as an item (a PDF…)
 * becomes a file activity whose bytes are in the file store; web links become texts with the
 * link; discussion topics become discussions with the topic's text; an LTI link launches the registered
 * tool that serves its launch URL's host (`matchTool`), with its custom parameters; LTI links without such
 * a tool and assessments are kept in the tree as drafts (not startable: "not available yet") and listed in
 * the report, with the reason.
 *
 * The zip gets the SCORM import's defences (decision 040): every entry name checked (no "../", no absolute
 * paths), symbolic links refused, the declared sizes summed against the limits (zip bombs), yauzl checking
 * while inflating that no entry is larger than it said, no DOCTYPE in any XML document. The course is
 * written in one transaction. Importing the same cartridge again (the same code) updates the course in place:
 * activities are matched by the cartridge's item identifiers, so learners' progress stays.
 */
import { posix } from "node:path";
import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import type yauzl from "yauzl";
import { isSafeEntryName } from "../../domain/scorm";
import { ActivityContentType, ActivityKind, ActivityType, ObjectiveState } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import type { LtiTool } from "../lti/registry";
import type { FileStore } from "../files/object-store";
import { lookup as mimeTypeOf } from "mime-types";
import { activities, activityParts, objectives } from "../db/schema";
import { listEntries, openZip, readStream, SCORM_LIMITS } from "../scorm/import";
import { ScormPackageError } from "../scorm/manifest";
import { defaultTenantId } from "../settings";
import {
  CartridgeError,
  parseBasicLti,
  parseCartridgeManifest,
  parseTopic,
  parseWebLink,
  resourceKind,
  type CartridgeItem,
} from "./manifest";

/** The biggest document (a page, a topic, the manifest) read into memory, and the biggest image inlined. */
const DOCUMENT_MAX_BYTES = 4 * 1024 * 1024;
const IMAGE_MAX_BYTES = 512 * 1024;
const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

type Became = "module" | "text" | "file" | "link" | "discussion" | "lti" | "notAvailable" | "skipped";

export interface CartridgeReport {
  course: { id: string; code: string; name: string; outcome: "created" | "updated" };
  version: string;
  items: { identifier: string; title: string; became: Became; reason?: string }[];
  /** Files a page links to that the product does not serve yet (PDFs and other documents). */
  filesNotServed: string[];
}

export interface CartridgeImportOptions {
  zipPath: string;
  /** The course's code; without it, one made from the cartridge's identifier. */
  code?: string;
  tenantId?: string;
  limits?: { maxBytes: number; maxEntries: number };
  /** The registered LTI tools an LTI link may launch (matched by its launch URL's host). */
  tools?: readonly LtiTool[];
  /**
   * Where a file shown as an item (a PDF, a document) is kept, under `course-files/<course>/<activity>`,
   * served as the activity's private file to the learners it is open to. Without one such items are
   * kept as "not available yet".
   */
  store?: FileStore;
}

/** The file store's key of a file item's bytes: one per activity, replaced by a re-import. */
export const courseFileKey = (objectiveId: string, activityId: string) => `course-files/${objectiveId}/${activityId}`;

/** The host of a URL (or of a bare host name), lower-cased with its port; null when it is neither. */
function hostOf(value: string): string | null {
  if (URL.canParse(value)) return new URL(value).host.toLowerCase() || null;
  return /^[a-z0-9.-]+(:\d+)?$/i.test(value) ? value.toLowerCase() : null;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * The registered tool a cartridge's LTI link launches: the tool whose launch URL, or one of whose
 * domains, has the link's host. Several such tools: the one whose launch URL is the link's, else none
 * (the operator attaches one). The platform launches the tool's own launch URL.
 */
export function matchTool(
  launchUrl: string | null,
  tools: readonly LtiTool[],
): { tool: LtiTool } | { tool: null; reason: string } {
  const host = launchUrl ? hostOf(launchUrl) : null;
  if (!launchUrl || !host) return { tool: null, reason: "The LTI link has no launch URL." };
  const candidates = tools.filter((t) => hostOf(t.launchUrl) === host || t.domains.some((d) => hostOf(d) === host));
  if (candidates.length === 1) return { tool: candidates[0]! };
  const exact = candidates.filter((t) => withoutTrailingSlash(t.launchUrl) === withoutTrailingSlash(launchUrl));
  if (exact.length === 1) return { tool: exact[0]! };
  if (candidates.length === 0) return { tool: null, reason: `LTI tool not registered (${launchUrl}).` };
  return {
    tool: null,
    reason: `Several registered LTI tools serve ${host} (${candidates.map((t) => t.key).join(", ")}): attach one with npm run lti:tool -- attach.`,
  };
}

interface Planned {
  item: CartridgeItem;
  partId: string;
  activityId: string;
  parentPartId: string;
  order: number;
  axis: string;
  kind: ActivityKind;
  contentType: ActivityContentType;
  type: ActivityType;
  state: ObjectiveState;
  content: Record<string, unknown>;
  /** A page's file (webcontent): what links to it from other pages are rewritten to. */
  pageFile: string | null;
  html: string | null;
}

const SYMLINK = 0o120000;

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number): Promise<Buffer> {
  if (entry.uncompressedSize > max)
    throw new CartridgeError("tooLarge", `${entry.fileName} is larger than ${max} bytes.`, 413);
  const chunks: Buffer[] = [];
  for await (const chunk of await readStream(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const textOf = (bytes: Buffer) => bytes.toString("utf8").replace(/^\uFEFF/, "");

/** A path inside the cartridge from a reference in `fromFile`, or null when it leaves the cartridge or is a URL. */
function resolveRef(fromFile: string, ref: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith("//") || ref.startsWith("#")) return null;
  let path = ref.split(/[?#]/)[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    return null;
  }
  path = path.replace(/^\$IMS-CC-FILEBASE\$\/?/, "").replace(/^\/+/, "");
  const joined = posix.normalize(posix.join(posix.dirname(fromFile), path));
  return isSafeEntryName(joined) ? joined : null;
}

const courseCodeOf = (identifier: string) =>
  (identifier.replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "CC").slice(0, 40).toUpperCase();

export async function importCartridge(db: Db, options: CartridgeImportOptions): Promise<CartridgeReport> {
  const limits = options.limits ?? SCORM_LIMITS;
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(options.zipPath);
  } catch (e) {
    if (e instanceof ScormPackageError) throw new CartridgeError(e.code, e.message, e.status);
    throw e;
  }
  try {
    let entries: yauzl.Entry[];
    try {
      entries = await listEntries(zip, limits);
    } catch (e) {
      if (e instanceof ScormPackageError)
        throw new CartridgeError(e.code, e.message.replace("package", "cartridge"), e.status);
      throw e;
    }
    for (const e of entries)
      if (((e.externalFileAttributes >>> 16) & 0o170000) === SYMLINK)
        throw new CartridgeError("unsafePath", `The cartridge holds a symbolic link: "${e.fileName.slice(0, 200)}".`);
    const files = new Map(entries.filter((e) => !e.fileName.endsWith("/")).map((e) => [e.fileName, e]));
    const manifestEntry = files.get("imsmanifest.xml");
    if (!manifestEntry)
      throw new CartridgeError("noManifest", "The cartridge has no imsmanifest.xml at the top of the zip.");
    const manifest = parseCartridgeManifest(textOf(await readEntry(zip, manifestEntry, DOCUMENT_MAX_BYTES)));
    const read = async (name: string, max = DOCUMENT_MAX_BYTES) => {
      const entry = files.get(name);
      if (!entry) return null;
      return readEntry(zip, entry, max);
    };

    const tenantId = options.tenantId ?? (await defaultTenantId(db));
    if (!tenantId) throw new CartridgeError("noTenant", "The database has no tenant yet: start the server once.", 409);
    const code = options.code ?? courseCodeOf(manifest.identifier);
    const name = manifest.title.slice(0, 300) || code;
    const report: CartridgeReport = {
      course: { id: "", code, name, outcome: "created" },
      version: manifest.version,
      items: [],
      filesNotServed: [],
    };

    // The course and what an earlier import of this cartridge made (matched by the item identifiers).
    const [course, second] = await db
      .select({ id: objectives.id })
      .from(objectives)
      .where(and(eq(objectives.tenantId, tenantId), eq(objectives.code, code)))
      .limit(2);
    if (second) throw new CartridgeError("ambiguousCourse", `Several courses have the code "${code}".`, 409);
    const objectiveId = course?.id ?? randomUUID();
    report.course.id = objectiveId;
    report.course.outcome = course ? "updated" : "created";
    const earlier = course
      ? await db
          .select({
            code: activities.code,
            kind: activities.kind,
            content: activities.content,
            activityId: activities.id,
            partId: activityParts.id,
            parentPartId: activityParts.parentPartId,
          })
          .from(activityParts)
          .innerJoin(activities, eq(activities.id, activityParts.activityId))
          .where(and(eq(activityParts.objectiveId, objectiveId), like(activities.code, `${code}%`)))
      : [];
    const byCode = new Map(earlier.map((e) => [e.code, e]));
    const root = byCode.get(code) ?? earlier.find((e) => e.parentPartId === null);
    const rootPartId = root?.partId ?? randomUUID();
    const rootActivityId = root?.activityId ?? randomUUID();

    // The plan: every item's place and ids first (links between pages need the parts' ids).
    const planned: Planned[] = [];
    const plan = (items: CartridgeItem[], parentPartId: string, parentAxis: string | null) =>
      items.forEach((item, i) => {
        const axis = `${parentAxis ? `${parentAxis}.` : ""}${String(i + 1).padStart(2, "0")}`;
        const known = byCode.get(`${code}:${item.identifier}`);
        const p: Planned = {
          item,
          partId: known?.partId ?? randomUUID(),
          activityId: known?.activityId ?? randomUUID(),
          parentPartId,
          order: i + 1,
          axis,
          kind: ActivityKind.text,
          contentType: ActivityContentType.Text,
          type: ActivityType.RichText,
          state: ObjectiveState.ready,
          content: {},
          pageFile: null,
          html: null,
        };
        planned.push(p);
        if (!item.resource && item.children.length) {
          Object.assign(p, {
            kind: ActivityKind.composite,
            contentType: ActivityContentType.Composite,
            type: ActivityType.Composite,
          });
          plan(item.children, p.partId, axis);
        }
      });
    plan(manifest.items, rootPartId, null);
    const pageParts = new Map<string, string>();
    for (const p of planned) {
      const r = p.item.resource;
      if (r && resourceKind(r.type) === "webcontent") {
        p.pageFile = r.href ?? r.files[0] ?? null;
        // Pages, and (with a store) files shown as items: links to them go to their activity's page.
        if (p.pageFile && (/\.html?$/i.test(p.pageFile) || options.store)) pageParts.set(p.pageFile, p.partId);
      }
    }
    const pageUrl = (partId: string) => `/learn/courses/${objectiveId}/view/content?activityPathId=${partId}`;
    const notServed = new Set<string>();
    /** Files of items, written to the store before the course's transaction (and removed if it fails). */
    const stored: { key: string; bytes: Buffer; fresh: boolean }[] = [];

    /** A page's (or topic's) HTML, sanitised, its links and images rewritten. */
    const courseHtml = async (raw: string, fromFile: string): Promise<string> => {
      const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(raw)?.[1] ?? raw;
      const images = new Map<string, string>();
      for (const m of body.matchAll(/<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)) {
        const path = resolveRef(fromFile, m[1]);
        const type = path ? IMAGE_TYPES[posix.extname(path).toLowerCase()] : undefined;
        if (!path || !type || images.has(m[1])) continue;
        const entry = files.get(path);
        if (entry && entry.uncompressedSize <= IMAGE_MAX_BYTES)
          images.set(m[1], `data:${type};base64,${(await readEntry(zip, entry, IMAGE_MAX_BYTES)).toString("base64")}`);
        else if (entry) notServed.add(path);
      }
      return sanitizeHtml(body, {
        allowedTags: sanitizeHtml.defaults.allowedTags.concat(["img", "figure", "figcaption", "h2", "span"]),
        allowedAttributes: { a: ["href", "title"], img: ["src", "alt", "width", "height"], "*": ["lang", "dir"] },
        allowedSchemes: ["https", "http", "mailto"],
        allowedSchemesByTag: { img: ["https", "data"] },
        transformTags: {
          a: (tagName, attribs) => {
            const href = attribs.href ?? "";
            const path = resolveRef(fromFile, href);
            if (path === null) return { tagName, attribs };
            const part = pageParts.get(path);
            if (part) return { tagName, attribs: { ...attribs, href: pageUrl(part) } };
            if (files.has(path)) notServed.add(path);
            // A file the product does not serve yet: its text stays, without a dead link.
            return { tagName: "span", attribs: {} };
          },
          img: (tagName, attribs) => {
            const inlined = images.get(attribs.src ?? "");
            return inlined ? { tagName, attribs: { ...attribs, src: inlined } } : { tagName, attribs };
          },
        },
      });
    };

    for (const p of planned) {
      const { item } = p;
      const entry = (became: Became, reason?: string) =>
        report.items.push({ identifier: item.identifier, title: item.title, became, ...(reason ? { reason } : {}) });
      if (p.kind === ActivityKind.composite) {
        entry("module");
        continue;
      }
      const r = item.resource;
      if (!r) {
        // An item with neither a resource nor items: an empty heading, kept as an empty text.
        entry("skipped", "The item shows no resource.");
        p.state = ObjectiveState.draft;
        continue;
      }
      const doc = r.href ?? r.files[0] ?? null;
      const kind = resourceKind(r.type);
      if (kind === "webcontent") {
        if (doc && /\.html?$/i.test(doc)) {
          const raw = await read(doc);
          if (!raw) {
            entry("skipped", `The page ${doc} is not in the cartridge.`);
            p.state = ObjectiveState.draft;
            continue;
          }
          p.content = { html: await courseHtml(textOf(raw), doc) };
          entry("text");
        } else {
          // A PDF or another file as an item: the activity's private file (the PDF viewer for a PDF).
          const entryOf = doc ? files.get(doc) : undefined;
          if (!doc || !entryOf || !options.store) {
            if (doc) notServed.add(doc);
            p.state = ObjectiveState.draft;
            entry(
              "notAvailable",
              entryOf || !doc
                ? `The file ${doc ?? "(none)"} is not served yet.`
                : `The file ${doc} is not in the cartridge.`,
            );
            continue;
          }
          const key = courseFileKey(objectiveId, p.activityId);
          const fresh = !byCode.has(`${code}:${item.identifier}`);
          stored.push({ key, bytes: await readEntry(zip, entryOf, limits.maxBytes), fresh });
          Object.assign(p, {
            contentType: ActivityContentType.PrivateFile,
            type: ActivityType.PrivateFiles,
            content: {
              path: key,
              fileName: posix.basename(doc),
              mimeType: mimeTypeOf(doc) || "application/octet-stream",
            },
          });
          entry("file");
        }
      } else if (kind === "weblink" && doc) {
        const raw = await read(doc);
        if (!raw) {
          entry("skipped", `${doc} is not in the cartridge.`);
          p.state = ObjectiveState.draft;
          continue;
        }
        const link = parseWebLink(textOf(raw), doc);
        p.content = {
          html: sanitizeHtml(
            `<p><a href="${link.url.replace(/"/g, "&quot;")}">${sanitizeHtml(link.title, { allowedTags: [] })}</a></p>`,
            {
              allowedTags: ["p", "a"],
              allowedAttributes: { a: ["href"] },
              allowedSchemes: ["https", "http", "mailto"],
            },
          ),
        };
        entry("link");
      } else if (kind === "discussion" && doc) {
        const raw = await read(doc);
        if (!raw) {
          entry("skipped", `${doc} is not in the cartridge.`);
          p.state = ObjectiveState.draft;
          continue;
        }
        const topic = parseTopic(textOf(raw), doc);
        const prompt = sanitizeHtml(await courseHtml(topic.html, doc), { allowedTags: [], allowedAttributes: {} })
          .replace(/\s+/g, " ")
          .trim();
        Object.assign(p, {
          kind: ActivityKind.discussion,
          contentType: ActivityContentType.Text,
          type: ActivityType.ClassDiscussion,
          content: { prompt: prompt || topic.title || item.title },
        });
        entry("discussion");
      } else if (kind === "lti") {
        const raw = doc ? await read(doc) : null;
        const lti = raw && doc ? parseBasicLti(textOf(raw), doc) : null;
        const match = matchTool(lti?.launchUrl ?? null, options.tools ?? []);
        // A tool the operator attached after an earlier import stays attached when the link matches none.
        const before = byCode.get(`${code}:${item.identifier}`);
        const attached =
          (before?.kind === ActivityKind.lti && (before.content as { tool?: unknown } | null)?.tool) || null;
        const tool = match.tool ?? (options.tools ?? []).find((t) => t.key === attached) ?? null;
        if (tool) {
          const custom = { ...(lti?.custom ?? {}) };
          Object.assign(p, {
            kind: ActivityKind.lti,
            contentType: tool.version === "1.1" ? ActivityContentType.Lti11 : ActivityContentType.Lti13,
            type: ActivityType.VirtualLabs,
            content: { tool: tool.key, ...(Object.keys(custom).length ? { custom } : {}) },
          });
          entry(
            "lti",
            match.tool
              ? `Launches the registered tool "${tool.key}".`
              : `Keeps the tool "${tool.key}" attached earlier.`,
          );
        } else {
          p.state = ObjectiveState.draft;
          entry("notAvailable", match.tool === null ? match.reason : "");
        }
      } else if (kind === "assessment") {
        p.state = ObjectiveState.draft;
        entry("notAvailable", "Assessments (QTI) are not available yet.");
      } else {
        p.state = ObjectiveState.draft;
        entry("skipped", `Resources of type "${r.type || "(none)"}" are not imported.`);
      }
    }
    report.filesNotServed = [...notServed].sort();

    // The files first: a course never points at a file that is not there. A failed write leaves the course as it was.
    for (const f of stored) await options.store!.put(f.key, f.bytes);
    // One transaction: the course, its root and every item, inserted or updated in place.
    try {
      await db.transaction(async (tx) => {
        const rootChildren = manifest.items.length;
        if (course)
          await tx.update(objectives).set({ name, childrenCount: rootChildren }).where(eq(objectives.id, objectiveId));
        else
          await tx.insert(objectives).values({
            id: objectiveId,
            tenantId,
            name,
            code,
            state: ObjectiveState.ready,
            type: ActivityType.Composite,
            activityKind: ActivityKind.composite,
            childrenCount: rootChildren,
            // Reached by enrolment (npm run people, an HR system): not listed for self-enrolment.
            inCatalog: false,
            allowSelfEnrollment: false,
          });
        const rootActivity = {
          tenantId,
          name,
          code,
          kind: ActivityKind.composite,
          contentType: ActivityContentType.Composite,
          type: ActivityType.Composite,
        };
        if (root) await tx.update(activities).set(rootActivity).where(eq(activities.id, rootActivityId));
        else {
          await tx.insert(activities).values({ id: rootActivityId, ...rootActivity });
          await tx.insert(activityParts).values({ id: rootPartId, objectiveId, activityId: rootActivityId, axis: "0" });
        }
        for (const p of planned) {
          const activity = {
            tenantId,
            name: p.item.title.slice(0, 300) || p.item.identifier,
            code: `${code}:${p.item.identifier}`,
            kind: p.kind,
            contentType: p.contentType,
            type: p.type,
            state: p.state,
            content: p.content,
          };
          const part = {
            objectiveId,
            parentPartId: p.parentPartId,
            activityId: p.activityId,
            order: p.order,
            axis: p.axis,
          };
          if (byCode.has(activity.code)) {
            await tx.update(activities).set(activity).where(eq(activities.id, p.activityId));
            await tx.update(activityParts).set(part).where(eq(activityParts.id, p.partId));
          } else {
            await tx.insert(activities).values({ id: p.activityId, ...activity });
            await tx.insert(activityParts).values({ id: p.partId, ...part });
          }
        }
      });
    } catch (error) {
      // The files only the new activities would have shown go with them; a re-import's replaced ones stay.
      await options.store?.delete(stored.filter((f) => f.fresh).map((f) => f.key)).catch(() => undefined);
      throw error;
    }
    return report;
  } finally {
    zip.close();
  }
}
