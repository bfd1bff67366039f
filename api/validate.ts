import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import { createMiddleware } from "hono/factory";
import { resolver, uniqueSymbol } from "hono-openapi";
import type { ApiEnv } from "./context";
import { ApiError, message, zodErrors } from "./errors";
import { hasControlCharacters } from "../domain/text";

const invalidCharacters = () =>
  new ApiError(400, { "": [message("invalidCharacters", "The request holds control characters no text contains.")] });

/**
 * A query (names and values, as decoded) with control characters is a 400 before any route reads it
 * (issue 17 item 6: `search=%00` reached PostgreSQL, which refuses NUL, and answered 500).
 */
export const refuseControlCharacters = createMiddleware(async (c, next) => {
  const url = c.req.url;
  const q = url.indexOf("?");
  if (q >= 0)
    for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
      if (hasControlCharacters(name) || hasControlCharacters(value)) throw invalidCharacters();
    }
  await next();
});

const MAX_BODY_BYTES = 256 * 1024;

/**
 * Parses and validates a JSON body; anything else is a 4xx with field messages, never a 500.
 * `opaque` names top-level fields whose strings are data a program stores and reads back (a SCORM
 * SCO's CMI values may hold any character; issue 30, ADL's DMI test writes C1 controls into
 * cmi.suspend_data): only NUL, which PostgreSQL cannot store, is refused there.
 */
export async function jsonBody<T extends z.ZodTypeAny>(
  c: Context,
  schema: T,
  options: { opaque?: string[]; maxBytes?: number } = {},
): Promise<z.infer<T>> {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const type = c.req.header("content-type") ?? "";
  if (!type.includes("application/json")) {
    throw new ApiError(415, { "": [message("contentType", "Send the body as application/json.")] });
  }
  const length = Number(c.req.header("content-length") ?? 0);
  if (length > maxBytes) throw new ApiError(413, { "": [message("tooLarge", "The request body is too large.")] });
  const text = await c.req.text();
  if (text.length > maxBytes) throw new ApiError(413, { "": [message("tooLarge", "The request body is too large.")] });
  let raw: unknown;
  try {
    raw = text.length ? JSON.parse(text) : {};
  } catch {
    throw new ApiError(400, { "": [message("invalidJson", "The body is not valid JSON.")] });
  }
  const opaque = new Set(options.opaque ?? []);
  const plain =
    raw && typeof raw === "object" && !Array.isArray(raw) && opaque.size > 0
      ? Object.fromEntries(Object.entries(raw).filter(([key]) => !opaque.has(key)))
      : raw;
  if (holdsControlCharacters(plain)) throw invalidCharacters();
  if (opaque.size > 0 && raw && typeof raw === "object" && holdsNul(Object.entries(raw).filter(([k]) => opaque.has(k))))
    throw invalidCharacters();
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, zodErrors(parsed.error));
  return parsed.data;
}

/**
 * Any string (key or value) of a parsed JSON body with control characters (domain/text.ts): NUL is the
 * one PostgreSQL cannot store, the others go with it. A loop, not recursion: a body may nest deeply.
 */
function holdsControlCharacters(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (hasControlCharacters(value)) return true;
    } else if (Array.isArray(value)) for (const item of value) pending.push(item);
    else if (value && typeof value === "object")
      for (const [key, item] of Object.entries(value)) {
        if (hasControlCharacters(key)) return true;
        pending.push(item);
      }
  }
  return false;
}

/** NUL anywhere in a parsed value (PostgreSQL's text and jsonb cannot hold it). */
function holdsNul(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (value.includes("\u0000")) return true;
    } else if (Array.isArray(value)) pending.push(...value);
    else if (value && typeof value === "object")
      for (const [key, item] of Object.entries(value)) {
        if (key.includes("\u0000")) return true;
        pending.push(item);
      }
  }
  return false;
}

function params<T extends z.ZodTypeAny>(c: Context, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.param());
  if (!parsed.success) throw new ApiError(404, zodErrors(parsed.error), "Not found");
  return parsed.data;
}

function query<T extends z.ZodTypeAny>(c: Context, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new ApiError(400, zodErrors(parsed.error));
  return parsed.data;
}

/**
 * The same checks as middleware of a route (decision 034): `r.get(path, op({…}), validParams(s), handler)`
 * validates before the handler runs, hands the result to `c.req.valid("param" | "query" | "json")`, and
 * puts the schema into the OpenAPI document (parameters, request body) — one definition for both.
 * Failures are the API's own: bad path parameters 404, bad queries and bodies 400 with field messages,
 * a body that is not JSON 415, too large 413 (`params`, `query`, `jsonBody` above).
 */
type Validated<T extends "param" | "query" | "json", S extends z.ZodType> = MiddlewareHandler<
  ApiEnv,
  string,
  { in: { [K in T]: z.input<S> }; out: { [K in T]: z.output<S> } }
>;

function documented<T extends "param" | "query" | "json", S extends z.ZodType>(
  target: T,
  schema: S,
  read: (c: Context<ApiEnv>) => Promise<z.output<S>> | z.output<S>,
  refusal?: () => ApiError,
): Validated<T, S> {
  const middleware: Validated<T, S> = async (c, next) => {
    let data: z.output<S>;
    try {
      data = await read(c);
    } catch (error) {
      throw refusal && error instanceof ApiError && error.status === 400 ? refusal() : error;
    }
    c.req.addValidatedData(target, data as object);
    await next();
  };
  // hono-openapi reads a middleware's description from this symbol (its documented way for custom validators).
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } });
}

/** Path parameters: anything that does not parse is "not found" (404), as `params` answers. */
export const validParams = <S extends z.ZodType>(schema: S) => documented("param", schema, (c) => params(c, schema));
/**
 * The query (one value per name, as `c.req.query()` reads it): 400 with field messages, or the route's
 * own refusal when it has one (`refusal`).
 */
export const validQuery = <S extends z.ZodType>(schema: S, refusal?: () => ApiError) =>
  documented("query", schema, (c) => query(c, schema), refusal);
/**
 * A JSON body (`jsonBody`: 415, 413, 400 invalidJson / invalidCharacters / field messages), with
 * `jsonBody`'s `opaque` and `maxBytes` options.
 */
export const validJson = <S extends z.ZodType>(schema: S, options?: { opaque?: string[]; maxBytes?: number }) =>
  documented("json", schema, (c) => jsonBody(c, schema, options));

// Schemas used on every request are built once: constructing a zod schema (and its compiled
// fast path) per call cost about 0.3 ms of each My courses request (decision 012).
/** `:id` route parameters. */
export { idPathSchema as idParams, isUuid } from "../domain/contract/common";
