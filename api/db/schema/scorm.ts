import {
  bigint,
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
import type { ScormManifest, ScormVersion } from "../../../domain/scorm";
import type { ScoSessionState } from "../../../domain/scorm-attempt";
import { activities } from "./courses";
import { tenants, users } from "./platform";
import { activityWorkflows } from "./workflows";

/**
 * An imported SCORM package (decision 025): its files are under storage/scorm/<id>/, its
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
 * duplicate or arrived out of order and changes nothing (issue 15 item 4). Issue 30: the row is the
 * SCO's current attempt — its number, where it stands between sessions (open, suspended, ended; an
 * ended 2004 attempt makes the next launch a new one), and the total time of its sessions, added at
 * each Terminate/LMSFinish from the session time the server itself validated.
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
    /** The SCO's attempt number (1 for the first; a 2004 SCO that ended its attempt starts the next). */
    attempt: integer("attempt").notNull().default(1),
    state: text("state").$type<ScoSessionState>().notNull().default("open"),
    /** cmi.total_time / cmi.core.total_time of the attempt, in centiseconds. */
    totalCentis: bigint("total_centis", { mode: "number" }).notNull().default(0),
    /** The learner left the package with adl.nav.request suspendAll here: the next visit resumes this SCO. */
    suspendedAllAt: timestamp("suspended_all_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("scorm_attempts_aw_sco_idx").on(t.activityWorkflowId, t.scoId)],
);

/**
 * SCORM 2004 shared data (adl.data, the manifest's adlcp:data maps; issue 30 item 4): one store per
 * target id, for one learner, within one package — kept across attempts of the course, and never
 * visible to another package (a package cannot read what another one stored under the same id).
 */
export const scormSharedData = pgTable(
  "scorm_shared_data",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    packageId: uuid("package_id")
      .notNull()
      .references(() => scormPackages.id, { onDelete: "cascade" }),
    targetId: text("target_id").notNull(),
    store: text("store").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.packageId, t.targetId] })],
);
