import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { objectives, users } from "../schema";

/** The tutor's conversation, kept per learner and course (issue 16 item 6, decision 028). */
export const tutorExchanges = pgTable(
  "tutor_exchanges",
  {
    /** The question's id, also the command's key. */
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    /** Who wrote the answer: "model" (TUTOR_BASE_URL), "extractive" (no model), "fallback" (the model failed). */
    answeredBy: text("answered_by").notNull().default("extractive"),
    /** The passages and citations shown with the answer (what the learner could open when asking). */
    passages: jsonb("passages").notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("tutor_exchanges_user_objective_idx").on(t.userId, t.objectiveId, t.createdAt)],
);
