/**
 * `npm run courses -- export CODE DIR` (issue 50 item 2, decision 062): a course of the database written as
 * a course folder in the published format (docs/course-folders.md) — course.json, about.html,
 * content.json, texts/, and the folder's own catalog.json (the grading scale, collections, terms and
 * filter attributes the course names), media.json (its files and LTI tools) and media/ (its private
 * files' bytes) — so that the folder stands alone and `export → import → export` gives the same folder.
 *
 * Canonical: a field is written only when it is not the format's default, keys are made from names,
 * lists are sorted where the database keeps no order, and dates are day counts from `datesFrom`, the UTC
 * midnight before the course's earliest date (so re-exporting, at any time, writes the same numbers).
 * Posts, hub messages and learners are people's, not the course's: not written. What the format cannot
 * carry (a SCORM package, a QTI test, a launch URL of its own…) refuses the export, naming the activities.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../api/db/client";
import * as s from "../../api/db/schema";
import type { FileStore } from "../../api/files/object-store";
import { readFromRoots, storageRoots } from "../../api/files/roots";
import { defaultTenantId } from "../../api/settings";
import { CONSTRAINT_DATE_FIELDS } from "../../domain/activity-access";
import {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  DisplayMode,
  ObjectiveState,
  PresentationMode,
} from "../../domain/vocabulary";
import { sanitizeCourseHtml } from "../../app/services/html.server";
import { DEFAULT_CONTENT_TYPE, defaultType, readingTime } from "../content/activities";
import { DemoContentError } from "../content/files";
import { coverUrl } from "../course-columns";

export interface CourseFolderExport {
  code: string;
  dir: string;
  /** The files written, relative to the folder. */
  files: string[];
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const nameOf = (enumeration: Record<string, number>, value: number): string =>
  Object.keys(enumeration).find((k) => enumeration[k] === value)!;

/** A key made from a name: lower-case words and dashes, unique among `taken`. */
function keyFor(name: string, taken: Set<string>): string {
  const base =
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "item";
  let key = base;
  for (let i = 2; taken.has(key); i++) key = `${base}-${i}`;
  taken.add(key);
  return key;
}

/** A file's name in media/: its own, made safe and unique among `taken`. */
function fileNameFor(fileName: string, taken: Set<string>): string {
  const safe = fileName.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "") || "file";
  const dot = safe.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
  let name = safe;
  for (let i = 2; taken.has(name); i++) name = `${stem}-${i}${ext}`;
  taken.add(name);
  return name;
}

