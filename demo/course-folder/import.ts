/**
 * `npm run courses -- import DIR` (issue 50 item 2, decision 062): a course folder in the published format
 * (docs/course-folders.md) becomes a course of the deployment's tenant — through the demo seed's own code:
 * the folder is read and checked by the loader's `readCourseFolder` (zod schemas, cross-checks, the tree
 * expanded by `expandNode`), its course row is `courseColumns`, its activities and parts `buildCourse`,
 * its accesses' dates `accessColumns`.
 *
 * A folder stands alone: the grading scale, collections, terms and filter attributes its course.json names
 * are keys of the folder's own `catalog.json` (found in the tenant by name, made when missing); its files
 * are keys of the folder's own `media.json` (a private file's path is inside the folder; it is stored in
 * the FileStore); the LTI tools are keys of tools registered in the deployment; a post's or message's
 * author is the e-mail address of an account of the tenant.
 *
 * Everything is read and checked before the transaction; a refusal names the file and the field and writes
 * nothing. Importing the same folder again (the same course code) updates the course in place: an
 * activity is found again by its code (the course's code and its place in the tree), ids and learners'
 * progress kept; activities no longer in the folder are removed. A dry run is the real run rolled back.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../api/db/client";
import * as s from "../../api/db/schema";
import type { FileStore } from "../../api/files/object-store";
import { storageRoots } from "../../api/files/roots";
import { listStoredTools } from "../../api/lti/registry";
import { reindexContentPages } from "../../api/content-pages";
import { defaultTenantId } from "../../api/settings";
import { ActivityContentType, ActivityKind } from "../../domain/vocabulary";
import { sanitizeCourseHtml } from "../../app/services/html.server";
import type { ActivityDef } from "../content/activities";
import { DemoContentError, readJson } from "../content/files";
import { folderCatalogSchema, folderMediaSchema, type Media } from "../content/schemas";
import { checkCatalog, checkMedia, readCourseFolder, type CourseDef } from "../demo-content";
import { courseColumns } from "../course-columns";
import { accessColumns } from "../recipe-values";
import { buildCourse, rootChildrenCount } from "../seed-activities";
import { seedHubMessages } from "../seed-hub";

export interface CourseFolderReport {
  course: { id: string; code: string; name: string; outcome: "created" | "updated" };
  /** True when nothing was kept (a dry run). */
  dryRun: boolean;
  activities: { created: number; updated: number; removed: number };
  /** Catalog entries the import made in the tenant ("grading scale \"Percent\"…"); the others were found by name. */
  made: string[];
  /** Keys of the files stored in the FileStore. */
  files: string[];
}

export interface CourseFolderImportOptions {
  dir: string;
  /** The course's code instead of course.json's. */
  code?: string;
  dryRun?: boolean;
  /** Where the folder's private files go (DATA_DIR/storage or the bucket). */
  store: FileStore;
  tenantId?: string;
  /** Keys of the LTI tools the deployment gives itself (the demo's); the registered ones are read from the database. */
  givenTools?: readonly string[];
  now?: Date;
}

const CODE = /^[A-Z0-9]{2}-[A-Z0-9]{3}$/;
const KEY = /^[a-z0-9][a-z0-9-]*$/;

/** Where a course's private files are kept in the FileStore. */
const courseFileKey = (code: string, path: string) => `course-files/${code}/${path}`;

class DryRun extends Error {}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

function activitiesOf(def: ActivityDef): ActivityDef[] {
  return [def, ...(def.children ?? []).flatMap(activitiesOf)];
}

