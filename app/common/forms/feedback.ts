import * as z from "zod/mini";
import { FEEDBACK_COMMENT_MAX } from "#domain/limits";
import { FEEDBACK_DETAILS } from "#domain/feedback";
import { INTENT } from "./intents";

/**
 * Product feedback (spec 2.11, 7.1): a grade from 1 to 5 (required), the areas it is about, a comment.
 * Checked in the browser (Conform), by the action and by the API. zod/mini: it reaches a lazy chunk.
 */
export const feedbackSchema = z.object({
  intent: z.literal(INTENT.feedback),
  /** The command id: a double-clicked button makes one record. */
  id: z.uuid(),
  grade: z.int().check(z.gte(1), z.lte(5)),
  details: z.optional(z.array(z.enum(FEEDBACK_DETAILS))),
  comment: z.optional(z.string().check(z.trim(), z.maxLength(FEEDBACK_COMMENT_MAX))),
  returnTo: z.optional(z.string().check(z.maxLength(2000))),
});
