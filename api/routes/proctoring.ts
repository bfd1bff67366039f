import { Hono } from "hono";
import { SignJWT, jwtVerify } from "jose";
import { randomUUID } from "node:crypto";
import { proctorLocked } from "../../domain/proctoring";
import {
  proctoringSessionSchema,
  startTokenQuerySchema,
  type ProctoringSession,
} from "../../domain/contract/proctoring";
import { activityWorkflowPathSchema } from "../../domain/contract/lifecycle";
import type { ApiEnv } from "../context";
import type { proctoringSessions } from "../db/schema";
import { requireUser } from "../auth";
import { ApiError, message, notFound } from "../errors";
import { appUrlOf, platformKeys } from "../lti/platform";
import {
  activityWorkflowSession,
  completeProctoringSession,
  lastProctoringSessionOf,
  startProctoringSession,
} from "../queries/proctoring";
import { activityWorkflowPart, ownWorkflow } from "../queries/workflows";
import { idParams, validParams, validQuery } from "../validate";
import { limitWrites } from "../limit-writes";
import { operations } from "../openapi";

const op = operations("proctoring");
/** The audience of start tokens: what an external proctoring service checks (with the platform's JWKS). */
const PROCTORING_AUDIENCE = "urn:learner-app:proctoring";
const START_TOKEN_SECONDS = 300;

const toSession = (s: typeof proctoringSessions.$inferSelect): ProctoringSession => ({
  id: s.id,
  state: s.state,
  created: s.created.toISOString(),
  completed: s.completed?.toISOString() ?? null,
});

const locked = () =>
  new ApiError(409, { "": [message("proctoringLocked", "The proctored sitting of this attempt is over.")] });

export function proctoringRoutes() {
  const r = new Hono<ApiEnv>();
  const base = "/users/me/objective-workflows/:id/activity-workflows/:awId";
  for (const p of ["last-proctoring-session", "start-token", "proctoring-sessions"]) r.use(`${base}/${p}`, requireUser);
  r.use(`${base}/proctoring-sessions`, limitWrites("command"));

  // Spec 7.5: the last proctoring session of one of the learner's activity workflows; 404 when none.
  r.get(
    `${base}/last-proctoring-session`,
    op({
      summary:
        "The last proctoring session of one of the learner's activity workflows (state 1 created, 2 in progress, 3 completed, 4 reviewed); 404 when there is none",
      response: proctoringSessionSchema,
    }),
    validParams(activityWorkflowPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const row = await activityWorkflowSession(c.var.db, c.var.user.id, p.id, p.awId);
      if (!row) throw notFound("activity workflow");
      if (!row.session) throw notFound("proctoring session");
      return c.json(toSession(row.session));
    },
  );

  // Spec 7.5 start-token (issue 14 item 8): a 5-minute RS256 token naming the learner, attempt and
  // activity, which an external proctoring service verifies with the platform's JWKS.
  r.get(
    `${base}/start-token`,
    op({
      summary:
        "A 5-minute RS256 start token naming the learner, attempt and activity, for an external proctoring service (verified with /api/lti/v1/jwks); 409 once the attempt is proctor-locked",
      errors: { 409: "The proctored sitting of this attempt is over (proctoringLocked)" },
    }),
    validParams(activityWorkflowPathSchema),
    validQuery(startTokenQuerySchema),
    async (c) => {
      const p = c.req.valid("param");
      const q = c.req.valid("query");
      const db = c.var.db;
      const wf = await ownWorkflow(db, c.var.user.id, p.id);
      const [partId, last] = await Promise.all([
        activityWorkflowPart(db, wf.id, p.awId),
        lastProctoringSessionOf(db, wf.id),
      ]);
      if (!partId) throw notFound("activity workflow");
      if (q.activityPathId && q.activityPathId !== partId)
        throw new ApiError(400, {
          activityPathId: [message("invalid", "The activity is not the one of this activity workflow.")],
        });
      if (proctorLocked({ workflow: wf, session: last })) throw locked();
      const key = await platformKeys(c.var.deps);
      const now = Math.floor(c.var.now.getTime() / 1000);
      const token = await new SignJWT({ ow: wf.id, aw: p.awId, activityPathId: partId, objectiveId: wf.objectiveId })
        .setProtectedHeader({ alg: "RS256", kid: key.current.kid, typ: "JWT" })
        .setIssuer(appUrlOf(c.var.deps))
        .setSubject(c.var.user.id)
        .setAudience(PROCTORING_AUDIENCE)
        .setJti(randomUUID())
        .setIssuedAt(now)
        .setExpirationTime(now + START_TOKEN_SECONDS)
        .sign(key.current.privateKey);
      return c.json({
        token,
        expiresAt: new Date((now + START_TOKEN_SECONDS) * 1000).toISOString(),
        jwksUri: `${appUrlOf(c.var.deps)}/api/lti/v1/jwks`,
      });
    },
  );

  // Issue 14 item 8: the wrapper starts the proctored sitting (created → in progress); idempotent while
  // one is in progress; refused once the attempt is proctor-locked (decision 024).
  r.post(
    `${base}/proctoring-sessions`,
    op({
      summary:
        "The proctoring wrapper starts the sitting (created → in progress); idempotent while one is in progress (decision 024)",
      response: proctoringSessionSchema,
      errors: { 409: "The proctored sitting of this attempt is over (proctoringLocked)" },
    }),
    validParams(activityWorkflowPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const user = c.var.user;
      const now = c.var.now;
      const session = await c.var.db.transaction(async (tx) => {
        const wf = await ownWorkflow(tx, user.id, p.id, true);
        const [row, last] = await Promise.all([
          activityWorkflowSession(tx, user.id, wf.id, p.awId),
          lastProctoringSessionOf(tx, wf.id),
        ]);
        if (!row) throw notFound("activity workflow");
        if (proctorLocked({ workflow: wf, session: last })) throw locked();
        return startProctoringSession(tx, user.id, p.awId, row.session, now);
      });
      return c.json(toSession(session));
    },
  );

  return r;
}

