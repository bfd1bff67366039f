import { z } from "zod";
import { TUTOR_QUESTION_MAX } from "../tutor";

/** Spec 7.3: the knowledge model of a learner's course (`knowledgeModelId`, default `defaultKnowledgeModelId`). */
export interface KnowledgeModel {
  knowledgeModelId: string;
}

/** POST …/tutor-questions: `id` is the question's id and the command's key (a double submit asks once). */
export const askTutorSchema = z.object({
  id: z.uuid(),
  question: z.string().trim().min(1).max(TUTOR_QUESTION_MAX),
});
export type AskTutor = z.infer<typeof askTutorSchema>;

/**
 * A place in the course the answer used: an activity the learner may open, as a link into the content
 * viewer — a text, a discussion (its posts), or a PDF at `page` (1-based; only for a PDF's page).
 */
export interface TutorCitation {
  activityPathId: string;
  name: string;
  page?: number;
}

/** An extract of the course's own content, quoted with the activity (and PDF page) it comes from. */
export interface TutorPassage extends TutorCitation {
  text: string;
}

/** The citations of an answer: its passages' places, in the same order. */
export function citationsOf(passages: readonly TutorPassage[]): TutorCitation[] {
  return passages.map(({ activityPathId, name, page }) => ({
    activityPathId,
    name,
    ...(page === undefined ? {} : { page }),
  }));
}

export interface TutorExchange {
  id: string;
  question: string;
  /** The answer as text: the best passages when no model is configured (extractive). */
  answer: string;
  /** "model": the configured model wrote it; "extractive": no model; "fallback": the model failed or was slow. */
  answeredBy: "model" | "extractive" | "fallback";
  passages: TutorPassage[];
  citations: TutorCitation[];
  createdAt: string;
}

export interface TutorConversation {
  data: TutorExchange[];
}
