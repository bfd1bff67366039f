import { Hono, type Context } from "hono";
import { matchedRoutes } from "hono/route";
import { describeRoute } from "hono-openapi";
import { readCommandStatus } from "./commands/run";
import type { ApiDeps, ApiEnv } from "./context";
import { forgetPrincipalsAfter, requireUser } from "./auth";
import { CountCache } from "./queries/count-cache";
import { ApiError, message, renderError } from "./errors";
import { openApiDocument, operations } from "./openapi";
import { platformRoutes } from "./routes/platform";
import { courseRoutes } from "./routes/courses";
import { lifecycleRoutes } from "./routes/lifecycle";
import { groupWorkRoutes } from "./routes/group-work";
import { discussionRoutes } from "./routes/discussions";
import { certificateRoutes } from "./routes/certificates";
import { reinforcementRoutes } from "./routes/reinforcement";
import { proctoringRoutes, proctoringServiceRoutes } from "./routes/proctoring";
import { calendarRoutes } from "./routes/calendar";
import { chatRoutes } from "./routes/chat";
import { feedbackRoutes } from "./routes/feedback";
import { tutorRoutes } from "./routes/tutor";
import { analyticsRoutes } from "./routes/analytics";
import { ltiLaunchRoutes, ltiPlatformRoutes } from "./routes/lti";
import { ltiAgsRoutes } from "./routes/lti-ags";
import { ltiNrpsRoutes } from "./routes/lti-nrps";
import { storageRoutes } from "./routes/storage";
import { scormRoutes } from "./routes/scorm";
import { assessmentFileRoutes, assessmentRoutes } from "./routes/assessment";
import { peopleRoutes } from "./routes/people";
import { handInFileRoutes, handInRoutes } from "./routes/hand-ins";
import { cartridgeRoutes } from "./routes/cartridges";
import { gradeRoutes } from "./routes/grades";
import { mailPreferenceRoutes } from "./routes/mail-preferences";
import { scimRoutes } from "./scim/routes";
import { idParams, refuseControlCharacters, validParams } from "./validate";
import { createWriteLimiters } from "./write-limits";
import { commandStatusSchema } from "../domain/contract/common";
import { withRequestId } from "./db/log";

const internalOperations = describeRoute({ tags: ["internal"], "x-internal": true } as Parameters<
  typeof describeRoute
>[0]);

/** The embedded LMS API, mounted at /api. Reached in-process by the app or over HTTP by anyone. */
/**
 * The route that answered as registered: the handler at the chain's stop, or — when a middleware
 * answered first (a 401, a 429) — the handler the request was going to; none (only the catch-all
 * middlewares matched) is "(unmatched)".
 */
function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = Math.max(0, c.req.routeIndex); i < routes.length; i++)
    if (routes[i]!.method !== "ALL") return routes[i]!.path;
  return "(unmatched)";
}

export function createApi(deps: ApiDeps) {
  const app = new Hono<ApiEnv>().basePath("/api");
  // What this node remembers of users is forgotten when any node changes them (decision 019).
  deps.database.changes.subscribe(forgetPrincipalsAfter);
  const counts = new CountCache();
  deps.database.changes.subscribe((change) => counts.forgetAfter(change));
  const writeLimits = createWriteLimiters(deps.database, deps.writeLimits);
  // The front's request id (X-Request-Id) on every log line this request writes (decision 037).
  app.use("*", (c, next) => withRequestId(c.req.header("x-request-id")?.slice(0, 128), next));
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("writeLimits", writeLimits);
    c.set("counts", counts);
    c.set("db", deps.database.db);
    c.set("now", deps.now ? deps.now() : new Date());
    await next();
    // A user's own write forgets their list totals at once, before the database's notice comes back
    // (which on PostgreSQL arrives on another connection, possibly after the next page's read).
    // (The analytics collector writes only its own events: it changes no count.)
    const method = c.req.method;
    if (method !== "GET" && method !== "HEAD" && !c.req.path.startsWith("/api/analytics/")) {
      const user: { id: string } | undefined = c.get("user");
      if (user) counts.forgetUser(user.id);
    }
    // Answers are personal and fresh unless a handler says otherwise (public certificate documents, the
    // calendar feed).
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
    // The route that answered, as registered (`/api/lms/v1/courses/:id`): the front's metrics label
    // and log field; a path no route took is "(unmatched)" (decision 050).
    c.header("X-Route-Template", routeTemplate(c));
  });
  app.use("*", refuseControlCharacters);
  app.onError((err, c) => renderError(c, err));
  app.notFound((c) => renderError(c, new ApiError(404, { "": [message("notFound", "No such endpoint.")] })));

  app.get(
    "/openapi.json",
    operations("meta")({ summary: "This document: every operation of the API (decision 034)", auth: "none" }),
    openApiDocument(app),
  );
  app.route("/platform/v1", platformRoutes());
  app.route("/platform/v1", mailPreferenceRoutes());
  app.route("/lti/v1", ltiPlatformRoutes());
  app.route("/lti/v1", ltiAgsRoutes());
  app.route("/lti/v1", ltiNrpsRoutes());
  app.route("/proctoring/v1", proctoringServiceRoutes());

  const lms = new Hono<ApiEnv>();
  lms.use("/commands/*", requireUser);
  lms.get(
    "/commands/:id",
    operations("commands")({
      summary: "Status of an asynchronous command (spec 7.7)",
      response: commandStatusSchema,
      notShown: true,
    }),
    validParams(idParams),
    (c) => readCommandStatus(c, c.req.valid("param").id),
  );
  lms.route("/", courseRoutes());
  lms.route("/", lifecycleRoutes());
  lms.route("/", groupWorkRoutes());
  lms.route("/", discussionRoutes());
  lms.route("/", certificateRoutes());
  lms.route("/", reinforcementRoutes());
  lms.route("/", proctoringRoutes());
  lms.route("/", calendarRoutes());
  lms.route("/", chatRoutes());
  lms.route("/", feedbackRoutes());
  lms.route("/", ltiLaunchRoutes());
  lms.route("/", gradeRoutes());
  lms.route("/", cartridgeRoutes());
  lms.route("/", handInRoutes());
  app.route("/lms/v1", lms);
  app.route("/lms-km/v1", tutorRoutes());
  app.route("/analytics/v1", analyticsRoutes());
  app.route("/lms-storage/v1", storageRoutes());
  app.route("/lms-storage/v1", handInFileRoutes());
  app.route("/lms-storage/v1", assessmentFileRoutes());
  app.route("/scorm/v1", scormRoutes());
  app.route("/assessment/v1", assessmentRoutes());
  app.route("/people/v1", peopleRoutes());
  // SCIM 2.0 provisioning (decision 059); the web server answers it at /scim/v2 too.
  app.route("/scim/v2", scimRoutes());
  // Decision 014: test support, only for the browser tests' server (the composition root decides and keeps it to loopback).
  // Whatever is mounted here is documented as internal (tag "internal", x-internal: true; decision 034).
  for (const [path, routes] of Object.entries(deps.internalRoutes ?? {})) {
    app.use(`${path}/*`, internalOperations);
    app.route(path, routes);
  }

  return app;
}
