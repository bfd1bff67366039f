import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { ScormManifest, ScormVersion } from "../../../domain/scorm";
import { activities } from "./courses";
import { tenants } from "./platform";
import { activityWorkflows } from "./workflows";

/**
 * An imported SCORM package (issue 15, decision 025): its files are under storage/scorm/<id>/, its
 * parsed manifest here. The activity's content names the package it runs ({ scorm: { packageId } }).
 */
export const scormPackages = pgTable(
  "scorm_packages",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    activityId: uuid("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
    version: text("version").$type<ScormVersion>().notNull(),
    title: text("title").notNull(),
    manifest: jsonb("manifest").$type<ScormManifest>().notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("scorm_packages_activity_idx").on(t.activityId)],
);

/**
 * The run-time data of one SCO in one activity workflow (the CMI data model's values the learner left),
 * with the sequence number of the last commit applied: a commit whose number is not higher is a
 * duplicate or arrived out of order and changes nothing (issue 15 item 4).
 */
export const scormAttempts = pgTable(
  "scorm_attempts",
  {
    activityWorkflowId: uuid("activity_workflow_id")
      .notNull()
      .references(() => activityWorkflows.id, { onDelete: "cascade" }),
    scoId: text("sco_id").notNull(),
    cmi: jsonb("cmi").$type<Record<string, string>>().notNull().default({}),
    sequence: integer("sequence").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("scorm_attempts_aw_sco_idx").on(t.activityWorkflowId, t.scoId)],
);