/**
 * The proctoring service's side (issue 14 item 8), under /api/proctoring/v1: it ends a sitting with
 * the start token it was given (signature, audience and learner checked; a token that expired since
 * is still accepted for ending the sitting it started, for up to 12 hours).
 */
export function proctoringServiceRoutes() {
  const r = new Hono<ApiEnv>();
  r.post(
    "/sessions/:id/complete",
    op({
      summary:
        "The proctoring service ends a sitting with the start token it was given (signature, audience and learner checked; an expired token still ends its own sitting for 12 hours)",
      auth: "proctoringToken",
      response: proctoringSessionSchema,
      errors: { 409: "The session is not in progress (proctoringNotInProgress)" },
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const token = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
      if (!token) throw new ApiError(401, { "": [message("proctoringToken", "A start token is required.")] });
      const key = await platformKeys(c.var.deps);
      let claims: { sub?: string; aw?: unknown; ow?: unknown };
      try {
        ({ payload: claims } = await jwtVerify(token, key.verify, {
          audience: PROCTORING_AUDIENCE,
          issuer: appUrlOf(c.var.deps),
          currentDate: c.var.now,
          clockTolerance: 12 * 3600,
        }));
      } catch {
        throw new ApiError(401, { "": [message("proctoringToken", "The start token is invalid.")] });
      }
      const db = c.var.db;
      const row = await activityWorkflowSession(db, String(claims.sub), String(claims.ow), String(claims.aw));
      if (!row?.session || row.session.id !== id) throw notFound("proctoring session");
      const done = await completeProctoringSession(db, id, c.var.now);
      if (!done)
        throw new ApiError(409, { "": [message("proctoringNotInProgress", "The session is not in progress.")] });
      return c.json(toSession(done));
    },
  );
  return r;
}
