import { safeRedirect } from "#domain/redirect";
import type { AppConfig } from "./config.server";
import { translationsFor } from "./i18n.server";

/** A provider hint worth passing on (an identity provider's name); anything else is dropped. */
const PROVIDER = /^[A-Za-z0-9_-]{1,64}$/;

/** JSON for inside a <script>: `<`, `>`, `&` and the line separators escaped, so no text ends the element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Spec 8: a 401 inside an embedded frame posts a re-login message to the parent window instead
 * of navigating the frame to the provider (which refuses to be framed). A link remains for no-JS.
 *
 * Nothing of the request reaches the markup but the target the redirect rule keeps
 * (spec 5, `domain/redirect.ts`: a path on the app's origin, else /learn) and a provider name of safe
 * characters; both are escaped for where they go (attribute, script) all the same.
 */
export function reloginFramePage(
  request: Request,
  locale: string,
  config: Pick<AppConfig, "appUrl" | "production">,
): Response {
  const params = new URL(request.url).searchParams;
  const redirectUrl = safeRedirect(params.get("redirectUrl"), {
    appOrigin: config.appUrl,
    fallback: "/learn",
    allowHttp: !config.production,
  });
  const query = new URLSearchParams({ redirectUrl });
  const provider = params.get("provider");
  if (provider && PROVIDER.test(provider)) query.set("provider", provider);
  const nonce = crypto.randomUUID().replace(/-/g, "");
  const t = (translationsFor(locale).reauth ?? {}) as Record<string, string>;
  const html = `<!DOCTYPE html><html lang="${esc(locale)}"><head><meta charset="utf-8"><title>${esc(t.title ?? "")}</title></head>
<body><p>${esc(t.text ?? "")}</p><p><a href="${esc(`/oidc/login?${query}`)}" target="_top">${esc(t.signIn ?? "")}</a></p>
<script nonce="${nonce}">window.parent.postMessage(${scriptJson({ type: "re-login", redirectUrl })}, window.location.origin);</script></body></html>`;
  return new Response(html, {
    status: 401,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; script-src 'nonce-${nonce}'; frame-ancestors 'self'`,
    },
  });
}
