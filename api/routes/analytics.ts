import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { analyticsEvents } from "../db/schema";
import { validJson } from "../validate";
import { operations } from "../openapi";
import { analyticsAcceptedSchema, analyticsBatchSchema } from "../../domain/contract/analytics";
import { forwarderOf } from "../analytics-forwarder";

/** A signed-in user when a token is sent; visitors' events (page views of public pages) are anonymous. */
const maybeUser = createMiddleware<ApiEnv>(async (c, next) => {
  if (c.req.header("authorization")) return requireUser(c, next);
  await next();
});

/** The embedded analytics collector (issue 16 item 8, decision 029): stores a batch in one statement. */
export function analyticsRoutes() {
  const r = new Hono<ApiEnv>();
  r.post(
    "/events",
    operations("analytics")({
      summary:
        "The embedded analytics collector (decision 029): a batch of events, stored in one statement; a visitor's are anonymous",
      auth: "optionalUser",
      response: analyticsAcceptedSchema,
    }),
    maybeUser,
    validJson(analyticsBatchSchema),
    async (c) => {
      const { events } = c.req.valid("json");
      const user = c.var.user;
      const rows = await c.var.db
        .insert(analyticsEvents)
        .values(
          events.map((e) => ({
            tenantId: user?.tenantId ?? null,
            userId: user?.id ?? null,
            session: e.session ?? null,
            datalakeSession: e.datalakeSession ?? null,
            name: e.name,
            page: e.page ?? null,
            props: e.props,
            createdAt: c.var.now,
          })),
        )
        .returning();
      forwarderOf(c.var.deps)?.enqueue(rows);
      return c.json({ accepted: events.length });
    },
  );
  return r;
}
