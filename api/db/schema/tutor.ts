import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { activities, objectives } from "./courses";
import { users } from "./platform";

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

/**
 * The text of each page of a PDF activity (issue 16 item 5, decision 028), extracted with pdfjs-dist when
 * the activity's content is stored or changed (api/content-pages.ts). The tutor searches it at question
 * time in the learner's language's configuration, so no tsvector is stored.
 */
export const contentPages = pgTable(
  "content_pages",
  {
    activityId: uuid("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
    /** 1-based, as the content viewer's `pdfPage` counts. */
    page: integer("page").notNull(),
    /**
     * The file the text was read from (the content's `path` or `url`): the tutor searches a page only while
     * the activity still names that file, so text of a replaced file is never quoted, even before re-indexing.
     */
    source: text("source").notNull(),
    text: text("text").notNull(),
  },
  (t) => [primaryKey({ columns: [t.activityId, t.page] })],
);
