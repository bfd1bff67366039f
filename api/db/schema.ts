import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  ActivityWorkflowState,
  CommandResult,
  DisplayMode,
  ObjectiveState,
  ObjectiveWorkflowState,
  PresentationMode,
  ProctoringSessionState,
} from "../../domain/vocabulary";
import { groupActivityWorkflows } from "./schema/groups";

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  domain: text("domain").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Spec 3 'Settings read': one row per tenant and key; values are JSON. */
export const settings = pgTable(
  "settings",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: jsonb("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] })],
);

export const features = pgTable(
  "features",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    middleName: text("middle_name"),
    lastName: text("last_name").notNull(),
    department: text("department"),
    externalId: text("external_id"),
    timezone: text("timezone"),
    passwordHash: text("password_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    index("users_tenant_idx").on(t.tenantId),
    index("users_external_id_idx").on(t.externalId),
  ],
);

export const userRoles = pgTable(
  "user_roles",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

/** Permissions granted by role to everyone holding it (scope_id null = tenant-wide). */
export const rolePermissions = pgTable(
  "role_permissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    role: text("role").notNull(),
    permission: text("permission").notNull(),
    scopeId: uuid("scope_id"),
  },
  (t) => [index("role_permissions_role_idx").on(t.role)],
);

/** Permissions granted to one user, possibly scoped (spec 3 'Permission entry' with scope_id). */
export const userPermissions = pgTable(
  "user_permissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    permission: text("permission").notNull(),
    scopeId: uuid("scope_id"),
  },
  (t) => [index("user_permissions_user_idx").on(t.userId)],
);

export const licences = pgTable(
  "licences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    product: text("product").notNull(),
    validUntil: timestamp("valid_until", { withTimezone: true }),
  },
  (t) => [index("licences_user_idx").on(t.userId)],
);

export const units = pgTable(
  "units",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [index("units_tenant_idx").on(t.tenantId)],
);

export const userUnits = pgTable(
  "user_units",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    unitId: uuid("unit_id")
      .notNull()
      .references(() => units.id, { onDelete: "cascade" }),
    isPrimary: boolean("is_primary").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.unitId] }), index("user_units_unit_idx").on(t.unitId)],
);

/**
 * Spec 7.7: every command carries a client-generated id. The row is the idempotency key and the
 * status resource the 202 answer points at — per user (decision 018): another user's command with
 * the same id is another command, so nobody can claim an id before its owner.
 */
