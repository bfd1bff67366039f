/**
 * LTI 1.1 (issue 14 item 3, decision 023): the basic launch signed with OAuth 1.0a HMAC-SHA1
 * (`oauth-sign`, the signer `request` used), and Basic Outcomes 1.1 (replaceResult, readResult,
 * deleteResult) whose POX bodies arrive signed with an `oauth_body_hash`.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { XMLParser } from "fast-xml-parser";
import { jwtVerify, SignJWT } from "jose";
import { hmacsign } from "oauth-sign";
import { customParameters, documentTarget, personalParameters } from "../../domain/lti";
import { ActivityKind, ProctoringSessionState } from "../../domain/vocabulary";
import type { ApiDeps, Principal } from "../context";
import type { Db } from "../db/client";
import { ApiError, message, notFound } from "../errors";
import { activityRecords, ltiResults } from "../db/schema";
import { activityWorkflowPart, ownWorkflow } from "../queries/workflows";
import { launchPerson, learnerStanding, resourceLink, useOnce } from "../queries/lti";
import { activityWorkflowSession } from "../queries/proctoring";
import { and, eq } from "drizzle-orm";
import { applyScore } from "./grades";
import { appUrlOf, platformKeys } from "./platform";
import type { LtiRegistry, LtiTool } from "./registry";

const SOURCEDID_AUDIENCE = "urn:learner-app:lti11-sourcedid";
/** How far a signed request's oauth_timestamp may be from the platform's clock. */
const CLOCK_SKEW_SECONDS = 300;

const outcomesUrl = (appUrl: string) => `${appUrl}/api/lti/v1/outcomes`;

/**
 * Signs parameters for a POST to `url` (RFC 5849 §3.4): the URL's own query parameters are part of
 * the base string; the consumer secret and an empty token secret key the HMAC.
 */
export function signOAuth(
  url: string,
  params: Record<string, string>,
  tool: { consumerKey: string; secret: string },
  now: Date,
  nonce = randomBytes(16).toString("hex"),
): Record<string, string> {
  const u = new URL(url);
  const query = Object.fromEntries(u.searchParams);
  u.search = "";
  u.hash = "";
  const oauth = {
    ...params,
    oauth_consumer_key: tool.consumerKey,
    oauth_signature_method: "HMAC-SHA1",
    oauth_timestamp: String(Math.floor(now.getTime() / 1000)),
    oauth_nonce: nonce,
    oauth_version: "1.0",
  };
  const signature = hmacsign("POST", u.toString(), { ...query, ...oauth }, tool.secret, "");
  return { ...oauth, oauth_signature: signature };
}

