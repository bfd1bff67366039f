import { translationsFor } from "./i18n.server";
import { pageUrl } from "./url.server";

/**
 * Spec 8: a 401 inside an embedded frame posts a re-login message to the parent window instead
 * of navigating the frame to the provider (which refuses to be framed). A link remains for no-JS.
 */
export function reloginFramePage(request: Request, locale: string): Response {
  const url = pageUrl(request);
  const nonce = crypto.randomUUID().replace(/-/g, "");
  const t = (translationsFor(locale).reauth ?? {}) as Record<string, string>;
  const target = `/oidc/login?${url.searchParams.toString()}`;
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!DOCTYPE html><html lang="${esc(locale)}"><head><meta charset="utf-8"><title>${esc(t.title ?? "")}</title></head>
<body><p>${esc(t.text ?? "")}</p><p><a href="${esc(target)}" target="_top">${esc(t.signIn ?? "")}</a></p>
<script nonce="${nonce}">window.parent.postMessage({ type: "re-login", redirectUrl: ${JSON.stringify(url.searchParams.get("redirectUrl") ?? "/learn")} }, window.location.origin);</script></body></html>`;
  return new Response(html, {
    status: 401,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; script-src 'nonce-${nonce}'; frame-ancestors 'self'`,
    },
  });
}
