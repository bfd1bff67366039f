import { describe, it } from "vitest";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import plugin from "../../scripts/eslint-redirect-targets.mjs";

/**
 * Issue 29 item 4: the lint rule that finds a redirect (or a Location header) built from input
 * anywhere but through domain/redirect.ts. The first invalid case is `/learn/browser-alert` as it was:
 * a check of its own that let `/\t/evil.example` and CR/LF through.
 */
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: "module" },
});
const rule = plugin.rules["redirect-targets"];
const options = [{ pathFunctions: ["loginUrl"] }];

tester.run("redirect-targets", rule, {
  valid: [
    { code: `redirect("/learn");` },
    { code: "redirect(`/learn/courses/${id}/view/content?activityPathId=${p}`, 303);" },
    {
      code: "const back = `/learn/courses/${id}/view/notifications`; redirectWithToast(`${back}#message-${m}`, toast, config);",
    },
    { code: `redirect("/learn/open-catalog" + url.search);` },
    { code: `redirect(safeRedirect(form.get("returnTo"), { appOrigin }));` },
    { code: `const back = safeRedirectWithin(t, "/learn/courses/1", o); redirect(back);` },
    { code: `const to = (x) => safeRedirect(x, o); c.redirect(to(input));` },
    { code: `res.writeHead(303, { Location: "/oidc/login" });` },
    { code: 'headers.set("Location", `/api/lms/v1/commands/${id}`);' },
    { code: `redirect(ok ? "/learn" : "/learn/forbidden");` },
    { code: `redirect(loginUrl(request));`, options },
    { code: "export function loginUrl(r) { return `/oidc/login?redirectUrl=${encodeURIComponent(r)}`; }", options },
    { code: `const calendar = { location: place }; const x = { headers: { "X-Other": v } };` },
  ],
  invalid: [
    {
      code: `const backTo = (raw) => typeof raw === "string" && raw.startsWith("/") && !raw.startsWith("//") ? raw : "/learn";
             redirect(backTo(form.get("returnTo")));`,
      errors: [{ messageId: "unchecked" }],
    },
    { code: `redirect(form.get("returnTo"));`, errors: [{ messageId: "unchecked" }] },
    { code: "redirect(`${url.pathname}${url.search}`);", errors: [{ messageId: "unchecked" }] },
    { code: `redirect(url.pathname + url.search);`, errors: [{ messageId: "unchecked" }] },
    { code: `c.redirect(c.req.query("next"));`, errors: [{ messageId: "unchecked" }] },
    { code: `Response.redirect(target);`, errors: [{ messageId: "unchecked" }] },
    { code: `res.writeHead(302, { Location: req.headers.referer });`, errors: [{ messageId: "unchecked" }] },
    { code: `new Response(null, { status: 303, headers: { location: next } });`, errors: [{ messageId: "unchecked" }] },
    { code: `headers.set("location", back);`, errors: [{ messageId: "unchecked" }] },
    { code: `let back = "/learn"; back = input; redirect(back);`, errors: [{ messageId: "unchecked" }] },
    { code: "redirect(`//${host}/learn`);", errors: [{ messageId: "unchecked" }] },
    { code: `redirect(loginUrl(request));`, errors: [{ messageId: "unchecked" }] },
    {
      code: "export function loginUrl(r) { return r.headers.get('referer'); }",
      options,
      errors: [{ messageId: "notFixed" }],
    },
  ],
});
