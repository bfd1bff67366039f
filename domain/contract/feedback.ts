import { z } from "zod";
import { FEEDBACK_COMMENT_MAX } from "../limits";
import { FEEDBACK_DETAILS } from "../feedback";

/** POST /create-product-feedback (issue 16 item 7): `id` is the record's id and the command's key. */
export const createFeedbackSchema = z.object({
  id: z.uuid(),
  grade: z.number().int().min(1).max(5),
  details: z.array(z.enum(FEEDBACK_DETAILS)).max(FEEDBACK_DETAILS.length).default([]),
  comment: z.string().trim().max(FEEDBACK_COMMENT_MAX).default(""),
  page: z.string().max(2000).startsWith("/").nullish(),
});
export type CreateFeedback = z.input<typeof createFeedbackSchema>;
