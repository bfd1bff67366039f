/**
 * Assignment and Grade Services 2.0 under /api/lti/v1/grading (issue 14 item 4, issue 32 item 3;
 * decisions 023, 041): a course's line-items container (§3.2: GET with filters and paging, POST), a
 * line item (GET, PUT, DELETE of the tool's own), its scores (§3.4) and its results (§3.3). Every call
 * carries a bearer token from the token endpoint naming the tool and its scopes.
 */
import { Hono } from "hono";
import { LTI_MEDIA_TYPE, LTI_SCOPE } from "../../domain/lti";
import type { ApiEnv } from "../context";
import { ApiError, message } from "../errors";
import {
  applyScore,
  applyToolItemScore,
  createLineItem,
  deleteLineItem,
  lineItemJson,
  lineItemResults,
  lineItemSchema,
  ownLineItem,
  scoreSchema,
  toolLineItems,
  updateLineItem,
} from "../lti/grades";
import { contextUrl, offsetPage, serviceBody, serviceTool } from "../lti/service-calls";
import { isUuid, validParams, validQuery } from "../validate";
import { operations } from "../openapi";
import {
  ltiContextPathSchema,
  ltiLineItemPathSchema,
  ltiLineItemsQuerySchema,
  ltiResultsQuerySchema,
} from "../../domain/contract/lti";

const op = operations("lti");
const ITEM = { type: LTI_MEDIA_TYPE.lineItem, description: "The line item" };
const READ = [LTI_SCOPE.lineItemReadOnly, LTI_SCOPE.lineItem];
/** A query filter: at most 500 characters, like the line item's own fields. */
const filter = (v: string | undefined) => (v === undefined ? undefined : v.slice(0, 500));

