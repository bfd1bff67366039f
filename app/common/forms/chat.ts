import * as z from "zod/mini";
import { CHAT_BODY_MAX } from "#domain/limits";
import { INTENT } from "./intents";
import { formError } from "./errors";

/** The form's file field (the API's multipart field of the same name). */
export const CHAT_FILES_FIELD = "attachments";

/** What the page knows of the API's attachment rules, to say before sending what the API would refuse. */
export interface ChatFileRules {
  maxBytes: number;
  maxCount: number;
  /** The file input's `accept`: ".pdf,.png,…" */
  accept: string;
  /** spec 5's {size} and {types}, formatted by the server. */
  sizeText: string;
  typesText: string;
}

/** The files chosen: a form without JavaScript sends an empty part (no name, no bytes) when none is. */
export function chosenFiles(value: unknown): File[] {
  return (Array.isArray(value) ? value : [value]).filter(
    (f): f is File => typeof File !== "undefined" && f instanceof File && (f.size > 0 || f.name !== ""),
  );
}

/** The first rule of the API's the chosen files break (size, then type by extension, then count), or null. */
function fileError(files: File[], rules: ChatFileRules): string | null {
  const extensions = rules.accept.split(",");
  for (const f of files) {
    if (f.size > rules.maxBytes) return formError("attachmentTooLarge", { size: rules.sizeText });
    const dot = f.name.lastIndexOf(".");
    if (dot < 0 || !extensions.includes(f.name.slice(dot).toLowerCase()))
      return formError("attachmentType", { types: rules.typesText });
  }
  return files.length > rules.maxCount ? formError("attachmentCount", { count: rules.maxCount }) : null;
}

/**
 * A chat message (the create-chat-messages command's fields), checked in the browser (Conform), by the
 * action and by the API: text, files, or both. With the rules (in the browser), the files are checked
 * as the API will check them — but for their contents, which only the server reads. zod/mini: this
 * module reaches the chat's lazily loaded chunk.
 */
export function chatPostSchema(rules?: ChatFileRules) {
  return z
    .object({
      intent: z.literal(INTENT.chatPost),
      /** The command id: a double-clicked button makes one message. */
      id: z.uuid(),
      body: z.optional(z.string().check(z.trim(), z.maxLength(CHAT_BODY_MAX))),
      [CHAT_FILES_FIELD]: z.optional(z.unknown()),
    })
    .check(
      z.superRefine((value, ctx) => {
        const files = chosenFiles(value[CHAT_FILES_FIELD]);
        if (!value.body && files.length === 0)
          ctx.issues.push({ code: "custom", path: ["body"], message: formError("required"), input: value.body });
        const error = rules ? fileError(files, rules) : null;
        if (error) ctx.issues.push({ code: "custom", path: [CHAT_FILES_FIELD], message: error, input: files });
      }),
    );
}
