import { parseWithZod } from "@conform-to/zod/v4";
import type { $ZodType } from "zod/v4/core";
import { formErrorMap } from "./errors";

/**
 * Conform's parse with the schema's own rules and our error codes (`./errors`): the same call in a
 * route's action and, for forms the learner types into, in the browser before sending.
 */
export function parseSubmission<Schema extends $ZodType>(form: FormData | URLSearchParams, schema: Schema) {
  return parseWithZod(form, { schema, error: formErrorMap });
}
