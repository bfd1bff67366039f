/**
 * Test support (decision 014): creates a learner for one browser test. Mounted only when the server
 * runs the browser tests (APP_ENV=test and E2E_FIXTURES=1, set by playwright.config.ts); server.ts
 * also refuses every request to it that does not come from the loopback interface. Elsewhere the
 * path does not exist (404), and no API instance loads the seed modules it uses.
 */
import { Hono } from "hono";
import type { ApiEnv } from "../api/context";
import { ApiError, message } from "../api/errors";
import { jsonBody } from "../api/validate";
import { operations } from "../api/openapi";

/**
 * Internal operations (decision 034): the API marks whatever it mounts from `deps.internalRoutes` as
 * internal too. The bodies' schemas live in the seed modules, which load only when a request comes.
 */
const op = (summary: string, body?: string, type = "application/json") =>
  operations("test support")({
    summary,
    auth: "none",
    internal: true,
    ...(body ? { body: { type, description: body } } : {}),
  });

export const TEST_SUPPORT_PATH = "/api/test-support/";

/** Test support is on only for the browser tests' server: APP_ENV=test and E2E_FIXTURES=1 (never `npm start`). */
export function testSupportEnabled(env: Record<string, string | undefined>): boolean {
  return env.APP_ENV === "test" && env.E2E_FIXTURES === "1";
}

/** A remote address on this machine's loopback interface (127.0.0.0/8 or ::1, IPv4-mapped or not). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** What the API mounts when test support is on (`deps.internalRoutes`). */
export function testSupportMount(on: boolean | undefined): Record<string, Hono<ApiEnv>> | undefined {
  return on ? { "/test-support/v1": testSupportRoutes() } : undefined;
}

