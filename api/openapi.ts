import { z } from "zod";
import { apiErrorSchema, commandStatusSchema } from "../domain/contract/common";
import {
  licencesSchema, permissionsSchema, publicSettingsSchema, settingsSchema, timezoneBodySchema, unitSchema, userSchema,
} from "../domain/contract/platform";

type Operation = {
  summary: string;
  public?: boolean;
  response?: z.ZodTypeAny;
  body?: z.ZodTypeAny;
  command?: boolean;
  params?: string[];
};

/**
 * Every path of the embedded API. Paths the spec leaves "not shown" are chosen in the same style
 * and marked `x-spec-path-not-shown`. Later resource groups add their entries with `addOperations`.
 */
const operations: Record<string, Record<string, Operation & { notShown?: boolean }>> = {
  "/api/platform/v1/public/settings": { get: { summary: "Public runtime settings (portal name, locales)", public: true, response: publicSettingsSchema, notShown: true } },
  "/api/platform/v1/users/me": { get: { summary: "Current user (spec 3 User)", response: userSchema, notShown: true } },
  "/api/platform/v1/users/me/permissions": { get: { summary: "Permission entries of the current user", response: permissionsSchema, notShown: true } },
  "/api/platform/v1/users/me/licences": { get: { summary: "Valid licences of the current user", response: licencesSchema, notShown: true } },
  "/api/platform/v1/settings": { get: { summary: "Tenant settings and features (spec 3 Settings read)", response: settingsSchema, notShown: true } },
  "/api/platform/v1/users/{id}/units": { get: { summary: "Units of a user (only yourself)", params: ["id"], response: z.object({ items: z.array(unitSchema) }) } },
  "/api/platform/v1/users/{id}/timezone": { post: { summary: "Set the preferred time zone", params: ["id"], body: timezoneBodySchema, command: true } },
  "/api/lms/v1/commands/{id}": { get: { summary: "Status of an asynchronous command (spec 7.7)", params: ["id"], response: commandStatusSchema, notShown: true } },
};

export function addOperations(more: typeof operations) {
  for (const [path, ops] of Object.entries(more)) operations[path] = { ...operations[path], ...ops };
}

const schema = (s: z.ZodTypeAny) => z.toJSONSchema(s, { unrepresentable: "any", io: "output" });

export function openApiDocument() {
  const paths: Record<string, unknown> = {};
  for (const [path, ops] of Object.entries(operations)) {
    const item: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(ops)) {
      const responses: Record<string, unknown> = {
        "400": { description: "Invalid input; field messages", content: { "application/json": { schema: schema(apiErrorSchema) } } },
        "404": { description: "Unknown id, or not yours", content: { "application/json": { schema: schema(apiErrorSchema) } } },
      };
      if (!op.public) responses["401"] = { description: "Missing or invalid bearer token" };
      if (op.command) {
        responses["200"] = { description: "Prefer: respond-sync — the finished command", content: { "application/json": { schema: schema(commandStatusSchema) } } };
        responses["202"] = { description: "Prefer: respond-async — accepted; poll the Location header", content: { "application/json": { schema: schema(commandStatusSchema) } } };
      } else {
        responses["200"] = { description: "OK", content: op.response ? { "application/json": { schema: schema(op.response) } } : undefined };
      }
      item[method] = {
        summary: op.summary,
        ...(op.notShown ? { "x-spec-path-not-shown": true } : {}),
        security: op.public ? [] : [{ bearer: [] }],
        parameters: [
          ...(op.params ?? []).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
          ...(op.command ? [{ name: "Prefer", in: "header", schema: { type: "string", enum: ["respond-async", "respond-sync"] } }] : []),
        ],
        ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: schema(op.body) } } } } : {}),
        responses,
      };
    }
    paths[path] = item;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Embedded LMS API", version: "1.0.0", description: "Reference LMS API for the learner app (spec section 7)." },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    paths,
  };
}

import { createDiscussionPostSchema, discussionThreadSchema } from "../domain/contract/discussions";
addOperations({
  "/api/lms/v1/users/me/activity-paths/{activityPathId}/discussion/posts": { get: { summary: "A discussion's thread: top-level posts newest first (query page, pageSize ≤ 50), each with all replies", params: ["activityPathId"], response: discussionThreadSchema, notShown: true } },
  "/api/lms/v1/create-discussion-posts": { post: { summary: "Write a discussion post or reply (idempotent by id)", body: createDiscussionPostSchema, command: true, notShown: true } },
});
