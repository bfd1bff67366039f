import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { analyticsEvents } from "../db/schema";
import { jsonBody } from "../validate";
import { analyticsBatchSchema } from "../../domain/contract/analytics";
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
  r.post("/events", maybeUser, async (c) => {
    // Issue 29 item 3: a visitor's rate before the body is read; then page views only, with bounded
    // fields, and what the session and the address (or user) may store, before anything is stored.
    await limitVisitorRate(c);
    const { events: sent } = await jsonBody(c, analyticsBatchSchema);
    const user = c.var.user;
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
  });
  return r;
}
