import type { Route } from "./+types/learn.collect";
import { analyticsBatchSchema } from "#domain/contract/analytics";
import { ANALYTICS_BATCH_MAX_BYTES, analyticsEnabled } from "#domain/analytics";
import { record } from "~/services/analytics.server";
import { appConfig } from "~/services/config.server";

/**
 * The browser's analytics beacon (issue 16 item 8, decision 029): `navigator.sendBeacon` posts a batch
 * here (text/plain JSON); it goes on to the collector. Off in development (404) and for learners who
 * ask not to be tracked (accepted and dropped). Errors from the browser arrive here too.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (!analyticsEnabled(appConfig(context).appEnv)) return new Response("Not found", { status: 404 });
  const text = await request.text();
  if (text.length > ANALYTICS_BATCH_MAX_BYTES) return new Response("Too large", { status: 413 });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response("Bad request", { status: 400 });
  }
  const batch = analyticsBatchSchema.safeParse(body);
  if (!batch.success) return new Response("Bad request", { status: 400 });
  const outcome = await record(request, context, batch.data.events);
  // Past the collector's limits (issue 29 item 3): the beacon hears when to come back.
  if (outcome.kind === "tooMany")
    return new Response(null, { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } });
  return new Response(null, { status: 204 });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
