import { LOCALE_NAMES, type Locale } from "../domain/locales";
import type { IdpT } from "./i18n";
import { PASSWORD_MIN } from "./register";

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );
}

/** Same tokens as app/styles/tokens.scss so the sign-in page looks like the app. */
const STYLE = `
:root{--color-bg:#f5f6f8;--color-surface:#fff;--color-text:#1c2430;--color-muted:#5b6675;--color-primary:#1f5fbf;--color-primary-contrast:#fff;--color-danger:#b3261e;--radius:8px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic",sans-serif}
*{box-sizing:border-box}body{margin:0;background:var(--color-bg);color:var(--color-text);min-height:100vh;display:flex;flex-direction:column}
header{background:var(--color-surface);border-block-end:1px solid #dde1e7;padding-block:12px;padding-inline:24px;font-weight:600;display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px}
header .portal{overflow-wrap:anywhere;min-inline-size:0}
.language{margin-inline-start:auto;display:flex;flex-wrap:wrap;align-items:center;gap:6px;font-weight:400}
.language label{margin:0;font-weight:400}.language select{font:inherit;padding:6px 8px;border:1px solid #8a94a3;border-radius:6px;max-inline-size:100%}
.language button{width:auto;margin:0;padding:6px 12px}
main{flex:1;display:flex;align-items:flex-start;justify-content:center;padding:48px 16px}
.card{background:var(--color-surface);border-radius:var(--radius);box-shadow:0 1px 3px rgba(0,0,0,.12);padding:32px;width:100%;max-width:400px}
h1{font-size:1.5rem;margin-block:0 24px}label{display:block;font-weight:600;margin-block-end:6px}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #8a94a3;border-radius:6px;margin-block-end:16px}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
button{font:inherit;font-weight:600;width:100%;padding:10px 16px;border:0;border-radius:6px;background:var(--color-primary);color:var(--color-primary-contrast);cursor:pointer}
button.secondary{background:transparent;color:var(--color-primary);border:1px solid var(--color-primary);margin-block-start:8px}
.error{color:var(--color-danger);background:#fdecea;border-radius:6px;padding:10px 12px;margin-block-end:16px}
.hint{color:var(--color-muted);font-size:.875rem;margin-block-start:16px}
.notice{background:#e8f0fe;border-radius:6px;padding:10px 12px;margin-block-end:16px}`;

/**
 * Issue 25 item 3: the sign-in and sign-up pages' language menu — a plain GET form (no JavaScript needed)
 * to the page itself with `lng`; the provider keeps the choice in the app's `lng` cookie, so the app
 * opens in the language chosen here.
 */
function languageForm(t: IdpT, action: string): string {
  if (t.languages.length < 2) return "";
  const options = t.languages
    .map(
      (code) =>
        `<option value="${escapeHtml(code)}" lang="${escapeHtml(code)}"${code === t.locale ? " selected" : ""}>${escapeHtml(LOCALE_NAMES[code as Locale] ?? code)}</option>`,
    )
    .join("");
  return `<form class="language" method="get" action="${escapeHtml(action)}"><label for="lng">${escapeHtml(t.t("language"))}</label>
<select id="lng" name="lng">${options}</select><button type="submit" class="secondary">${escapeHtml(t.t("languageSubmit"))}</button></form>`;
}

export function page(
  t: IdpT,
  nonce: string,
  title: string,
  body: string,
  script = "",
  languageAction: string | null = null,
): string {
  return `<!DOCTYPE html><html lang="${t.locale}" dir="${t.dir}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style></head><body>
<header><span class="portal">${escapeHtml(t.portalName)}</span>${languageAction ? languageForm(t, languageAction) : ""}</header><main>${body}</main>
${script ? `<script nonce="${nonce}">${script}</script>` : ""}</body></html>`;
}

