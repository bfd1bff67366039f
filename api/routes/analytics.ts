import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { analyticsEvents } from "../db/schema";
import { validJson } from "../validate";
import { operations } from "../openapi";
import { analyticsAcceptedSchema, analyticsBatchSchema } from "../../domain/contract/analytics";
import { forwarderOf } from "../analytics-forwarder";
import { limitStored, limitVisitorRate, visitorEvent } from "../analytics-limits";

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
        "The embedded analytics collector (decision 029): a batch of events, stored in one statement; a visitor's are anonymous page views with bounded fields",
      description:
        "Limits (issue 29 item 3, decision 039): per address 60 batches a minute and per session 30, before the body is read; 300 page views an hour per address and 2,000 events an hour per user, counted in the database. Past a limit: 429 with Retry-After",
      auth: "optionalUser",
      response: analyticsAcceptedSchema,
      errors: { 429: "Too many events from this address, session or user (Retry-After)" },
    }),
    maybeUser,
    // A visitor's rate before the body is read.
    createMiddleware<ApiEnv>(async (c, next) => {
      await limitVisitorRate(c);
      await next();
    }),
    validJson(analyticsBatchSchema),
    async (c) => {
      const { events: sent } = c.req.valid("json");
      const user = c.var.user;
      // Page views only from visitors, with bounded fields; then what the session and the address (or user) may store.
      const events = user ? sent : sent.map(visitorEvent).filter((e) => e !== null);
      await limitStored(c, events);
      if (events.length === 0) return c.json({ accepted: 0, dropped: sent.length });
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
      return c.json({ accepted: events.length, dropped: sent.length - events.length });
    },
  );
  return r;
}
