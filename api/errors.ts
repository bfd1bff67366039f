import type { Context } from "hono";
import { log } from "./db/log";
import { isUnreachable } from "./db/wait";
import { StorageUnavailable } from "./files/object-store";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import type { ApiErrorBody, ApiMessage } from "../domain/contract/common";

const TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable entity",
  429: "Too many requests",
  500: "Internal error",
  501: "Not implemented",
  503: "Service unavailable",
};

/** Thrown anywhere in the API; rendered as the one error body shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: Record<string, ApiMessage[]> = {},
    title?: string,
  ) {
    super(title ?? TITLES[status] ?? "Error");
  }
}

export function message(code: string, text: string, params?: ApiMessage["params"]): ApiMessage {
  return params ? { code, message: text, params } : { code, message: text };
}

export const notFound = (what = "resource") =>
  new ApiError(404, { "": [message("notFound", `The ${what} was not found.`)] });

function errorBody(status: number, errors: Record<string, ApiMessage[]> = {}, title?: string): ApiErrorBody {
  return { status, title: title ?? TITLES[status] ?? "Error", errors };
}

/**
 * Whether a type issue is about a value that is not there. zod leaves the input out of its issues, so
 * an Infinity (`limit=1e400`) or a NaN reads as "missing" by `input` alone: zod's `received` says.
 */
function isMissing(issue: z.core.$ZodIssueInvalidType): boolean {
  const received = (issue as { received?: unknown }).received;
  if (received !== undefined) return received === "undefined";
  return issue.input === undefined && /received undefined$/.test(issue.message);
}

/** zod issues → field messages with codes the app can translate (spec 5 texts). */
export function zodErrors(error: z.ZodError): Record<string, ApiMessage[]> {
  const out: Record<string, ApiMessage[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.join(".");
    let m: ApiMessage;
    if (issue.code === "too_big" && (issue.origin === "string" || issue.origin === "array")) {
      m = message("maxLength", `Maximum length is ${issue.maximum}`, { length: Number(issue.maximum) });
    } else if (issue.code === "invalid_type" && isMissing(issue)) {
      m = message("required", "Field is required");
    } else if (issue.code === "too_small" && issue.origin === "string" && Number(issue.minimum) === 1) {
      m = message("required", "Field is required");
    } else {
      m = message("invalid", issue.message);
    }
    (out[field] ??= []).push(m);
  }
  return out;
}

export function renderError(c: Context, err: unknown): Response {
  if (err instanceof ApiError) return c.json(errorBody(err.status, err.errors, err.message), err.status as 400);
  if (err instanceof HTTPException) {
    const status = err.status;
    return c.json(errorBody(status, { "": [message("http", err.message || TITLES[status] || "Error")] }), status);
  }
  // The storage or the database cannot be used now: 503 with Retry-After, not a 404 or an unknown
  // error (decision 053); the line names what failed, once per kind of failure (log-policy).
  const unavailable = unavailableDependency(err);
  if (unavailable) {
    log().warn(
      { err, method: c.req.method, path: c.req.path, dependency: unavailable.dependency },
      `api: ${unavailable.dependency} unavailable`,
    );
    return c.json(
      errorBody(503, {
        "": [
          message(unavailable.code, `The ${unavailable.dependency} is temporarily unavailable. Try again in a moment.`),
        ],
      }),
      503,
      {
        "Retry-After": String(RETRY_AFTER_SECONDS),
        "Cache-Control": "no-store",
        "X-Unavailable": unavailable.dependency,
      },
    );
  }
  log().error({ err, method: c.req.method, path: c.req.path }, "api: unhandled error");
  return c.json(errorBody(500, { "": [message("internal", "Server returns unknown error")] }), 500);
}

/** What a client is told to wait when the database or the storage is down. */
const RETRY_AFTER_SECONDS = 5;

/** PostgreSQL's "insufficient resources" class (53…: disk full, out of memory, too many connections). */
const RESOURCE_CODE = /^53/;

/** The database or the storage an error says cannot be used now, or null. */
export function unavailableDependency(
  err: unknown,
): { dependency: "storage" | "database"; code: "storageUnavailable" | "databaseUnavailable" } | null {
  for (let e = err as { cause?: unknown; code?: unknown } | undefined, i = 0; e && i < 4; i++, e = e.cause as typeof e)
    if (e instanceof StorageUnavailable) return { dependency: "storage", code: "storageUnavailable" };
  // A query's failure only (drizzle wraps each one): another service's ECONNREFUSED is not the database's.
  if (!(err instanceof Error) || !/^Failed query/.test(err.message)) return null;
  if (isUnreachable(err)) return { dependency: "database", code: "databaseUnavailable" };
  for (let e = err as { cause?: unknown; code?: unknown } | undefined, i = 0; e && i < 4; i++, e = e.cause as typeof e)
    if (typeof e.code === "string" && RESOURCE_CODE.test(e.code))
      return { dependency: "database", code: "databaseUnavailable" };
  return null;
}
