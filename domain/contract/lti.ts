import type { DisplayMode } from "../vocabulary";

/** Spec 7.5 `POST objective-workflows/{id}/resource-link` (issue 14 item 2). */
export interface LtiResourceLink {
  /** The tool's third-party login initiation URL with the launch's parameters: the page opens it. */
  targetLinkUri: string;
  activityWorkflowId: string;
  toolOrigin: string;
  displayMode: DisplayMode;
  /**
   * Where the browser may be sent from the page that opens the tool (its CSP `form-action`): the
   * tool's login initiation URL and the platform's own authorization endpoint, to which the tool's
   * login redirects (a browser checks `form-action` on every redirect after a form submission).
   */
  formAction: string[];
}

/** The OIDC authentication request a tool sends the platform (LTI Core 1.3 §5.1.1), as the app relays it. */
export interface LtiAuthRequest {
  scope: string;
  response_type: string;
  response_mode: string;
  prompt: string;
  client_id: string;
  redirect_uri: string;
  login_hint: string;
  lti_message_hint: string;
  nonce: string;
  state?: string;
}

/** The authentication response the browser posts to the tool (`form_post`). */
export interface LtiAuthAnswer {
  action: string;
  fields: { id_token: string; state?: string };
  /** The tool's registered redirect URIs: where the id_token's form and the tool's redirects after it may go. */
  formAction: string[];
}

/** Spec 7.5 `GET objective-workflows/{id}/resource-form/{activityWorkflowIds}`: a signed LTI 1.1 launch. */
export interface LtiResourceForm {
  action: string;
  /** The launch parameters with their OAuth 1.0a HMAC-SHA1 signature. */
  fields: Record<string, string>;
  /** The tool's launch URL (its CSP `form-action`; a redirect after it stays on the tool's origin). */
  formAction: string[];
}
