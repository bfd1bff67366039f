/**
 * A page's server error as one JSON line of the log (decision 053, issue 53 item 1): its message and
 * stack (domain/log-policy.ts's `safeError`: no e-mail address, no token, no query parameters), the
 * request id, the route's template (`/learn/courses/:id`, never the ids themselves), the method and
 * the signed-in user's id when the session was read — never the user's e-mail or tokens. The same
 * error repeated (every page of a database outage) is counted after a few lines, like any warning.
 */
import { safeError } from "#domain/log-policy";
import { currentRequestId, currentUserId, log } from "./logger.server";

/** The path with each route parameter's value replaced by its name: `/learn/courses/:id`. */
export function routeTemplate(pathname: string, params: Readonly<Record<string, string | undefined>>): string {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) if (value) names.set(value, name === "*" ? "*" : `:${name}`);
  return pathname
    .split("/")
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // kept as it is
      }
      return names.get(decoded) ?? names.get(segment) ?? segment;
    })
    .join("/")
    .slice(0, 300);
}

export interface PageErrorLine {
  reqId?: string;
  method: string;
  route: string;
  userId?: string;
  /** Where it happened: a loader or action (React Router's `handleError`), or the render after the shell. */
  phase: "request" | "render";
  err: ReturnType<typeof safeError>;
}

/** The fields of the line (exported for its test). */
export function pageErrorLine(
  error: unknown,
  request: Request,
  params: Readonly<Record<string, string | undefined>>,
  phase: PageErrorLine["phase"],
): PageErrorLine {
  const userId = currentUserId();
  return {
    reqId: currentRequestId() ?? request.headers.get("x-request-id") ?? undefined,
    method: request.method,
    route: routeTemplate(new URL(request.url).pathname, params),
    ...(userId ? { userId } : {}),
    phase,
    err: safeError(error),
  };
}

/** Logs a page's server error: one JSON line at level error. */
export function logPageError(
  error: unknown,
  request: Request,
  params: Readonly<Record<string, string | undefined>> = {},
  phase: PageErrorLine["phase"] = "request",
): void {
  const line = pageErrorLine(error, request, params, phase);
  // The message is the error's kind, so the same failure on many pages is counted as one (log-policy).
  log().error(line, `page error: ${line.err.type}${line.err.code ? ` ${line.err.code}` : ""}`);
}