/** Checks an OAuth 1.0a HMAC-SHA1 signature, in constant time. */
export function signatureValid(url: string, params: Record<string, string>, secret: string): boolean {
  const { oauth_signature: given, ...rest } = params;
  if (!given || rest.oauth_signature_method !== "HMAC-SHA1") return false;
  const u = new URL(url);
  const query = Object.fromEntries(u.searchParams);
  u.search = "";
  const expected = Buffer.from(hmacsign("POST", u.toString(), { ...query, ...rest }, secret, ""));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Spec 7.5 `GET objective-workflows/{id}/resource-form/{activityWorkflowIds}`: the signed LTI 1.1
 * launch form of one started activity of the learner's attempt.
 */
export async function resourceForm(
  db: Db,
  deps: ApiDeps,
  registry: LtiRegistry,
  user: Principal,
  workflowId: string,
  activityWorkflowIds: string,
  locale: string,
  now: Date,
) {
  const ids = activityWorkflowIds.split(",");
  if (ids.length !== 1 || !/^[0-9a-f-]{36}$/i.test(ids[0]!))
    throw new ApiError(400, {
      activityWorkflowIds: [message("invalid", "One activity workflow id (uuid) is required.")],
    });
  const wf = await ownWorkflow(db, user.id, workflowId);
  const partId = await activityWorkflowPart(db, wf.id, ids[0]!);
  if (!partId) throw notFound("activity workflow");
  const link = await resourceLink(db, wf.objectiveId, partId);
  if (!link || link.activity.kind !== ActivityKind.lti) throw notFound("LTI activity");
  const tool = registry.byKey(String((link.activity.content as { tool?: unknown }).tool ?? ""));
  if (!tool || tool.version !== "1.1" || !tool.consumerKey || !tool.secret)
    throw new ApiError(409, {
      "": [message("ltiToolNotRegistered", "This activity's tool is not registered for LTI 1.1 launches.")],
    });
  // Spec 4.8: a proctored activity launches only inside its sitting (a session in progress).
  if (link.activity.proctored) {
    const sitting = await activityWorkflowSession(db, user.id, wf.id, ids[0]!);
    if (sitting?.session?.state !== ProctoringSessionState.inProgress)
      throw new ApiError(409, {
        "": [message("proctoringRequired", "This activity is launched inside its proctored sitting only.")],
      });
  }
  const appUrl = appUrlOf(deps);
  const [key, person] = await Promise.all([platformKeys(deps), launchPerson(db, tool.privacy, user.id)]);
  const params: Record<string, string> = {
    lti_message_type: "basic-lti-launch-request",
    lti_version: "LTI-1p0",
    resource_link_id: link.part.id,
    resource_link_title: link.activity.name,
    user_id: user.id,
    roles: "Learner",
    context_id: link.objective.id,
    context_title: link.objective.name,
    context_label: link.objective.code,
    launch_presentation_locale: locale,
    launch_presentation_document_target: documentTarget(link.objective.displayMode),
    launch_presentation_return_url: `${appUrl}/learn/courses/${link.objective.id}/workflow/${wf.id}/view`,
    tool_consumer_info_product_family_code: "learner-app",
    tool_consumer_instance_guid: new URL(appUrl).host,
    // The person, as far as the tool's privacy level allows (issue 52 item 6).
    ...(person ? personalParameters(tool.privacy, person) : {}),
  };
  // LTI 1.1 §4.4: custom parameters as custom_<name>, the name lower-cased, other characters as "_".
  const custom = customParameters((link.activity.content as { custom?: unknown }).custom, {
    userId: user.id,
    context: { id: link.objective.id, title: link.objective.name, label: link.objective.code },
    resourceLink: { id: link.part.id, title: link.activity.name },
  });
  for (const [name, value] of Object.entries(custom))
    params[`custom_${name.toLowerCase().replace(/[^a-z0-9]/g, "_")}`] = value;
  if (link.activity.supportLtiGrading) {
    params.lis_outcome_service_url = outcomesUrl(appUrl);
    params.lis_result_sourcedid = await new SignJWT({ part: link.part.id, ctx: link.objective.id, tool: tool.key })
      .setProtectedHeader({ alg: "RS256", kid: key.current.kid })
      .setSubject(user.id)
      .setAudience(SOURCEDID_AUDIENCE)
      .sign(key.current.privateKey);
  }
  return {
    action: tool.launchUrl,
    fields: signOAuth(tool.launchUrl, params, { consumerKey: tool.consumerKey, secret: tool.secret }, now),
    formAction: [tool.launchUrl],
  };
}

/** `OAuth k="v", …` → { k: v } (RFC 5849 §3.5.1). */
function authorizationParams(header: string | undefined): Record<string, string> | null {
  if (!header || !/^OAuth\s/i.test(header)) return null;
  const out: Record<string, string> = {};
  for (const m of header.slice(6).matchAll(/([\w-]+)="([^"]*)"/g)) {
    try {
      if (m[1] !== "realm") out[m[1]!] = decodeURIComponent(m[2]!);
    } catch {
      return null;
    }
  }
  return out;
}

const xml = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false });

