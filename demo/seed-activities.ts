/**
 * Course content (activity trees) of the demo catalog, from the courses' content.json files
 * (demo/data/courses/<folder>/, read by demo-content.ts).
 *
 * A composite course gets a composite root with its modules and leaves (texts, videos, files, events,
 * discussions, LTI tools); any other kind gets a single root part of that kind. The root is the
 * course itself: its name, code, type, state, proctoring and review setting come from course.json.
 *
 * python-basics ("Python for Data Analysis") is the activity-access showcase of spec 4.12: its parts
 * carry every activity constraint (start from in the past and the future, start until, accessible
 * until, grace period, due dates, every review and results-disclosure policy) plus a draft and an
 * archived activity. LOCK_SHOWCASE_SLUG names it.
 *
 * Dates are relative to `now`. Ids are random uuids. The learners' progress through the trees is
 * seeded with their enrolments (seed-learners.ts), which finds each leaf again by its axis.
 */
import { count, inArray } from "drizzle-orm";
import type { Db } from "../api/db/client";
import * as s from "../api/db/schema";
import { demoContent, type CourseDef } from "./demo-content";
import type { ActivityDef } from "./content/activities";
import type { ConstraintDef } from "./content/schemas";
import { CONSTRAINT_DATE_FIELDS } from "../domain/activity-access";
import { contentPageRows, insertContentPages } from "../api/content-pages";
import { storageRoots } from "../api/files/roots";
import { ObjectiveState, ActivityKind, type ActivityContentType } from "../domain/vocabulary";

/** A drizzle transaction on the demo database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The course whose parts exercise every activity lock reason and constraint of spec 4.12. */
export const LOCK_SHOWCASE_SLUG = "python-basics";

/** The demo handbook written by make-demo-pdf.ts (media.json's `handbook`; the loader checks its size against the file). */
export const HANDBOOK_PDF = (() => {
  const file = demoContent().media.files.handbook;
  if (!file || !("url" in file)) throw new Error("demo/data/media.json: files.handbook: the demo handbook is missing");
  return file;
})();

/** Constraint fields that hold dates (spec 3 'Activity constraint'): the domain's list. */
/** Every constraint field of spec 3. */
export const CONSTRAINT_FIELDS = [
  ...CONSTRAINT_DATE_FIELDS,
  "resultsDisclosurePolicy",
  "reviewPolicy",
  "resultsDisclosureAbove",
] as const;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type ActivityRow = typeof s.activities.$inferInsert;
type PartRow = typeof s.activityParts.$inferInsert;
type PostRow = typeof s.discussionPosts.$inferInsert;

/** One leaf of a course's tree with what the progress seeding needs to know. */
export interface CourseLeaf {
  /** Its place in the tree ("0" for the root, "03.01"…): how the learners' seeding finds its part. */
  axis: string;
  optional: boolean;
  state: ObjectiveState;
  maxScore: number | null;
  manualGrading: boolean;
  contentType: ActivityContentType;
  /** Startable now: ready or expired, no draft ancestor, no start date in the future. */
  startable: boolean;
  done: boolean;
  missed: boolean;
  /** Earliest of accessibleUntil / gracePeriodUntil / startUntil (ms), own or inherited: a learner finished it before then. */
  deadline: number | null;
  /** Taken under a proctor: every attempt at it has a proctoring session. */
  proctored: boolean;
}

/** One node of a course's tree in tree order (the root first), with its place and inherited rules. */
interface TreeNode {
  def: ActivityDef;
  axis: string;
  parentAxis: string | null;
  order: number;
  /** Set for leaves. */
  leaf: CourseLeaf | null;
}

/** The root of a course, with what course.json says about it. */
function rootOf(course: CourseDef): ActivityDef {
  return {
    ...course.root,
    name: course.name,
    type: course.type,
    state: course.activityState ?? course.state,
    proctored: course.proctored ?? false,
    supportReview: course.supportReview ?? true,
  };
}

