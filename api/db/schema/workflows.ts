/** A learner's progress through a course's activities (spec 3): activity workflows and records, discussion
 * posts, proctoring sessions (spec 4.8, 7.5). */
import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { ActivityWorkflowState, ProctoringSessionState } from "../../../domain/vocabulary";
import { activityParts } from "./courses";
import { objectiveWorkflows } from "./enrolment";
import { groupActivityWorkflows } from "./groups";
import { users } from "./platform";

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
