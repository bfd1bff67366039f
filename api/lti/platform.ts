/**
 * The LTI 1.3 platform (decision 023): its URLs and keys, the resource-link
 * launch (third-party login initiation), the authentication request that answers with a signed
 * id_token, and the OAuth 2 client-credentials tokens of the services.
 */
import { createLocalJWKSet, createRemoteJWKSet, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from "jose";
import type { LtiAuthAnswer, LtiAuthRequest } from "../../domain/contract/lti";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { customParameters, launchClaims, LTI_SCOPE, personalClaims } from "../../domain/lti";
import { ActivityKind, ProctoringSessionState, type DisplayMode } from "../../domain/vocabulary";
import type { ApiDeps, Principal } from "../context";
import { credentialKey } from "../credentials";
import type { Db } from "../db/client";
import { ApiError, message, notFound } from "../errors";
import { publicJwk } from "../runtime";
import { startActivityWorkflows } from "../commands/workflows";
import { ownWorkflow } from "../queries/workflows";
import { launchPerson, resourceLink, useOnce } from "../queries/lti";
import { activityWorkflowSession } from "../queries/proctoring";
import type { LtiRegistry, LtiTool } from "./registry";

const MESSAGE_HINT_AUDIENCE = "urn:learner-app:lti-message-hint";
const SERVICES_AUDIENCE = "urn:learner-app:lti-services";
/** How long a launch's hint, an id_token and a service token live. */
const HINT_SECONDS = 600;
const ID_TOKEN_SECONDS = 300;
const ACCESS_TOKEN_SECONDS = 3600;

export function platformUrls(appUrl: string) {
  return {
    issuer: appUrl,
    authorize: `${appUrl}/learn/lti/authorize`,
    jwks: `${appUrl}/api/lti/v1/jwks`,
    token: `${appUrl}/api/lti/v1/token`,
    grading: `${appUrl}/api/lti/v1/grading`,
  };
}

const refuse = (status: number, field: string, code: string, text: string) =>
  new ApiError(status, { [field]: [message(code, text)] });

/** The platform's keys: the current one signs; it and the one kept after a rotation are published. */
export async function platformKeys(deps: ApiDeps) {
  const current = await credentialKey(deps.signingKey);
  const previous = (deps.previousSigningKeys ?? []).map((k) => ({ ...publicJwk(k), alg: "RS256", use: "sig" }));
  const keys: JWK[] = [current.publicJwk, ...previous];
  return { current, jwks: { keys }, verify: createLocalJWKSet({ keys }) };
}

/** The tool's own keys, by its JWKS URL (cached by jose) or its one registered public key. */
const remoteSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function toolKeys(tool: LtiTool) {
  if (tool.publicJwk) {
    const jwk = tool.publicJwk as JWK;
    return async () => importJWK(jwk, (jwk.alg as string | undefined) ?? "RS256");
  }
  let set = remoteSets.get(tool.jwksUrl!);
  if (!set) {
    set = createRemoteJWKSet(new URL(tool.jwksUrl!), { timeoutDuration: 5000 });
    remoteSets.set(tool.jwksUrl!, set);
  }
  return set;
}

export interface ResourceLinkAnswer {
  /** The tool's login-initiation URL with the launch's parameters: the page opens it. */
  targetLinkUri: string;
  activityWorkflowId: string;
  toolOrigin: string;
  displayMode: DisplayMode;
  /** The page's CSP form-action: the tool's login, then the platform's authorize endpoint it redirects to. */
  formAction: string[];
}

/**
 * Spec 7.5 `POST objective-workflows/{id}/resource-link`: starts the activity (spec 4.4) and returns
 * the third-party login initiation (LTI Core §4.1) for it, with a short-lived signed hint that binds
 * the launch to this learner, attempt, activity and tool.
 */
export async function createResourceLink(
  db: Db,
  deps: ApiDeps,
  registry: LtiRegistry,
  user: Principal,
  workflowId: string,
  partId: string,
  now: Date,
): Promise<ResourceLinkAnswer> {
  const wf = await ownWorkflow(db, user.id, workflowId);
  const link = await resourceLink(db, wf.objectiveId, partId);
  if (!link || link.activity.kind !== ActivityKind.lti) throw notFound("LTI activity");
  const tool = registry.byKey(String((link.activity.content as { tool?: unknown }).tool ?? ""));
  if (!tool || tool.version !== "1.3" || !tool.loginUrl)
    throw refuse(409, "", "ltiToolNotRegistered", "This activity's tool is not registered for LTI 1.3 launches.");
  const started = await db.transaction(async (tx) => {
    const done = await startActivityWorkflows(tx, user, wf.id, [partId], now);
    // Spec 4.8: a proctored activity launches only inside its sitting (a session in progress), never
    // from the course page; the refusal undoes the start.
    if (link.activity.proctored) {
      const sitting = await activityWorkflowSession(tx, user.id, wf.id, done.activityWorkflows[0]!.id);
      if (sitting?.session?.state !== ProctoringSessionState.inProgress)
        throw refuse(409, "", "proctoringRequired", "This activity is launched inside its proctored sitting only.");
    }
    return done;
  });
  const aw = started.activityWorkflows[0]!;
  const key = await platformKeys(deps);
  const urls = platformUrls(appUrlOf(deps));
  const hint = await new SignJWT({ ow: wf.id, part: partId, tool: tool.key })
    .setProtectedHeader({ alg: "RS256", kid: key.current.kid })
    .setJti(randomUUID())
    .setSubject(user.id)
    .setAudience(MESSAGE_HINT_AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(now.getTime() / 1000) + HINT_SECONDS)
    .sign(key.current.privateKey);
  const login = new URL(tool.loginUrl);
  login.searchParams.set("iss", urls.issuer);
  login.searchParams.set("login_hint", user.id);
  login.searchParams.set("target_link_uri", tool.launchUrl);
  login.searchParams.set("lti_message_hint", hint);
  login.searchParams.set("client_id", tool.clientId!);
  login.searchParams.set("lti_deployment_id", tool.deploymentId!);
  return {
    targetLinkUri: login.toString(),
    activityWorkflowId: aw.id,
    toolOrigin: new URL(tool.launchUrl).origin,
    displayMode: link.objective.displayMode,
    formAction: [tool.loginUrl, urls.authorize],
  };
}

export const appUrlOf = (deps: ApiDeps) => deps.appUrl ?? "http://localhost:3000";

/** LTI Core §4.1.1 / OIDC: the authentication request the tool redirects the learner's browser with. */
export type AuthRequest = LtiAuthRequest;

/**
 * The authentication response (LTI Core §5.1.1, Security Framework §5.1.1.3): every field of the
 * request is checked — client, registered redirect URI, the hint bound to this learner, a nonce
 * never seen before — then the id_token is signed with the platform's key.
 */
export async function authorize(
  db: Db,
  deps: ApiDeps,
  registry: LtiRegistry,
  /** The signed-in learner; null when the browser brought no session (see below). */
  signedIn: Pick<Principal, "id"> | null,
  req: AuthRequest,
  locale: string,
  now: Date,
): Promise<LtiAuthAnswer> {
  if (req.scope.split(" ").indexOf("openid") < 0)
    throw refuse(400, "scope", "ltiInvalidRequest", "scope must include openid.");
  if (req.response_type !== "id_token")
    throw refuse(400, "response_type", "ltiInvalidRequest", "response_type must be id_token.");
  if (req.response_mode !== "form_post")
    throw refuse(400, "response_mode", "ltiInvalidRequest", "response_mode must be form_post.");
  if (req.prompt !== "none") throw refuse(400, "prompt", "ltiInvalidRequest", "prompt must be none.");
  const tool = registry.byClientId(req.client_id);
  if (!tool) throw refuse(400, "client_id", "ltiUnknownClient", "No tool is registered with this client id.");
  if (!tool.redirectUris.includes(req.redirect_uri))
    throw refuse(400, "redirect_uri", "ltiRedirectUri", "This redirect URI is not registered for the tool.");
  if (signedIn && req.login_hint !== signedIn.id)
    throw refuse(403, "login_hint", "ltiWrongLearner", "This launch was started by another learner.");
  // Without a session (a tool in a frame on another site: the browser keeps the SameSite=Lax session
  // cookie from the redirect back), the launch's own signed hint — made for this learner, this tool,
  // ten minutes, used once — is what authenticates the request (decision 023).
  const user = signedIn ?? { id: req.login_hint };
  const key = await platformKeys(deps);
  let hint: JWTPayload;
  try {
    ({ payload: hint } = await jwtVerify(req.lti_message_hint, key.verify, {
      audience: MESSAGE_HINT_AUDIENCE,
      subject: user.id,
      currentDate: now,
    }));
  } catch {
    throw refuse(400, "lti_message_hint", "ltiLaunchExpired", "This launch has expired: open the activity again.");
  }
  if (hint.tool !== tool.key)
    throw refuse(400, "lti_message_hint", "ltiInvalidRequest", "This launch was made for another tool.");
  const [wf, person] = await Promise.all([
    ownWorkflow(db, user.id, String(hint.ow)),
    launchPerson(db, tool.privacy, user.id),
  ]);
  const link = await resourceLink(db, wf.objectiveId, String(hint.part));
  if (!link) throw notFound("LTI activity");
  if (!(await useOnce(db, "nonce", tool.clientId!, req.nonce, now)))
    throw refuse(400, "nonce", "ltiReplay", "This nonce was used before.");
  if (!hint.jti || !(await useOnce(db, "hint", tool.clientId!, hint.jti, now)))
    throw refuse(400, "lti_message_hint", "ltiLaunchExpired", "This launch was used already: open the activity again.");
  const urls = platformUrls(appUrlOf(deps));
  const graded = link.activity.supportLtiGrading;
  const contextUrl = `${urls.grading}/contexts/${link.objective.id}`;
  const claims = launchClaims({
    issuer: urls.issuer,
    clientId: tool.clientId!,
    deploymentId: tool.deploymentId!,
    userId: user.id,
    nonce: req.nonce,
    targetLinkUri: tool.launchUrl,
    resourceLink: { id: link.part.id, title: link.activity.name },
    context: { id: link.objective.id, title: link.objective.name, label: link.objective.code },
    displayMode: link.objective.displayMode,
    size: { width: link.activity.preferredWidth, height: link.activity.preferredHeight },
    returnUrl: `${appUrlOf(deps)}/learn/courses/${link.objective.id}/workflow/${wf.id}/view`,
    locale,
    custom: customParameters((link.activity.content as { custom?: unknown }).custom, {
      userId: user.id,
      context: { id: link.objective.id, title: link.objective.name, label: link.objective.code },
      resourceLink: { id: link.part.id, title: link.activity.name },
    }),
    lineItems: {
      lineItems: `${contextUrl}/line-items`,
      lineItem: graded ? `${contextUrl}/line-items/${link.part.id}` : null,
    },
    membershipsUrl: `${contextUrl}/memberships`,
    platform: { guid: new URL(urls.issuer).host, name: "Learner app" },
    person: person ? personalClaims(tool.privacy, person) : {},
  });
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const idToken = await new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: key.current.kid, typ: "JWT" })
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ID_TOKEN_SECONDS)
    .sign(key.current.privateKey);
  return {
    action: req.redirect_uri,
    fields: { id_token: idToken, ...(req.state ? { state: req.state } : {}) },
    formAction: [...new Set([req.redirect_uri, ...tool.redirectUris])],
  };
}

