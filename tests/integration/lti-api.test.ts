import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createLocalJWKSet, decodeJwt, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from "jose";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createLtiCourse } from "../fixtures/lti";
import * as s from "../../api/db/schema";
import { ActivityContentType, ActivityWorkflowState } from "../../domain/vocabulary";
import { LTI_CLAIM, LTI_MEDIA_TYPE, LTI_SCOPE } from "../../domain/lti";
import type { LtiTool } from "../../api/lti/registry";
import { signatureValid } from "../../api/lti/lti11";
import { createHash } from "node:crypto";
import { hmacsign, rfc3986 } from "oauth-sign";

/** The LTI 1.3 launch, the token endpoint, AGS and NRPS, and their refusals. */
const APP = "https://lms.example";
let t: TestApi;
let tenantId: string;
const keys: Record<string, CryptoKey> = {};

async function tool(key: string): Promise<LtiTool> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  keys[key] = privateKey;
  const jwk: JWK = { ...(await exportJWK(publicKey)), alg: "RS256", kid: key };
  return {
    key,
    name: key,
    version: "1.3",
    clientId: `${key}-client`,
    deploymentId: `${key}-deployment`,
    loginUrl: `https://${key}.test/login`,
    launchUrl: `https://${key}.test/launch`,
    publicJwk: jwk,
    redirectUris: [`https://${key}.test/launch`],
    domains: [],
    ...(key === "lab"
      ? { sandbox: "allow-same-origin allow-popups", allow: "camera 'self'", privacy: "name" as const }
      : {}),
  };
}

const QUIZ: LtiTool = {
  key: "quiz",
  name: "Quiz",
  version: "1.1",
  launchUrl: "https://quiz.test/lti",
  redirectUris: [],
  domains: [],
  consumerKey: "quiz-key",
  secret: "quiz-secret",
};

