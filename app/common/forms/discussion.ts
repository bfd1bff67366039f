import * as z from "zod/mini";
import { DISCUSSION_BODY_MAX } from "#domain/limits";
import { INTENT } from "./intents";

/**
 * A discussion post or reply (the create-discussion-posts command's fields). Checked in the browser
 * before sending (Conform) and again by the action, then by the API. zod/mini keeps the browser's
 * share small: this module reaches the discussion's lazily loaded chunk.
 */
export const discussionPostSchema = z.object({
  intent: z.literal(INTENT.post),
  /** The command id: a double-clicked button makes one post. */
  id: z.uuid(),
  activityPathId: z.uuid(),
  parentPostId: z.optional(z.uuid()),
  body: z.string().check(z.trim(), z.minLength(1), z.maxLength(DISCUSSION_BODY_MAX)),
});
