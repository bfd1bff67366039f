/**
 * The demo LTI 1.3 tool (issue 14 item 7), served under /demo-tools/lti13 only when the demo runs.
 * It is written as a tool outside the platform would be: it talks to the platform over HTTP only —
 * its JWKS to verify the launch, its token endpoint (a client assertion signed with the tool's own
 * key) and the score service of AGS. The pages are the tool's own (English, like a third-party tool).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Hono } from "hono";
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type JWTPayload } from "jose";
import { LTI_CLAIM, LTI_MEDIA_TYPE, LTI_SCOPE } from "../../domain/lti";

interface DemoToolOptions {
  /** The platform's origin (its issuer). */
  platform: string;
  clientId: string;
  deploymentId: string;
  /** Where the tool is mounted, e.g. `${appUrl}/demo-tools/lti13`. */
  base: string;
}

interface Launch {
  sub: string;
  name: string;
  resourceLink: string;
  context: string;
  lineItem: string | null;
  expires: number;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;margin:1.5rem;line-height:1.5;color:#1a1a1a}` +
  `dt{font-weight:600}button{font:inherit;padding:.5rem 1rem}</style></head><body><main>${body}</main></body></html>`;

export async function createDemoLti13Tool(o: DemoToolOptions) {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomBytes(6).toString("hex");
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), alg: "RS256", use: "sig", kid };
  const platformKeys = createRemoteJWKSet(new URL(`${o.platform}/api/lti/v1/jwks`));
  /** state → nonce of logins under way; nonces already used; launches by id (all short-lived). */
  const logins = new Map<string, { nonce: string; expires: number }>();
  const usedNonces = new Set<string>();
  const launches = new Map<string, Launch>();
  const sweep = () => {
    const now = Date.now();
    for (const [k, v] of logins) if (v.expires < now) logins.delete(k);
    for (const [k, v] of launches) if (v.expires < now) launches.delete(k);
  };

  const app = new Hono();
  app.get("/jwks", (c) => c.json({ keys: [publicJwk] }));

  // LTI Core §4.1: third-party login initiation → the platform's authentication request.
  app.on(["GET", "POST"], "/login", async (c) => {
    const p = c.req.method === "POST" ? ((await c.req.parseBody()) as Record<string, string>) : c.req.query();
    if (p.iss !== o.platform || p.client_id !== o.clientId || !p.login_hint)
      return c.html(page("Launch refused", "<h1>Launch refused</h1><p>Unknown platform or client.</p>"), 400);
    sweep();
    const state = randomUUID();
    const nonce = randomUUID();
    logins.set(state, { nonce, expires: Date.now() + 10 * 60_000 });
    const auth = new URL(`${o.platform}/learn/lti/authorize`);
    for (const [k, v] of Object.entries({
      scope: "openid",
      response_type: "id_token",
      response_mode: "form_post",
      prompt: "none",
      client_id: o.clientId,
      redirect_uri: `${o.base}/launch`,
      login_hint: p.login_hint,
      lti_message_hint: p.lti_message_hint ?? "",
      state,
      nonce,
    }))
      auth.searchParams.set(k, v);
    // eslint-disable-next-line local/redirect-targets -- the platform's authorization endpoint, from this tool's configuration
    return c.redirect(auth.toString(), 302);
  });

  // The id_token: signature by the platform's JWKS, issuer, audience, expiry, the nonce of this state (once).
  app.post("/launch", async (c) => {
    const form = (await c.req.parseBody()) as Record<string, string>;
    const login = logins.get(form.state ?? "");
    if (!login || typeof form.id_token !== "string")
      return c.html(page("Launch refused", "<h1>Launch refused</h1><p>Unknown or used state.</p>"), 400);
    logins.delete(form.state!);
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(form.id_token, platformKeys, {
        issuer: o.platform,
        audience: o.clientId,
      }));
    } catch (err) {
      return c.html(page("Launch refused", `<h1>Launch refused</h1><p>${esc((err as Error).message)}</p>`), 401);
    }
    if (claims.nonce !== login.nonce || usedNonces.has(String(claims.nonce)))
      return c.html(page("Launch refused", "<h1>Launch refused</h1><p>The nonce was used before.</p>"), 401);
    usedNonces.add(String(claims.nonce));
    if (
      claims[LTI_CLAIM.messageType] !== "LtiResourceLinkRequest" ||
      claims[LTI_CLAIM.version] !== "1.3.0" ||
      claims[LTI_CLAIM.deploymentId] !== o.deploymentId
    )
      return c.html(page("Launch refused", "<h1>Launch refused</h1><p>Not a resource-link launch of 1.3.0.</p>"), 400);
    const link = claims[LTI_CLAIM.resourceLink] as { id: string; title?: string };
    const context = claims[LTI_CLAIM.context] as { title?: string } | undefined;
    const ags = claims[LTI_CLAIM.ags] as { lineitem?: string } | undefined;
    const id = randomUUID();
    const launch: Launch = {
      sub: String(claims.sub),
      name: String(claims.name ?? claims.sub),
      resourceLink: link.title ?? link.id,
      context: context?.title ?? "",
      lineItem: ags?.lineitem ?? null,
      expires: Date.now() + 60 * 60_000,
    };
    launches.set(id, launch);
    return c.html(
      page(
        "Demo lab",
        `<h1>Demo lab</h1><p role="status">Launch verified with the platform's keys.</p><dl>` +
          `<dt>Learner</dt><dd data-testid="lti-sub">${esc(launch.sub)}</dd>` +
          `<dt>Activity</dt><dd data-testid="lti-resource">${esc(launch.resourceLink)}</dd>` +
          `<dt>Course</dt><dd>${esc(launch.context)}</dd></dl>` +
          (launch.lineItem
            ? `<form method="post" action="${esc(o.base)}/score"><input type="hidden" name="launch" value="${id}">` +
              `<label>Score out of 10 <input name="score" type="number" min="0" max="10" value="8" required></label> ` +
              `<button type="submit">Send the score</button></form>`
            : "<p>This activity is not graded by the tool.</p>"),
      ),
    );
  });

  // AGS: a token by client credentials with a signed assertion, then a Score to the line item.
  app.post("/score", async (c) => {
    const form = (await c.req.parseBody()) as Record<string, string>;
    const launch = launches.get(form.launch ?? "");
    const given = Number(form.score);
    if (!launch?.lineItem || !Number.isFinite(given) || given < 0 || given > 10)
      return c.html(page("Score refused", "<h1>Score refused</h1><p>Unknown launch or score.</p>"), 400);
    const tokenUrl = `${o.platform}/api/lti/v1/token`;
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(o.clientId)
      .setSubject(o.clientId)
      .setAudience(tokenUrl)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    const tokenRes = await fetch(tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: assertion,
        scope: LTI_SCOPE.score,
      }),
    });
    if (!tokenRes.ok) return c.html(page("Score refused", `<h1>No token</h1><p>${tokenRes.status}</p>`), 502);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const res = await fetch(`${launch.lineItem}/scores`, {
      method: "POST",
      headers: { Authorization: `Bearer ${access_token}`, "Content-Type": LTI_MEDIA_TYPE.score },
      body: JSON.stringify({
        userId: launch.sub,
        scoreGiven: given,
        scoreMaximum: 10,
        activityProgress: "Completed",
        gradingProgress: "FullyGraded",
        timestamp: new Date().toISOString(),
      }),
    });
    if (!res.ok) return c.html(page("Score refused", `<h1>Score refused</h1><p>${res.status}</p>`), 502);
    return c.html(
      page(
        "Score sent",
        `<h1>Score sent</h1><p role="status">Your score ${given} / 10 was sent to the course.</p>` +
          // The platform's bridge (issue 14 item 6): back to the course, which reloads.
          `<p><a href="${esc(o.platform)}/learn/lti-tool-callback">Return to the course</a></p>`,
      ),
    );
  });
  return app;
}
