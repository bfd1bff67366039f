import * as z from "zod/mini";
import { CHAT_BODY_MAX } from "#domain/limits";
import { INTENT } from "./intents";

/**
 * A chat message (the create-chat-messages command's fields), checked in the browser (Conform), by the
 * action and by the API. zod/mini: this module reaches the chat's lazily loaded chunk.
 */
export const chatPostSchema = z.object({
  intent: z.literal(INTENT.chatPost),
  /** The command id: a double-clicked button makes one message. */
  id: z.uuid(),
  body: z.string().check(z.trim(), z.minLength(1), z.maxLength(CHAT_BODY_MAX)),
});
