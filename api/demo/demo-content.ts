/**
 * The demo content: reads the data files under api/demo/data/ (see its README.md), validates them with
 * zod and cross-checks their references, and returns them typed, with the vocabulary's names turned
 * into its numbers. A mistake in a data file fails loudly, naming the file and the field:
 *
 *   api/demo/data/courses/python-basics/course.json: access.term: unknown term "sprng2026" (terms: …)
 *
 * Read once per process (`demoContent()`); nothing here writes to a database — the seed modules do.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { CONSTRAINT_DATE_FIELDS } from "../../domain/activity-access";
import { DEFAULT_FEATURES } from "../../domain/menu";
import {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  DisplayMode,
  GRADE_REVEAL_POLICIES,
  ObjectiveState,
  ObjectiveWorkflowState,
  PresentationMode,
  RESULTS_DISCLOSURE_POLICIES,
  REVIEW_POLICIES,
  ROLES,
} from "../../domain/vocabulary";

/** Where the data files live. */
export const DEMO_DIR = fileURLToPath(new URL("./data/", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const PUBLIC_DIR = join(REPO, "public");
const STORAGE_DIR = join(REPO, "storage");

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/**
 * A data file (or request) that cannot be used: the message names the file (relative to the
 * repository; other labels, such as "request body", as they are) and the field.
 */
export class DemoContentError extends Error {
  readonly field: string;
  constructor(file: string, field: string, message: string) {
    super(`${shortPath(file)}: ${field ? `${field}: ` : ""}${message}`);
    this.name = "DemoContentError";
    this.field = field;
  }
}

/** A path inside the repository relative to it (api/demo/data/…); others (a copy elsewhere, a label) as they are. */
function shortPath(file: string): string {
  if (!isAbsolute(file)) return file;
  const inRepo = relative(REPO, file);
  return inRepo.startsWith("..") ? file : inRepo;
}

const fieldOf = (path: readonly PropertyKey[]) =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");

/** Parses `value` with `schema`; the first problem becomes a DemoContentError naming `file` and the field. */
function parseWith<S extends z.ZodType>(schema: S, value: unknown, file: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${fieldOf(i.path) || "(top level)"}: ${i.message}`);
  throw new DemoContentError(file, "", issues.join("; "));
}

function readJson<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  if (!existsSync(file)) throw new DemoContentError(file, "", "file not found");
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new DemoContentError(file, "", `not valid JSON (${(error as Error).message})`);
  }
  return parseWith(schema, value, file);
}

/**
 * An HTML file of the demo content. Line breaks between two tags (with the indentation around them)
 * are dropped, so each block can sit on its own line in the file; text, and code in <pre>, is kept.
 */
export function readHtml(file: string, referencedFrom: string, field: string): string {
  if (!existsSync(file)) throw new DemoContentError(referencedFrom, field, `${shortPath(file)} not found`);
  return readFileSync(file, "utf8")
    .replace(/>\s*\n\s*</g, "><")
    .trim();
}

// ---------------------------------------------------------------------------------------------
// Vocabulary in data files: names, mapped to the numbers of domain/vocabulary.ts
// ---------------------------------------------------------------------------------------------

/** A zod schema for one enumeration of the vocabulary, written by name ("lti") and read as its number (2). */
function byName<E extends Record<string, number>>(enumeration: E, what: string) {
  const names = Object.keys(enumeration) as [keyof E & string, ...(keyof E & string)[]];
  return z
    .enum(names, { error: () => `${what} must be one of ${names.join(", ")}` })
    .transform((name) => enumeration[name] as E[keyof E]);
}

const days = z.number().finite();
const nonEmpty = z.string().trim().min(1);

// ---------------------------------------------------------------------------------------------
// Schemas of the files
// ---------------------------------------------------------------------------------------------

const tenantSchema = z.strictObject({
  name: nonEmpty,
  domain: nonEmpty,
  units: z.array(nonEmpty).min(1),
  rolePermissions: z.partialRecord(z.enum(ROLES), z.array(nonEmpty)),
  /** Spec 3 Group: learners working together; `members` are user keys of users.json. */
  groups: z
    .array(
      z.strictObject({
        name: nonEmpty,
        kind: z.enum(["miniGroup", "team"]),
        members: z.array(nonEmpty).min(2),
        /** The course folder the group works in (decision 026); absent = a tenant-wide mini-group. */
        course: nonEmpty.optional(),
        /** A team's one activity of that course, by name; absent = every collaborative activity of it. */
        activity: nonEmpty.optional(),
      }),
    )
    .optional(),
  /**
   * Spec 3 learner.tutor widgetSettings (decision 028): the tutor widget of these course folders opens
   * expanded (`initialExpanded`) or collapsed; the others' collapsed.
   */
  tutorWidget: z.array(z.strictObject({ course: nonEmpty, initialExpanded: z.boolean() })).optional(),
  /** Feature switches that differ from the defaults (domain/menu.ts DEFAULT_FEATURES). */
  features: z
    .partialRecord(z.enum(Object.keys(DEFAULT_FEATURES) as [keyof typeof DEFAULT_FEATURES]), z.boolean())
    .optional(),
});

const userSchema = z.strictObject({
  email: z.email().transform((e) => e.toLowerCase()),
  firstName: nonEmpty,
  middleName: nonEmpty.optional(),
  lastName: nonEmpty,
  roles: z.array(z.enum(ROLES)).min(1),
  licences: z.array(nonEmpty).min(1),
  department: nonEmpty.optional(),
  /** Unit names of tenant.json; the first is the primary unit. */
  units: z.array(nonEmpty).min(1),
  timezone: nonEmpty.optional(),
});

const usersSchema = z.strictObject({
  password: nonEmpty,
  users: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/, "user keys are lower-case words"), userSchema),
});

const gradeSchema = z.strictObject({
  name: nonEmpty,
  color: z.string().regex(/^#[0-9A-Fa-f]{6}$/, "a colour is #RRGGBB"),
  normalizedMinScore: z.number().min(0).max(1),
});

const scaleSchema = z.strictObject({
  name: nonEmpty,
  description: z.string(),
  maxScore: z.number().positive(),
  normalizedPassingScore: z.number().min(0).max(1),
  passingGrade: nonEmpty,
  grades: z.array(gradeSchema).min(1),
});

const catalogSchema = z.strictObject({
  gradingScales: z.record(z.string(), scaleSchema),
  collections: z.record(z.string(), nonEmpty),
  terms: z.record(z.string(), nonEmpty),
  filterCategories: z.record(z.string(), z.array(nonEmpty).min(1)),
  /** Course folders in creation order (the oldest first). */
  courses: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "a course folder name is lower-case words and dashes")),
});

const publicFileSchema = z.strictObject({
  url: z.string().startsWith("/learn/"),
  fileName: nonEmpty,
  mimeType: nonEmpty,
  size: z.number().int().positive(),
  pages: z.number().int().positive().optional(),
});
const privateFileSchema = z.strictObject({
  path: nonEmpty,
  fileName: nonEmpty,
  mimeType: nonEmpty,
  size: z.number().int().positive(),
});
const mediaSchema = z.strictObject({
  /** The key of the registered tool (lti-tools.json) every LTI activity launches. */
  ltiTool: z.string().regex(/^[a-z0-9-]+$/),
  /** …and the LTI 1.1 tool of activities with `"contentType": "Lti11"`. */
  ltiTool11: z.string().regex(/^[a-z0-9-]+$/),
  files: z.record(z.string(), z.union([publicFileSchema, privateFileSchema])),
});

/** Enrolment settings of an access; day counts are relative to the day of seeding (negative = past). */
const accessSettingsSchema = z.strictObject({
  term: z.string().optional(),
  mandatory: z.boolean().optional(),
  retake: z.boolean().optional(),
  dueIn: days.optional(),
  /** The due date is a day without a time (UTC midnight of the day `dueIn` falls on): shown all day. */
  dueOnDay: z.boolean().optional(),
  availableIn: days.optional(),
  availableUntil: days.optional(),
  gradeReveal: z.enum(GRADE_REVEAL_POLICIES).optional(),
  gradeRevealIn: days.optional(),
});
export type AccessSettings = z.output<typeof accessSettingsSchema>;

const courseSchema = z.strictObject({
  name: nonEmpty,
  code: z.string().regex(/^[A-Z0-9]{2}-[A-Z0-9]{3}$/, "a course code is like PY-101"),
  description: z.string(),
  /** The language of the course's texts (BCP 47, e.g. "ar"); absent = unknown (shown in its own direction). */
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "a language tag like en or ar")
    .optional(),
  /** The cover is public/covers/<folder>.svg. */
  cover: z.boolean().optional(),
  state: byName(ObjectiveState, "state"),
  /** The root activity's state; the course's state when absent. */
  activityState: byName(ObjectiveState, "activityState").optional(),
  kind: byName(ActivityKind, "kind"),
  type: byName(ActivityType, "type"),
  presentationMode: byName(PresentationMode, "presentationMode"),
  displayMode: byName(DisplayMode, "displayMode").optional(),
  collections: z.array(z.string()),
  attributes: z.array(z.string()),
  gradingScale: z.string().nullable(),
  inCatalog: z.boolean().optional(),
  isPublic: z.boolean().optional(),
  allowSelfEnrollment: z.boolean().optional(),
  proctored: z.boolean().optional(),
  supportReview: z.boolean().optional(),
  enableAiTutor: z.boolean().optional(),
  supportLtiAuthoring: z.boolean().optional(),
  supportMobileView: z.boolean().optional(),
  supportFullscreenView: z.boolean().optional(),
  accessNewContentAfterCompletion: z.boolean().optional(),
  announcements: z.boolean().optional(),
  /** Passing the course issues this certificate (validity in days; null = never expires). */
  certificate: z.strictObject({ name: nonEmpty, validityDays: z.number().int().positive().nullable() }).optional(),
  /** Settings of the tenant-wide (catalog) access. */
  access: accessSettingsSchema.optional(),
});

const constraintSchema = z.strictObject({
  ...(Object.fromEntries(CONSTRAINT_DATE_FIELDS.map((f) => [f, days.optional()])) as Record<
    (typeof CONSTRAINT_DATE_FIELDS)[number],
    z.ZodOptional<typeof days>
  >),
  reviewPolicy: z.enum(REVIEW_POLICIES).optional(),
  resultsDisclosurePolicy: z.enum(RESULTS_DISCLOSURE_POLICIES).optional(),
  /** Normalised score (0..1) above which results are disclosed (afterScore). */
  resultsDisclosureAbove: z.number().min(0).max(1).optional(),
});
export type ConstraintDef = z.output<typeof constraintSchema>;

const eventSchema = z.strictObject({
  inDays: days,
  /** UTC hour the event starts. */
  hour: z.number().int().min(0).max(23),
  hours: z.number().positive(),
  timezone: nonEmpty,
  location: nonEmpty.optional(),
  url: z.url().optional(),
});
type EventDef = z.output<typeof eventSchema>;

/** One activity of a course's tree as written in content.json (the root has no name of its own). */
const nodeFields = {
  kind: byName(ActivityKind, "kind"),
  contentType: byName(ActivityContentType, "contentType").optional(),
  type: byName(ActivityType, "type").optional(),
  state: byName(ObjectiveState, "state").optional(),
  optional: z.boolean().optional(),
  weight: z.number().int().positive().optional(),
  /** Points; absent = not graded. */
  maxScore: z.number().positive().optional(),
  manualGrading: z.boolean().optional(),
  constraint: constraintSchema.optional(),
  imageUrl: z.string().startsWith("/learn/").optional(),
  /** Seconds; texts default to their reading time, events to their length. */
  duration: z.number().positive().optional(),
  proctored: z.boolean().optional(),
  supportReview: z.boolean().optional(),
  /** Spec 3 (decision 026): taken alone ("personal", the default), by a group ("group") or either. */
  modes: z.enum(["personal", "group", "either"]).optional(),
  preferredSize: z.tuple([z.number().int().positive(), z.number().int().positive()]).optional(),
  /** Demo progress: every learner with an attempt in progress has finished this activity. */
  done: z.boolean().optional(),
  /** Demo progress: no learner with an attempt in progress finished it (e.g. missed its deadline). */
  missed: z.boolean().optional(),
  // Content, by kind and content type.
  /** Text: its HTML file, relative to the course folder. */
  html: z.string().endsWith(".html").optional(),
  /** Public or private file: a key of media.json's files. */
  file: z.string().optional(),
  vimeoId: z.string().regex(/^\d+$/, "a Vimeo id is digits").optional(),
  description: z.string().optional(),
  event: eventSchema.optional(),
  prompt: z.string().optional(),
  minReplies: z.number().int().positive().optional(),
  /** Discussion: posts already in it (`by` a user key of users.json, written `daysAgo` days before seeding). */
  posts: z.array(z.strictObject({ by: nonEmpty, daysAgo: z.number().nonnegative(), body: nonEmpty })).optional(),
};
interface RawNode extends z.output<z.ZodObject<typeof nodeFields>> {
  name?: string;
  children?: RawNode[];
}
const childSchema: z.ZodType<RawNode> = z.lazy(() =>
  z.strictObject({ name: nonEmpty, ...nodeFields, children: z.array(childSchema).optional() }),
);
/** The root is the course itself: its name, type, state, proctoring and review come from course.json. */
const rootSchema = z.strictObject({
  ...nodeFields,
  type: z.undefined({ error: "the root's type is the course's type (course.json)" }).optional(),
  state: z.undefined({ error: "the root's state is the course's activityState (course.json)" }).optional(),
  proctored: z.undefined({ error: "set proctored in course.json" }).optional(),
  supportReview: z.undefined({ error: "set supportReview in course.json" }).optional(),
  children: z.array(childSchema).optional(),
});

const attemptSchema = z.strictObject({
  state: byName(ObjectiveWorkflowState, "state"),
  progress: z.number().min(0).max(1),
  startedAgo: days,
  submittedAgo: days.optional(),
  finishedAgo: days.optional(),
  /** Raw score on the course's grading scale; absent or null = not scored yet. */
  score: z.number().min(0).nullable().optional(),
});

/** One enrolment of a learner recipe (learners/<user>.json, and the test-support endpoint's body). */
export const enrolmentSchema = z.strictObject({
  /** The course: its folder name (python-basics) or its code (PY-101). */
  course: nonEmpty,
  /** Free text for editors; ignored. */
  note: z.string().optional(),
  /** A per-user access (an assignment) with these settings instead of the catalog access. */
  assigned: accessSettingsSchema.optional(),
  selfEnrolled: z.boolean().optional(),
  /** Oldest first; the last one is the current attempt. */
  attempts: z.array(attemptSchema).optional(),
  /** A record without a workflow (results imported from another system). */
  imported: z.strictObject({ score: z.number().min(0), finishedAgo: days }).optional(),
  /** The PDF of this learner's certificates for the course (a file under public/). */
  certificatePdf: z.string().startsWith("/learn/").optional(),
});
export type EnrolmentInput = z.input<typeof enrolmentSchema>;

/**
 * Reinforcement questions already scheduled for the learner (spec 2.8): every question of the
 * course (reinforcement.json), due `dueIn` days from now (negative: already due).
 */
const reinforcementRecipeSchema = z.strictObject({ course: nonEmpty, dueIn: days });

const learnerRecipeSchema = z.strictObject({
  enrolments: z.array(enrolmentSchema),
  reinforcement: z.array(reinforcementRecipeSchema).optional(),
});

/** reinforcement.json: questions per course folder, each about one activity (a module) of it. */
const reinforcementQuestionSchema = z.strictObject({
  activity: nonEmpty,
  question: nonEmpty,
  options: z.array(nonEmpty).min(2).max(6),
  /** Index of the correct option. */
  correct: z.number().int().min(0),
  feedback: nonEmpty,
});
type ReinforcementQuestionDef = z.output<typeof reinforcementQuestionSchema>;
const reinforcementFileSchema = z.record(z.string(), z.array(reinforcementQuestionSchema));
/** What a learner has: enrolments with their attempts, records and certificates, applied to a user. */
export type LearnerRecipe = z.output<typeof learnerRecipeSchema>;

// ---------------------------------------------------------------------------------------------
// The loaded content
// ---------------------------------------------------------------------------------------------

export type DemoUserDef = z.output<typeof userSchema>;
/** A demo user's key in users.json ("ada"). */
export type DemoUser = string;
export type GradingScaleDef = z.output<typeof scaleSchema>;

/** An activity as the seed inserts it: vocabulary numbers, content object, defaults applied. */
export interface ActivityDef {
  name: string;
  kind: ActivityKind;
  contentType: ActivityContentType;
  type: ActivityType;
  state?: ObjectiveState;
  content: Record<string, unknown>;
  event?: EventDef;
  toolUrl?: string;
  duration?: number;
  optional?: boolean;
  weight?: number;
  maxScore?: number;
  manualGrading?: boolean;
  constraint?: ConstraintDef;
  imageUrl?: string;
  proctored?: boolean;
  supportReview?: boolean;
  modes?: "personal" | "group" | "either";
  preferredSize?: [number, number];
  done?: boolean;
  missed?: boolean;
  posts?: { by: DemoUser; daysAgo: number; body: string }[];
  children?: ActivityDef[];
}

export type CourseDef = Omit<z.output<typeof courseSchema>, "access"> & {
  /** The folder name under courses/: the course's key in the data files. */
  slug: string;
  /** The about HTML (about.html). */
  about: string;
  access?: AccessSettings;
  /** The course's activity tree; the root is the course itself. */
  root: ActivityDef;
};

export interface DemoContent {
  tenant: z.output<typeof tenantSchema>;
  /** The demo accounts' password. */
  password: string;
  /** Demo accounts by key, in file order. */
  users: Record<string, DemoUserDef>;
  gradingScales: Record<string, GradingScaleDef>;
  collections: Record<string, string>;
  terms: Record<string, string>;
  filterCategories: Record<string, string[]>;
  /** In catalog order (creation order, oldest first). */
  courses: CourseDef[];
  media: z.output<typeof mediaSchema>;
  /** The demo users' recipes by user key (users without a learners/ file have none). */
  learners: Record<string, LearnerRecipe>;
  /** Reinforcement questions by course folder (reinforcement.json). */
  reinforcement: Record<string, ReinforcementQuestionDef[]>;
}

const DEFAULT_CONTENT_TYPE: Record<ActivityKind, ActivityContentType> = {
  [ActivityKind.text]: ActivityContentType.Text,
  [ActivityKind.lti]: ActivityContentType.Lti13,
  [ActivityKind.composite]: ActivityContentType.Composite,
  [ActivityKind.event]: ActivityContentType.Text,
  [ActivityKind.video]: ActivityContentType.Vimeo,
  [ActivityKind.discussion]: ActivityContentType.Text,
};

/** The activity type when content.json gives none (an LTI activity must give one). */
function defaultType(node: RawNode, contentType: ActivityContentType): ActivityType | null {
  switch (node.kind) {
    case ActivityKind.composite:
      return ActivityType.Composite;
    case ActivityKind.text:
      if (contentType === ActivityContentType.PublicFile) return ActivityType.PublicFiles;
      if (contentType === ActivityContentType.PrivateFile) return ActivityType.PrivateFiles;
      return node.manualGrading ? ActivityType.Assignment : ActivityType.RichText;
    case ActivityKind.video:
      return ActivityType.PublicFiles;
    case ActivityKind.event:
      return ActivityType.Classroom;
    case ActivityKind.discussion:
      return ActivityType.ClassDiscussion;
    default:
      return null;
  }
}

function words(html: string): number {
  const plain = html.replace(/<[^>]+>/g, " ");
  const spaced = plain.split(/\s+/).filter(Boolean).length;
  const cjk = (plain.match(/[\u3040-\u30ff\u4e00-\u9fff]/g) ?? []).length;
  return spaced + Math.round(cjk / 2);
}

/** Reading time of a text in seconds: 180 words a minute, at least two minutes. */
const readingTime = (html: string): number => Math.max(2, Math.round(words(html) / 180)) * 60;

/** A URL under /learn/ of a file in public/ (the app serves public/ under /learn/). */
const publicPath = (url: string) => join(PUBLIC_DIR, url.replace(/^\/learn\//, ""));

const KIND_FIELDS: Record<string, readonly string[]> = {
  html: ["text"],
  file: ["text"],
  vimeoId: ["video"],
  description: ["event"],
  event: ["event"],
  prompt: ["discussion"],
  minReplies: ["discussion"],
  posts: ["discussion"],
  children: ["composite"],
};

function expandNode(
  node: RawNode,
  at: { file: string; field: string; courseDir: string; media: DemoContent["media"] },
): ActivityDef {
  const { file, field } = at;
  /** The field `key` of this activity, e.g. children[0].children[2].html. */
  const fieldAt = (key: string) => (field ? `${field}.${key}` : key);
  const fail = (key: string, message: string): never => {
    throw new DemoContentError(file, fieldAt(key), message);
  };
  const kindName = Object.keys(ActivityKind).find((k) => ActivityKind[k as keyof typeof ActivityKind] === node.kind)!;
  for (const [key, kinds] of Object.entries(KIND_FIELDS)) {
    if ((node as unknown as Record<string, unknown>)[key] !== undefined && !kinds.includes(kindName))
      fail(key, `not used by an activity of kind ${kindName}`);
  }
  const contentType = node.contentType ?? DEFAULT_CONTENT_TYPE[node.kind];
  const type = node.type ?? defaultType(node, contentType);
  if (type === null)
    fail("type", `an activity of kind ${kindName} needs a type (one of ${Object.keys(ActivityType).join(", ")})`);

  let content: Record<string, unknown> = {};
  let duration: number | undefined;
  switch (node.kind) {
    case ActivityKind.composite:
      if (!node.children?.length) fail("children", "a module needs at least one activity");
      break;
    case ActivityKind.text:
      if (contentType === ActivityContentType.Text) {
        if (!node.html) fail("html", "a text needs its HTML file (html)");
        const html = readHtml(join(at.courseDir, node.html!), file, fieldAt("html"));
        content = { html };
        duration = readingTime(html);
      } else if (contentType === ActivityContentType.PublicFile || contentType === ActivityContentType.PrivateFile) {
        const media =
          node.file !== undefined && Object.hasOwn(at.media.files, node.file) ? at.media.files[node.file] : undefined;
        if (!media)
          fail(
            "file",
            `unknown file ${JSON.stringify(node.file)} (files of media.json: ${Object.keys(at.media.files).join(", ")})`,
          );
        if ((contentType === ActivityContentType.PublicFile) !== "url" in media!)
          fail(
            "file",
            `${node.file} is not a ${contentType === ActivityContentType.PublicFile ? "public" : "private"} file`,
          );
        content = { ...media };
      } else {
        fail("contentType", "a text is Text, PublicFile or PrivateFile");
      }
      break;
    case ActivityKind.video:
      if (!node.vimeoId) fail("vimeoId", "a video needs its Vimeo id");
      if (!node.duration) fail("duration", "a video needs its length in seconds (duration)");
      content = { vimeoId: node.vimeoId };
      break;
    case ActivityKind.event:
      if (!node.event) fail("event", "an event needs its date, time and place (event)");
      content = { description: node.description ?? "" };
      duration = node.event!.hours * 3600;
      break;
    case ActivityKind.discussion:
      if (!node.prompt) fail("prompt", "a discussion needs a prompt");
      content = { prompt: node.prompt, ...(node.minReplies ? { minReplies: node.minReplies } : {}) };
      break;
    case ActivityKind.lti:
      content = { tool: contentType === ActivityContentType.Lti11 ? at.media.ltiTool11 : at.media.ltiTool };
      break;
  }
  if (node.imageUrl && !existsSync(publicPath(node.imageUrl))) fail("imageUrl", `${node.imageUrl} is not in public/`);

  const def: ActivityDef = {
    name: node.name ?? "",
    kind: node.kind,
    contentType,
    type: type!,
    content,
    ...(node.event ? { event: node.event } : {}),
  };
  const optional = {
    state: node.state,
    duration: node.duration ?? duration,
    optional: node.optional,
    weight: node.weight,
    maxScore: node.maxScore,
    manualGrading: node.manualGrading,
    constraint: node.constraint,
    imageUrl: node.imageUrl,
    proctored: node.proctored,
    supportReview: node.supportReview,
    modes: node.modes,
    preferredSize: node.preferredSize,
    done: node.done,
    missed: node.missed,
    posts: node.posts,
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined) (def as unknown as Record<string, unknown>)[key] = value;
  if (node.kind === ActivityKind.composite) {
    def.children = node.children!.map((child, i) =>
      expandNode(child, { ...at, field: `${field ? `${field}.` : ""}children[${i}]` }),
    );
  }
  return def;
}

function listDir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => !name.startsWith(".")) : [];
}

/** Loads, validates and cross-checks every data file under `dir`. */
export function loadDemoContent(dir: string = DEMO_DIR): DemoContent {
  const path = (...parts: string[]) => join(dir, ...parts);
  const tenant = readJson(path("tenant.json"), tenantSchema);
  const { password, users } = readJson(path("users.json"), usersSchema);
  const catalog = readJson(path("catalog.json"), catalogSchema);
  const media = readJson(path("media.json"), mediaSchema);

  // Users: units of the tenant.
  for (const [key, user] of Object.entries(users)) {
    for (const [i, unit] of user.units.entries())
      if (!tenant.units.includes(unit))
        throw new DemoContentError(
          path("users.json"),
          `users.${key}.units[${i}]`,
          `unknown unit "${unit}" (units of tenant.json: ${tenant.units.join(", ")})`,
        );
  }

  // Reference data.
  for (const [key, scale] of Object.entries(catalog.gradingScales)) {
    if (!scale.grades.some((g) => g.name === scale.passingGrade))
      throw new DemoContentError(
        path("catalog.json"),
        `gradingScales.${key}.passingGrade`,
        `no grade is named "${scale.passingGrade}"`,
      );
  }
  const attributeNames = new Set<string>();
  for (const [category, attributes] of Object.entries(catalog.filterCategories)) {
    for (const [i, a] of attributes.entries()) {
      if (attributeNames.has(a))
        throw new DemoContentError(
          path("catalog.json"),
          `filterCategories.${category}[${i}]`,
          `"${a}" is in two categories: a course lists attributes by name, so names must be unique`,
        );
      attributeNames.add(a);
    }
  }
  for (const [key, file] of Object.entries(media.files)) {
    const onDisk = "url" in file ? publicPath(file.url) : join(STORAGE_DIR, file.path);
    if (!existsSync(onDisk))
      throw new DemoContentError(path("media.json"), `files.${key}`, `${shortPath(onDisk)} not found`);
    if (statSync(onDisk).size !== file.size)
      throw new DemoContentError(
        path("media.json"),
        `files.${key}.size`,
        `is ${file.size}, the file has ${statSync(onDisk).size} bytes`,
      );
  }

  // Courses.
  const folders = listDir(path("courses"));
  for (const folder of folders)
    if (!catalog.courses.includes(folder))
      throw new DemoContentError(path("catalog.json"), "courses", `the folder courses/${folder} is not listed`);
  const codes = new Map<string, string>();
  const courses: CourseDef[] = catalog.courses.map((slug, index) => {
    const courseDir = path("courses", slug);
    if (!existsSync(courseDir))
      throw new DemoContentError(path("catalog.json"), `courses[${index}]`, `courses/${slug} not found`);
    const file = join(courseDir, "course.json");
    const c = readJson(file, courseSchema);
    const fail = (field: string, message: string): never => {
      throw new DemoContentError(file, field, message);
    };
    if (codes.has(c.code)) fail("code", `${c.code} is also the code of ${codes.get(c.code)}`);
    codes.set(c.code, slug);
    c.collections.forEach((k, i) => {
      if (!Object.hasOwn(catalog.collections, k))
        fail(
          `collections[${i}]`,
          `unknown collection "${k}" (collections of catalog.json: ${Object.keys(catalog.collections).join(", ")})`,
        );
    });
    c.attributes.forEach((a, i) => {
      if (!attributeNames.has(a))
        fail(
          `attributes[${i}]`,
          `unknown attribute "${a}" (filterCategories of catalog.json: ${[...attributeNames].join(", ")})`,
        );
    });
    if (c.gradingScale !== null && !Object.hasOwn(catalog.gradingScales, c.gradingScale))
      fail(
        "gradingScale",
        `unknown grading scale "${c.gradingScale}" (gradingScales of catalog.json: ${Object.keys(catalog.gradingScales).join(", ")})`,
      );
    if (c.access?.term !== undefined && !Object.hasOwn(catalog.terms, c.access.term))
      fail(
        "access.term",
        `unknown term "${c.access.term}" (terms of catalog.json: ${Object.keys(catalog.terms).join(", ")})`,
      );
    if (c.cover && !existsSync(join(PUBLIC_DIR, "covers", `${slug}.svg`)))
      fail("cover", `public/covers/${slug}.svg not found`);
    const about = readHtml(join(courseDir, "about.html"), file, "about.html");
    const contentFile = join(courseDir, "content.json");
    const raw = readJson(contentFile, rootSchema) as RawNode;
    if (raw.kind !== c.kind)
      throw new DemoContentError(
        contentFile,
        "kind",
        `the course is a ${Object.keys(ActivityKind).find((k) => ActivityKind[k as keyof typeof ActivityKind] === c.kind)} (course.json), its content's root is not`,
      );
    // The root is the course: its name and type are the course's (seed-activities.ts adds the rest).
    const root = expandNode({ ...raw, name: c.name, type: c.type }, { file: contentFile, field: "", courseDir, media });
    return { ...c, slug, about, root };
  });

  // Groups: members are demo users; a team works in a course, on one of its activities if named.
  const names = (n: ActivityDef): string[] => [n.name, ...(n.children ?? []).flatMap(names)];
  for (const [i, g] of (tenant.groups ?? []).entries()) {
    for (const [j, m] of g.members.entries())
      if (!Object.hasOwn(users, m))
        throw new DemoContentError(path("tenant.json"), `groups[${i}].members[${j}]`, `unknown user "${m}"`);
    const course = g.course === undefined ? undefined : courses.find((c) => c.slug === g.course);
    if (g.course !== undefined && !course)
      throw new DemoContentError(path("tenant.json"), `groups[${i}].course`, `unknown course "${g.course}"`);
    if (g.kind === "team" && !course)
      throw new DemoContentError(path("tenant.json"), `groups[${i}].course`, "a team works in a course");
    if (g.activity !== undefined && !(course && names(course.root).includes(g.activity)))
      throw new DemoContentError(
        path("tenant.json"),
        `groups[${i}].activity`,
        `no activity "${g.activity}" in the course`,
      );
  }

  for (const [i, w] of (tenant.tutorWidget ?? []).entries()) {
    const course = courses.find((c) => c.slug === w.course);
    if (!course)
      throw new DemoContentError(path("tenant.json"), `tutorWidget[${i}].course`, `unknown course "${w.course}"`);
    if (!course.enableAiTutor)
      throw new DemoContentError(path("tenant.json"), `tutorWidget[${i}].course`, "the course's tutor is off");
  }

  // Discussion posts: written by demo users.
  for (const c of courses) {
    const walk = (a: ActivityDef) => {
      for (const [i, post] of (a.posts ?? []).entries())
        if (!Object.hasOwn(users, post.by))
          throw new DemoContentError(
            path("courses", c.slug, "content.json"),
            `"${a.name}".posts[${i}].by`,
            `unknown user "${post.by}"`,
          );
      a.children?.forEach(walk);
    };
    walk(c.root);
  }

  // Reinforcement questions: known courses and activities, a correct option that exists.
  const reinforcementFile = path("reinforcement.json");
  const reinforcement = existsSync(reinforcementFile) ? readJson(reinforcementFile, reinforcementFileSchema) : {};
  for (const [slug, questions] of Object.entries(reinforcement)) {
    const course = courses.find((c) => c.slug === slug);
    if (!course) throw new DemoContentError(reinforcementFile, slug, `unknown course "${slug}"`);
    const names = new Set<string>();
    const walk = (a: ActivityDef) => {
      names.add(a.name);
      a.children?.forEach(walk);
    };
    walk(course.root);
    questions.forEach((q, i) => {
      if (!names.has(q.activity))
        throw new DemoContentError(
          reinforcementFile,
          `${slug}[${i}].activity`,
          `no activity "${q.activity}" in ${slug}`,
        );
      if (q.correct >= q.options.length)
        throw new DemoContentError(reinforcementFile, `${slug}[${i}].correct`, `there are ${q.options.length} options`);
    });
  }

  // Learner recipes.
  const content: DemoContent = {
    tenant,
    password,
    users,
    gradingScales: catalog.gradingScales,
    collections: catalog.collections,
    terms: catalog.terms,
    filterCategories: catalog.filterCategories,
    courses,
    media,
    learners: {},
    reinforcement,
  };
  for (const name of listDir(path("learners"))) {
    const file = path("learners", name);
    const key = name.replace(/\.json$/, "");
    if (!name.endsWith(".json") || !Object.hasOwn(users, key))
      throw new DemoContentError(
        file,
        "",
        `not a demo user's recipe (users of users.json: ${Object.keys(users).join(", ")})`,
      );
    content.learners[key] = checkRecipe(content, readJson(file, learnerRecipeSchema), file);
  }
  return content;
}