export function loginPage(
  t: IdpT,
  nonce: string,
  input: {
    action: string;
    email: string;
    error?: string | null;
    notice?: string | null;
    showDemoHint: boolean;
    signUpHref?: string;
    /** The page's own address, for its language menu. */
    languageAction?: string;
    /** "Forgot password?" */
    forgotHref?: string;
  },
): string {
  const error = input.error ? `<p class="error" role="alert" id="login-error">${escapeHtml(input.error)}</p>` : "";
  const notice = input.notice ? `<p class="notice" role="status">${escapeHtml(input.notice)}</p>` : "";
  const described = input.error ? ' aria-describedby="login-error" aria-invalid="true"' : "";
  return page(
    t,
    nonce,
    t.t("title"),
    `<div class="card"><h1>${escapeHtml(t.t("title"))}</h1>${notice}${error}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<label for="email">${escapeHtml(t.t("email"))}</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(input.email)}"${described} ${input.email ? "" : "autofocus"}>
<label for="password">${escapeHtml(t.t("password"))}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${described} ${input.email ? "autofocus" : ""}>
<button type="submit">${escapeHtml(t.t("submit"))}</button>
</form>${input.forgotHref ? `<p class="hint"><a href="${escapeHtml(input.forgotHref)}">${escapeHtml(t.t("forgotLink"))}</a></p>` : ""}${input.signUpHref ? `<p class="hint"><a href="${escapeHtml(input.signUpHref)}">${escapeHtml(t.t("noAccount"))}</a></p>` : ""}${input.showDemoHint ? `<p class="hint">${escapeHtml(t.t("demoHint"))}</p>` : ""}</div>`,
    "",
    input.languageAction ?? null,
  );
}

export interface SignUpValues {
  firstName: string;
  lastName: string;
  email: string;
}

/** The registration form; field errors sit under their fields and never move the submit button. */
export function signUpPage(
  t: IdpT,
  nonce: string,
  input: {
    action: string;
    loginHref: string;
    values: SignUpValues;
    /** The password as she typed it, when the form comes back refused. */
    password?: string;
    /** The page's own address, for its language menu. */
    languageAction?: string;
    errors: Partial<Record<keyof SignUpValues | "password" | "form", string>>;
  },
): string {
  const field = (
    name: keyof SignUpValues | "password",
    label: string,
    type: string,
    autocomplete: string,
    hint?: string,
  ) => {
    const error = input.errors[name];
    const describedBy = [hint ? `${name}-hint` : "", error ? `${name}-error` : ""].filter(Boolean).join(" ");
    // The password comes back too (the page is no-store): refused for another field, she need not type it again.
    const value = escapeHtml(name === "password" ? (input.password ?? "") : input.values[name]);
    return `<label for="${name}">${escapeHtml(label)}</label>
${hint ? `<p class="hint" id="${name}-hint">${escapeHtml(hint)}</p>` : ""}
<input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required${name === "password" ? ` minlength="${PASSWORD_MIN}"` : ""} maxlength="${name === "password" ? 1024 : name === "email" ? 254 : 100}" value="${value}"${describedBy ? ` aria-describedby="${describedBy}"` : ""}${error ? ' aria-invalid="true"' : ""}>
${error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : ""}`;
  };
  const formError = input.errors.form ? `<p class="error" role="alert">${escapeHtml(input.errors.form)}</p>` : "";
  return page(
    t,
    nonce,
    t.t("signUpTitle"),
    `<div class="card"><h1>${escapeHtml(t.t("signUpTitle"))}</h1>${formError}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${field("firstName", t.t("firstName"), "text", "given-name")}
${field("lastName", t.t("lastName"), "text", "family-name")}
${field("email", t.t("email"), "email", "email")}
<button type="submit">${escapeHtml(t.t("signUpSubmit"))}</button>
</form><p class="hint"><a href="${escapeHtml(input.loginHref)}">${escapeHtml(t.t("haveAccount"))}</a></p></div>`,
    "",
    input.languageAction ?? null,
  );
}

