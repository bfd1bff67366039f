/** Access and enrolment (spec 3): objective accesses grant a course to an audience; an objective-workflow
 * aggregate is one learner's standing in one course; workflows and records are its attempts. */
import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { ObjectiveWorkflowState } from "../../../domain/vocabulary";
import { objectives, terms } from "./courses";
import { tenants, users } from "./platform";

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
