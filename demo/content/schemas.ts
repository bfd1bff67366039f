/**
 * What the demo's data files may say: one zod schema per file (tenant.json, users.json, catalog.json,
 * media.json, courses/<folder>/course.json and content.json, learners/<user>.json, reinforcement.json),
 * with the vocabulary written by name ("lti") and read as the number of domain/vocabulary.ts (2).
 * Cross-checks between files (a course's term exists, a post's author is a user) are in
 * ../demo-content.ts, which loads them.
 */
import { z } from "zod";
import { CONSTRAINT_DATE_FIELDS } from "../../domain/activity-access";
import { CHAT_BODY_MAX } from "../../domain/limits";
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

/** A zod schema for one enumeration of the vocabulary, written by name ("lti") and read as its number (2). */
function byName<E extends Record<string, number>>(enumeration: E, what: string) {
  const names = Object.keys(enumeration) as [keyof E & string, ...(keyof E & string)[]];
  return z
    .enum(names, { error: () => `${what} must be one of ${names.join(", ")}` })
    .transform((name) => enumeration[name] as E[keyof E]);
}

const days = z.number().finite();
const nonEmpty = z.string().trim().min(1);

export const tenantSchema = z.strictObject({
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

export const usersSchema = z.strictObject({
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

export const catalogSchema = z.strictObject({
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
export const mediaSchema = z.strictObject({
  /** The key of the registered tool (lti-tools.json) every LTI activity launches. */
  ltiTool: z.string().regex(/^[a-z0-9-]+$/),
  /** …and the LTI 1.1 tool of activities with `"contentType": "Lti11"`. */
  ltiTool11: z.string().regex(/^[a-z0-9-]+$/),
  files: z.record(z.string(), z.union([publicFileSchema, privateFileSchema])),
});

/**
 * A course folder's own catalog.json (decision 062): the grading scales, collections, terms and filter
 * attributes its course.json names, so that the folder stands alone outside the demo.
 */
export const folderCatalogSchema = catalogSchema.omit({ courses: true }).partial();

/**
 * A course folder's own media.json (decision 062): the LTI tools its activities launch (keys of tools
 * registered in the deployment) and its files — a private file's `path` is relative to the folder.
 */
export const folderMediaSchema = mediaSchema.partial({ ltiTool: true, ltiTool11: true });

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

const messageSchema = z.strictObject({
  by: nonEmpty,
  daysAgo: z.number().nonnegative(),
  body: z.string().trim().min(1).max(CHAT_BODY_MAX),
});

export const courseSchema = z.strictObject({
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
  /**
   * Messages already in the course's communications hub (decision 027; the course needs
   * `announcements`): each channel's messages by a user key of users.json, written `daysAgo` days before
   * seeding. Announcements are written by instructors, as the API requires.
   */
  messages: z
    .strictObject({
      announcements: z.array(messageSchema).optional(),
      chat: z.array(messageSchema).optional(),
    })
    .optional(),
  /** Passing the course issues this certificate (validity in days; null = never expires). */
  certificate: z.strictObject({ name: nonEmpty, validityDays: z.number().int().positive().nullable() }).optional(),
  /** Settings of the tenant-wide (catalog) access. */
  access: accessSettingsSchema.optional(),
  /**
   * The moment the folder's day counts count from (an exported folder's, decision 062); absent = the moment
   * the course is written to the database (the demo's folders).
   */
  datesFrom: z.iso.datetime({ offset: true }).optional(),
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
export type EventDef = z.output<typeof eventSchema>;

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
export interface RawNode extends z.output<z.ZodObject<typeof nodeFields>> {
  name?: string;
  children?: RawNode[];
}
const childSchema: z.ZodType<RawNode> = z.lazy(() =>
  z.strictObject({ name: nonEmpty, ...nodeFields, children: z.array(childSchema).optional() }),
);
/** The root is the course itself: its name, type, state, proctoring and review come from course.json. */
export const rootSchema = z.strictObject({
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
  /**
   * A proctored course's attempt in progress whose sitting is still open (the proctor watching), so the
   * learner may go on answering; without it the sitting has ended before she submitted (the 4.8 lock).
   */
  sittingOpen: z.boolean().optional(),
  /**
   * A SCORM course (scorm/packages.json) started in this attempt: what the learner left in each SCO, by
   * its identifier in the manifest — CMI elements and values as a commit would send them (e.g. the
   * bookmark `cmi.core.lesson_location` and `cmi.suspend_data`, with `cmi.core.exit` "suspend"), so
   * the package resumes there. Checked against the package's version like a commit.
   */
  scorm: z
    .record(nonEmpty, z.record(z.string().regex(/^cmi\./, "a CMI element starts with cmi."), z.string()))
    .optional(),
});
export type AttemptDef = z.output<typeof attemptSchema>;

/** scorm/packages.json: the package folder under scorm/ that a course folder's root activity receives. */
export const scormPackagesSchema = z.array(z.strictObject({ course: nonEmpty, package: nonEmpty }));

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

export const learnerRecipeSchema = z.strictObject({
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
export type ReinforcementQuestionDef = z.output<typeof reinforcementQuestionSchema>;
export const reinforcementFileSchema = z.record(z.string(), z.array(reinforcementQuestionSchema));
/** What a learner has: enrolments with their attempts, records and certificates, applied to a user. */
export type LearnerRecipe = z.output<typeof learnerRecipeSchema>;

export type DemoUserDef = z.output<typeof userSchema>;
/** A demo user's key in users.json ("ada"). */
export type DemoUser = string;
export type GradingScaleDef = z.output<typeof scaleSchema>;
export type Media = z.output<typeof mediaSchema>;