export const tokenRequestSchema = z.object({
  grant_type: z.literal("client_credentials"),
  client_assertion_type: z.literal("urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
  client_assertion: z.string().min(1).max(8000),
  scope: z.string().min(1).max(1000),
});

/**
 * The token endpoint (Security Framework §4.1, RFC 7523): a client assertion signed by the tool's
 * registered key (iss = sub = client id, aud = this endpoint, a jti never seen before), scopes limited
 * to the services a tool may use; the answer is a signed bearer token naming the tool.
 */
export async function issueServiceToken(
  db: Db,
  deps: ApiDeps,
  registry: LtiRegistry,
  body: z.infer<typeof tokenRequestSchema>,
  now: Date,
) {
  const urls = platformUrls(appUrlOf(deps));
  let clientId: string;
  try {
    const unverified = JSON.parse(Buffer.from(body.client_assertion.split(".")[1] ?? "", "base64url").toString());
    clientId = String(unverified.iss ?? "");
  } catch {
    throw oauthError(400, "invalid_client", "The client assertion is not a JWT.");
  }
  const tool = registry.byClientId(clientId);
  if (!tool) throw oauthError(401, "invalid_client", "No tool is registered with this client id.");
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(body.client_assertion, toolKeys(tool), {
      issuer: clientId,
      subject: clientId,
      audience: urls.token,
      currentDate: now,
      requiredClaims: ["exp", "jti"],
    }));
  } catch {
    throw oauthError(401, "invalid_client", "The client assertion is not signed by the tool's key or has expired.");
  }
  if (!(await useOnce(db, "jti", clientId, String(payload.jti), now)))
    throw oauthError(401, "invalid_client", "This client assertion was used before.");
  const allowed = new Set<string>(Object.values(LTI_SCOPE));
  const scopes = body.scope.split(" ").filter((s) => allowed.has(s));
  if (scopes.length === 0) throw oauthError(400, "invalid_scope", "None of the requested scopes is offered.");
  const key = await platformKeys(deps);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({ scope: scopes.join(" "), client_id: clientId })
    .setProtectedHeader({ alg: "RS256", kid: key.current.kid, typ: "at+jwt" })
    .setIssuer(urls.issuer)
    .setSubject(clientId)
    .setAudience(SERVICES_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ACCESS_TOKEN_SECONDS)
    .sign(key.current.privateKey);
  return { access_token: token, token_type: "Bearer", expires_in: ACCESS_TOKEN_SECONDS, scope: scopes.join(" ") };
}

/** RFC 6749 §5.2 error answers of the token endpoint. */
export function oauthError(status: 400 | 401, error: string, description: string) {
  return new ApiError(status, { "": [message(error, description)] }, error);
}

/** The tool a service call comes from, by its bearer token; 401 without a valid one, 403 without the scope. */
export async function serviceCaller(
  deps: ApiDeps,
  registry: LtiRegistry,
  authorization: string | undefined,
  scope: string,
  now: Date,
) {
  const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
  if (!token) throw refuse(401, "", "ltiToken", "A bearer token from the LTI token endpoint is required.");
  const key = await platformKeys(deps);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key.verify, {
      issuer: platformUrls(appUrlOf(deps)).issuer,
      audience: SERVICES_AUDIENCE,
      currentDate: now,
    }));
  } catch {
    throw refuse(401, "", "ltiToken", "The bearer token is invalid or has expired.");
  }
  const tool = registry.byClientId(String(payload.sub));
  if (!tool) throw refuse(401, "", "ltiToken", "The tool of this token is no longer registered.");
  if (
    !String(payload.scope ?? "")
      .split(" ")
      .includes(scope)
  )
    throw refuse(403, "", "ltiScope", "The token does not grant this service.");
  return tool;
}
