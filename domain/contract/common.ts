import { z } from "zod";

/**
 * One error body for every API failure. `errors` maps a field (or "" for the whole request) to
 * messages, which is what the client flattens per field (spec 5, 8).
 */
const apiMessageSchema = z.object({
  /** Stable code the app translates (locales: apiErrors.{code}); unknown codes read 'Unknown error'. */
  code: z.string(),
  /** English text for API consumers that do not translate. */
  message: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ApiMessage = z.infer<typeof apiMessageSchema>;
const apiErrorsSchema = z.record(z.string(), z.array(apiMessageSchema));
export const apiErrorSchema = z.object({
  status: z.number().int(),
  title: z.string(),
  errors: apiErrorsSchema.default({}),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

export const commandStatusSchema = z.object({
  id: z.string(),
  type: z.string(),
  state: z.enum(["pending", "completed", "failed"]),
  result: z.number().int().nullable(),
  data: z.unknown().nullable(),
  errors: apiErrorsSchema.default({}),
});
export type CommandStatus = z.infer<typeof commandStatusSchema>;

/** A list answer: `data`, and `totalCount` when the query asked for it (requireTotalCount). */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), totalCount: z.number().int().optional() });

/** `:id` path parameters. */
export const idPathSchema = z.object({ id: z.uuid() });

const uuidSchema = z.uuid();
/** An id of the API (an RFC 9562 UUID): route parameters and hidden fields are checked with it. */
export const isUuid = (value: unknown): value is string => uuidSchema.safeParse(value).success;
