import { Hono, type Context } from "hono";
import { z } from "zod";
import { LTI_MEDIA_TYPE, LTI_SCOPE } from "../../domain/lti";
import {
  ltiAuthAnswerSchema,
  ltiAuthRequestSchema,
  ltiContextPathSchema,
  ltiLineItemPathSchema,
  ltiLineItemsQuerySchema,
  ltiResourceFormPathSchema,
  ltiResourceFormSchema,
  ltiResourceLinkBodySchema,
  ltiResourceLinkSchema,
} from "../../domain/contract/lti";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { ApiError, message, zodErrors } from "../errors";
import { applyScore, lineItem, ownLineItem, scoreSchema, toolLineItems } from "../lti/grades";
import {
  appUrlOf,
  authorize,
  createResourceLink,
  issueServiceToken,
  oauthError,
  platformKeys,
  platformUrls,
  serviceCaller,
  tokenRequestSchema,
} from "../lti/platform";
import { registryOf } from "../lti/registry";
import { handleOutcome, resourceForm } from "../lti/lti11";
import { courseMembers, toolLinks } from "../queries/lti";
import { idParams, isUuid, validJson, validParams, validQuery } from "../validate";
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
        await createResourceLink(c.var.db, d, registryOf(d), c.var.user, id, body.activityPathId, c.var.now),
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
      return c.json(await resourceForm(c.var.db, d, registryOf(d), c.var.user, id, awIds, locale, c.var.now));
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
      return c.json(await authorize(c.var.db, d, registryOf(d), c.var.user, body, locale, c.var.now));
    },
  );
  return r;
}

/** A service body (JSON under an LTI media type), parsed and checked: 415/413/400, never a 500. */
async function serviceBody<T extends z.ZodTypeAny>(c: Context, mediaType: string, schema: T): Promise<z.infer<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!type.startsWith(mediaType) && !type.startsWith("application/json"))
    throw new ApiError(415, { "": [message("contentType", `Send the body as ${mediaType}.`)] });
  const text = await c.req.text();
  if (text.length > MAX_SERVICE_BODY)
    throw new ApiError(413, { "": [message("tooLarge", "The request body is too large.")] });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError(400, { "": [message("invalidJson", "The body is not valid JSON.")] });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, zodErrors(parsed.error));
  return parsed.data;
}

