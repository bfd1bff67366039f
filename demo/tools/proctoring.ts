/**
 * The demo's simulated proctoring service (issue 14 item 8), served under /demo-tools/proctoring only
 * when the demo runs. Written as a service outside the platform would be: it knows the platform only
 * over HTTP — the start token it is handed is verified with the platform's published keys (the LTI
 * JWKS), and it ends a sitting through the platform's proctoring API with that token. Its page frames
 * the sitting's wrapper (`/learn/courses/proctor/…?inProctoringIframe`). English only, like a third
 * party's page; it works without JavaScript.
 */
import { Hono } from "hono";
import { createRemoteJWKSet, jwtVerify } from "jose";

export const DEMO_PROCTORING_PATH = "/demo-tools/proctoring";
/** The audience of the platform's start tokens (api/routes/proctoring.ts, decision 024). */
const AUDIENCE = "urn:learner-app:proctoring";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;margin:1rem;line-height:1.5;color:#1a1a1a}` +
  `iframe{inline-size:100%;block-size:70vh;border:1px solid #888}button{font:inherit;padding:.5rem 1rem}` +
  `.bar{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}</style></head><body><main>${body}</main></body></html>`;

export function createDemoProctoringService(o: { platform: string }) {
  const keys = createRemoteJWKSet(new URL(`${o.platform}/api/lti/v1/jwks`));
  const verify = async (token: string) => {
    // A token that expired since the start still names the sitting (the platform accepts it to end it).
    const { payload } = await jwtVerify(token, keys, {
      issuer: o.platform,
      audience: AUDIENCE,
      clockTolerance: 12 * 3600,
    });
    return payload as { sub: string; activityPathId?: string };
  };
  const refused = (why: string) => page("Sitting refused", `<h1>Sitting refused</h1><p>${esc(why)}</p>`);
  /** Only the platform's own wrapper pages are framed. */
  const wrapperPath = (value: string | undefined) =>
    value && /^\/learn\/courses\/proctor\/[0-9a-f-]{36}\/[0-9a-f-]{36}\?inProctoringIframe$/.test(value) ? value : null;

  const app = new Hono();

  app.get("/", async (c) => {
    const { token = "", session = "", wrapper, ended } = c.req.query();
    const frame = wrapperPath(wrapper);
    if (!token || !/^[0-9a-f-]{36}$/.test(session) || !frame)
      return c.html(refused("Open a proctored activity from its course."), 400);
    let claims;
    try {
      claims = await verify(token);
    } catch {
      return c.html(refused("The start token could not be verified with the platform's keys."), 401);
    }
    return c.html(
      page(
        "Demo proctoring",
        `<h1>Demo proctoring</h1>` +
          `<p role="status">Start token verified with the platform's keys. Learner <span data-testid="proctor-sub">${esc(claims.sub)}</span>.</p>` +
          (ended
            ? `<p data-testid="proctor-ended">The sitting has ended.</p>`
            : `<form class="bar" method="post" action="${DEMO_PROCTORING_PATH}/end">` +
              `<input type="hidden" name="token" value="${esc(token)}"><input type="hidden" name="session" value="${esc(session)}">` +
              `<input type="hidden" name="wrapper" value="${esc(frame)}"><span>A proctor is watching.</span>` +
              `<button type="submit">End the sitting</button></form>`) +
          `<iframe title="Proctored activity" src="${esc(frame)}"></iframe>`,
      ),
    );
  });

  // The proctor ends the sitting: the platform's API, with the start token as the credential.
  app.post("/end", async (c) => {
    const form = (await c.req.parseBody()) as Record<string, string>;
    const frame = wrapperPath(form.wrapper);
    if (!form.token || !/^[0-9a-f-]{36}$/.test(form.session ?? "") || !frame)
      return c.html(refused("Unknown sitting."), 400);
    const res = await fetch(`${o.platform}/api/proctoring/v1/sessions/${form.session}/complete`, {
      method: "POST",
      headers: { Authorization: `Bearer ${form.token}` },
    });
    if (!res.ok && res.status !== 409) return c.html(refused(`The platform answered ${res.status}.`), 502);
    const back = new URLSearchParams({ token: form.token, session: form.session!, wrapper: frame, ended: "1" });
    return c.redirect(`${DEMO_PROCTORING_PATH}?${back}`, 303);
  });

  return app;
}