/** One block per line, as the format's HTML files are written (the loader joins them again). */
const htmlFile = (html: string) =>
  `${html.replace(/><(?=\/?(?:p|h[1-6]|ul|ol|li|pre|blockquote|table|thead|tbody|tr|figure|figcaption|hr|div)\b)/g, ">\n<")}\n`;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Drops the fields whose value is undefined (they are the format's defaults). */
function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const CONTENT_KEYS: Record<string, readonly string[]> = {
  composite: [],
  text: ["html"],
  publicFile: ["url", "fileName", "mimeType", "size", "pages"],
  privateFile: ["path", "fileName", "mimeType", "size"],
  video: ["vimeoId"],
  event: ["description", "startsAt", "endsAt", "timezone", "location", "url"],
  discussion: ["prompt", "minReplies"],
  lti: ["tool"],
};

export async function exportCourseFolder(
  db: Db,
  options: { code: string; dir: string; store?: FileStore; tenantId?: string },
): Promise<CourseFolderExport> {
  const dir = resolve(options.dir);
  const slug = basename(dir);
  const fail = (message: string): never => {
    throw new DemoContentError(options.code, "", message);
  };
  if (!/^[a-z0-9][a-z0-9-]*$/.test(slug))
    fail(`the folder's name ${slug} is the course's key: lower-case words and dashes`);
  const tenantId = options.tenantId ?? (await defaultTenantId(db));
  if (!tenantId) return fail("the database has no tenant yet");
  const [course, second] = await db
    .select()
    .from(s.objectives)
    .where(and(eq(s.objectives.tenantId, tenantId), eq(s.objectives.code, options.code)))
    .limit(2);
  if (!course) return fail("no course has this code");
  if (second) fail("several courses have this code");

  // Everything the folder says, read in a handful of statements.
  const rows = await db
    .select({ a: s.activities, p: s.activityParts })
    .from(s.activityParts)
    .innerJoin(s.activities, eq(s.activities.id, s.activityParts.activityId))
    .where(eq(s.activityParts.objectiveId, course.id))
    .orderBy(asc(s.activityParts.axis));
  const scale = course.gradingScaleId
    ? (await db.select().from(s.gradingScales).where(eq(s.gradingScales.id, course.gradingScaleId)))[0]
    : undefined;
  const grades = scale
    ? await db
        .select()
        .from(s.grades)
        .where(eq(s.grades.gradingScaleId, scale.id))
        .orderBy(asc(s.grades.normalizedMinScore), asc(s.grades.name))
    : [];
  const collections = await db
    .select({ name: s.showcases.name })
    .from(s.objectiveShowcases)
    .innerJoin(s.showcases, eq(s.showcases.id, s.objectiveShowcases.showcaseId))
    .where(eq(s.objectiveShowcases.objectiveId, course.id))
    .orderBy(asc(s.showcases.name));
  const attributes = await db
    .select({ name: s.filterAttributes.name, category: s.filterCategories.name })
    .from(s.objectiveAttributes)
    .innerJoin(s.filterAttributes, eq(s.filterAttributes.id, s.objectiveAttributes.attributeId))
    .innerJoin(s.filterCategories, eq(s.filterCategories.id, s.filterAttributes.categoryId))
    .where(eq(s.objectiveAttributes.objectiveId, course.id))
    .orderBy(asc(s.filterCategories.name), asc(s.filterAttributes.name));
  const [access] = await db
    .select()
    .from(s.objectiveAccesses)
    .where(and(eq(s.objectiveAccesses.objectiveId, course.id), isNull(s.objectiveAccesses.userId)))
    .limit(1);
  const [term] = access?.termId
    ? await db.select({ name: s.terms.name }).from(s.terms).where(eq(s.terms.id, access.termId))
    : [];
  const [certificate] = course.certificateTemplateId
    ? await db
        .select({ name: s.certificateTemplates.name, validityDays: s.certificateTemplates.validityDays })
        .from(s.certificateTemplates)
        .where(eq(s.certificateTemplates.id, course.certificateTemplateId))
    : [];
  const root = rows.find((r) => r.p.parentPartId === null);
  if (!root) return fail("the course has no activity tree");

  // What the format cannot carry.
  const problems: string[] = [];
  const kindOf = (a: typeof s.activities.$inferSelect): keyof typeof CONTENT_KEYS | null => {
    if (a.kind === ActivityKind.text) {
      if (a.contentType === ActivityContentType.Text) return "text";
      if (a.contentType === ActivityContentType.PublicFile) return "publicFile";
      if (a.contentType === ActivityContentType.PrivateFile) return "privateFile";
      return null;
    }
    const name = nameOf(ActivityKind, a.kind);
    return Object.hasOwn(CONTENT_KEYS, name) ? name : null;
  };
  for (const { a, p } of rows) {
    const kind = kindOf(a);
    const content = (a.content ?? {}) as Record<string, unknown>;
    const extra = kind ? Object.keys(content).filter((k) => !CONTENT_KEYS[kind].includes(k)) : [];
    if (!kind) problems.push(`"${a.name}" (${p.axis}): its content type is not one of the format's`);
    else if (extra.length)
      problems.push(`"${a.name}" (${p.axis}): content the format has no field for (${extra.join(", ")})`);
    else if (kind === "text" && typeof content.html !== "string")
      problems.push(`"${a.name}" (${p.axis}): a text without HTML`);
    if (a.toolUrl) problems.push(`"${a.name}" (${p.axis}): a launch URL of its own`);
    if (p.scoreWeight !== Math.round(p.scoreWeight) || p.scoreWeight < 1)
      problems.push(`"${a.name}" (${p.axis}): a weight that is not a whole number`);
    if (kind === "event") {
      const start = new Date(String(content.startsAt));
      if (start.getTime() % HOUR_MS !== 0) problems.push(`"${a.name}" (${p.axis}): an event that starts off the hour`);
    }
  }
  const ltiTools = new Map<number, Set<string>>();
  for (const { a } of rows)
    if (a.kind === ActivityKind.lti && typeof (a.content as { tool?: unknown }).tool === "string")
      ltiTools.set(
        a.contentType,
        (ltiTools.get(a.contentType) ?? new Set()).add(String((a.content as { tool?: string }).tool)),
      );
  for (const [ct, tools] of ltiTools)
    if (tools.size > 1)
      problems.push(
        `its ${nameOf(ActivityContentType, ct)} activities launch different tools (${[...tools].join(", ")})`,
      );
  if (course.imageUrl && course.imageUrl !== coverUrl(slug))
    problems.push(
      /^\/learn\/covers\/[a-z0-9-]+\.svg$/.test(course.imageUrl)
        ? `its cover is ${course.imageUrl}: export it into a folder named ${basename(course.imageUrl, ".svg")}`
        : `its picture ${course.imageUrl} is not a cover of public/covers/`,
    );
  if (problems.length) fail(`the course folder format cannot carry:\n  ${problems.join("\n  ")}`);

  // Dates: day counts from the UTC midnight before the earliest.
  const dates: number[] = [];
  const collect = (v: unknown) => {
    if (v instanceof Date) dates.push(v.getTime());
    else if (typeof v === "string" && !Number.isNaN(Date.parse(v))) dates.push(Date.parse(v));
  };
  if (access)
    [access.dueDate, access.availabilityDate, access.availabilityEndDate, access.gradeRevealDate].forEach(collect);
  for (const { a, p } of rows) {
    for (const f of CONSTRAINT_DATE_FIELDS) collect((p.constraint as Record<string, unknown>)[f]);
    if (a.kind === ActivityKind.event) collect((a.content as { startsAt?: string }).startsAt);
  }
  const anchor = dates.length ? Math.floor(Math.min(...dates) / DAY_MS) * DAY_MS : null;
  const days = (v: Date | string | null | undefined): number | undefined =>
    v === null || v === undefined || anchor === null ? undefined : (new Date(v).getTime() - anchor) / DAY_MS;

  // The folder's catalog.
  const catalog: Record<string, unknown> = {};
  let scaleKey: string | null = null;
  if (scale) {
    scaleKey = keyFor(scale.name, new Set());
    const passing = grades.find((g) => g.id === scale.passingGradeId);
    if (!passing) fail(`its grading scale "${scale.name}" has no passing grade`);
    catalog.gradingScales = {
      [scaleKey]: {
        name: scale.name,
        description: scale.description ?? "",
        maxScore: scale.maxScore,
        normalizedPassingScore: scale.normalizedPassingScore,
        passingGrade: passing!.name,
        grades: grades.map((g) => ({ name: g.name, color: g.color, normalizedMinScore: g.normalizedMinScore })),
      },
    };
  }
  const collectionKeys = new Set<string>();
  const collectionsByKey = Object.fromEntries(collections.map((c) => [keyFor(c.name, collectionKeys), c.name]));
  if (collections.length) catalog.collections = collectionsByKey;
  const termKey = term ? keyFor(term.name, new Set()) : undefined;
  if (term) catalog.terms = { [termKey!]: term.name };
  if (attributes.length) {
    const categories: Record<string, string[]> = {};
    for (const a of attributes) (categories[a.category] ??= []).push(a.name);
    catalog.filterCategories = categories;
  }

  // The folder's media: files (private ones copied into media/) and LTI tools.
  const media: { ltiTool?: string; ltiTool11?: string; files: Record<string, unknown> } = { files: {} };
  const privateBytes = new Map<string, Uint8Array>();
  const fileKeys = new Map<string, string>();
  const takenFileKeys = new Set<string>();
  const takenPaths = new Set<string>();
  const roots = storageRoots(options.store);
  const fileKeyOf = async (content: Record<string, unknown>, isPublic: boolean): Promise<string> => {
    const where = String(isPublic ? content.url : content.path);
    const known = fileKeys.get(where);
    if (known) return known;
    const fileName = String(content.fileName);
    const key = keyFor(fileName.replace(/\.[^.]+$/, ""), takenFileKeys);
    fileKeys.set(where, key);
    if (isPublic) {
      media.files[key] = defined({
        url: content.url,
        fileName,
        mimeType: content.mimeType,
        size: content.size,
        pages: content.pages,
      });
    } else {
      const bytes = await readFromRoots(roots, where);
      if (!bytes) return fail(`the file ${where} is not in the storage`);
      const path = `media/${fileNameFor(fileName, takenPaths)}`;
      privateBytes.set(path, bytes);
      media.files[key] = { path, fileName, mimeType: content.mimeType, size: bytes.length };
    }
    return key;
  };
  const ltiTool = ltiTools.get(ActivityContentType.Lti13);
  const ltiTool11 = ltiTools.get(ActivityContentType.Lti11);
  if (ltiTool) media.ltiTool = [...ltiTool][0];
  if (ltiTool11) media.ltiTool11 = [...ltiTool11][0];

  // The tree.
  const texts = new Map<string, string>();
  const takenTexts = new Set<string>();
  const children = new Map<string | null, typeof rows>();
  for (const r of rows) children.set(r.p.parentPartId, [...(children.get(r.p.parentPartId) ?? []), r]);
  const node = async ({ a, p }: (typeof rows)[number], isRoot: boolean): Promise<Record<string, unknown>> => {
    const content = (a.content ?? {}) as Record<string, unknown>;
    const c = p.constraint as Record<string, unknown>;
    const constraint = defined({
      ...Object.fromEntries(CONSTRAINT_DATE_FIELDS.map((f) => [f, days(c[f] as string | undefined)])),
      reviewPolicy: c.reviewPolicy,
      resultsDisclosurePolicy: c.resultsDisclosurePolicy,
      resultsDisclosureAbove: c.resultsDisclosureAbove === undefined ? undefined : Number(c.resultsDisclosureAbove),
    });
    const kind = kindOf(a)!;
    let html: string | undefined;
    let defaultDuration: number | null = null;
    if (kind === "text") {
      const clean = sanitizeCourseHtml(String(content.html));
      html = `texts/${keyFor(a.name, takenTexts)}.html`;
      texts.set(html, clean);
      defaultDuration = readingTime(String(content.html));
    }
    const start = kind === "event" ? Date.parse(String(content.startsAt)) : 0;
    const end = kind === "event" ? Date.parse(String(content.endsAt)) : 0;
    if (kind === "event") defaultDuration = (end - start) / 1000;
    const contentType =
      a.contentType === DEFAULT_CONTENT_TYPE[a.kind] ? undefined : nameOf(ActivityContentType, a.contentType);
    const type =
      isRoot || a.type === defaultType({ kind: a.kind, manualGrading: a.manualGrading }, a.contentType)
        ? undefined
        : nameOf(ActivityType, a.type);
    const kids = children.get(p.id) ?? [];
    const out = defined({
      name: isRoot ? undefined : a.name,
      kind: nameOf(ActivityKind, a.kind),
      contentType,
      type,
      state: isRoot || a.state === ObjectiveState.ready ? undefined : nameOf(ObjectiveState, a.state),
      optional: p.optional || undefined,
      weight: p.scoreWeight === 1 ? undefined : p.scoreWeight,
      maxScore: a.kind === ActivityKind.composite ? undefined : (a.maxScore ?? undefined),
      manualGrading: a.manualGrading || undefined,
      constraint: Object.keys(constraint).length ? constraint : undefined,
      imageUrl: a.imageUrl ?? undefined,
      duration: a.duration === null || a.duration === defaultDuration ? undefined : a.duration,
      proctored: isRoot || !a.proctored ? undefined : true,
      supportReview: isRoot || a.supportReview ? undefined : false,
      modes: a.supportCollaborativeMode ? (a.supportPersonalMode ? "either" : "group") : undefined,
      preferredSize:
        a.preferredWidth !== null && a.preferredHeight !== null ? [a.preferredWidth, a.preferredHeight] : undefined,
      html,
      file:
        kind === "publicFile" || kind === "privateFile" ? await fileKeyOf(content, kind === "publicFile") : undefined,
      vimeoId: kind === "video" ? content.vimeoId : undefined,
      description: kind === "event" && content.description ? content.description : undefined,
      event:
        kind === "event"
          ? defined({
              inDays: (Math.floor(start / DAY_MS) * DAY_MS - anchor!) / DAY_MS,
              hour: new Date(start).getUTCHours(),
              hours: (end - start) / HOUR_MS,
              timezone: content.timezone,
              location: content.location,
              url: content.url,
            })
          : undefined,
      prompt: kind === "discussion" ? content.prompt : undefined,
      minReplies: kind === "discussion" ? content.minReplies : undefined,
      children: a.kind === ActivityKind.composite ? ([] as Record<string, unknown>[]) : undefined,
    });
    if (out.children) out.children = await Promise.all(kids.map((k) => node(k, false)));
    return out;
  };
  const content = await node(root, true);

  const accessOut = access
    ? defined({
        term: termKey,
        mandatory: access.isMandatory || undefined,
        retake: access.retake || undefined,
        dueIn: days(access.dueDate),
        availableIn: days(access.availabilityDate),
        availableUntil: days(access.availabilityEndDate),
        gradeReveal: access.gradeRevealPolicy === "none" ? undefined : access.gradeRevealPolicy,
        gradeRevealIn: days(access.gradeRevealDate),
      })
    : {};
  const courseJson = defined({
    name: course.name,
    code: course.code,
    description: course.description,
    language: course.language ?? undefined,
    cover: course.imageUrl ? true : undefined,
    state: nameOf(ObjectiveState, course.state),
    activityState: course.activityState === course.state ? undefined : nameOf(ObjectiveState, course.activityState),
    kind: nameOf(ActivityKind, course.activityKind),
    type: nameOf(ActivityType, course.type),
    presentationMode: nameOf(PresentationMode, course.presentationMode),
    displayMode: course.displayMode === DisplayMode.EmbeddedAuto ? undefined : nameOf(DisplayMode, course.displayMode),
    collections: Object.keys(collectionsByKey),
    attributes: attributes.map((a) => a.name),
    gradingScale: scaleKey,
    inCatalog: course.inCatalog ? undefined : false,
    isPublic: course.isPublic || undefined,
    allowSelfEnrollment: course.allowSelfEnrollment ? undefined : false,
    proctored: course.proctored || undefined,
    supportReview: course.supportReview ? undefined : false,
    enableAiTutor: course.enableAiTutor || undefined,
    supportLtiAuthoring: course.supportLtiAuthoring || undefined,
    supportMobileView: course.supportMobileView ? undefined : false,
    supportFullscreenView: course.supportFullscreenView ? undefined : false,
    accessNewContentAfterCompletion: course.accessNewContentAfterCompletion || undefined,
    announcements: course.announcementChannelId ? true : undefined,
    certificate: certificate ? { name: certificate.name, validityDays: certificate.validityDays } : undefined,
    access: Object.keys(accessOut).length ? accessOut : undefined,
    datesFrom: anchor === null ? undefined : new Date(anchor).toISOString(),
  });

  // Written over the format's own files of the folder (others in it are left alone).
  const files = new Map<string, string | Uint8Array>([
    ["course.json", json(courseJson)],
    ["about.html", htmlFile(sanitizeCourseHtml(course.about))],
    ["content.json", json(content)],
  ]);
  if (Object.keys(catalog).length) files.set("catalog.json", json(catalog));
  if (Object.keys(media.files).length || media.ltiTool || media.ltiTool11)
    files.set("media.json", json(defined({ ltiTool: media.ltiTool, ltiTool11: media.ltiTool11, files: media.files })));
  for (const [path, html] of texts) files.set(path, htmlFile(html));
  for (const [path, bytes] of privateBytes) files.set(path, bytes);
  // Only over a course folder: an export never clears the format's names out of another folder.
  if (existsSync(dir) && !statSync(dir).isDirectory()) fail(`${dir} is a file, not a folder`);
  if (existsSync(dir) && readdirSync(dir).length > 0 && !existsSync(join(dir, "course.json")))
    fail(`${dir} holds files and no course.json: export into a new folder, or over a course folder`);
  mkdirSync(dir, { recursive: true });
  for (const name of ["course.json", "about.html", "content.json", "catalog.json", "media.json", "texts", "media"])
    rmSync(join(dir, name), { recursive: true, force: true });
  for (const [path, body] of files) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
  return { code: course.code, dir, files: [...files.keys()].sort() };
}
