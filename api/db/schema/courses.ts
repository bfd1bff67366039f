/** Courses (spec 3): objectives, collections (showcases), terms, filter categories, grading scales, and the
 * activity tree of a course. */
import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import type {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  DisplayMode,
  ObjectiveState,
  PresentationMode,
} from "../../../domain/vocabulary";
import { tenants } from "./platform";

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
    /**
     * The language of the course's own texts (a BCP 47 tag such as `ar` or `en`; null when unknown): the app
     * lays them out in their own direction whatever the page's language (issue 25 item 2).
     */
    language: text("language"),
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
    /** A released grade of a hand-in waits for a second grader's approval (spec 4.1 gradingApproved; decision 048). */
    gradingApproval: boolean("grading_approval").notNull().default(false),
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
    /**
     * The course's completion rule for this activity where it may choose one ("manual", "view",
     * "passingGrade"); null: the rule of its kind (domain/completion.ts).
     */
    completion: text("completion"),
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