/** Reads and checks a course folder, then writes it to the database in one transaction. */
export async function importCourseFolder(db: Db, options: CourseFolderImportOptions): Promise<CourseFolderReport> {
  const dir = resolve(options.dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new DemoContentError(options.dir, "", "not a folder (a course folder holds course.json, content.json, …)");
  const slug = basename(dir);
  if (!KEY.test(slug))
    throw new DemoContentError(dir, "", "the folder's name is the course's key: lower-case words and dashes");
  if (options.code !== undefined && !CODE.test(options.code))
    throw new DemoContentError("--code", "", `"${options.code}": a course code is like PY-101`);

  // The folder's own catalog and media.
  const catalogFile = join(dir, "catalog.json");
  const catalog = existsSync(catalogFile) ? readJson(catalogFile, folderCatalogSchema) : {};
  const attributeNames = checkCatalog(catalogFile, catalog);
  const mediaFile = join(dir, "media.json");
  const folderMedia = existsSync(mediaFile) ? readJson(mediaFile, folderMediaSchema) : { files: {} };
  checkMedia(mediaFile, folderMedia, dir);
  const code0 = options.code ?? (readJson(join(dir, "course.json"), folderCodeSchema).code as string);
  // The tree's file activities point at the stored copies of the folder's private files.
  const media: Media = {
    ltiTool: folderMedia.ltiTool ?? "",
    ltiTool11: folderMedia.ltiTool11 ?? "",
    files: Object.fromEntries(
      Object.entries(folderMedia.files).map(([key, f]) => [
        key,
        "path" in f ? { ...f, path: courseFileKey(code0, f.path) } : f,
      ]),
    ),
  };
  const read = readCourseFolder(dir, slug, {
    catalog,
    attributeNames,
    media,
    catalogName: existsSync(catalogFile) ? "catalog.json" : "catalog.json, which the folder does not have",
  });
  const course: CourseDef = {
    ...read,
    code: code0,
    about: sanitizeCourseHtml(read.about),
    root: sanitizeTree(read.root),
  };
  const all = activitiesOf(course.root);

  // LTI tools: registered in the deployment.
  const usesTool = (ct: ActivityContentType) => all.some((a) => a.kind === ActivityKind.lti && a.contentType === ct);
  const known = new Set([...(options.givenTools ?? []), ...(await listStoredTools(db)).map((t) => t.key)]);
  for (const [field, ct] of [
    ["ltiTool", ActivityContentType.Lti13],
    ["ltiTool11", ActivityContentType.Lti11],
  ] as const) {
    if (!usesTool(ct)) continue;
    const key = folderMedia[field];
    if (!key)
      throw new DemoContentError(
        mediaFile,
        field,
        "the course has LTI activities: name the registered tool they launch",
      );
    if (!known.has(key))
      throw new DemoContentError(
        mediaFile,
        field,
        `no LTI tool "${key}" is registered (npm run lti:tool -- list; known: ${[...known].join(", ") || "none"})`,
      );
  }

  const tenantId = options.tenantId ?? (await defaultTenantId(db));
  if (!tenantId) throw new DemoContentError(dir, "", "the database has no tenant yet: start the server once");

  // Authors of posts and messages: accounts of the tenant, by address.
  const authors = new Set<string>();
  for (const a of all) for (const p of a.posts ?? []) authors.add(p.by.toLowerCase());
  for (const m of [...(course.messages?.announcements ?? []), ...(course.messages?.chat ?? [])])
    authors.add(m.by.toLowerCase());
  const accounts = authors.size
    ? await db
        .select({ id: s.users.id, email: s.users.email })
        .from(s.users)
        .where(and(eq(s.users.tenantId, tenantId), inArray(sql`lower(${s.users.email})`, [...authors])))
    : [];
  const userIds: Record<string, string> = Object.fromEntries(accounts.map((u) => [u.email.toLowerCase(), u.id]));
  const contentFile = join(dir, "content.json");
  const unknownAuthor = (by: string) => !Object.hasOwn(userIds, by.toLowerCase());
  const walk = (a: ActivityDef, field: string) => {
    (a.posts ?? []).forEach((p, i) => {
      if (unknownAuthor(p.by))
        throw new DemoContentError(
          contentFile,
          `${field}posts[${i}].by`,
          `no account of the tenant has the address "${p.by}"`,
        );
    });
    (a.children ?? []).forEach((c, i) => walk(c, `${field}children[${i}].`));
  };
  walk(course.root, "");
  if (course.messages && !course.announcements)
    throw new DemoContentError(
      join(dir, "course.json"),
      "messages",
      "the course has no communications hub: set announcements",
    );
  for (const channel of ["announcements", "chat"] as const)
    (course.messages?.[channel] ?? []).forEach((m, i) => {
      if (unknownAuthor(m.by))
        throw new DemoContentError(
          join(dir, "course.json"),
          `messages.${channel}[${i}].by`,
          `no account of the tenant has the address "${m.by}"`,
        );
    });
  // Authors as the folder writes them → their accounts.
  const byAddress: Record<string, string> = {};
  for (const a of all) for (const p of a.posts ?? []) byAddress[p.by] = userIds[p.by.toLowerCase()];
  for (const m of [...(course.messages?.announcements ?? []), ...(course.messages?.chat ?? [])])
    byAddress[m.by] = userIds[m.by.toLowerCase()];
  const now = course.datesFrom ? new Date(course.datesFrom) : (options.now ?? new Date());

  const report: CourseFolderReport = {
    course: { id: "", code: course.code, name: course.name, outcome: "created" },
    dryRun: options.dryRun ?? false,
    activities: { created: 0, updated: 0, removed: 0 },
    made: [],
    files: [],
  };
  try {
    await db.transaction(async (tx) => {
      await write(tx, { tenantId, course, catalog, now, report, userIds: byAddress });
      // The folder's private files, then the tutor's index of every file activity's pages.
      const stored = Object.entries(folderMedia.files).flatMap(([, f]) => ("path" in f ? [f.path] : []));
      if (options.dryRun) throw new DryRun();
      for (const path of stored) {
        const key = courseFileKey(course.code, path);
        await options.store.put(key, readFileSync(join(dir, path)));
        report.files.push(key);
      }
      const fileActivities = await tx
        .select({ id: s.activities.id })
        .from(s.activityParts)
        .innerJoin(s.activities, eq(s.activities.id, s.activityParts.activityId))
        .where(
          and(
            eq(s.activityParts.objectiveId, report.course.id),
            inArray(s.activities.contentType, [ActivityContentType.PublicFile, ActivityContentType.PrivateFile]),
          ),
        );
      await reindexContentPages(
        tx,
        fileActivities.map((a) => a.id),
        storageRoots(options.store),
      );
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return report;
}

/** Only the code of course.json, read before the whole folder (its private files are stored under it). */
const folderCodeSchema = z.looseObject({ code: z.unknown() });

/** Texts are sanitised as course HTML is (again when shown). */
function sanitizeTree(def: ActivityDef): ActivityDef {
  const html = def.content.html;
  return {
    ...def,
    ...(typeof html === "string" ? { content: { ...def.content, html: sanitizeCourseHtml(html) } } : {}),
    ...(def.children ? { children: def.children.map(sanitizeTree) } : {}),
  };
}

async function write(
  tx: Tx,
  input: {
    tenantId: string;
    course: CourseDef;
    catalog: ReturnType<typeof folderCatalogSchema.parse>;
    now: Date;
    report: CourseFolderReport;
    userIds: Record<string, string>;
  },
) {
  const { tenantId, course, catalog, now, report } = input;
  const uuid = () => crypto.randomUUID();
  const [existing, second] = await tx
    .select({
      id: s.objectives.id,
      announcementChannelId: s.objectives.announcementChannelId,
      certificateTemplateId: s.objectives.certificateTemplateId,
    })
    .from(s.objectives)
    .where(and(eq(s.objectives.tenantId, tenantId), eq(s.objectives.code, course.code)))
    .limit(2);
  if (second)
    throw new DemoContentError("course.json", "code", `several courses of the tenant have the code ${course.code}`);
  const objectiveId = existing?.id ?? uuid();
  report.course.id = objectiveId;
  report.course.outcome = existing ? "updated" : "created";

  // Catalog entries: found in the tenant by name, made when missing.
  let gradingScaleId: string | null = null;
  if (course.gradingScale !== null) {
    const def = catalog.gradingScales![course.gradingScale];
    const [found] = await tx
      .select({ id: s.gradingScales.id })
      .from(s.gradingScales)
      .where(and(eq(s.gradingScales.tenantId, tenantId), eq(s.gradingScales.name, def.name)))
      .limit(1);
    if (found) gradingScaleId = found.id;
    else {
      gradingScaleId = uuid();
      const grades = def.grades.map((g) => ({ ...g, id: uuid(), gradingScaleId: gradingScaleId! }));
      await tx.insert(s.gradingScales).values({
        id: gradingScaleId,
        tenantId,
        name: def.name,
        description: def.description,
        maxScore: def.maxScore,
        normalizedPassingScore: def.normalizedPassingScore,
        passingGradeId: grades.find((g) => g.name === def.passingGrade)?.id ?? null,
      });
      await tx.insert(s.grades).values(grades);
      report.made.push(`grading scale "${def.name}"`);
    }
  }
  const byName = async (
    table: typeof s.showcases | typeof s.terms,
    names: string[],
    what: string,
  ): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    if (names.length === 0) return out;
    const rows = await tx
      .select({ id: table.id, name: table.name })
      .from(table)
      .where(and(eq(table.tenantId, tenantId), inArray(table.name, names)));
    for (const r of rows) if (!out.has(r.name)) out.set(r.name, r.id);
    for (const name of names)
      if (!out.has(name)) {
        const id = uuid();
        await tx.insert(table).values({ id, tenantId, name });
        out.set(name, id);
        report.made.push(`${what} "${name}"`);
      }
    return out;
  };
  const collectionNames = course.collections.map((k) => catalog.collections![k]);
  const showcaseIds = await byName(s.showcases, [...new Set(collectionNames)], "collection");
  const termKey = course.access?.term;
  const termIds = await byName(s.terms, termKey ? [catalog.terms![termKey]] : [], "term");
  const attributeIds: string[] = [];
  for (const attribute of course.attributes) {
    const category = Object.entries(catalog.filterCategories ?? {}).find(([, names]) => names.includes(attribute))![0];
    let [cat] = await tx
      .select({ id: s.filterCategories.id })
      .from(s.filterCategories)
      .where(and(eq(s.filterCategories.tenantId, tenantId), eq(s.filterCategories.name, category)))
      .limit(1);
    if (!cat) {
      cat = { id: uuid() };
      await tx.insert(s.filterCategories).values({ id: cat.id, tenantId, name: category });
      report.made.push(`filter category "${category}"`);
    }
    let [attr] = await tx
      .select({ id: s.filterAttributes.id })
      .from(s.filterAttributes)
      .where(and(eq(s.filterAttributes.categoryId, cat.id), eq(s.filterAttributes.name, attribute)))
      .limit(1);
    if (!attr) {
      attr = { id: uuid() };
      await tx.insert(s.filterAttributes).values({ id: attr.id, categoryId: cat.id, name: attribute });
      report.made.push(`filter attribute "${attribute}"`);
    }
    attributeIds.push(attr.id);
  }

  // The certificate the course issues: its own template, updated in place.
  let certificateTemplateId = existing?.certificateTemplateId ?? null;
  if (course.certificate) {
    if (certificateTemplateId)
      await tx
        .update(s.certificateTemplates)
        .set(course.certificate)
        .where(eq(s.certificateTemplates.id, certificateTemplateId));
    else {
      certificateTemplateId = uuid();
      await tx.insert(s.certificateTemplates).values({ id: certificateTemplateId, tenantId, ...course.certificate });
    }
  } else certificateTemplateId = null;

  // The course.
  const columns = {
    ...courseColumns(course, rootChildrenCount(course)),
    announcementChannelId: course.announcements ? (existing?.announcementChannelId ?? uuid()) : null,
    gradingScaleId,
    certificateTemplateId,
  };
  if (existing) await tx.update(s.objectives).set(columns).where(eq(s.objectives.id, objectiveId));
  else await tx.insert(s.objectives).values({ id: objectiveId, tenantId, ...columns, createdAt: new Date() });
  await tx.delete(s.objectiveShowcases).where(eq(s.objectiveShowcases.objectiveId, objectiveId));
  if (showcaseIds.size)
    await tx
      .insert(s.objectiveShowcases)
      .values([...showcaseIds.values()].map((showcaseId) => ({ objectiveId, showcaseId })));
  await tx.delete(s.objectiveAttributes).where(eq(s.objectiveAttributes.objectiveId, objectiveId));
  if (attributeIds.length)
    await tx
      .insert(s.objectiveAttributes)
      .values([...new Set(attributeIds)].map((attributeId) => ({ objectiveId, attributeId })));

  // The tenant-wide access of a catalog or public course (learners' own accesses are left alone).
  const wide = and(eq(s.objectiveAccesses.objectiveId, objectiveId), isNull(s.objectiveAccesses.userId));
  const [access] = await tx.select({ id: s.objectiveAccesses.id }).from(s.objectiveAccesses).where(wide).limit(1);
  const termIdsByKey: Record<string, string> = termKey ? { [termKey]: termIds.get(catalog.terms![termKey])! } : {};
  const accessValues = accessColumns(course.access, now, termIdsByKey);
  if ((course.inCatalog ?? true) || course.isPublic) {
    if (access) await tx.update(s.objectiveAccesses).set(accessValues).where(eq(s.objectiveAccesses.id, access.id));
    else
      await tx.insert(s.objectiveAccesses).values({ id: uuid(), tenantId, objectiveId, userId: null, ...accessValues });
  } else if (access) await tx.delete(s.objectiveAccesses).where(wide);

  // The activities and parts: found again by code, updated in place; new ones inserted; the rest removed.
  const built = buildCourse(course, objectiveId, tenantId, now, input.userIds);
  const before = await tx
    .select({ code: s.activities.code, activityId: s.activities.id, partId: s.activityParts.id })
    .from(s.activityParts)
    .innerJoin(s.activities, eq(s.activities.id, s.activityParts.activityId))
    .where(eq(s.activityParts.objectiveId, objectiveId));
  const beforeByCode = new Map(before.map((b) => [b.code, b]));
  const partIds = new Map<string, string>();
  const activityIds = new Map<string, string>();
  for (const a of built.activities) {
    const known = beforeByCode.get(a.code!);
    if (known) activityIds.set(a.id!, known.activityId);
  }
  for (const [i, p] of built.parts.entries()) {
    const known = beforeByCode.get(built.activities[i].code!);
    if (known) partIds.set(p.id!, known.partId);
  }
  const newParts = new Set<string>();
  const newActivities: (typeof built.activities)[number][] = [];
  const newPartRows: (typeof built.parts)[number][] = [];
  for (const [i, a] of built.activities.entries()) {
    const p = built.parts[i];
    const activityId = activityIds.get(a.id!) ?? a.id!;
    const partId = partIds.get(p.id!) ?? p.id!;
    const activity = { ...a, id: activityId };
    const part = {
      ...p,
      id: partId,
      activityId,
      parentPartId: p.parentPartId ? (partIds.get(p.parentPartId) ?? p.parentPartId) : null,
    };
    if (activityIds.has(a.id!)) {
      await tx.update(s.activities).set(activity).where(eq(s.activities.id, activityId));
      await tx.update(s.activityParts).set(part).where(eq(s.activityParts.id, partId));
      report.activities.updated++;
    } else {
      newActivities.push(activity);
      newPartRows.push(part);
      newParts.add(p.id!);
      report.activities.created++;
    }
  }
  // New ones in one statement each (a course of hundreds of activities is a few statements).
  for (let i = 0; i < newActivities.length; i += 500) {
    await tx.insert(s.activities).values(newActivities.slice(i, i + 500));
    await tx.insert(s.activityParts).values(newPartRows.slice(i, i + 500));
  }
  const kept = new Set(built.activities.map((a) => a.code));
  const gone = before.filter((b) => !kept.has(b.code)).map((b) => b.activityId);
  if (gone.length) await tx.delete(s.activities).where(inArray(s.activities.id, gone));
  report.activities.removed = gone.length;

  // Posts and hub messages already in the course: written with a new course only (never twice).
  const posts = built.posts.filter((p) => newParts.has(p.activityPartId));
  if (posts.length) await tx.insert(s.discussionPosts).values(posts);
  if (!existing)
    await seedHubMessages(tx, {
      tenantId,
      courses: [course],
      objectiveIds: { [course.slug]: objectiveId },
      userIds: input.userIds,
      now,
    });
}
