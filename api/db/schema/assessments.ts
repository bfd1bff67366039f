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
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { AssessmentItem } from "../../../domain/qti/item";
import type { AssessmentTest, AttemptPlan } from "../../../domain/qti/test";
import type { RawResponses } from "../../../domain/qti/responses";
import { activities } from "./courses";
import { tenants, users } from "./platform";
import { activityWorkflows } from "./workflows";

/**
 * An imported QTI test (decision 055): the parsed test, the activity it is delivered in
 * (its content names the package: { qti: { packageId } }), the cut value (normalised, 0–1) when the
 * activity sets one, and whether it is an anonymous survey (its answers are kept without the learner).
 */
export const qtiPackages = pgTable(
  "qti_packages",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    activityId: uuid("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    test: jsonb("test").$type<AssessmentTest>().notNull(),
    cutValue: doublePrecision("cut_value"),
    survey: boolean("survey").notNull().default(false),
    anonymous: boolean("anonymous").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("qti_packages_activity_idx").on(t.activityId)],
);

/** The items of a package, by the href the test names them with. */
export const qtiItems = pgTable(
  "qti_items",
  {
    packageId: uuid("package_id")
      .notNull()
      .references(() => qtiPackages.id, { onDelete: "cascade" }),
    href: text("href").notNull(),
    item: jsonb("item").$type<AssessmentItem>().notNull(),
    maxScore: doublePrecision("max_score").notNull(),
  },
  (t) => [primaryKey({ columns: [t.packageId, t.href] })],
);

/**
 * 1 in progress, 2 in grading (an item needs a person), 3 done. The plan (selection, order, pages) is
 * drawn once from the seed at the start and kept.
 */
export const assessmentAttempts = pgTable(
  "assessment_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => qtiPackages.id, { onDelete: "cascade" }),
    activityWorkflowId: uuid("activity_workflow_id")
      .notNull()
      .references(() => activityWorkflows.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seed: text("seed").notNull(),
    plan: jsonb("plan").$type<AttemptPlan>().notNull(),
    /** The page the learner is on (0-based); in a linear part she cannot go back before it. */
    page: integer("page").notNull().default(0),
    state: integer("state").notNull().default(1),
    started: timestamp("started", { withTimezone: true }).notNull(),
    deadline: timestamp("deadline", { withTimezone: true }),
    submitted: timestamp("submitted", { withTimezone: true }),
    /** Why it ended: "submitted" or "timeUp". */
    ended: text("ended"),
    score: doublePrecision("score"),
    maxScore: doublePrecision("max_score"),
    passed: boolean("passed"),
  },
  (t) => [uniqueIndex("assessment_attempts_aw_idx").on(t.activityWorkflowId)],
);

/**
 * The learner's answer to one item of her attempt, saved as she goes (resume anywhere); after submit its
 * score and outcomes (`outcomes`: the item's variables, for feedback in review). An anonymous survey's
 * answers leave this table at submit for `survey_answers`.
 */
export const assessmentAnswers = pgTable(
  "assessment_answers",
  {
    attemptId: uuid("attempt_id")
      .notNull()
      .references(() => assessmentAttempts.id, { onDelete: "cascade" }),
    itemRef: text("item_ref").notNull(),
    response: jsonb("response").$type<RawResponses>().notNull(),
    saved: timestamp("saved", { withTimezone: true }).notNull(),
    score: doublePrecision("score"),
    maxScore: doublePrecision("max_score"),
    outcomes: jsonb("outcomes").$type<Record<string, (string | number | boolean)[]>>(),
    /** A person's score of an item that needs one (essay, upload). */
    gradedScore: doublePrecision("graded_score"),
    /** Who gave that score, and when (the grader's page shows it; null until a person scores). */
    gradedBy: uuid("graded_by").references(() => users.id, { onDelete: "set null" }),
    gradedAt: timestamp("graded_at", { withTimezone: true }),
    /** The learner's mark "for review" (decision 057), saved with the answer. */
    flagged: boolean("flagged").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.itemRef] })],
);

/**
 * Decision 068: the file a learner sent as an upload interaction's answer (one per response of an item of
 * her attempt; a new file replaces it). The answer's response holds this row's id; the bytes are in the
 * file store under assessment-answers/<attempt id>/<file id>.
 */
export const assessmentFiles = pgTable(
  "assessment_files",
  {
    id: uuid("id").primaryKey(),
    attemptId: uuid("attempt_id")
      .notNull()
      .references(() => assessmentAttempts.id, { onDelete: "cascade" }),
    itemRef: text("item_ref").notNull(),
    response: text("response").notNull(),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    kind: text("kind").notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("assessment_files_answer_idx").on(t.attemptId, t.itemRef, t.response)],
);

/** An anonymous survey's answers: the package and the item, never the learner or her attempt. */
export const surveyAnswers = pgTable(
  "survey_answers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => qtiPackages.id, { onDelete: "cascade" }),
    itemRef: text("item_ref").notNull(),
    response: jsonb("response").$type<RawResponses>().notNull(),
    /** The day only: a time to the second could be matched with the sign-in log. */
    day: text("day").notNull(),
  },
  (t) => [index("survey_answers_package_idx").on(t.packageId, t.itemRef)],
);
