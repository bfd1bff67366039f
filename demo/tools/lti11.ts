/**
 * The demo LTI 1.1 tool (issue 14 item 7), under /demo-tools/lti11 only when the demo runs: it checks
 * the launch's OAuth 1.0a signature with its consumer secret and sends the learner's score back with
 * Basic Outcomes `replaceResult`, signed with an `oauth_body_hash`, over HTTP like any outside tool.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { hmacsign, rfc3986 } from "oauth-sign";

interface DemoTool11Options {
  consumerKey: string;
  secret: string;
  /** Where the tool is mounted, e.g. `${appUrl}/demo-tools/lti11`. */
  base: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;margin:1.5rem;line-height:1.5;color:#1a1a1a}` +
  `dt{font-weight:600}button{font:inherit;padding:.5rem 1rem}</style></head><body><main>${body}</main></body></html>`;

export function createDemoLti11Tool(o: DemoTool11Options) {
  const nonces = new Set<string>();
  const launches = new Map<
    string,
    { user: string; title: string; url: string; sourcedId: string; returnUrl: string }
  >();
  const app = new Hono();

  app.post("/launch", async (c) => {
    const form = (await c.req.parseBody()) as Record<string, string>;
    const { oauth_signature: given = "", ...params } = form;
    const expected = hmacsign("POST", `${o.base}/launch`, params, o.secret, "");
    const fresh = Math.abs(Number(params.oauth_timestamp) - Date.now() / 1000) < 300;
    const valid =
      params.oauth_consumer_key === o.consumerKey &&
      expected.length === given.length &&
      timingSafeEqual(Buffer.from(expected), Buffer.from(given));
    if (!valid || !fresh || nonces.has(params.oauth_nonce ?? ""))
      return c.html(page("Launch refused", "<h1>Launch refused</h1><p>The OAuth signature is not valid.</p>"), 401);
    nonces.add(params.oauth_nonce!);
    const id = randomUUID();
    const graded = Boolean(params.lis_outcome_service_url && params.lis_result_sourcedid);
    if (graded)
      launches.set(id, {
        user: params.user_id ?? "",
        title: params.resource_link_title ?? "",
        url: params.lis_outcome_service_url!,
        sourcedId: params.lis_result_sourcedid!,
        returnUrl: params.launch_presentation_return_url ?? "/learn",
      });
    return c.html(
      page(
        "Demo quiz",
        `<h1>Demo quiz (LTI 1.1)</h1><p role="status">Launch signature verified.</p><dl>` +
          `<dt>Learner</dt><dd data-testid="lti-sub">${esc(params.user_id ?? "")}</dd>` +
          `<dt>Activity</dt><dd data-testid="lti-resource">${esc(params.resource_link_title ?? "")}</dd></dl>` +
          (graded
            ? `<form method="post" action="${esc(o.base)}/score"><input type="hidden" name="launch" value="${id}">` +
              `<label>Score out of 10 <input name="score" type="number" min="0" max="10" value="9" required></label> ` +
              `<button type="submit">Send the score</button></form>`
            : "<p>This activity is not graded by the tool.</p>"),
      ),
    );
  });

  app.post("/score", async (c) => {
    const form = (await c.req.parseBody()) as Record<string, string>;
    const launch = launches.get(form.launch ?? "");
    const given = Number(form.score);
    if (!launch || !Number.isFinite(given) || given < 0 || given > 10)
      return c.html(page("Score refused", "<h1>Score refused</h1><p>Unknown launch or score.</p>"), 400);
    const body =
      `<?xml version="1.0" encoding="UTF-8"?><imsx_POXEnvelopeRequest xmlns="http://www.imsglobal.org/services/ltiv1p1/xsd/imsoms_v1p0">` +
      `<imsx_POXHeader><imsx_POXRequestHeaderInfo><imsx_version>V1.0</imsx_version>` +
      `<imsx_messageIdentifier>${randomUUID()}</imsx_messageIdentifier></imsx_POXRequestHeaderInfo></imsx_POXHeader>` +
      `<imsx_POXBody><replaceResultRequest><resultRecord><sourcedGUID><sourcedId>${esc(launch.sourcedId)}</sourcedId></sourcedGUID>` +
      `<result><resultScore><language>en</language><textString>${given / 10}</textString></resultScore></result>` +
      `</resultRecord></replaceResultRequest></imsx_POXBody></imsx_POXEnvelopeRequest>`;
    const oauth: Record<string, string> = {
      oauth_body_hash: createHash("sha1").update(body).digest("base64"),
      oauth_consumer_key: o.consumerKey,
      oauth_nonce: randomBytes(16).toString("hex"),
      oauth_signature_method: "HMAC-SHA1",
      oauth_timestamp: String(Math.floor(Date.now() / 1000)),
      oauth_version: "1.0",
    };
    oauth.oauth_signature = hmacsign("POST", launch.url, oauth, o.secret, "");
    const header = `OAuth ${Object.entries(oauth)
      .map(([k, v]) => `${k}="${rfc3986(v)}"`)
      .join(", ")}`;
    const res = await fetch(launch.url, {
      method: "POST",
      headers: { Authorization: header, "Content-Type": "application/xml" },
      body,
    });
    const answer = await res.text();
    if (!res.ok || !answer.includes("<imsx_codeMajor>success</imsx_codeMajor>"))
      return c.html(page("Score refused", `<h1>Score refused</h1><p>${res.status}</p>`), 502);
    return c.html(
      page(
        "Score sent",
        `<h1>Score sent</h1><p role="status">Your score ${given} / 10 was sent to the course.</p>` +
          `<p><a href="${esc(launch.returnUrl)}" target="_top">Return to the course</a></p>`,
      ),
    );
  });
  return app;
}
