/**
 * What every LTI service call shares (AGS 2.0, NRPS 2.0; decisions 023, 041): the calling tool by its
 * bearer token and scopes, the body under an LTI media type, the URLs of a course's services, and the
 * `Link` header of a paged answer (RFC 8288).
 */
import type { Context } from "hono";
import type { z } from "zod";
import type { ApiEnv } from "../context";
import { ApiError, message, zodErrors } from "../errors";
import { appUrlOf, platformUrls, serviceCaller } from "./platform";
import { registryOf } from "./registry";

const MAX_SERVICE_BODY = 64 * 1024;

/** A service body (JSON under an LTI media type), parsed and checked: 415/413/400, never a 500. */
export async function serviceBody<T extends z.ZodTypeAny>(
  c: Context,
  mediaType: string,
  schema: T,
): Promise<z.infer<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!type.startsWith(mediaType) && !type.startsWith("application/json"))
    throw new ApiError(415, { "": [message("contentType", `Send the body as ${mediaType}.`)] });
  const text = await c.req.text();
  if (text.length > MAX_SERVICE_BODY)
    throw new ApiError(413, { "": [message("tooLarge", "The request body is too large.")] });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError(400, { "": [message("invalidJson", "The body is not valid JSON.")] });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, zodErrors(parsed.error));
  return parsed.data;
}

/** The tool behind the call's bearer token, which must grant one of `scopes` (401/403 otherwise). */
export async function serviceTool(c: Context<ApiEnv>, scopes: string[]) {
  const registry = await registryOf(c.var.deps);
  return Promise.any(
    scopes.map((s) => serviceCaller(c.var.deps, registry, c.req.header("authorization"), s, c.var.now)),
  ).catch((e: AggregateError) => {
    throw e.errors[0];
  });
}

/** A course's service URLs: `…/grading/contexts/{id}` (line items, memberships). */
export function contextUrl(c: Context<ApiEnv>, contextId: string) {
  return `${platformUrls(appUrlOf(c.var.deps)).grading}/contexts/${contextId}`;
}

/**
 * Offset paging of a list the answer holds whole (a course's line items, a line item's results): `limit`
 * (1…1000, `fallback` by default) and `page` (from 1); the `Link` header names the first, previous,
 * next and last pages by the request's own URL.
 */
export function offsetPage<T>(c: Context<ApiEnv>, items: T[], fallback = 100): { page: T[]; link: string | null } {
  const limit = Math.min(Math.max(Math.trunc(Number(c.req.query("limit") ?? fallback)) || fallback, 1), 1000);
  const last = Math.max(1, Math.ceil(items.length / limit));
  const page = Math.min(Math.max(Math.trunc(Number(c.req.query("page") ?? 1)) || 1, 1), last);
  const at = (n: number) => {
    const url = publicUrl(c);
    url.searchParams.set("limit", String(limit));
    url.searchParams.set("page", String(n));
    return url.toString();
  };
  const rels: [string, string][] = [];
  if (items.length > limit || c.req.query("limit") !== undefined) {
    rels.push(["first", at(1)]);
    if (page > 1) rels.push(["prev", at(page - 1)]);
    if (page < last) rels.push(["next", at(page + 1)]);
    rels.push(["last", at(last)]);
  }
  return { page: items.slice((page - 1) * limit, page * limit), link: linkHeader(rels) };
}

/** The request's URL on the platform's public origin (APP_URL), as a tool reached it. */
export function publicUrl(c: Context<ApiEnv>): URL {
  const url = new URL(c.req.url);
  return new URL(`${url.pathname}${url.search}`, appUrlOf(c.var.deps));
}

/** RFC 8288: `<url>; rel="…"` joined by commas; null without links. */
export function linkHeader(rels: [string, string][]): string | null {
  return rels.length ? rels.map(([rel, url]) => `<${url}>; rel="${rel}"`).join(", ") : null;
}
