import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { activityParts, objectives } from "./courses";
import { tenants, users } from "./platform";
import type { ActivityWorkflowState } from "../../../domain/vocabulary";

/**
 * Spec 3 Group: learners working together (spec 1, 2.9; decision 026). A mini-group ("miniGroup") is
 * tenant-wide (the profile's members table) or within one course (`objectiveId`); a team ("team")
 * works on one activity of a course (`activityPartId`) or on every collaborative activity of it.
 */
export const groups = pgTable(
  "groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** "miniGroup" (the profile's members table) or "team". */
    kind: text("kind").notNull(),
    /** The course the group works in; null = any course (a tenant-wide mini-group). */
    objectiveId: uuid("objective_id").references((): AnyPgColumn => objectives.id, { onDelete: "cascade" }),
    /** The one activity a team is for; null = every collaborative activity of its course. */
    activityPartId: uuid("activity_part_id").references((): AnyPgColumn => activityParts.id, {
      onDelete: "cascade",
    }),
  },
  (t) => [index("groups_tenant_idx").on(t.tenantId), index("groups_objective_idx").on(t.objectiveId)],
);

export const groupMembers = pgTable(
  "group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("group_members_user_idx").on(t.userId)],
);

/**
 * Spec 3 / 7.3 group activity workflow: one per group and activity, shared by the members who work on
 * it in group mode (each member's own activity workflow points here). `work` is the group's shared
 * answer, `version` counts its saves (a save names the version it started from, so nobody overwrites
 * a teammate's newer text unseen). Finishing it is one row update guarded by its state: one result for
 * all, however many members press Submit at once.
 */
export const groupActivityWorkflows = pgTable(
  "group_activity_workflows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    groupId: uuid("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    activityPartId: uuid("activity_part_id")
      .notNull()
      .references((): AnyPgColumn => activityParts.id, { onDelete: "cascade" }),
    state: integer("state").$type<ActivityWorkflowState>().notNull().default(1),
    started: timestamp("started", { withTimezone: true }).notNull(),
    startedBy: uuid("started_by").references(() => users.id, { onDelete: "set null" }),
    finished: timestamp("finished", { withTimezone: true }),
    finishedBy: uuid("finished_by").references(() => users.id, { onDelete: "set null" }),
    work: jsonb("work").$type<{ text: string }>().notNull().default({ text: "" }),
    version: integer("version").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    score: doublePrecision("score"),
    maxScore: doublePrecision("max_score"),
    passed: boolean("passed"),
  },
  (t) => [uniqueIndex("group_activity_workflows_group_part_idx").on(t.groupId, t.activityPartId)],
);

/** Who has contributed to a group's work, how often and when (spec 7.3 participants). */
export const groupContributions = pgTable(
  "group_contributions",
  {
    groupActivityWorkflowId: uuid("group_activity_workflow_id")
      .notNull()
      .references(() => groupActivityWorkflows.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contributions: integer("contributions").notNull().default(0),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
    /** What the last contribution was: "saved" or "submitted". */
    lastKind: text("last_kind").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupActivityWorkflowId, t.userId] })],
);