/**
 * Cross-checks a learner recipe against the content: known courses (by folder name or code, turned
 * into folder names), terms and files; an enrolment without an assignment needs a catalog access.
 * Used for the data files and for the test-support endpoint's requests alike.
 */
export function checkRecipe(content: DemoContent, recipe: LearnerRecipe, file: string): LearnerRecipe {
  const seen = new Set<string>();
  const enrolments = recipe.enrolments.map((e, i) => {
    const fail = (field: string, message: string): never => {
      throw new DemoContentError(file, `enrolments[${i}]${field ? `.${field}` : ""}`, message);
    };
    const course = courseByKey(content, e.course);
    if (!course) return fail("course", `unknown course "${e.course}" (a folder name under courses/ or a course code)`);
    if (seen.has(course.slug)) fail("course", `${course.slug} is listed twice`);
    seen.add(course.slug);
    if (e.assigned?.term !== undefined && !Object.hasOwn(content.terms, e.assigned.term))
      fail(
        "assigned.term",
        `unknown term "${e.assigned.term}" (terms of catalog.json: ${Object.keys(content.terms).join(", ")})`,
      );
    if (!e.assigned && !(course.inCatalog ?? true) && !course.isPublic)
      fail("assigned", `${course.slug} is neither in the catalog nor public: the enrolment must be assigned`);
    const scale = course.gradingScale === null ? null : content.gradingScales[course.gradingScale];
    for (const [j, a] of (e.attempts ?? []).entries()) {
      if (scale && a.score !== undefined && a.score !== null && a.score > scale.maxScore)
        fail(`attempts[${j}].score`, `above the maximum ${scale.maxScore} of the course's scale`);
    }
    if (e.certificatePdf && !existsSync(publicPath(e.certificatePdf)))
      fail("certificatePdf", `${e.certificatePdf} is not in public/`);
    return { ...e, course: course.slug };
  });
  const reinforcement = (recipe.reinforcement ?? []).map((r, i) => {
    const course = courseByKey(content, r.course);
    if (!course || !Object.hasOwn(content.reinforcement, course.slug))
      throw new DemoContentError(file, `reinforcement[${i}].course`, `no reinforcement questions for "${r.course}"`);
    if (!seen.has(course.slug))
      throw new DemoContentError(file, `reinforcement[${i}].course`, `${course.slug} is not among the enrolments`);
    return { ...r, course: course.slug };
  });
  return recipe.reinforcement ? { enrolments, reinforcement } : { enrolments };
}

/** A course by its folder name or its code. */
function courseByKey(content: DemoContent, key: string): CourseDef | undefined {
  return content.courses.find((c) => c.slug === key) ?? content.courses.find((c) => c.code === key);
}

let cached: DemoContent | null = null;

/** The demo content, loaded and validated once per process. */
export function demoContent(): DemoContent {
  cached ??= loadDemoContent();
  return cached;
}

// `npx tsx api/demo/demo-content.ts`: checks the data files without seeding anything.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const content = loadDemoContent();
    const leaves = (def: ActivityDef): number =>
      (def.kind === ActivityKind.composite ? 0 : 1) + (def.children ?? []).reduce((n, c) => n + leaves(c), 0);
    console.log(
      `api/demo/data is valid: ${content.courses.length} courses with ${content.courses.reduce((n, c) => n + leaves(c.root), 0)} activities (modules aside), ` +
        `${Object.keys(content.users).length} users, recipes for ${Object.keys(content.learners).join(", ")}`,
    );
  } catch (error) {
    console.error(error instanceof DemoContentError ? error.message : error);
    process.exitCode = 1;
  }
}