beforeAll(async () => {
  const tools = [await tool("lab"), await tool("other"), QUIZ];
  t = await createTestApi({ appUrl: APP, lti: { tools } });
  [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
});
afterAll(() => t.close());

const post = async (path: string, body: unknown, user = "ada") =>
  t.request("POST", `/api/lms/v1/${path}`, { token: await t.token(user), body, headers: { Prefer: "respond-sync" } });

/** A course with one LTI activity of `toolKey` (graded by the tool), ada's attempt in progress. */
const ltiCourse = (toolKey = "lab", contentType: ActivityContentType = ActivityContentType.Lti13) =>
  createLtiCourse(t, tenantId, toolKey, contentType);

/** The login initiation's parameters, then the authentication request a tool would send. */
async function launch(c: Awaited<ReturnType<typeof ltiCourse>>, toolKey = "lab") {
  const res = await post(`objective-workflows/${c.wfId}/resource-link`, { activityPathId: c.partId });
  expect(res.status).toBe(200);
  const body = await res.json();
  const login = new URL(body.targetLinkUri);
  const authRequest = {
    scope: "openid",
    response_type: "id_token",
    response_mode: "form_post",
    prompt: "none",
    client_id: login.searchParams.get("client_id")!,
    redirect_uri: `https://${toolKey}.test/launch`,
    login_hint: login.searchParams.get("login_hint")!,
    lti_message_hint: login.searchParams.get("lti_message_hint")!,
    nonce: crypto.randomUUID(),
    state: "s-1",
  };
  return { body, login, authRequest };
}

async function platformJwks() {
  const res = await t.request("GET", "/api/lti/v1/jwks");
  expect(res.status).toBe(200);
  return createLocalJWKSet(await res.json());
}

async function serviceToken(
  toolKey: string,
  scope: string,
  overrides: { aud?: string; exp?: number; jti?: string } = {},
) {
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: "RS256", kid: toolKey })
    .setIssuer(`${toolKey}-client`)
    .setSubject(`${toolKey}-client`)
    .setAudience(overrides.aud ?? `${APP}/api/lti/v1/token`)
    .setJti(overrides.jti ?? crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(overrides.exp ?? "5m")
    .sign(keys[toolKey]!);
  return t.request("POST", "/api/lti/v1/token", {
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: assertion,
      scope,
    }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

const score = (userId: string, given = 8) => ({
  userId,
  scoreGiven: given,
  scoreMaximum: 10,
  activityProgress: "Completed",
  gradingProgress: "FullyGraded",
  timestamp: new Date().toISOString(),
});

describe("LTI 1.3 resource-link launch (LTI Core 1.3 §4.1, §5.1)", () => {
  it("starts the activity and sends the tool's login initiation with a hint bound to the learner", async () => {
    const c = await ltiCourse();
    const { body, login } = await launch(c);
    expect(login.origin + login.pathname).toBe("https://lab.test/login");
    expect(login.searchParams.get("iss")).toBe(APP);
    expect(login.searchParams.get("login_hint")).toBe(t.users.ada);
    expect(login.searchParams.get("target_link_uri")).toBe("https://lab.test/launch");
    expect(login.searchParams.get("lti_deployment_id")).toBe("lab-deployment");
    // Where the launch page may send the browser — the login, then the platform's authorize endpoint.
    expect(body.formAction).toEqual(["https://lab.test/login", `${APP}/learn/lti/authorize`]);
    const [aw] = await t.database.db
      .select()
      .from(s.activityWorkflows)
      .where(eq(s.activityWorkflows.id, body.activityWorkflowId));
    expect(aw?.state).toBe(ActivityWorkflowState.inProgress);
  });

  it("answers a valid authentication request with an id_token signed by the published platform key", async () => {
    const c = await ltiCourse();
    const { authRequest } = await launch(c);
    const res = await post("users/me/lti-authorizations", authRequest);
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.action).toBe("https://lab.test/launch");
    expect(answer.fields.state).toBe("s-1");
    expect(answer.formAction).toEqual(["https://lab.test/launch"]);
    const { payload, protectedHeader } = await jwtVerify(answer.fields.id_token, await platformJwks(), {
      issuer: APP,
      audience: "lab-client",
    });
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload.sub).toBe(t.users.ada);
    // The tool's privacy level is "name": the names, not the e-mail address (issue 52 item 6).
    expect(payload).toMatchObject({ given_name: "Ada", family_name: "Lovelace" });
    expect(payload).not.toHaveProperty("email");
    expect(payload.nonce).toBe(authRequest.nonce);
    expect(payload[LTI_CLAIM.messageType]).toBe("LtiResourceLinkRequest");
    expect(payload[LTI_CLAIM.version]).toBe("1.3.0");
    expect(payload[LTI_CLAIM.deploymentId]).toBe("lab-deployment");
    expect(payload[LTI_CLAIM.targetLinkUri]).toBe("https://lab.test/launch");
    expect(payload[LTI_CLAIM.resourceLink]).toMatchObject({ id: c.partId });
    expect(payload[LTI_CLAIM.context]).toMatchObject({ id: c.objectiveId });
    expect(payload[LTI_CLAIM.roles]).toEqual(["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]);
    expect(payload[LTI_CLAIM.launchPresentation]).toMatchObject({ document_target: "iframe" });
    expect(payload[LTI_CLAIM.ags]).toMatchObject({
      lineitem: `${APP}/api/lti/v1/grading/contexts/${c.objectiveId}/line-items/${c.partId}`,
    });
    expect(payload[LTI_CLAIM.nrps]).toMatchObject({ service_versions: ["2.0"] });
    expect(Number(payload.exp) - Number(payload.iat)).toBeLessThanOrEqual(300);
  });

  it("refuses a reused nonce, an unregistered redirect URI, an unknown client and another learner", async () => {
    const c = await ltiCourse();
    const { authRequest } = await launch(c);
    expect((await post("users/me/lti-authorizations", authRequest)).status).toBe(200);
    const replay = await post("users/me/lti-authorizations", authRequest);
    expect(replay.status).toBe(400);
    expect((await replay.json()).errors.nonce[0].code).toBe("ltiReplay");
    const redirect = await post("users/me/lti-authorizations", {
      ...authRequest,
      nonce: crypto.randomUUID(),
      redirect_uri: "https://evil.test/launch",
    });
    expect(redirect.status).toBe(400);
    expect((await redirect.json()).errors.redirect_uri[0].code).toBe("ltiRedirectUri");
    const client = await post("users/me/lti-authorizations", { ...authRequest, nonce: "n2", client_id: "nobody" });
    expect(client.status).toBe(400);
    // Another learner cannot use ada's launch.
    const other = await post("users/me/lti-authorizations", { ...authRequest, nonce: "n3" }, "grace");
    expect(other.status).toBe(403);
    // A hint made for one tool is refused by another.
    const wrongTool = await post("users/me/lti-authorizations", {
      ...authRequest,
      nonce: "n4",
      client_id: "other-client",
      redirect_uri: "https://other.test/launch",
    });
    expect(wrongTool.status).toBe(400);
    // Garbled input: a clear 4xx.
    expect((await post("users/me/lti-authorizations", { scope: 1 })).status).toBe(400);
    expect((await post(`objective-workflows/${c.wfId}/resource-link`, { activityPathId: "x" })).status).toBe(400);
    expect(
      (await post(`objective-workflows/${c.wfId}/resource-link`, { activityPathId: crypto.randomUUID() })).status,
    ).toBe(404);
  });

  it("a launch hint is used once; without a session the hint authenticates, and nothing else does", async () => {
    const c = await ltiCourse();
    const { authRequest } = await launch(c);
    const anonymous = (body: unknown) =>
      t.request("POST", "/api/lti/v1/authorizations", { body, headers: { Prefer: "respond-sync" } });
    // Another learner's id as login_hint, or a forged hint: refused.
    expect((await anonymous({ ...authRequest, login_hint: t.users.grace })).status).toBe(400);
    expect((await anonymous({ ...authRequest, lti_message_hint: "a.b.c" })).status).toBe(400);
    const res = await anonymous(authRequest);
    expect(res.status).toBe(200);
    const { payload } = await jwtVerify((await res.json()).fields.id_token, await platformJwks(), {
      issuer: APP,
      audience: "lab-client",
    });
    expect(payload.sub).toBe(t.users.ada);
    // The same hint again (a fresh nonce), with or without a session: refused.
    const again = await post("users/me/lti-authorizations", { ...authRequest, nonce: crypto.randomUUID() });
    expect(again.status).toBe(400);
    expect((await again.json()).errors.lti_message_hint[0].code).toBe("ltiLaunchExpired");
    expect((await anonymous({ ...authRequest, nonce: crypto.randomUUID() })).status).toBe(400);
  });

  it("a proctored activity launches only inside its sitting (spec 4.8): 409 outside it, and nothing starts", async () => {
    const c = await ltiCourse();
    const db = t.database.db;
    await db.update(s.activities).set({ proctored: true }).where(eq(s.activities.id, c.activityId));
    const outside = await post(`objective-workflows/${c.wfId}/resource-link`, { activityPathId: c.partId });
    expect(outside.status).toBe(409);
    expect((await outside.json()).errors[""][0].code).toBe("proctoringRequired");
    const started = await db
      .select()
      .from(s.activityWorkflows)
      .where(
        and(eq(s.activityWorkflows.objectiveWorkflowId, c.wfId), eq(s.activityWorkflows.activityPartId, c.partId)),
      );
    expect(started.every((aw) => aw.state !== ActivityWorkflowState.inProgress)).toBe(true);
    // Inside a sitting (a session in progress), it launches.
    const [aw] = started.length
      ? started
      : await db
          .insert(s.activityWorkflows)
          .values({ objectiveWorkflowId: c.wfId, activityPartId: c.partId, userId: t.users.ada })
          .returning();
    const [session] = await db
      .insert(s.proctoringSessions)
      .values({ activityWorkflowId: aw!.id, userId: t.users.ada, state: 2, created: new Date() })
      .returning();
    await db
      .update(s.activityWorkflows)
      .set({ lastProctoringSessionId: session!.id })
      .where(eq(s.activityWorkflows.id, aw!.id));
    expect((await post(`objective-workflows/${c.wfId}/resource-link`, { activityPathId: c.partId })).status).toBe(200);
  });

  it("another learner's workflow is 404", async () => {
    const c = await ltiCourse();
    const res = await post(`objective-workflows/${c.wfId}/resource-link`, { activityPathId: c.partId }, "grace");
    expect(res.status).toBe(404);
  });
});

describe("Assignment and Grade Services: token endpoint, line items, scores (AGS 2.0)", () => {
  it("a tool's score becomes the learner's record and finishes the activity", async () => {
    const c = await ltiCourse();
    const { body } = await launch(c);
    const tokenRes = await serviceToken("lab", `${LTI_SCOPE.score} ${LTI_SCOPE.lineItemReadOnly}`);
    expect(tokenRes.status).toBe(200);
    const token = await tokenRes.json();
    expect(token).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    const base = `/api/lti/v1/grading/contexts/${c.objectiveId}/line-items`;
    const items = await t.request("GET", `${base}?resource_link_id=${c.partId}`, { token: token.access_token });
    expect(items.status).toBe(200);
    expect(items.headers.get("content-type")).toContain(LTI_MEDIA_TYPE.lineItems);
    expect(await items.json()).toEqual([
      expect.objectContaining({ id: `${APP}${base}/${c.partId}`, scoreMaximum: 10, resourceLinkId: c.partId }),
    ]);
    const before = t.database.queryCount();
    const res = await t.request("POST", `${base}/${c.partId}/scores`, {
      token: token.access_token,
      body: JSON.stringify(score(t.users.ada)),
      headers: { "Content-Type": LTI_MEDIA_TYPE.score },
    });
    expect(res.status).toBe(204);
    expect(t.database.queryCount() - before).toBeLessThan(15);
    const [rec] = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(eq(s.activityRecords.activityWorkflowId, body.activityWorkflowId));
    expect(rec).toMatchObject({ score: 8, maxScore: 10 });
    const [aw] = await t.database.db
      .select()
      .from(s.activityWorkflows)
      .where(eq(s.activityWorkflows.id, body.activityWorkflowId));
    expect(aw?.state).toBe(ActivityWorkflowState.finished);
  });

  it("refuses another deployment's line item, an expired token, a reused or forged assertion", async () => {
    const c = await ltiCourse();
    await launch(c);
    const base = `/api/lti/v1/grading/contexts/${c.objectiveId}/line-items/${c.partId}/scores`;
    const other = await (await serviceToken("other", LTI_SCOPE.score)).json();
    const res = await t.request("POST", base, {
      token: other.access_token,
      body: JSON.stringify(score(t.users.ada)),
      headers: { "Content-Type": LTI_MEDIA_TYPE.score },
    });
    expect(res.status).toBe(403);
    const recs = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(and(eq(s.activityRecords.activityPartId, c.partId)));
    expect(recs).toEqual([]);

    // A reused jti, a wrong audience, an assertion signed by another tool's key.
    const jti = crypto.randomUUID();
    expect((await serviceToken("lab", LTI_SCOPE.score, { jti })).status).toBe(200);
    expect((await serviceToken("lab", LTI_SCOPE.score, { jti })).status).toBe(401);
    expect((await serviceToken("lab", LTI_SCOPE.score, { aud: "https://elsewhere.test/token" })).status).toBe(401);
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer("lab-client")
      .setSubject("lab-client")
      .setAudience(`${APP}/api/lti/v1/token`)
      .setJti(crypto.randomUUID())
      .setExpirationTime("5m")
      .sign(keys.other!);
    const forgedRes = await t.request("POST", "/api/lti/v1/token", {
      body: `grant_type=client_credentials&client_assertion_type=${encodeURIComponent("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")}&client_assertion=${forged}&scope=${encodeURIComponent(LTI_SCOPE.score)}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(forgedRes.status).toBe(401);
    expect(
      (
        await t.request("POST", "/api/lti/v1/token", {
          body: "grant_type=password",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        })
      ).status,
    ).toBe(400);
    // JSON that is no object (the fuzz found `null` a 500): an OAuth error, never a crash.
    for (const body of ["null", "[]", "7", '"x"']) {
      const res = await t.request("POST", "/api/lti/v1/token", {
        body,
        headers: { "Content-Type": "application/json" },
      });
      expect(res.status, body).toBe(400);
      expect((await res.json()).title, body).toBe("invalid_request");
    }

    // An expired access token: the clock moves past its hour.
    const lab = await (await serviceToken("lab", LTI_SCOPE.score)).json();
    expect(decodeJwt(lab.access_token).sub).toBe("lab-client");
    t.setNow(new Date(Date.now() + 2 * 3600_000));
    try {
      const expired = await t.request("POST", base, {
        token: lab.access_token,
        body: JSON.stringify(score(t.users.ada)),
        headers: { "Content-Type": LTI_MEDIA_TYPE.score },
      });
      expect(expired.status).toBe(401);
    } finally {
      t.setNow(new Date());
    }
    // Garbled score bodies and a token without the score scope.
    const ok = await (await serviceToken("lab", LTI_SCOPE.score)).json();
    for (const bad of ["{", JSON.stringify({ userId: t.users.ada }), JSON.stringify({ ...score("not-a-user") })]) {
      const r = await t.request("POST", base, {
        token: ok.access_token,
        body: bad,
        headers: { "Content-Type": LTI_MEDIA_TYPE.score },
      });
      expect([400, 404]).toContain(r.status);
    }
    const readOnly = await (await serviceToken("lab", LTI_SCOPE.lineItemReadOnly)).json();
    const noScope = await t.request("POST", base, {
      token: readOnly.access_token,
      body: JSON.stringify(score(t.users.ada)),
      headers: { "Content-Type": LTI_MEDIA_TYPE.score },
    });
    expect(noScope.status).toBe(403);
    expect(
      await t.database.db.select().from(s.activityRecords).where(eq(s.activityRecords.activityPartId, c.partId)),
    ).toEqual([]);
  });

  it("NRPS lists the course's members for a tool of the course, and refuses another tool", async () => {
    const c = await ltiCourse();
    const lab = await (await serviceToken("lab", LTI_SCOPE.memberships)).json();
    const res = await t.request("GET", `/api/lti/v1/grading/contexts/${c.objectiveId}/memberships`, {
      token: lab.access_token,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.members.map((m: { user_id: string }) => m.user_id)).toContain(t.users.ada);
    const other = await (await serviceToken("other", LTI_SCOPE.memberships)).json();
    expect(
      (
        await t.request("GET", `/api/lti/v1/grading/contexts/${c.objectiveId}/memberships`, {
          token: other.access_token,
        })
      ).status,
    ).toBe(403);
  });
});

/** A Basic Outcomes request as a 1.1 tool sends it: POX body, oauth_body_hash, signed Authorization header. */
function outcomeRequest(
  operation: "replaceResult" | "readResult" | "deleteResult",
  sourcedId: string,
  opts: { score?: string; secret?: string; nonce?: string } = {},
) {
  const result =
    opts.score === undefined
      ? ""
      : `<result><resultScore><language>en</language><textString>${opts.score}</textString></resultScore></result>`;
  const body =
    `<?xml version="1.0" encoding="UTF-8"?><imsx_POXEnvelopeRequest xmlns="http://www.imsglobal.org/services/ltiv1p1/xsd/imsoms_v1p0">` +
    `<imsx_POXHeader><imsx_POXRequestHeaderInfo><imsx_version>V1.0</imsx_version><imsx_messageIdentifier>m1</imsx_messageIdentifier></imsx_POXRequestHeaderInfo></imsx_POXHeader>` +
    `<imsx_POXBody><${operation}Request><resultRecord><sourcedGUID><sourcedId>${sourcedId}</sourcedId></sourcedGUID>${result}</resultRecord></${operation}Request></imsx_POXBody></imsx_POXEnvelopeRequest>`;
  const oauth: Record<string, string> = {
    oauth_body_hash: createHash("sha1").update(body).digest("base64"),
    oauth_consumer_key: "quiz-key",
    oauth_nonce: opts.nonce ?? crypto.randomUUID(),
    oauth_signature_method: "HMAC-SHA1",
    oauth_timestamp: String(Math.floor(Date.now() / 1000)),
    oauth_version: "1.0",
  };
  oauth.oauth_signature = hmacsign("POST", `${APP}/api/lti/v1/outcomes`, oauth, opts.secret ?? "quiz-secret", "");
  const header = `OAuth ${Object.entries(oauth)
    .map(([k, v]) => `${k}="${rfc3986(v)}"`)
    .join(", ")}`;
  return t.request("POST", "/api/lti/v1/outcomes", {
    body,
    headers: { Authorization: header, "Content-Type": "application/xml" },
  });
}

describe("LTI 1.1 launch and Basic Outcomes (issue 14 item 3)", () => {
  async function launched11() {
    const c = await ltiCourse("quiz", ActivityContentType.Lti11);
    const started = await (
      await post("start-activity-workflows", { objectiveWorkflowId: c.wfId, activityPartIds: [c.partId] })
    ).json();
    const awId: string = started.data.activityWorkflows[0].id;
    const res = await t.request("GET", `/api/lms/v1/objective-workflows/${c.wfId}/resource-form/${awId}`, {
      token: await t.token("ada"),
    });
    expect(res.status).toBe(200);
    return { ...c, awId, form: (await res.json()) as { action: string; fields: Record<string, string> } };
  }

  it("signs the launch form with the consumer secret", async () => {
    const { form, partId } = await launched11();
    expect(form.action).toBe("https://quiz.test/lti");
    expect(form.fields).toMatchObject({
      lti_message_type: "basic-lti-launch-request",
      lti_version: "LTI-1p0",
      resource_link_id: partId,
      user_id: t.users.ada,
      roles: "Learner",
      oauth_consumer_key: "quiz-key",
      lis_outcome_service_url: `${APP}/api/lti/v1/outcomes`,
    });
    expect(signatureValid("https://quiz.test/lti", form.fields, "quiz-secret")).toBe(true);
  });

  it("replaceResult records the score, readResult reads it, deleteResult clears it", async () => {
    const { form, awId } = await launched11();
    const sourcedId = form.fields.lis_result_sourcedid!;
    const res = await outcomeRequest("replaceResult", sourcedId, { score: "0.85" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<imsx_codeMajor>success</imsx_codeMajor>");
    const [rec] = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(eq(s.activityRecords.activityWorkflowId, awId));
    expect(rec).toMatchObject({ score: 8.5, maxScore: 10 });
    const read = await (await outcomeRequest("readResult", sourcedId)).text();
    expect(read).toContain("<textString>0.85</textString>");
    expect((await outcomeRequest("deleteResult", sourcedId)).status).toBe(200);
    const [after] = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(eq(s.activityRecords.activityWorkflowId, awId));
    expect(after?.score).toBeNull();
  });

  it("refuses a forged signature, a replayed nonce, a garbled sourcedid or score; nothing changes", async () => {
    const { form, awId, wfId } = await launched11();
    const sourcedId = form.fields.lis_result_sourcedid!;
    expect((await outcomeRequest("replaceResult", sourcedId, { score: "1", secret: "guess" })).status).toBe(401);
    const nonce = crypto.randomUUID();
    expect((await outcomeRequest("readResult", sourcedId, { nonce })).status).toBe(200);
    expect((await outcomeRequest("replaceResult", sourcedId, { score: "1", nonce })).status).toBe(401);
    expect((await outcomeRequest("replaceResult", "garbage", { score: "1" })).status).toBe(400);
    expect((await outcomeRequest("replaceResult", sourcedId, { score: "7" })).status).toBe(400);
    expect((await t.request("POST", "/api/lti/v1/outcomes", { body: "<x/>" })).status).toBe(401);
    const recs = await t.database.db
      .select()
      .from(s.activityRecords)
      .where(eq(s.activityRecords.activityWorkflowId, awId));
    expect(recs).toEqual([]);
    // The form of another learner's workflow, or of an unknown activity workflow: 404; garbled ids: 400.
    const other = await t.request("GET", `/api/lms/v1/objective-workflows/${wfId}/resource-form/${awId}`, {
      token: await t.token("grace"),
    });
    expect(other.status).toBe(404);
    const garbled = await t.request("GET", `/api/lms/v1/objective-workflows/${wfId}/resource-form/x,y`, {
      token: await t.token("ada"),
    });
    expect(garbled.status).toBe(400);
  });
});

describe("the tool's frame (issue 14 item 5)", () => {
  it("gives an LTI activity's content its tool's allow and sandbox and the activity's preferred size", async () => {
    const c = await ltiCourse("lab");
    const [part] = await t.database.db.select().from(s.activityParts).where(eq(s.activityParts.id, c.partId));
    await t.database.db
      .update(s.activities)
      .set({ preferredWidth: 900, preferredHeight: 600 })
      .where(eq(s.activities.id, part!.activityId));
    const res = await t.request("GET", `/api/lms/v1/users/me/objective-workflows/${c.wfId}/activity-contents`, {
      token: await t.token("ada"),
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { content: { tool?: string }; frame: unknown }[] };
    expect(data.find((a) => a.content.tool === "lab")).toMatchObject({
      preferredWidth: 900,
      preferredHeight: 600,
      frame: { allow: "camera 'self'", sandbox: "allow-scripts allow-forms allow-same-origin allow-popups" },
    });
    // Activities that are not LTI have no frame.
    expect(data.filter((a) => !a.content.tool).every((a) => a.frame === null)).toBe(true);
    // A tool without its own policy: the defaults.
    const other = await ltiCourse("other");
    const plain = await t.request("GET", `/api/lms/v1/users/me/objective-workflows/${other.wfId}/activity-contents`, {
      token: await t.token("ada"),
    });
    const plainData = (await plain.json()).data as { content: { tool?: string }; frame: unknown }[];
    expect(plainData.find((a) => a.content.tool === "other")?.frame).toEqual({
      allow: "fullscreen; clipboard-write",
      sandbox: null,
    });
  });
});
