/** SCIM 2.0 error documents (RFC 7644 §3.12): `urn:ietf:params:scim:api:messages:2.0:Error`, as application/scim+json. */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError } from "../errors";
import { log } from "../db/log";

export const SCIM_JSON = "application/scim+json";
const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** RFC 7644 Table 9. */
export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

/** A SCIM answer: the media type of RFC 7644 §3.1. */
export function scimJson(c: Context, body: unknown, status: ContentfulStatusCode = 200): Response {
  return c.body(JSON.stringify(body), status, { "Content-Type": SCIM_JSON });
}

export function renderScimError(c: Context, err: unknown): Response {
  let status = 500;
  let detail = "Internal error";
  let scimType: ScimType | undefined;
  if (err instanceof ScimError) ({ status, message: detail, scimType } = err);
  else if (err instanceof ApiError) {
    // The API's own middleware (control characters, body limits): the same status as a SCIM document.
    status = err.status;
    detail = Object.values(err.errors).flat()[0]?.message ?? err.message;
  } else log().error({ err }, "scim: unexpected error");
  return scimJson(
    c,
    { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail },
    status as ContentfulStatusCode,
  );
}