export const commands = pgTable(
  "commands",
  {
    id: uuid("id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** SHA-256 of the command's type and body: the same id sent with other input is refused (409). */
    fingerprint: text("fingerprint"),
    state: text("state").notNull(),
    result: integer("result").$type<CommandResult>(),
    data: jsonb("data"),
    errors: jsonb("errors"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
);

// ---------------------------------------------------------------------------------------------
// Courses (spec 3): objectives, collections (showcases), terms, filter categories, grading scales
// ---------------------------------------------------------------------------------------------

export const gradingScales = pgTable("grading_scales", {
  id: uuid("id").primaryKey().defaultRandom(),
  tenantId: uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description"),
  maxScore: doublePrecision("max_score").notNull(),
  normalizedPassingScore: doublePrecision("normalized_passing_score").notNull(),
  passingGradeId: uuid("passing_grade_id"),
});

export const grades = pgTable(
  "grades",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gradingScaleId: uuid("grading_scale_id")
      .notNull()
      .references(() => gradingScales.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull(),
    normalizedMinScore: doublePrecision("normalized_min_score").notNull(),
  },
  (t) => [index("grades_scale_idx").on(t.gradingScaleId)],
);

export const objectives = pgTable(
  "objectives",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    code: text("code").notNull(),
    description: text("description").notNull().default(""),
    about: text("about").notNull().default(""),
    imageUrl: text("image_url"),
    /** Spec 3: 1 draft, 2 ready, 3 expired, 4 archived. */
    state: integer("state").$type<ObjectiveState>().notNull().default(2),
    /** Spec 3 activity type (0 None … 14 Assignment) of the root activity. */
    type: integer("type").$type<ActivityType>().notNull().default(0),
    /** Spec 3 activity kind of the root activity: 1 text, 2 lti, 3 composite, 4 event, 5 video, 6 discussion. */
    activityKind: integer("activity_kind").$type<ActivityKind>().notNull().default(3),
    /** Spec 3 activity summary: state of the root activity (4 = archived is excluded from lists). */
    activityState: integer("activity_state").$type<ObjectiveState>().notNull().default(2),
    childrenCount: integer("children_count").notNull().default(0),
    presentationMode: integer("presentation_mode").$type<PresentationMode>().notNull().default(0),
    displayMode: integer("display_mode").$type<DisplayMode>().notNull().default(2),
    proctored: boolean("proctored").notNull().default(false),
    supportMobileView: boolean("support_mobile_view").notNull().default(true),
    supportFullscreenView: boolean("support_fullscreen_view").notNull().default(true),
    supportLtiAuthoring: boolean("support_lti_authoring").notNull().default(false),
    supportReview: boolean("support_review").notNull().default(true),
    enableAiTutor: boolean("enable_ai_tutor").notNull().default(false),
    accessNewContentAfterCompletion: boolean("access_new_content_after_completion").notNull().default(false),
    announcementChannelId: uuid("announcement_channel_id"),
    gradingScaleId: uuid("grading_scale_id").references(() => gradingScales.id, { onDelete: "set null" }),
    /** Passing this course issues a certificate of this template (spec 3 Certificate record). */
    certificateTemplateId: uuid("certificate_template_id").references(() => certificateTemplates.id, {
      onDelete: "set null",
    }),
    /** Listed in the signed-in catalog. */
    inCatalog: boolean("in_catalog").notNull().default(true),
    /** Listed in the public open catalog (no sign-in). */
    isPublic: boolean("is_public").notNull().default(false),
    allowSelfEnrollment: boolean("allow_self_enrollment").notNull().default(true),
    /** The course's collections ([{ id, name }] by name), kept by triggers on objective_showcases and showcases (migration 0006). */
    showcasesJson: jsonb("showcases_json").$type<{ id: string; name: string }[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("objectives_tenant_name_idx").on(t.tenantId, sql`lower(${t.name})`, t.id),
    index("objectives_catalog_idx").on(t.tenantId, t.inCatalog, t.state),
    // The catalog's visible courses (decision 012): read index-only for its total. The predicate is
    // literal in the queries too (api/queries/course-scopes.ts), so generic plans can use it.
    index("objectives_catalog_visible_idx")
      .on(t.tenantId, t.id)
      .where(sql`in_catalog and state = 2 and activity_state <> 4`),
    index("objectives_public_idx").on(t.tenantId, t.isPublic, t.state),
  ],
);

export const showcases = pgTable(
  "showcases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [index("showcases_tenant_idx").on(t.tenantId)],
);

export const objectiveShowcases = pgTable(
  "objective_showcases",
  {
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    showcaseId: uuid("showcase_id")
      .notNull()
      .references(() => showcases.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.objectiveId, t.showcaseId] }),
    index("objective_showcases_showcase_idx").on(t.showcaseId, t.objectiveId),
  ],
);

export const terms = pgTable(
  "terms",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [index("terms_tenant_idx").on(t.tenantId)],
);

export const filterCategories = pgTable(
  "filter_categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [index("filter_categories_tenant_idx").on(t.tenantId)],
);

export const filterAttributes = pgTable(
  "filter_attributes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => filterCategories.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [index("filter_attributes_category_idx").on(t.categoryId)],
);

export const objectiveAttributes = pgTable(
  "objective_attributes",
  {
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    attributeId: uuid("attribute_id")
      .notNull()
      .references(() => filterAttributes.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.objectiveId, t.attributeId] }),
    index("objective_attributes_attribute_idx").on(t.attributeId, t.objectiveId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Access and enrolment (spec 3): objective accesses grant a course to an audience; an
// objective-workflow aggregate is one learner's standing in one course.
// ---------------------------------------------------------------------------------------------

export const objectiveAccesses = pgTable(
  "objective_accesses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    /** null: everyone in the tenant (catalog access); else one learner (an assignment). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    termId: uuid("term_id").references(() => terms.id, { onDelete: "set null" }),
    isMandatory: boolean("is_mandatory").notNull().default(false),
    retake: boolean("retake").notNull().default(false),
    dueDate: timestamp("due_date", { withTimezone: true }),
    availabilityDate: timestamp("availability_date", { withTimezone: true }),
    availabilityEndDate: timestamp("availability_end_date", { withTimezone: true }),
    gradeRevealPolicy: text("grade_reveal_policy").notNull().default("none"),
    gradeRevealDate: timestamp("grade_reveal_date", { withTimezone: true }),
  },
  (t) => [
    index("objective_accesses_objective_idx").on(t.objectiveId),
    index("objective_accesses_user_idx").on(t.userId, t.objectiveId),
    index("objective_accesses_tenant_wide_idx")
      .on(t.tenantId, t.objectiveId)
      .where(sql`user_id is null`),
  ],
);

export const objectiveWorkflowAggregates = pgTable(
  "objective_workflow_aggregates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    objectiveAccessId: uuid("objective_access_id").references(() => objectiveAccesses.id, { onDelete: "set null" }),
    termId: uuid("term_id").references(() => terms.id, { onDelete: "set null" }),
    isMandatory: boolean("is_mandatory").notNull().default(false),
    isSelfEnrolled: boolean("is_self_enrolled").notNull().default(false),
    retake: boolean("retake").notNull().default(false),
    dueDate: timestamp("due_date", { withTimezone: true }),
    availabilityDate: timestamp("availability_date", { withTimezone: true }),
    availabilityEndDate: timestamp("availability_end_date", { withTimezone: true }),
    gradeRevealPolicy: text("grade_reveal_policy").notNull().default("none"),
    gradeRevealDate: timestamp("grade_reveal_date", { withTimezone: true }),
    lastWorkflowId: uuid("last_workflow_id"),
    lastRecordId: uuid("last_record_id"),
    /** Denormalised for filtering and sorting My courses without joins per row. */
    lastWorkflowState: integer("last_workflow_state"),
    /** lower(objective name) and the root activity state, kept by triggers (migration 0004). */
    sortName: text("sort_name"),
    objectiveActivityState: integer("objective_activity_state"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("owa_user_objective_idx").on(t.userId, t.objectiveId),
    index("owa_user_state_idx").on(t.userId, t.lastWorkflowState),
    index("owa_user_term_idx").on(t.userId, t.termId),
    index("owa_user_sort_idx").on(t.userId, t.sortName, t.id),
  ],
);

export const selfEnrollments = pgTable(
  "self_enrollments",
  {
    /** The create-self-enrollments command's id: the learner's own (decision 018), unique per user. */
    id: uuid("id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveAccessId: uuid("objective_access_id")
      .notNull()
      .references(() => objectiveAccesses.id, { onDelete: "cascade" }),
    aggregateId: uuid("aggregate_id")
      .notNull()
      .references(() => objectiveWorkflowAggregates.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    uniqueIndex("self_enrollments_user_access_idx").on(t.userId, t.objectiveAccessId),
  ],
);

export const objectiveWorkflows = pgTable(
  "objective_workflows",
  {
    id: uuid("id").primaryKey(),
    aggregateId: uuid("aggregate_id")
      .notNull()
      .references(() => objectiveWorkflowAggregates.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull().default(1),
    state: integer("state").$type<ObjectiveWorkflowState>().notNull(),
    progress: doublePrecision("progress").notNull().default(0),
    started: timestamp("started", { withTimezone: true }),
    submitted: timestamp("submitted", { withTimezone: true }),
    finished: timestamp("finished", { withTimezone: true }),
    objectiveRecordId: uuid("objective_record_id"),
    protectResults: boolean("protect_results").notNull().default(false),
  },
  (t) => [
    index("objective_workflows_aggregate_idx").on(t.aggregateId, t.attempt),
    index("objective_workflows_user_idx").on(t.userId),
  ],
);

export const objectiveRecords = pgTable(
  "objective_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    aggregateId: uuid("aggregate_id")
      .notNull()
      .references(() => objectiveWorkflowAggregates.id, { onDelete: "cascade" }),
    workflowId: uuid("workflow_id"),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    score: doublePrecision("score"),
    maxScore: doublePrecision("max_score"),
    normalizedScore: doublePrecision("normalized_score"),
    gradeId: uuid("grade_id"),
    passed: boolean("passed"),
    finished: timestamp("finished", { withTimezone: true }),
    progress: doublePrecision("progress").notNull().default(0),
    protectResults: boolean("protect_results").notNull().default(false),
    /** Imported results have no activity records behind them (spec 4.3). */
    imported: boolean("imported").notNull().default(false),
  },
  (t) => [index("objective_records_aggregate_idx").on(t.aggregateId), index("objective_records_user_idx").on(t.userId)],
);

// ---------------------------------------------------------------------------------------------
// Activities (spec 3): the content tree of a course and each learner's progress through it.
// ---------------------------------------------------------------------------------------------

export const activities = pgTable(
  "activities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    code: text("code").notNull().default(""),
    /** Spec 3 activity kind: 1 text, 2 lti, 3 composite, 4 event, 5 video, 6 discussion. */
    kind: integer("kind").$type<ActivityKind>().notNull(),
    /** Spec 3 content type: 1 Lti13, 2 PublicFile, 3 PrivateFile, 4 Lti11, 5 Text, 6 Composite, 7 Vimeo. */
    contentType: integer("content_type").$type<ActivityContentType>().notNull(),
    /** Spec 3 activity type (0 None … 14 Assignment). */
    type: integer("type").$type<ActivityType>().notNull().default(0),
    /** 1 draft, 2 ready, 3 expired, 4 archived. */
    state: integer("state").$type<ObjectiveState>().notNull().default(2),
    /** Text HTML, file path, Vimeo id, event details… by content type. */
    content: jsonb("content").notNull().default({}),
    preferredWidth: integer("preferred_width"),
    preferredHeight: integer("preferred_height"),
    supportReview: boolean("support_review").notNull().default(true),
    supportCollaborativeMode: boolean("support_collaborative_mode").notNull().default(false),
    supportPersonalMode: boolean("support_personal_mode").notNull().default(true),
    supportLtiGrading: boolean("support_lti_grading").notNull().default(false),
    proctored: boolean("proctored").notNull().default(false),
    /** Seconds. */
    duration: integer("duration"),
    toolUrl: text("tool_url"),
    imageUrl: text("image_url"),
    /** Points an activity is worth; null = not graded. */
    maxScore: doublePrecision("max_score"),
    /** Graded by a person after finishing (the course waits in grading). */
    manualGrading: boolean("manual_grading").notNull().default(false),
  },
  (t) => [index("activities_tenant_idx").on(t.tenantId)],
);

/** A node of a course's tree; its id is the activityPathId of spec 3. */
export const activityParts = pgTable(
  "activity_parts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    parentPartId: uuid("parent_part_id"),
    activityId: uuid("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
    order: integer("order").notNull().default(0),
    optional: boolean("optional").notNull().default(false),
    scoreWeight: doublePrecision("score_weight").notNull().default(1),
    /** Position in the tree, e.g. "2.1". */
    axis: text("axis").notNull(),
    /** Spec 3 activity constraint: startFrom, startUntil, accessibleUntil, gracePeriodUntil, due, reviewPolicy… */
    constraint: jsonb("constraint").notNull().default({}),
  },
  (t) => [
    index("activity_parts_objective_idx").on(t.objectiveId, t.axis),
    index("activity_parts_parent_idx").on(t.parentPartId),
  ],
);

/** Activity workflow states: 1 inProgress, 2 inGrading, 3 finished. */
export const activityWorkflows = pgTable(
  "activity_workflows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    objectiveWorkflowId: uuid("objective_workflow_id")
      .notNull()
      .references(() => objectiveWorkflows.id, { onDelete: "cascade" }),
    activityPartId: uuid("activity_part_id")
      .notNull()
      .references(() => activityParts.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    state: integer("state").$type<ActivityWorkflowState>().notNull().default(1),
    started: timestamp("started", { withTimezone: true }).notNull().defaultNow(),
    finished: timestamp("finished", { withTimezone: true }),
    lastProctoringSessionId: uuid("last_proctoring_session_id").references((): AnyPgColumn => proctoringSessions.id, {
      onDelete: "set null",
    }),
    /** Where the learner left off inside the activity (e.g. a PDF page). */
    resume: jsonb("resume"),
    /** Group mode (decision 026): the group's shared workflow this member works in; null = personal mode. */
    groupActivityWorkflowId: uuid("group_activity_workflow_id").references(
      (): AnyPgColumn => groupActivityWorkflows.id,
      { onDelete: "set null" },
    ),
  },
  (t) => [
    uniqueIndex("activity_workflows_ow_part_idx").on(t.objectiveWorkflowId, t.activityPartId),
    index("activity_workflows_user_idx").on(t.userId),
    index("activity_workflows_gaw_idx").on(t.groupActivityWorkflowId),
  ],
);

export const activityRecords = pgTable(
  "activity_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    activityWorkflowId: uuid("activity_workflow_id")
      .notNull()
      .references(() => activityWorkflows.id, { onDelete: "cascade" }),
    objectiveWorkflowId: uuid("objective_workflow_id")
      .notNull()
      .references(() => objectiveWorkflows.id, { onDelete: "cascade" }),
    activityPartId: uuid("activity_part_id")
      .notNull()
      .references(() => activityParts.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    score: doublePrecision("score"),
    maxScore: doublePrecision("max_score"),
    passed: boolean("passed"),
    finished: timestamp("finished", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("activity_records_workflow_idx").on(t.activityWorkflowId),
    index("activity_records_ow_idx").on(t.objectiveWorkflowId),
  ],
);

/** Posts of a discussion activity (kind 6), threaded by parent. Course members see all posts of the activity. */
export const discussionPosts = pgTable(
  "discussion_posts",
  {
    id: uuid("id").primaryKey(),
    activityPartId: uuid("activity_part_id")
      .notNull()
      .references(() => activityParts.id, { onDelete: "cascade" }),
    parentPostId: uuid("parent_post_id"),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("discussion_posts_part_idx").on(t.activityPartId, t.parentPostId, t.createdAt),
    index("discussion_posts_parent_idx").on(t.parentPostId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Certificates (spec 3 Certificate record, 7.6) and proctoring (spec 3 Proctoring session, 4.8, 7.5)
// ---------------------------------------------------------------------------------------------

/** What a course's certificate is called and how long it stays valid. */
export const certificateTemplates = pgTable(
  "certificate_templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    /** Days from issue to expiry; null = never expires. */
    validityDays: integer("validity_days"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("certificate_templates_tenant_idx").on(t.tenantId)],
);

/** The running part of the first releases' certificate numbers (LA-2026-000123); no longer used for new ones. */
export const certificateNumberSeq = pgSequence("certificate_number_seq", { startWith: 1, increment: 1 });

/** Bits of the revocation status list, one per certificate, never reused. */
export const certificateStatusIndexSeq = pgSequence("certificate_status_index_seq", {
  startWith: 0,
  minValue: 0,
  increment: 1,
});

/**
 * One certificate per passed objective record. The template's name and the scale's passing score
 * are copied at issue, so a certificate keeps saying what it said when it was issued.
 */
export const certificateRecords = pgTable(
  "certificate_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    certificateNumber: text("certificate_number").notNull(),
    certificateTemplateId: uuid("certificate_template_id").references(() => certificateTemplates.id, {
      onDelete: "set null",
    }),
    templateName: text("template_name").notNull(),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveRecordId: uuid("objective_record_id")
      .notNull()
      .references(() => objectiveRecords.id, { onDelete: "cascade" }),
    normalizedPassingScore: doublePrecision("normalized_passing_score"),
    expirationDate: timestamp("expiration_date", { withTimezone: true }),
    externalUrl: text("external_url"),
    certificatePdfUrl: text("certificate_pdf_url"),
    certificatePngUrl: text("certificate_png_url"),
    created: timestamp("created", { withTimezone: true }).notNull().defaultNow(),
    /** The certificate's files under DATA_DIR/storage, written once (decision 020); null until then. */
    pdfPath: text("pdf_path"),
    pngPath: text("png_path"),
    /** Its bit in the revocation status list of its credential (Bitstring Status List, decision 020). */
    statusListIndex: integer("status_list_index")
      .notNull()
      .default(sql`nextval('certificate_status_index_seq')`),
    /** Revoked: the public page and the credential's status list say so. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("certificate_records_number_idx").on(t.certificateNumber),
    uniqueIndex("certificate_records_status_index_idx").on(t.statusListIndex),
    index("certificate_records_files_pending_idx")
      .on(t.created)
      .where(sql`${t.pdfPath} is null`),
    uniqueIndex("certificate_records_record_idx").on(t.objectiveRecordId),
    index("certificate_records_user_objective_idx").on(t.userId, t.objectiveId, t.created.desc()),
  ],
);

/** Proctoring session states (docs/decisions/010-proctor-lock.md). */
export const proctoringSessions = pgTable(
  "proctoring_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    activityWorkflowId: uuid("activity_workflow_id")
      .notNull()
      .references((): AnyPgColumn => activityWorkflows.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** 1 created, 2 in progress, 3 completed, 4 reviewed. */
    state: integer("state").$type<ProctoringSessionState>().notNull().default(1),
    created: timestamp("created", { withTimezone: true }).notNull().defaultNow(),
    completed: timestamp("completed", { withTimezone: true }),
  },
  (t) => [index("proctoring_sessions_aw_idx").on(t.activityWorkflowId, t.created)],
);
export * from "./schema/rate-limits";
export * from "./schema/identity";
export * from "./schema/reinforcement";
export * from "./schema/groups";
export * from "./schema/calendar";
export * from "./schema/scorm";
export * from "./schema/chat";
export * from "./schema/feedback";
export * from "./schema/tutor";
export * from "./schema/analytics";
export * from "./schema/lti";