/** The platform's public LTI endpoints (issue 14 items 2 and 4), under /api/lti/v1. */
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
      return c.json(await authorize(c.var.db, d, registryOf(d), null, body, locale, c.var.now));
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
      else if (type.startsWith("application/json"))
        raw = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
      else throw oauthError(400, "invalid_request", "Send the token request as application/x-www-form-urlencoded.");
      const parsed = tokenRequestSchema.safeParse(raw);
      if (!parsed.success)
        throw oauthError(
          400,
          raw.grant_type && raw.grant_type !== "client_credentials" ? "unsupported_grant_type" : "invalid_request",
          "A client_credentials request with a JWT client assertion and a scope is required.",
        );
      const d = c.var.deps;
      return c.json(await issueServiceToken(c.var.db, d, registryOf(d), parsed.data, c.var.now));
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
      const out = await handleOutcome(c.var.db, d, registryOf(d), c.req.header("authorization"), text, c.var.now);
      return c.body(out.xml, out.status, { "Content-Type": "application/xml; charset=utf-8" });
    },
  );

  const contextUrl = (c: Context<ApiEnv>, contextId: string) =>
    `${platformUrls(appUrlOf(c.var.deps)).grading}/contexts/${contextId}`;
  const caller = (c: Context<ApiEnv>, scopes: string[]) =>
    Promise.any(
      scopes.map((s) => serviceCaller(c.var.deps, registryOf(c.var.deps), c.req.header("authorization"), s, c.var.now)),
    ).catch((e: AggregateError) => {
      throw e.errors[0];
    });

  // AGS §3.2: the tool's line items in a course (filter by resource_link_id).
  r.get(
    "/grading/contexts/:contextId/line-items",
    op({
      summary: "AGS §3.2: the tool's line items in a course (filter by resource_link_id)",
      auth: "ltiService",
      answer: { type: LTI_MEDIA_TYPE.lineItems, description: "The line items" },
    }),
    validParams(ltiContextPathSchema),
    validQuery(ltiLineItemsQuerySchema),
    async (c) => {
      const { contextId } = c.req.valid("param");
      const tool = await caller(c, [LTI_SCOPE.lineItemReadOnly, LTI_SCOPE.lineItem]);
      const items = await toolLineItems(c.var.db, tool, contextId, contextUrl(c, contextId));
      const link = c.req.valid("query").resource_link_id;
      c.header("Content-Type", LTI_MEDIA_TYPE.lineItems);
      return c.body(JSON.stringify(link ? items.filter((i) => i.resourceLinkId === link) : items));
    },
  );

  r.get(
    "/grading/contexts/:contextId/line-items/:partId",
    op({
      summary: "AGS: one line item of the tool's",
      auth: "ltiService",
      answer: { type: LTI_MEDIA_TYPE.lineItem, description: "The line item" },
    }),
    validParams(ltiLineItemPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const tool = await caller(c, [LTI_SCOPE.lineItemReadOnly, LTI_SCOPE.lineItem]);
      const link = await ownLineItem(c.var.db, tool, p.contextId, p.partId);
      c.header("Content-Type", LTI_MEDIA_TYPE.lineItem);
      return c.body(JSON.stringify(lineItem(link, contextUrl(c, p.contextId))));
    },
  );

  // AGS §3.4: a score from the tool becomes the learner's activity record.
  r.post(
    "/grading/contexts/:contextId/line-items/:partId/scores",
    op({
      summary: "AGS §3.4: a score from the tool becomes the learner's activity record",
      auth: "ltiService",
      body: {
        type: LTI_MEDIA_TYPE.score,
        description: "The score (read after the tool is authenticated)",
        schema: scoreSchema,
      },
      answer: { status: 204, description: "Recorded" },
    }),
    validParams(ltiLineItemPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const tool = await caller(c, [LTI_SCOPE.score]);
      const link = await ownLineItem(c.var.db, tool, p.contextId, p.partId);
      const score = await serviceBody(c, LTI_MEDIA_TYPE.score, scoreSchema);
      if (!isUuid(score.userId))
        throw new ApiError(404, { userId: [message("notFound", "No such learner in this course.")] });
      await applyScore(c.var.db, link, score, c.var.now);
      return c.body(null, 204);
    },
  );

  // NRPS 2.0: the course's members, for the tools of the course.
  r.get(
    "/grading/contexts/:contextId/memberships",
    op({
      summary: "NRPS 2.0: the course's members, for the tools of the course",
      auth: "ltiService",
      answer: { type: LTI_MEDIA_TYPE.memberships, description: "The membership container" },
      errors: { 403: "The tool has no resource link in this course (ltiOtherDeployment)" },
    }),
    validParams(ltiContextPathSchema),
    async (c) => {
      const { contextId } = c.req.valid("param");
      const tool = await caller(c, [LTI_SCOPE.memberships]);
      const db = c.var.db;
      const [links, members] = await Promise.all([toolLinks(db, contextId, tool.key), courseMembers(db, contextId)]);
      if (links.length === 0)
        throw new ApiError(403, {
          "": [message("ltiOtherDeployment", "The tool has no resource link in this course.")],
        });
      c.header("Content-Type", LTI_MEDIA_TYPE.memberships);
      return c.body(
        JSON.stringify({
          id: `${contextUrl(c, contextId)}/memberships`,
          context: { id: contextId },
          members: members.map((m) => ({
            status: "Active",
            user_id: m.id,
            name: `${m.firstName} ${m.lastName}`.trim(),
            given_name: m.firstName,
            family_name: m.lastName,
            email: m.email,
            roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
          })),
        }),
      );
    },
  );

  return r;
}
