/**
 * Hand-ins (spec 3 activity type Assignment, spec 4.1, decision 048): what a learner hands in for an
 * activity of one attempt — text and files — and what a grader gives back (score, comment, a feedback
 * file). One row per activity workflow: withdrawing and handing in again reuses it; earlier attempts at
 * the course are the hand-ins of the earlier workflows. Every grading step is an event row (who, when,
 * the old and the new values).
 */
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { HandInState } from "../../../domain/hand-ins";
import { activityParts, objectives } from "./courses";
import { objectiveWorkflows } from "./enrolment";
import { tenants, users } from "./platform";
import { activityWorkflows } from "./workflows";

export const handIns = pgTable(
  "hand_ins",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    activityPartId: uuid("activity_part_id")
      .notNull()
      .references(() => activityParts.id, { onDelete: "cascade" }),
    objectiveWorkflowId: uuid("objective_workflow_id")
      .notNull()
      .references(() => objectiveWorkflows.id, { onDelete: "cascade" }),
    activityWorkflowId: uuid("activity_workflow_id")
      .notNull()
      .unique("hand_ins_activity_workflow_idx")
      .references(() => activityWorkflows.id, { onDelete: "cascade" }),
    /** draft → submitted → inGrading → graded (→ approved); withdrawn goes back to draft. */
    state: text("state").$type<HandInState>().notNull().default("draft"),
    body: text("body").notNull().default(""),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    late: boolean("late").notNull().default(false),
    /** How many times it was handed in (a withdrawal and a new hand-in count again). */
    submissions: integer("submissions").notNull().default(0),
    score: doublePrecision("score"),
    comment: text("comment").notNull().default(""),
    /** Raised by every grader's save: a save that names an older one is a conflict. */
    gradingVersion: integer("grading_version").notNull().default(0),
    graderId: uuid("grader_id").references(() => users.id, { onDelete: "set null" }),
    gradedAt: timestamp("graded_at", { withTimezone: true }),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    releasedBy: uuid("released_by").references(() => users.id, { onDelete: "set null" }),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    approvedBy: uuid("approved_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("hand_ins_queue_idx").on(t.tenantId, t.state, t.submittedAt),
    index("hand_ins_user_part_idx").on(t.userId, t.activityPartId),
  ],
);

/** A hand-in's files: the learner's (`submission`) and the grader's (`feedback`), in the file store. */
export const handInFiles = pgTable(
  "hand_in_files",
  {
    id: uuid("id").primaryKey(),
    handInId: uuid("hand_in_id")
      .notNull()
      .references(() => handIns.id, { onDelete: "cascade" }),
    role: text("role").$type<"submission" | "feedback">().notNull(),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    kind: text("kind").notNull(),
    sha256: text("sha256").notNull(),
    /** The file store's key: hand-ins/<hand-in id>/<file id>. */
    storageKey: text("storage_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("hand_in_files_hand_in_idx").on(t.handInId, t.role, t.createdAt)],
);

/** The audit of grading: one row per save, release and approval, with the values before and after. */
export const handInGradingEvents = pgTable(
  "hand_in_grading_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    handInId: uuid("hand_in_id")
      .notNull()
      .references(() => handIns.id, { onDelete: "cascade" }),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").$type<"saveDraft" | "release" | "approve">().notNull(),
    before: jsonb("before").$type<Record<string, unknown>>().notNull(),
    after: jsonb("after").$type<Record<string, unknown>>().notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("hand_in_grading_events_hand_in_idx").on(t.handInId, t.at)],
);
