import { sql } from "drizzle-orm";
import {
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
import { activities, objectives } from "./courses";
import { objectiveWorkflows } from "./enrolment";
import { users } from "./platform";

/** One option of a reinforcement question: its id is what the e-mail link carries as `answer`. */
export interface ReinforcementOption {
  id: string;
  text: string;
}

/**
 * Questions about a module (spec 2.8, 3 'Reinforcement workflow'): asked again by e-mail at spaced
 * intervals after the learner finishes the module (decision 021).
 */
export const reinforcementQuestions = pgTable(
  "reinforcement_questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The module (a composite activity, or any activity) the question is about. */
    activityId: uuid("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    question: text("question").notNull(),
    options: jsonb("options").$type<ReinforcementOption[]>().notNull(),
    correctAnswer: text("correct_answer").notNull(),
    feedback: text("feedback").notNull(),
  },
  (t) => [uniqueIndex("reinforcement_questions_activity_idx").on(t.activityId, t.position)],
);

/**
 * A question asked of one learner (spec 3 'Reinforcement workflow'): due at a step of the ladder,
 * sent once by the mail job, answered once. The question is copied, so an edit of the bank does
 * not change what the learner was asked.
 */
export const reinforcementWorkflows = pgTable(
  "reinforcement_workflows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    activityId: uuid("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
    objectiveWorkflowId: uuid("objective_workflow_id").references(() => objectiveWorkflows.id, {
      onDelete: "set null",
    }),
    questionId: uuid("question_id").references(() => reinforcementQuestions.id, { onDelete: "set null" }),
    question: text("question").notNull(),
    options: jsonb("options").$type<ReinforcementOption[]>().notNull(),
    correctAnswer: text("correct_answer").notNull(),
    feedback: text("feedback").notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    answer: text("answer"),
    answerText: text("answer_text"),
    normalizedScore: doublePrecision("normalized_score"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    created: timestamp("created", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Scheduling is idempotent: a module finished twice asks each question once.
    uniqueIndex("reinforcement_workflows_user_question_idx").on(t.userId, t.questionId),
    index("reinforcement_workflows_user_due_idx").on(t.userId, t.dueAt),
    // The mail job's scan: unsent questions by due date, nothing else.
    index("reinforcement_workflows_unsent_idx")
      .on(t.dueAt)
      .where(sql`${t.sentAt} is null`),
  ],
);
