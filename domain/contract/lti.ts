import { z } from "zod";
import { DisplayMode, enumValues } from "../vocabulary";

/** Spec 7.5 `POST objective-workflows/{id}/resource-link` (issue 14 item 2): the activity to launch. */
export const ltiResourceLinkBodySchema = z.object({ activityPathId: z.uuid() });

/** The answer: where the page sends the learner to start the launch. */
export const ltiResourceLinkSchema = z.object({
  /** The tool's third-party login initiation URL with the launch's parameters: the page opens it. */
  targetLinkUri: z.string(),
  activityWorkflowId: z.string(),
  toolOrigin: z.string(),
  displayMode: z.literal(enumValues(DisplayMode)),
  /**
   * Where the browser may be sent from the page that opens the tool (its CSP `form-action`): the
   * tool's login initiation URL and the platform's own authorization endpoint, to which the tool's
   * login redirects (a browser checks `form-action` on every redirect after a form submission).
   */
  formAction: z.array(z.string()),
});
export type LtiResourceLink = z.infer<typeof ltiResourceLinkSchema>;

/** The OIDC authentication request a tool sends the platform (LTI Core 1.3 §5.1.1), as the app relays it. */
export const ltiAuthRequestSchema = z.object({
  scope: z.string().max(200),
  response_type: z.string().max(50),
  response_mode: z.string().max(50),
  prompt: z.string().max(50),
  client_id: z.string().min(1).max(200),
  redirect_uri: z.string().min(1).max(2000),
  login_hint: z.string().min(1).max(200),
  lti_message_hint: z.string().min(1).max(4000),
  nonce: z.string().min(1).max(500),
  state: z.string().max(2000).optional(),
});
export type LtiAuthRequest = z.infer<typeof ltiAuthRequestSchema>;

/** The authentication response the browser posts to the tool (`form_post`). */
export const ltiAuthAnswerSchema = z.object({
  /** Where the form posts (the registered redirect URI). */
  action: z.string(),
  fields: z.object({ id_token: z.string(), state: z.string().optional() }),
  /** The tool's registered redirect URIs: where the id_token's form and the tool's redirects after it may go. */
  formAction: z.array(z.string()),
});
export type LtiAuthAnswer = z.infer<typeof ltiAuthAnswerSchema>;

/** Spec 7.5 `GET objective-workflows/{id}/resource-form/{activityWorkflowIds}`: the path's ids. */
export const ltiResourceFormPathSchema = z.object({ id: z.uuid(), awIds: z.string().max(400) });

/** The signed LTI 1.1 launch. */
export const ltiResourceFormSchema = z.object({
  action: z.string(),
  /** The launch parameters with their OAuth 1.0a HMAC-SHA1 signature. */
  fields: z.record(z.string(), z.string()),
  /** The tool's launch URL (its CSP `form-action`; a redirect after it stays on the tool's origin). */
  formAction: z.array(z.string()),
});
export type LtiResourceForm = z.infer<typeof ltiResourceFormSchema>;

/** `grading/contexts/{contextId}/…` of the LTI services (AGS, NRPS): a course. */
export const ltiContextPathSchema = z.object({ contextId: z.uuid() });
/** `…/line-items/{lineItemId}`: one line item (a resource link's, or one the tool made). */
export const ltiLineItemPathSchema = ltiContextPathSchema.extend({ lineItemId: z.uuid() });
/** AGS paging (`limit`, `page`), read by the service with a `Link` header for the next page. */
const ltiPageQuery = { limit: z.string().optional(), page: z.string().optional() };
/** AGS §3.2.4: the line items, filtered by resource link, resource and tag (each at most 500 characters). */
export const ltiLineItemsQuerySchema = z.object({
  resource_link_id: z.string().optional(),
  resource_id: z.string().optional(),
  tag: z.string().optional(),
  ...ltiPageQuery,
});
/** AGS §3.3: the results of a line item, of one user or all. */
export const ltiResultsQuerySchema = z.object({ user_id: z.string().optional(), ...ltiPageQuery });
/** NRPS 2.0: the membership by role, paged (`limit`, `after`), its differences (`since`), of a resource link (`rlid`). */
export const ltiMembershipQuerySchema = z.object({
  role: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  after: z.uuid().optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  rlid: z.string().max(200).optional(),
});