export function ltiAgsRoutes() {
  const r = new Hono<ApiEnv>();
  const base = "/grading/contexts/:contextId/line-items";

  // §3.2.4: the line items the tool may see, filtered by resource_link_id, resource_id and tag, paged
  // by limit and page with a Link header.
  r.get(
    base,
    op({
      summary: "AGS §3.2.4: the line items the tool may see, filtered and paged (Link header)",
      auth: "ltiService",
      answer: { type: LTI_MEDIA_TYPE.lineItems, description: "The line items" },
    }),
    validParams(ltiContextPathSchema),
    validQuery(ltiLineItemsQuerySchema),
    async (c) => {
      const { contextId } = c.req.valid("param");
      const tool = await serviceTool(c, READ);
      const items = await toolLineItems(c.var.db, tool, contextId, contextUrl(c, contextId), {
        resourceLinkId: filter(c.req.query("resource_link_id")),
        resourceId: filter(c.req.query("resource_id")),
        tag: filter(c.req.query("tag")),
      });
      const { page, link } = offsetPage(c, items);
      if (link) c.header("Link", link);
      c.header("Content-Type", LTI_MEDIA_TYPE.lineItems);
      return c.body(JSON.stringify(page));
    },
  );

  // §3.2.5: the tool makes a line item (201 with it, and its URL in Location).
  r.post(
    base,
    op({
      summary: "AGS §3.2.5: the tool makes a line item (201 with it, its URL in Location)",
      auth: "ltiService",
      body: {
        type: LTI_MEDIA_TYPE.lineItem,
        description: "The line item (read after the tool is authenticated)",
        schema: lineItemSchema,
      },
      answer: { status: 201, ...ITEM },
    }),
    validParams(ltiContextPathSchema),
    async (c) => {
      const { contextId } = c.req.valid("param");
      const tool = await serviceTool(c, [LTI_SCOPE.lineItem]);
      const body = await serviceBody(c, LTI_MEDIA_TYPE.lineItem, lineItemSchema);
      const item = await createLineItem(c.var.db, tool, contextId, body);
      const json = lineItemJson({ kind: "tool", item }, contextUrl(c, contextId));
      // eslint-disable-next-line local/redirect-targets -- a 201's Location: the new line item's own URL on this API, not a redirect
      c.header("Location", json.id);
      c.header("Content-Type", LTI_MEDIA_TYPE.lineItem);
      return c.body(JSON.stringify(json), 201);
    },
  );

  r.get(
    `${base}/:lineItemId`,
    op({ summary: "AGS: one line item the tool may see", auth: "ltiService", answer: ITEM }),
    validParams(ltiLineItemPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const tool = await serviceTool(c, READ);
      const own = await ownLineItem(c.var.db, tool, p.contextId, p.lineItemId);
      c.header("Content-Type", LTI_MEDIA_TYPE.lineItem);
      return c.body(JSON.stringify(lineItemJson(own, contextUrl(c, p.contextId))));
    },
  );

  // §3.2.6–3.2.8: a line item the tool made is updated or deleted; the platform's own are refused (403).
  r.put(
    `${base}/:lineItemId`,
    op({
      summary: "AGS §3.2.6: the tool updates a line item it made (the platform's own: 403)",
      auth: "ltiService",
      body: {
        type: LTI_MEDIA_TYPE.lineItem,
        description: "The line item (read after the tool is authenticated)",
        schema: lineItemSchema,
      },
      answer: ITEM,
      errors: { 403: "A line item of the platform's own" },
    }),
    validParams(ltiLineItemPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const tool = await serviceTool(c, [LTI_SCOPE.lineItem]);
      const own = await ownLineItem(c.var.db, tool, p.contextId, p.lineItemId);
      const body = await serviceBody(c, LTI_MEDIA_TYPE.lineItem, lineItemSchema);
      const item = await updateLineItem(c.var.db, own, body);
      c.header("Content-Type", LTI_MEDIA_TYPE.lineItem);
      return c.body(JSON.stringify(lineItemJson({ kind: "tool", item }, contextUrl(c, p.contextId))));
    },
  );

  r.delete(
    `${base}/:lineItemId`,
    op({
      summary: "AGS §3.2.8: the tool deletes a line item it made (the platform's own: 403)",
      auth: "ltiService",
      answer: { status: 204, description: "Deleted" },
      errors: { 403: "A line item of the platform's own" },
    }),
    validParams(ltiLineItemPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const tool = await serviceTool(c, [LTI_SCOPE.lineItem]);
      await deleteLineItem(c.var.db, await ownLineItem(c.var.db, tool, p.contextId, p.lineItemId));
      return c.body(null, 204);
    },
  );

  // §3.4: a score. On a resource link's line item it becomes the learner's activity record; on one the
  // tool made, the learner's result there.
  r.post(
    `${base}/:lineItemId/scores`,
    op({
      summary:
        "AGS §3.4: a score; on a resource link's line item it becomes the learner's activity record, on one the tool made the learner's result there",
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
      const tool = await serviceTool(c, [LTI_SCOPE.score]);
      const own = await ownLineItem(c.var.db, tool, p.contextId, p.lineItemId);
      const score = await serviceBody(c, LTI_MEDIA_TYPE.score, scoreSchema);
      if (!isUuid(score.userId))
        throw new ApiError(404, { userId: [message("notFound", "No such learner in this course.")] });
      if (own.kind === "link") await applyScore(c.var.db, tool, own.link, score, c.var.now);
      else await applyToolItemScore(c.var.db, tool, own.item, score, c.var.now);
      return c.body(null, 204);
    },
  );

  // §3.3: the results of a line item, by user_id, paged by limit and page with a Link header.
  r.get(
    `${base}/:lineItemId/results`,
    op({
      summary: "AGS §3.3: the results of a line item, by user_id, paged (Link header)",
      auth: "ltiService",
      answer: { type: LTI_MEDIA_TYPE.results, description: "The results" },
    }),
    validParams(ltiLineItemPathSchema),
    validQuery(ltiResultsQuerySchema),
    async (c) => {
      const p = c.req.valid("param");
      const tool = await serviceTool(c, [LTI_SCOPE.resultReadOnly]);
      const own = await ownLineItem(c.var.db, tool, p.contextId, p.lineItemId);
      const userId = c.req.query("user_id");
      const url = lineItemJson(own, contextUrl(c, p.contextId)).id;
      const results = userId !== undefined && !isUuid(userId) ? [] : await lineItemResults(c.var.db, own, url, userId);
      const { page, link } = offsetPage(c, results);
      if (link) c.header("Link", link);
      c.header("Content-Type", LTI_MEDIA_TYPE.results);
      return c.body(JSON.stringify(page));
    },
  );

  return r;
}