/** Walks a course's tree depth first; the root sorts before its children ("0" < "01" < "01.01" < "02"…). */
function walk(course: CourseDef, now: Date): TreeNode[] {
  const out: TreeNode[] = [];
  const visit = (
    def: ActivityDef,
    parentAxis: string | null,
    axis: string,
    order: number,
    inherited: { draft: boolean; startFrom: number | null; deadline: number | null },
  ) => {
    const state = def.state ?? ObjectiveState.ready;
    const maxScore = def.kind === ActivityKind.composite ? null : (def.maxScore ?? null);
    const startFrom = def.constraint?.startFrom ?? inherited.startFrom;
    const draft = inherited.draft || state === ObjectiveState.draft;
    const ends = [
      def.constraint?.accessibleUntil,
      def.constraint?.gracePeriodUntil,
      def.constraint?.startUntil,
      inherited.deadline ?? undefined,
    ];
    const deadlineDays = ends.filter((x): x is number => x !== undefined);
    const deadline = deadlineDays.length ? Math.min(...deadlineDays) : null;
    const node: TreeNode = { def, axis, parentAxis, order, leaf: null };
    out.push(node);
    if (def.kind === ActivityKind.composite) {
      (def.children ?? []).forEach((child, i) => {
        const segment = String(i + 1).padStart(2, "0");
        visit(child, axis, parentAxis === null ? segment : `${axis}.${segment}`, i + 1, { draft, startFrom, deadline });
      });
    } else {
      node.leaf = {
        axis,
        optional: def.optional ?? false,
        state,
        maxScore,
        manualGrading: def.manualGrading ?? false,
        contentType: def.contentType,
        startable: !draft && state !== ObjectiveState.archived && (startFrom === null || startFrom <= 0),
        done: def.done ?? false,
        missed: def.missed ?? false,
        deadline: deadline === null ? null : now.getTime() + deadline * DAY_MS,
        proctored: def.proctored ?? false,
      };
    }
  };
  visit(rootOf(course), null, "0", 0, { draft: false, startFrom: null, deadline: null });
  return out;
}

/** The leaves of a course's tree in tree order (what seed-learners.ts seeds progress on). */
export function courseLeaves(course: CourseDef, now: Date): CourseLeaf[] {
  return walk(course, now).flatMap((n) => (n.leaf ? [n.leaf] : []));
}

/** The number of the root's children: the course's childrenCount. */
export const rootChildrenCount = (course: CourseDef): number =>
  course.root.kind === ActivityKind.composite ? (course.root.children?.length ?? 0) : 0;

function constraintOf(def: ConstraintDef | undefined, now: Date): Record<string, string> {
  const out: Record<string, string> = {};
  if (!def) return out;
  for (const field of CONSTRAINT_DATE_FIELDS) {
    const days = def[field];
    if (days !== undefined) out[field] = new Date(now.getTime() + days * DAY_MS).toISOString();
  }
  if (def.reviewPolicy) out.reviewPolicy = def.reviewPolicy;
  if (def.resultsDisclosurePolicy) out.resultsDisclosurePolicy = def.resultsDisclosurePolicy;
  // The contract types constraint values as strings (domain/contract/lifecycle.ts TreeNode).
  if (def.resultsDisclosureAbove !== undefined) out.resultsDisclosureAbove = String(def.resultsDisclosureAbove);
  return out;
}

function eventContent(def: ActivityDef, now: Date): Record<string, unknown> {
  if (!def.event) return def.content;
  const { inDays, hour, hours, timezone, location, url } = def.event;
  const day = new Date(now.getTime() + inDays * DAY_MS);
  const startsAt = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour));
  const endsAt = new Date(startsAt.getTime() + hours * HOUR_MS);
  return {
    ...def.content,
    startsAt: startsAt.toISOString(),
    endsAt: endsAt.toISOString(),
    timezone,
    ...(location ? { location } : {}),
    ...(url ? { url } : {}),
  };
}

