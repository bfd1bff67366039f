import * as z from "zod/mini";
import { TUTOR_QUESTION_MAX } from "#domain/tutor";
import { INTENT } from "./intents";

/** A question to the tutor: checked in the browser (Conform), by the action and by the API. */
export const askTutorFormSchema = z.object({
  intent: z.literal(INTENT.askTutor),
  id: z.uuid(),
  question: z.string().check(z.trim(), z.minLength(1), z.maxLength(TUTOR_QUESTION_MAX)),
});