function testSupportRoutes() {
  const r = new Hono<ApiEnv>();

  /**
   * POST /api/test-support/v1/learners { like?: "ada", enrolments?: [...], firstName?, lastName?, timezone? }
   * → 201 { id, email, password, name }: a learner in the demo tenant, its enrolments made from
   * the same recipes as the demo users' (demo/data/learners/).
   */
  r.post(
    "/learners",
    op(
      "A learner of its own for one browser test, with enrolments from the demo's recipes (201)",
      "{ like?, enrolments?, firstName?, lastName?, timezone? } (learnerRequestSchema in demo/test-learners.ts)",
    ),
    async (c) => {
      const [{ createLearner, learnerRequestSchema }, { DemoContentError }] = await Promise.all([
        import("./test-learners"),
        import("./content/files"),
      ]);
      const request = await jsonBody(c, learnerRequestSchema);
      try {
        return c.json(await createLearner(c.get("db"), request, c.get("now")), 201);
      } catch (error) {
        if (error instanceof DemoContentError)
          throw new ApiError(400, { [error.field]: [message("invalid", error.message)] });
        throw error;
      }
    },
  );

  /**
   * POST /api/test-support/v1/impersonations { admin, as } → 201 { id, url }: what the operator's
   * `npm run sessions -- impersonate` makes (decision 017), with a relative link.
   */
  r.post(
    "/impersonations",
    op(
      "What `npm run sessions -- impersonate` makes (decision 017), with a relative link (201)",
      '{ command: "impersonate", admin, as }',
    ),
    async (c) => {
      const { operatorCommand, OperatorError, runOperatorCommand } = await import("../identity/sessions/operator");
      const body = await jsonBody(c, operatorCommand);
      if (body.command !== "impersonate")
        throw new ApiError(400, { command: [message("invalid", "impersonate only")] });
      try {
        return c.json(await runOperatorCommand(c.get("db"), body, ""), 201);
      } catch (error) {
        if (error instanceof OperatorError) throw new ApiError(400, { "": [message("invalid", error.message)] });
        throw error;
      }
    },
  );

  /**
   * GET /api/test-support/v1/analytics-events?userId= → { data: [{ name, page, props }] }: what the
   * collector stored for one learner, oldest first (issue 16 item 8's server-side events).
   */
  r.get(
    "/analytics-events",
    op("What the analytics collector stored for one learner (?userId=), oldest first"),
    async (c) => {
      const [{ analyticsEvents }, { asc, eq }] = await Promise.all([import("../api/db/schema"), import("drizzle-orm")]);
      const userId = c.req.query("userId") ?? "";
      if (!/^[0-9a-f-]{36}$/.test(userId)) throw new ApiError(400, { userId: [message("invalid", "a user id")] });
      const rows = await c
        .get("db")
        .select({ name: analyticsEvents.name, page: analyticsEvents.page, props: analyticsEvents.props })
        .from(analyticsEvents)
        .where(eq(analyticsEvents.userId, userId))
        .orderBy(asc(analyticsEvents.createdAt));
      return c.json({ data: rows });
    },
  );

  /**
   * POST /api/test-support/v1/scorm-courses (or qti-courses, decision 068)?learner=ID&name=… with a zip as the
   * body → 201 { courseId, code, name }: a course of its own running the package, the learner enrolled and the
   * course started.
   */
  for (const kind of ["scorm", "qti"] as const)
    r.post(
      `/${kind}-courses`,
      op(
        `A course of its own running a ${kind === "scorm" ? "SCORM" : "QTI"} package (?learner=ID&name=…), the learner enrolled and the course started (201)`,
        "The package (a zip), streamed to disk as an import is",
        "application/zip",
      ),
      async (c) => {
        const [{ createScormCourse, createQtiCourse }, { fileStore }, { ScormPackageError }] = await Promise.all([
          import("./test-scorm-course"),
          import("../api/files/roots"),
          import("../api/scorm/manifest"),
        ]);
        const learnerId = c.req.query("learner") ?? "";
        const name = (c.req.query("name") ?? "").slice(0, 200);
        if (!/^[0-9a-f-]{36}$/.test(learnerId) || !name)
          throw new ApiError(400, { "": [message("invalid", "?learner=ID&name=…")] });
        try {
          const create = kind === "scorm" ? createScormCourse : createQtiCourse;
          const course = await create(c.get("db"), {
            learnerId,
            name,
            body: c.req.raw.body,
            store: fileStore(c.var.deps),
            now: c.get("now"),
          });
          return c.json(course, 201);
        } catch (error) {
          if (error instanceof ScormPackageError)
            throw new ApiError(400, { package: [message(error.code, error.message)] });
          throw error;
        }
      },
    );

  /**
   * GET /api/test-support/v1/scorm-attempts?learner=ID → { data: [{ scoId, attempt, state, totalCentis,
   * cmi, activityWorkflowState, score, passed }] }: what the database keeps of a learner's SCORM
   * attempts, for the browser tests that check it.
   */
  r.get(
    "/scorm-attempts",
    op("What the database keeps of a learner's SCORM attempts (?learner=ID), for the browser tests (issue 30)"),
    async (c) => {
      const [s, { eq }] = await Promise.all([import("../api/db/schema"), import("drizzle-orm")]);
      const learnerId = c.req.query("learner") ?? "";
      if (!/^[0-9a-f-]{36}$/.test(learnerId)) throw new ApiError(400, { learner: [message("invalid", "a user id")] });
      const rows = await c
        .get("db")
        .select({
          scoId: s.scormAttempts.scoId,
          attempt: s.scormAttempts.attempt,
          state: s.scormAttempts.state,
          totalCentis: s.scormAttempts.totalCentis,
          cmi: s.scormAttempts.cmi,
          activityWorkflowState: s.activityWorkflows.state,
          score: s.activityRecords.score,
          passed: s.activityRecords.passed,
        })
        .from(s.scormAttempts)
        .innerJoin(s.activityWorkflows, eq(s.activityWorkflows.id, s.scormAttempts.activityWorkflowId))
        .leftJoin(s.activityRecords, eq(s.activityRecords.activityWorkflowId, s.activityWorkflows.id))
        .where(eq(s.activityWorkflows.userId, learnerId));
      return c.json({ data: rows });
    },
  );

  /**
   * GET /api/test-support/v1/mail?to=<address> → { data: [{ kind, subject, text, sentAt }] }: the
   * e-mails to one address, newest first (issue 26: the sign-up and password-reset links the tests open).
   */
  r.get("/mail", op("The e-mails the outbox holds for one address (?to=), newest first"), async (c) => {
    const [{ mailOutbox }, { desc, sql }] = await Promise.all([import("../api/db/schema"), import("drizzle-orm")]);
    const to = (c.req.query("to") ?? "").trim().toLowerCase();
    if (!to || to.length > 254) throw new ApiError(400, { to: [message("invalid", "an e-mail address")] });
    const rows = await c
      .get("db")
      .select({ kind: mailOutbox.kind, subject: mailOutbox.subject, text: mailOutbox.text, sentAt: mailOutbox.sentAt })
      .from(mailOutbox)
      .where(sql`lower(${mailOutbox.to}) = ${to}`)
      .orderBy(desc(mailOutbox.createdAt));
    return c.json({ data: rows });
  });

  /**
   * POST /api/test-support/v1/learner-mail → { queued, sent }: one run of the learner mail jobs, and the
   * outbox emptied, now, instead of waiting for the next minute's run.
   */
  r.post("/learner-mail", op("One run of the learner mail jobs and the outbox now: { queued, sent }"), async (c) => {
    const [{ runLearnerMail }, { sendPendingMail }, { mailKey }] = await Promise.all([
      import("../api/jobs/learner-mail"),
      import("../api/mail/outbox"),
      import("../api/mail/preferences"),
    ]);
    const deps = c.get("deps");
    const appUrl = deps.appUrl ?? "http://localhost:3000";
    const queued = await runLearnerMail(c.get("db"), { appUrl, key: mailKey(deps.mailLinkKey) }, c.get("now"));
    // The whole outbox, not one run's 50: a suite's learners pile up reminders, and the newest (this
    // test's) would wait for the next minute's run behind them (a flaky 15 s wait in email-preferences).
    let sent = 0;
    for (let round = 0; round < 100; round++) {
      const now = await sendPendingMail(c.get("db"), { appUrl, dataDir: deps.dataDir, smtpUrl: deps.jobs?.smtpUrl });
      sent += now;
      if (now === 0) break;
    }
    return c.json({ queued, sent });
  });

  return r;
}
