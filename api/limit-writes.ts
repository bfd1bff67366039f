import { createMiddleware } from "hono/factory";
import type { ApiEnv } from "./context";
import { tooManyRequests } from "./rate-limit";
import type { WriteKind } from "./write-limits";

/** Counts a write of `kind` for the signed-in user (after `requireUser`); over the limit: 429. */
export const limitWrites = (kind: WriteKind) =>
  createMiddleware<ApiEnv>(async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      const result = await c.var.writeLimits.consume(kind, c.var.user.id);
      if (!result.ok) tooManyRequests(c, result.retryAfterSeconds);
    }
    await next();
  });
