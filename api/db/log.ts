/**
 * The LMS API's structured log (decision 037): JSON lines on standard output through pino, each one
 * carrying the request id of the request it belongs to. The id comes from the front (`X-Request-Id`,
 * set by the reverse proxy or made by server.ts) and reaches the API as a header — in the same
 * process or across to the database thread — where `withRequestId` binds it for everything the
 * request runs, so `log()` anywhere below finds it. It sits on the ground floor (api/db) because
 * every floor above, the database client included, writes to it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { isMainThread } from "node:worker_threads";
import pino, { type Logger } from "pino";
import { logPolicyOptions } from "../../domain/log-policy";

/** LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
const level = process.env.LOG_LEVEL || "info";

/** The process's root logger; the database thread's names itself. */
const policy = logPolicyOptions(() => rootLog);
const rootLog: Logger = pino(
  {
    level,
    // Errors as type, code, message and stack; no e-mail address or secret; repeated lines counted (decision 053).
    serializers: policy.serializers,
    hooks: policy.hooks,
    base: { pid: process.pid, ...(isMainThread ? {} : { thread: "database" }) },
    // Synchronous writes: a line is out before the process exits (a crash, SIGTERM's last words).
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  // LOG_FD=2: the operator's commands print their answers on stdout, their log lines go to stderr.
  pino.destination({ fd: process.env.LOG_FD === "2" ? 2 : 1, sync: true }),
);

const current = new AsyncLocalStorage<Logger>();

/** The logger of the request being served (it carries `reqId`), or the root logger outside one. */
export function log(): Logger {
  return current.getStore() ?? rootLog;
}

/** Runs `work` with `log()` bound to a child logger carrying this request id. */
export function withRequestId<T>(requestId: string | undefined, work: () => T): T {
  return requestId ? current.run(rootLog.child({ reqId: requestId }), work) : work();
}