function poxResponse(
  messageId: string,
  operation: string,
  major: "success" | "failure" | "unsupported",
  description: string,
  body = "",
) {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<imsx_POXEnvelopeResponse xmlns="http://www.imsglobal.org/services/ltiv1p1/xsd/imsoms_v1p0">` +
    `<imsx_POXHeader><imsx_POXResponseHeaderInfo><imsx_version>V1.0</imsx_version>` +
    `<imsx_messageIdentifier>${randomBytes(8).toString("hex")}</imsx_messageIdentifier>` +
    `<imsx_statusInfo><imsx_codeMajor>${major}</imsx_codeMajor><imsx_severity>status</imsx_severity>` +
    `<imsx_description>${esc(description)}</imsx_description>` +
    `<imsx_messageRefIdentifier>${esc(messageId)}</imsx_messageRefIdentifier>` +
    `<imsx_operationRefIdentifier>${esc(operation)}</imsx_operationRefIdentifier></imsx_statusInfo>` +
    `</imsx_POXResponseHeaderInfo></imsx_POXHeader><imsx_POXBody>${body}</imsx_POXBody></imsx_POXEnvelopeResponse>`
  );
}

/**
 * Basic Outcomes 1.1: a signed POX request (the body's SHA-1 in `oauth_body_hash`, a fresh nonce, a
 * timestamp within five minutes, the consumer's secret); the sourcedid names the learner, the course
 * and the activity, and only the tool it was given to may use it. Refusals are 401/400 with a POX
 * failure body; nothing changes.
 */
export async function handleOutcome(
  db: Db,
  deps: ApiDeps,
  registry: LtiRegistry,
  authorization: string | undefined,
  body: string,
  now: Date,
): Promise<{ status: 200 | 400 | 401 | 404 | 409; xml: string }> {
  const oauth = authorizationParams(authorization);
  const fail = (status: 400 | 401 | 404 | 409, text: string, id = "", op = "") => ({
    status,
    xml: poxResponse(id, op, "failure", text),
  });
  if (!oauth) return fail(401, "An OAuth 1.0a Authorization header is required.");
  const tool: LtiTool | null = registry.byConsumerKey(oauth.oauth_consumer_key ?? "");
  if (!tool?.secret) return fail(401, "Unknown consumer key.");
  if (!signatureValid(outcomesUrl(appUrlOf(deps)), oauth, tool.secret)) return fail(401, "Invalid signature.");
  const hash = createHash("sha1").update(body).digest("base64");
  if (oauth.oauth_body_hash !== hash) return fail(401, "The body does not match oauth_body_hash.");
  if (Math.abs(Number(oauth.oauth_timestamp) - now.getTime() / 1000) > CLOCK_SKEW_SECONDS)
    return fail(401, "The request's timestamp is too old or in the future.");
  if (!oauth.oauth_nonce || !(await useOnce(db, "oauth-nonce", tool.consumerKey!, oauth.oauth_nonce, now)))
    return fail(401, "This nonce was used before.");

  // A POX message has no use for a document type: its entities are refused before the parser sees them.
  if (/<!DOCTYPE/i.test(body))
    return fail(400, "The body declares a document type (DOCTYPE), which POX has no use for.");
  let doc: Record<string, unknown>;
  try {
    doc = xml.parse(body) as Record<string, unknown>;
  } catch {
    return fail(400, "The body is not XML.");
  }
  const env = doc.imsx_POXEnvelopeRequest as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  const messageId = String(env?.imsx_POXHeader?.imsx_POXRequestHeaderInfo?.imsx_messageIdentifier ?? "");
  const poxBody = (env?.imsx_POXBody ?? {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const operation = Object.keys(poxBody)[0] ?? "";
  const request = poxBody[operation] as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!["replaceResultRequest", "readResultRequest", "deleteResultRequest"].includes(operation) || !request)
    return { status: 200, xml: poxResponse(messageId, operation, "unsupported", "This operation is not supported.") };
  const sourcedId = String(request.resultRecord?.sourcedGUID?.sourcedId ?? "");
  let claims: { sub?: string; part?: unknown; ctx?: unknown; tool?: unknown };
  try {
    ({ payload: claims } = await jwtVerify(sourcedId, (await platformKeys(deps)).verify, {
      audience: SOURCEDID_AUDIENCE,
    }));
  } catch {
    return fail(400, "Unknown lis_result_sourcedid.", messageId, operation);
  }
  if (claims.tool !== tool.key) return fail(401, "This sourcedid was given to another tool.", messageId, operation);
  const link = await resourceLink(db, String(claims.ctx), String(claims.part));
  if (!link) return fail(404, "The activity no longer exists.", messageId, operation);
  const userId = String(claims.sub);

  if (operation === "replaceResultRequest") {
    const text = String(request.resultRecord?.result?.resultScore?.textString ?? "").trim();
    const value = Number(text);
    if (!text || !Number.isFinite(value) || value < 0 || value > 1)
      return fail(400, "The score must be a number from 0.0 to 1.0.", messageId, operation);
    try {
      await applyScore(
        db,
        tool,
        link,
        {
          userId,
          scoreGiven: value,
          scoreMaximum: 1,
          activityProgress: "Completed",
          gradingProgress: "FullyGraded",
          timestamp: now.toISOString(),
        },
        now,
      );
    } catch (err) {
      // The reason in the POX answer (no attempt; an attempt already submitted; the activity never opened).
      if (err instanceof ApiError)
        return fail(
          err.status === 409 ? 409 : 404,
          Object.values(err.errors)[0]?.[0]?.message ?? "The learner has no attempt in progress.",
          messageId,
          operation,
        );
      throw err;
    }
    return {
      status: 200,
      xml: poxResponse(messageId, operation, "success", `Score ${value} recorded.`, "<replaceResultResponse/>"),
    };
  }
  const standing = await learnerStanding(db, userId, link.objective.id, link.part.id);
  if (operation === "deleteResultRequest") {
    if (standing?.rec)
      await db.update(activityRecords).set({ score: null }).where(eq(activityRecords.id, standing.rec.id));
    // The result kept for AGS readers goes too (decision 041).
    await db.delete(ltiResults).where(and(eq(ltiResults.lineItemId, link.part.id), eq(ltiResults.userId, userId)));
    return {
      status: 200,
      xml: poxResponse(messageId, operation, "success", "Score deleted.", "<deleteResultResponse/>"),
    };
  }
  const rec = standing?.rec;
  const score = rec?.score != null && rec.maxScore ? String(rec.score / rec.maxScore) : "";
  return {
    status: 200,
    xml: poxResponse(
      messageId,
      operation,
      "success",
      "Result read.",
      `<readResultResponse><result><resultScore><language>en</language><textString>${score}</textString></resultScore></result></readResultResponse>`,
    ),
  };
}