/** Activities and parts of one course, and the posts already in its discussions (by the users in `userIds`). */
export function buildCourse(
  course: CourseDef,
  objectiveId: string,
  tenantId: string,
  now: Date,
  userIds: Partial<Record<string, string>>,
) {
  const activities: ActivityRow[] = [];
  const parts: PartRow[] = [];
  const posts: PostRow[] = [];
  const partIds = new Map<string, string>();
  for (const { def, axis, parentAxis, order } of walk(course, now)) {
    const activityId = crypto.randomUUID();
    const partId = crypto.randomUUID();
    partIds.set(axis, partId);
    const maxScore = def.kind === ActivityKind.composite ? null : (def.maxScore ?? null);
    activities.push({
      id: activityId,
      tenantId,
      name: def.name,
      code: parentAxis === null ? course.code : `${course.code}-${axis.replace(/\./g, "-")}`,
      kind: def.kind,
      contentType: def.contentType,
      type: def.type,
      state: def.state ?? ObjectiveState.ready,
      content: eventContent(def, now),
      preferredWidth: def.preferredSize?.[0] ?? null,
      preferredHeight: def.preferredSize?.[1] ?? null,
      supportReview: def.supportReview ?? true,
      supportCollaborativeMode: def.modes === "group" || def.modes === "either",
      supportPersonalMode: def.modes !== "group",
      supportLtiGrading: def.kind === ActivityKind.lti && maxScore !== null,
      proctored: def.proctored ?? false,
      duration: def.duration ?? null,
      toolUrl: def.toolUrl ?? null,
      imageUrl: def.imageUrl ?? null,
      maxScore,
      manualGrading: def.manualGrading ?? false,
    });
    parts.push({
      id: partId,
      objectiveId,
      parentPartId: parentAxis === null ? null : partIds.get(parentAxis)!,
      activityId,
      order,
      optional: def.optional ?? false,
      scoreWeight: def.weight ?? 1,
      axis,
      constraint: constraintOf(def.constraint, now),
    });
    for (const post of def.posts ?? []) {
      const userId = userIds[post.by];
      if (userId)
        posts.push({
          id: crypto.randomUUID(),
          activityPartId: partId,
          userId,
          body: post.body,
          createdAt: new Date(now.getTime() - post.daysAgo * DAY_MS),
        });
    }
  }
  return { activities, parts, posts };
}

async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * Seeds the activity trees of the demo courses in `objectiveIds` (folder name → id, as seedCatalog
 * returns it). Idempotent: when any of these courses has a part it inserts nothing. Courses of the
 * tenant that are not in the map (such as seed-big's generated courses) are left without a tree.
 * The PDF activities' text is indexed page by page for the tutor (content_pages); the discussions get
 * their demo posts by the demo users in `userIds` (none without accounts).
 * Accepts the database or an open transaction (then it runs in a savepoint).
 */
export async function seedActivities(
  db: Db | Tx,
  input: {
    tenantId: string;
    objectiveIds: Partial<Record<string, string>>;
    now?: Date;
    userIds?: Partial<Record<string, string>>;
  },
): Promise<void> {
  const { tenantId } = input;
  const now = input.now ?? new Date();
  const courses = demoContent().courses.filter((c) => input.objectiveIds[c.slug]);
  if (courses.length === 0) return;
  const ids = courses.map((c) => input.objectiveIds[c.slug]!);

  await (db as Db).transaction(async (tx) => {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(s.activityParts)
      .where(inArray(s.activityParts.objectiveId, ids));
    if (n > 0) return;
    const activityRows: ActivityRow[] = [];
    const partRows: PartRow[] = [];
    const postRows: PostRow[] = [];
    for (const course of courses) {
      const built = buildCourse(course, input.objectiveIds[course.slug]!, tenantId, now, input.userIds ?? {});
      activityRows.push(...built.activities);
      partRows.push(...built.parts);
      postRows.push(...built.posts);
    }
    await insertChunked(activityRows, 500, (chunk) => tx.insert(s.activities).values(chunk));
    await insertChunked(partRows, 1000, (chunk) => tx.insert(s.activityParts).values(chunk));
    if (postRows.length) await tx.insert(s.discussionPosts).values(postRows);
    // The demo's files are in the repository (public/, storage/): their pages, read once per file.
    const pages = await contentPageRows(
      activityRows.map((a) => ({ id: a.id!, contentType: a.contentType, content: a.content })),
      storageRoots(),
    );
    await insertContentPages(tx, pages);
  });
}
