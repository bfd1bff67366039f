import { randomBytes } from "node:crypto";
import { isTooManyRequests, tooManyRequestsToast } from "./command-errors.server";
import { localeDirection } from "#domain/locales";
import { formActionSources } from "#domain/lti";
import { createLmsClient, LmsError } from "./lms.server";
import { appConfig, lmsTransport, sessionStore } from "./config.server";
import { getInstance, getLocale } from "./i18n.server";
import { readSession } from "./session.server";
import type { RouterContextProvider } from "react-router";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The small pages between the learner and an LTI tool: not React documents —
 * each carries its own Content-Security-Policy naming the one place it may send the browser, works
 * without JavaScript (a button), and with JavaScript continues by itself.
 */
export function ltiPage(
  context: Readonly<RouterContextProvider>,
  opts: {
    status?: number;
    message: string;
    /**
     * A form the page submits (by itself with JavaScript, by its button without), and every address
     * the browser may reach from it — the action and where the answer redirects (the CSP's
     * `form-action`, which a browser checks on each redirect after a submission too).
     */
    form?: { action: string; method: "get" | "post"; fields: Record<string, string>; formAction: string[] };
    /** The bridge (issue 14 item 6): a message for the parent window, on this origin only, and a link for no-JS. */
    bridge?: { message: Record<string, unknown>; link: string };
  },
): Response {
  const locale = getLocale(context);
  const { t } = getInstance(context);
  const nonce = randomBytes(16).toString("base64");
  const form = opts.form;
  const target = form ? formActionSources([form.action, ...form.formAction]) : "'none'";
  const body = form
    ? `<form method="${form.method}" action="${esc(form.action)}">` +
      Object.entries(form.fields)
        .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
        .join("") +
      `<p>${esc(opts.message)}</p><button type="submit">${esc(t("lti.launch.continue"))}</button></form>` +
      `<script nonce="${nonce}">document.forms[0].submit()</script>`
    : opts.bridge
      ? `<p role="status">${esc(opts.message)}</p><p><a href="${esc(opts.bridge.link)}" target="_top">${esc(t("lti.bridge.continue"))}</a></p>` +
        `<script type="application/json" id="lti-bridge">${JSON.stringify(opts.bridge.message).replace(/</g, "\\u003c")}</script>` +
        `<script nonce="${nonce}">if(window.parent!==window)window.parent.postMessage(JSON.parse(document.getElementById("lti-bridge").textContent),location.origin)</script>`
      : `<p role="alert">${esc(opts.message)}</p>`;
  const html =
    `<!doctype html><html lang="${esc(locale)}" dir="${localeDirection(locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width"><title>${esc(opts.message)}</title>` +
    `<style nonce="${nonce}">body{font-family:system-ui,sans-serif;margin:1.5rem}button{font:inherit;padding:.5rem 1rem}</style>` +
    `</head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status: opts.status ?? 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'nonce-${nonce}'`,
        `form-action ${target}`,
        "frame-ancestors 'self'",
        "base-uri 'none'",
      ].join("; "),
    },
  });
}

/** The signed-in learner's LMS client for an LTI page, or null without a session (`anonymous`: a client without a token). */
export async function ltiClient(request: Request, context: Readonly<RouterContextProvider>, anonymous = false) {
  const config = appConfig(context);
  const session = await readSession(request, config, sessionStore(context));
  if (!session && !anonymous) return null;
  return createLmsClient({
    accessToken: session?.accessToken ?? null,
    locale: getLocale(context),
    transport: lmsTransport(context),
    baseUrl: config.lmsApiUrl,
  });
}

/** The learner's words for why a launch stopped. */
export function ltiRefusal(context: Readonly<RouterContextProvider>, err: unknown): Response {
  const { t } = getInstance(context);
  if (!(err instanceof LmsError)) throw err;
  // Too many launches in a row: the 429 with when to try again.
  if (isTooManyRequests(err)) {
    const seconds = tooManyRequestsToast(err).values?.seconds ?? 60;
    const page = ltiPage(context, { status: 429, message: t("errors.429.text", { seconds }) });
    page.headers.set("Retry-After", String(seconds));
    return page;
  }
  const code = err.firstMessage()?.code;
  const key =
    err.status === 401
      ? "lti.launch.signIn"
      : code === "ltiToolNotRegistered"
        ? "lti.launch.notRegistered"
        : code === "ltiLaunchExpired"
          ? "lti.launch.expired"
          : "lti.launch.failed";
  const status = err.status >= 400 && err.status < 500 ? err.status : 502;
  return ltiPage(context, { status, message: t(key) });
}
