/**
 * The web front's structured log (decision 037): JSON lines on standard output through pino. Every
 * request gets an id — the reverse proxy's `X-Request-Id` when it sends a sane one, else a new one —
 * that goes back in the answer's `X-Request-Id`, on every line logged while the request runs (the
 * app's loaders and actions included: `log()` finds it through AsyncLocalStorage), and on to the LMS
 * API with each call the request makes, whose own lines carry it too (api/db/log.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pino, { type Logger } from "pino";
import { logPolicyOptions } from "#domain/log-policy";

/**
 * server.ts imports this module from source while the app's build bundles its own copy: both find one
 * logger and one request scope under these global names, so the app's lines carry the request id too.
 */
const shared = globalThis as { [key: symbol]: unknown };
const ROOT = Symbol.for("learner-app.log.root");
const SCOPE = Symbol.for("learner-app.log.scope");

const DESTINATION = Symbol.for("learner-app.log.destination");
/**
 * Written asynchronously (a line per request must never block the event loop on a slow pipe); lines
 * that are still buffered are written out before the process exits (`flushLogs`).
 */
const destination = (shared[DESTINATION] ??= pino.destination({
  fd: process.env.LOG_FD === "2" ? 2 : 1,
  sync: false,
})) as ReturnType<typeof pino.destination>;

/**
 * LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. Errors are logged as their
 * type, code, message and stack; e-mail addresses and secrets never reach a line; a warning repeated
 * many times is counted (domain/log-policy.ts, decision 053).
 */
export const rootLog: Logger = (shared[ROOT] ??= makeRoot()) as Logger;

function makeRoot(): Logger {
  const policy = logPolicyOptions(() => logger);
  const logger: Logger = pino(
    {
      level: process.env.LOG_LEVEL || "info",
      serializers: policy.serializers,
      hooks: policy.hooks,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return logger;
}

/** Writes out what is buffered, now: when the process exits (the drain, a crash), or before a plain line. */
export function flushLogs(): void {
  try {
    destination.flushSync();
  } catch {
    // not ready yet (nothing written) or already closed
  }
}
process.once("exit", flushLogs);

interface RequestScope {
  id: string;
  log: Logger;
  /** The signed-in user's id (the session's subject), once the session is read: page errors name it. */
  userId?: string;
}

const scope = (shared[SCOPE] ??= new AsyncLocalStorage<RequestScope>()) as AsyncLocalStorage<RequestScope>;

/** The logger of the request being served (it carries `reqId`), or the root logger outside one. */
export function log(): Logger {
  return scope.getStore()?.log ?? rootLog;
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.id;
}

/** The request's user is known (its session was read): its page errors say whose they were. */
export function noteRequestUser(userId: string): void {
  const current = scope.getStore();
  if (current) current.userId = userId;
}

/** The signed-in user of the request being served, when its session was read. */
export function currentUserId(): string | undefined {
  return scope.getStore()?.userId;
}

/** A proxy's id is taken when it is short and plain (letters, digits, `-_.:`); anything else is replaced. */
const SANE_ID = /^[\w.:-]{1,128}$/;

export function requestIdFrom(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && SANE_ID.test(given) ? given : randomUUID();
}

/** Runs `work` as the request `id`: `log()` and `currentRequestId()` find it in everything it starts. */
export function inRequest<T>(id: string, work: () => T): T {
  return scope.run({ id, log: rootLog.child({ reqId: id }) }, work);
}

/**
 * The LMS transport with the request id on every call (the API's lines carry it): the header is set
 * unless the call already has one.
 */
export function withRequestIdHeader(
  transport: (request: Request) => Response | Promise<Response>,
): (request: Request) => Response | Promise<Response> {
  return (request) => {
    const id = currentRequestId();
    if (id && !request.headers.has("x-request-id")) {
      try {
        request.headers.set("x-request-id", id);
      } catch {
        // immutable headers (a request made elsewhere): sent as it is
      }
    }
    return transport(request);
  };
}
