import { Hono } from "hono";
import {
  ltiAuthAnswerSchema,
  ltiAuthRequestSchema,
  ltiResourceFormPathSchema,
  ltiResourceFormSchema,
  ltiResourceLinkBodySchema,
  ltiResourceLinkSchema,
} from "../../domain/contract/lti";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { ApiError, message } from "../errors";
import {
  authorize,
  createResourceLink,
  issueServiceToken,
  oauthError,
  platformKeys,
  tokenRequestSchema,
} from "../lti/platform";
import { registryOf } from "../lti/registry";
import { handleOutcome, resourceForm } from "../lti/lti11";
import { idParams, validJson, validParams } from "../validate";
import { limitWrites } from "../limit-writes";
import { operations } from "../openapi";

const op = operations("lti");
const MAX_SERVICE_BODY = 64 * 1024;

/** The learner's side of an LTI 1.3 launch (spec 7.5; issue 14 item 2), under /api/lms/v1. */
export function ltiLaunchRoutes() {
  const r = new Hono<ApiEnv>();
  r.use("/users/me/lti-authorizations", requireUser);
  r.use("/objective-workflows/:id/resource-link", requireUser);
  r.use("/objective-workflows/:id/resource-form/*", requireUser);
  r.use("/objective-workflows/:id/resource-link", limitWrites("command"));
  r.use("/users/me/lti-authorizations", limitWrites("command"));

  r.post(
    "/objective-workflows/:id/resource-link",
    op({
      summary:
        "Spec 7.5: start an LTI 1.3 launch of an activity of the learner's workflow: the tool's login initiation URL with the launch's parameters",
      response: ltiResourceLinkSchema,
    }),
    validParams(idParams),
    validJson(ltiResourceLinkBodySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const body = c.req.valid("json");
      const d = c.var.deps;
      return c.json(
        await createResourceLink(c.var.db, d, await registryOf(d), c.var.user, id, body.activityPathId, c.var.now),
      );
    },
  );

  // Spec 7.5: the signed LTI 1.1 launch form of a started activity (issue 14 item 3).
  r.get(
    "/objective-workflows/:id/resource-form/:awIds",
    op({
      summary: "Spec 7.5: the signed LTI 1.1 launch form of a started activity ({awIds}: its activity workflow ids)",
      response: ltiResourceFormSchema,
    }),
    validParams(ltiResourceFormPathSchema),
    async (c) => {
      const { id, awIds } = c.req.valid("param");
      const d = c.var.deps;
      const locale = (c.req.header("accept-language") ?? "en-US").split(",")[0]!.trim().slice(0, 35);
      return c.json(await resourceForm(c.var.db, d, await registryOf(d), c.var.user, id, awIds, locale, c.var.now));
    },
  );

  r.post(
    "/users/me/lti-authorizations",
    op({
      summary:
        "The signed-in learner's LTI 1.3 authentication response (LTI Core §5.1.1): every field of the tool's request checked, the id_token signed",
      response: ltiAuthAnswerSchema,
    }),
    validJson(ltiAuthRequestSchema),
    async (c) => {
      const body = c.req.valid("json");
      const d = c.var.deps;
      const locale = (c.req.header("accept-language") ?? "en-US").split(",")[0]!.trim().slice(0, 35);
      return c.json(await authorize(c.var.db, d, await registryOf(d), c.var.user, body, locale, c.var.now));
    },
  );
  return r;
}

/**
 * The platform's public LTI endpoints, under /api/lti/v1: keys, the
 * authorization without a session, the token endpoint, LTI 1.1 outcomes. The services a token opens
 * are in lti-ags.ts (AGS) and lti-nrps.ts (NRPS).
 */
export function ltiPlatformRoutes() {
  const r = new Hono<ApiEnv>();

  // The platform's public keys: the id_tokens' and service tokens' signatures (rotation with overlap).
  r.get(
    "/jwks",
    op({
      summary: "The platform's public keys: the id_tokens' and service tokens' signatures (rotation with overlap)",
      auth: "none",
    }),
    async (c) => {
      const { jwks } = await platformKeys(c.var.deps);
      c.header("Cache-Control", "public, max-age=300");
      return c.json(jwks);
    },
  );

  // The authentication request of a browser without a session (a frame on another site): the signed
  // launch hint authenticates it (decision 023).
  r.post(
    "/authorizations",
    op({
      summary:
        "The authentication request of a browser without a session (a frame on another site): the signed launch hint authenticates it (decision 023)",
      auth: "none",
      response: ltiAuthAnswerSchema,
    }),
    validJson(ltiAuthRequestSchema),
    async (c) => {
      const body = c.req.valid("json");
      const d = c.var.deps;
      const locale = (c.req.header("accept-language") ?? "en-US").split(",")[0]!.trim().slice(0, 35);
      return c.json(await authorize(c.var.db, d, await registryOf(d), null, body, locale, c.var.now));
    },
  );

  // OAuth 2 client credentials with a JWT assertion (Security Framework §4.1).
  r.post(
    "/token",
    op({
      summary:
        "OAuth 2 client credentials with a JWT client assertion (LTI Security Framework §4.1): a service token for the tool's scopes",
      auth: "none",
      body: {
        type: "application/x-www-form-urlencoded",
        description: "grant_type, client_assertion_type, client_assertion, scope (also as JSON)",
        schema: tokenRequestSchema,
      },
      errors: { 401: "invalid_client (an OAuth error body)" },
    }),
    async (c) => {
      const type = c.req.header("content-type") ?? "";
      let raw: Record<string, unknown>;
      if (type.startsWith("application/x-www-form-urlencoded"))
        raw = Object.fromEntries(new URLSearchParams(await c.req.text()));
      else if (type.startsWith("application/json")) {
        const json: unknown = await c.req.json().catch(() => ({}));
        // `null`, a number or an array is valid JSON but no token request.
        raw =
          json !== null && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
      } else throw oauthError(400, "invalid_request", "Send the token request as application/x-www-form-urlencoded.");
      const parsed = tokenRequestSchema.safeParse(raw);
      if (!parsed.success)
        throw oauthError(
          400,
          raw.grant_type && raw.grant_type !== "client_credentials" ? "unsupported_grant_type" : "invalid_request",
          "A client_credentials request with a JWT client assertion and a scope is required.",
        );
      const d = c.var.deps;
      return c.json(await issueServiceToken(c.var.db, d, await registryOf(d), parsed.data, c.var.now));
    },
  );

  // LTI 1.1 Basic Outcomes: a signed POX request from a 1.1 tool.
  r.post(
    "/outcomes",
    op({
      summary: "LTI 1.1 Basic Outcomes: a signed POX request from a 1.1 tool (replaceResult, readResult, deleteResult)",
      auth: "lti11Signature",
      body: { type: "application/xml", description: "The imsx_POXEnvelopeRequest" },
      answer: { type: "application/xml", description: "The imsx_POXEnvelopeResponse" },
    }),
    async (c) => {
      const text = await c.req.text();
      if (text.length > MAX_SERVICE_BODY)
        throw new ApiError(413, { "": [message("tooLarge", "The request body is too large.")] });
      const d = c.var.deps;
      const out = await handleOutcome(c.var.db, d, await registryOf(d), c.req.header("authorization"), text, c.var.now);
      return c.body(out.xml, out.status, { "Content-Type": "application/xml; charset=utf-8" });
    },
  );

  return r;
}
