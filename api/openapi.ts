import type { Hono, MiddlewareHandler } from "hono";
import { describeRoute, openAPIRouteHandler, resolver } from "hono-openapi";
import type { z } from "zod";
import { apiErrorSchema, commandStatusSchema } from "../domain/contract/common";
import type { ApiEnv } from "./context";

/**
 * One definition per route (decision 034). A route says what it is where it is registered:
 *
 *   r.get("/things/:id", op({ summary: "…", response: thingSchema }), validParams(idParams), handler)
 *
 * `op` (this module) describes the operation — summary, who may call it, its answers — and the
 * `valid*` middleware of `api/validate.ts` check the path parameters, query and body with the schemas of
 * `domain/contract/` and put the same schemas into the document. `/api/openapi.json` is generated from
 * the routes the app registered (`openApiDocument`), so a route is documented exactly when it is
 * described; `tests/integration/openapi-api.test.ts` fails on a registered route without `op(…)`.
 */

/** Who may call an operation (the document's `security`). */
type Auth =
  /** A signed-in user's bearer token (the default). */
  | "user"
  /** Anyone: no credentials. */
  | "none"
  /** Anyone; a bearer token, when sent, is checked and names the user. */
  | "optionalUser"
  /** An LTI tool's service token (OAuth 2 client credentials, decision 023). */
  | "ltiService"
  /** An LTI 1.1 tool's OAuth 1.0a signature (Basic Outcomes). */
  | "lti11Signature"
  /** The start token a proctoring service was given (decision 024). */
  | "proctoringToken"
  /** A SCIM client's bearer token (decision 059: `npm run ops -- scim token create`). */
  | "scimToken";

export interface Operation {
  summary: string;
  description?: string;
  /** Default "user". */
  auth?: Auth;
  /** The 200 answer's JSON body. */
  response?: z.ZodType;
  /** An answer other than JSON 200: another status, or another media type (SSE, iCalendar, JWT, XML…). */
  answer?: { status?: number; type?: string; description: string; schema?: z.ZodType };
  /** A command of spec 7.3/7.7: `Prefer: respond-async | respond-sync`, 200 or 202 with a command status. */
  command?: boolean;
  /** A licensed feature the call belongs to: 501 when the caller's tenant does not have it. */
  feature?: "catalog" | "calendar";
  /** The body may also be multipart/form-data: these fields, and files in the field named `files`. */
  multipart?: { fields: z.ZodType; files: string };
  /** A body the handler reads itself (a zip, an LTI media type, a form): its media type and shape. */
  body?: { type: string; description: string; schema?: z.ZodType };
  /** Query parameters that repeat (read with `c.req.queries`), by name: their description. */
  repeatedQuery?: Record<string, string>;
  /** The answer is a file (ranges: 206, 416); HEAD answers its size only. */
  file?: boolean;
  /** Statuses this operation answers besides the common ones, with what they mean. */
  errors?: Record<number, string>;
  /** A path the spec leaves "not shown", chosen in the same style. */
  notShown?: boolean;
  /** Not part of the LMS API's contract (test support): tag "internal" and `x-internal: true`. */
  internal?: boolean;
}

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  user: [{ bearer: [] }],
  none: [],
  optionalUser: [{}, { bearer: [] }],
  ltiService: [{ ltiServiceToken: [] }],
  lti11Signature: [{ lti11Signature: [] }],
  proctoringToken: [{ proctoringStartToken: [] }],
  scimToken: [{ scimToken: [] }],
};

/** Answers' schemas describe what the API sends (zod's output side); request schemas what it accepts. */
const output = (schema: z.ZodType) => resolver(schema, { options: { io: "output" } });
const errorBody = { "application/json": { schema: output(apiErrorSchema) } };