/** A card with a heading, paragraphs (one may be a status) and links: the pages around the e-mailed links. */
export function messagePage(
  t: IdpT,
  nonce: string,
  input: { title: string; paragraphs: string[]; status?: boolean; links?: { href: string; label: string }[] },
): string {
  const [first, ...rest] = input.paragraphs;
  return page(
    t,
    nonce,
    input.title,
    `<div class="card"><h1>${escapeHtml(input.title)}</h1>${first ? `<p class="${input.status ? "notice" : ""}"${input.status ? ' role="status"' : ""}>${escapeHtml(first)}</p>` : ""}${rest.map((p) => `<p>${escapeHtml(p)}</p>`).join("")}${(
      input.links ?? []
    )
      .map((l) => `<p class="hint"><a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a></p>`)
      .join("")}</div>`,
  );
}

/** "Forgot password?" — the address of the account; the answer is the same for every address. */
export function forgotPage(
  t: IdpT,
  nonce: string,
  input: { action: string; loginHref: string; email: string; error?: string | null },
): string {
  const error = input.error ? `<p class="error" role="alert" id="forgot-error">${escapeHtml(input.error)}</p>` : "";
  const described = input.error ? ' aria-describedby="forgot-error" aria-invalid="true"' : "";
  return page(
    t,
    nonce,
    t.t("forgotTitle"),
    `<div class="card"><h1>${escapeHtml(t.t("forgotTitle"))}</h1><p>${escapeHtml(t.t("forgotIntro"))}</p>${error}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<label for="email">${escapeHtml(t.t("email"))}</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(input.email)}"${described} autofocus>
<button type="submit">${escapeHtml(t.t("forgotSubmit"))}</button>
</form><p class="hint"><a href="${escapeHtml(input.loginHref)}">${escapeHtml(t.t("backToSignIn"))}</a></p></div>`,
  );
}

/** The sign-up link opened: the password its holder chooses, then one press makes the account and signs in (never a GET: link checkers open links). */
export function confirmPage(
  t: IdpT,
  nonce: string,
  input: { action: string; email: string; error?: string | null },
): string {
  const error = input.error ? `<p class="error" id="password-error">${escapeHtml(input.error)}</p>` : "";
  const described = ["password-hint", input.error ? "password-error" : ""].filter(Boolean).join(" ");
  return page(
    t,
    nonce,
    t.t("confirmTitle"),
    `<div class="card"><h1>${escapeHtml(t.t("confirmTitle"))}</h1><p>${escapeHtml(t.t("confirmText", { email: input.email }))}</p>
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="text" name="username" autocomplete="username" value="${escapeHtml(input.email)}" hidden>
<label for="password">${escapeHtml(t.t("password"))}</label>
<p class="hint" id="password-hint">${escapeHtml(t.t("passwordHint"))}</p>
<input id="password" name="password" type="password" autocomplete="new-password" required maxlength="1024" aria-describedby="${described}"${input.error ? ' aria-invalid="true"' : ""} autofocus>
${error}<button type="submit">${escapeHtml(t.t("confirmSubmit"))}</button>
</form></div>`,
  );
}

/** The reset link opened — a new password for the account. */
export function resetPage(
  t: IdpT,
  nonce: string,
  input: { action: string; email: string; error?: string | null },
): string {
  const error = input.error ? `<p class="error" id="password-error">${escapeHtml(input.error)}</p>` : "";
  const described = ["password-hint", input.error ? "password-error" : ""].filter(Boolean).join(" ");
  return page(
    t,
    nonce,
    t.t("resetTitle"),
    `<div class="card"><h1>${escapeHtml(t.t("resetTitle"))}</h1><p>${escapeHtml(t.t("resetText", { email: input.email }))}</p>
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="text" name="username" autocomplete="username" value="${escapeHtml(input.email)}" hidden>
<label for="password">${escapeHtml(t.t("newPassword"))}</label>
<p class="hint" id="password-hint">${escapeHtml(t.t("passwordHint"))}</p>
<input id="password" name="password" type="password" autocomplete="new-password" required maxlength="1024" aria-describedby="${described}"${input.error ? ' aria-invalid="true"' : ""} autofocus>
${error}<button type="submit">${escapeHtml(t.t("resetSubmit"))}</button>
</form></div>`,
  );
}
