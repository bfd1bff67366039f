/**
 * Liveness and readiness at the root of every node (decision 037), answered before anything else
 * runs — no request id, no host redirect, no overload control, no session:
 *
 * - `GET /healthz` (liveness): 200 while the process answers at all. A supervisor restarts a node
 *   whose liveness fails; it says nothing of the database, so a database outage does not restart
 *   every node at once.
 * - `GET /readyz` (readiness): 200 when the node should get traffic — not draining, the database
 *   answers and its migrations are the ones this build expects (and the storage answers, with
 *   READINESS_STORAGE=gate); else 503 with the reason. The storage's state is in the answer either way. A load
 *   balancer takes a node out while it is not ready. The check runs at most once a second (answers
 *   in between reuse it), so polling it costs next to nothing.
 *
 * Both answer HEAD too, in JSON, `Cache-Control: no-store`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

export interface ReadinessCheck {
  /** Resolves with null when ready, else the reason (the database's error, migrations missing). */
  database(): Promise<string | null>;
  draining(): boolean;
  /**
   * The storage (decision 053): its state is in every readiness answer (`storage`: "ok" or why
   * not); it makes the node not ready only when `gates` (READINESS_STORAGE=gate) — a bucket shared by
   * every node going down would otherwise take every node out, pages that need no file included.
   */
  storage?: { status(): Promise<string | null>; gates: boolean };
}

const CHECK_EVERY_MS = 1_000;

export function healthEndpoints(check: ReadinessCheck) {
  let last: { at: number; result: Promise<string | null> } | null = null;
  const databaseReason = () => {
    const now = Date.now();
    if (!last || now - last.at >= CHECK_EVERY_MS) {
      const result = check.database().catch((err: unknown) => `database: ${(err as Error).message}`);
      last = { at: now, result };
    }
    return last.result;
  };
  const send = (req: IncomingMessage, res: ServerResponse, status: number, body: object) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(text),
      "Cache-Control": "no-store",
    });
    res.end(req.method === "HEAD" ? undefined : text);
  };

  /** Answers the request when it is a health check (true), else leaves it alone (false). */
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (!HEALTH_PATHS.has(path)) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Cache-Control": "no-store" });
      res.end();
      return true;
    }
    if (path === "/healthz") {
      send(req, res, 200, { status: "ok" });
      return true;
    }
    if (check.draining()) {
      send(req, res, 503, { status: "not ready", reason: "draining" });
      return true;
    }
    void Promise.all([databaseReason(), check.storage?.status().catch((err: unknown) => String(err)) ?? null]).then(
      ([reason, storageReason]) => {
        const storage = check.storage ? { storage: storageReason ?? "ok" } : {};
        if (reason === null && storageReason && check.storage?.gates) reason = `storage: ${storageReason}`;
        if (reason === null) send(req, res, 200, { status: "ready", ...storage });
        else send(req, res, 503, { status: "not ready", reason, ...storage });
      },
    );
    return true;
  };
}