function spec(tags: string[], op: Operation) {
  const auth = op.auth ?? "user";
  const responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }> = {
    "400": { description: "Invalid input; field messages", content: errorBody },
    "404": { description: "Unknown id, or not yours", content: errorBody },
  };
  if (auth !== "none" && auth !== "optionalUser")
    responses["401"] = { description: "Missing or invalid credentials", content: errorBody };
  if (op.feature)
    responses["501"] = {
      description: `The tenant's licence does not include the ${op.feature} (code featureNotLicensed)`,
      content: errorBody,
    };
  if (op.multipart)
    responses["413"] = {
      description: "The body is larger than the files it may carry (code in errors)",
      content: errorBody,
    };
  for (const [status, description] of Object.entries(op.errors ?? {}))
    responses[status] = { description, content: errorBody };
  if (op.file) {
    responses["200"] = {
      description: "The file, with its checked Content-Type, Content-Length and Content-Disposition",
      content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
    };
    responses["206"] = { description: "Range: bytes=a-b — that part of the file" };
    responses["416"] = { description: "A range outside the file" };
  } else if (op.command) {
    const status = { "application/json": { schema: output(commandStatusSchema) } };
    responses["200"] = { description: "Prefer: respond-sync — the finished command", content: status };
    responses["202"] = { description: "Prefer: respond-async — accepted; poll the Location header", content: status };
  } else if (op.answer) {
    const { status = 200, type, description, schema } = op.answer;
    responses[String(status)] = {
      description,
      ...(type || schema
        ? { content: { [type ?? "application/json"]: { schema: schema ? output(schema) : { type: "string" } } } }
        : {}),
    };
  } else {
    responses["200"] = {
      description: "OK",
      ...(op.response ? { content: { "application/json": { schema: output(op.response) } } } : {}),
    };
  }
  const requestBody =
    op.body || op.multipart
      ? {
          required: true,
          description: op.body?.description,
          content: {
            ...(op.body
              ? { [op.body.type]: { schema: op.body.schema ? resolver(op.body.schema) : { type: "string" } } }
              : {}),
            ...(op.multipart ? { "multipart/form-data": { schema: multipartSchema(op.multipart) } } : {}),
          },
        }
      : undefined;
  return {
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: op.internal ? [...tags, "internal"] : tags,
    ...(op.internal ? { "x-internal": true } : {}),
    ...(op.notShown ? { "x-spec-path-not-shown": true } : {}),
    security: SECURITY[auth],
    parameters: [
      ...Object.entries(op.repeatedQuery ?? {}).map(([name, description]) => ({
        name,
        in: "query" as const,
        description,
        style: "form" as const,
        explode: true,
        schema: { type: "array" as const, items: { type: "string" as const } },
      })),
      ...(op.command
        ? [
            {
              name: "Prefer",
              in: "header" as const,
              schema: { type: "string" as const, enum: ["respond-async", "respond-sync"] },
            },
          ]
        : []),
    ],
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The form fields of a multipart body (their JSON Schema, as a resolver) with the files added. */
function multipartSchema({ fields, files }: { fields: z.ZodType; files: string }) {
  const base = resolver(fields);
  return {
    ...base,
    toOpenAPISchema: async (options?: Record<string, unknown>) => {
      const converted = await base.toOpenAPISchema(options);
      const schema = converted.schema as { properties?: Record<string, unknown> };
      schema.properties = {
        ...schema.properties,
        [files]: { type: "array", items: { type: "string", format: "binary" } },
      };
      return converted;
    },
  };
}

/**
 * The describing middleware of one resource's routes: `const op = operations("courses")`, then
 * `r.get(path, op({ summary, response }), …handlers)`. It does nothing at run time.
 */
export function operations(...tags: string[]): (op: Operation) => MiddlewareHandler<ApiEnv> {
  return (op) => describeRoute(spec(tags, op) as Parameters<typeof describeRoute>[0]);
}

/** `GET /api/openapi.json`: the document of every described route `app` has registered (mounts included). */
export function openApiDocument(app: Hono<ApiEnv>): MiddlewareHandler<ApiEnv> {
  return openAPIRouteHandler(app, {
    documentation: {
      info: {
        title: "Embedded LMS API",
        version: "1.0.0",
        description:
          "Reference LMS API for the learner app (spec section 7). Operations tagged `internal` (`x-internal: true`) are not part of the contract: test support, mounted only for the browser tests' server.",
      },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          ltiServiceToken: {
            type: "http",
            scheme: "bearer",
            description: "An LTI tool's service token (POST /api/lti/v1/token)",
          },
          lti11Signature: {
            type: "apiKey",
            in: "header",
            name: "Authorization",
            description: "OAuth 1.0a body-hash signature",
          },
          proctoringStartToken: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description: "The start token of the sitting",
          },
          scimToken: { type: "http", scheme: "bearer", description: "npm run ops -- scim token create" },
        },
      },
    },
    // Paths such as /api/openapi.json and …/jwks.json are operations here, not static files.
    excludeStaticFile: false,
    // Every operation lists the API's own 400 (field messages), not the library's.
    defaultValidationErrorResponse: false,
  });
}
