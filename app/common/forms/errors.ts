import type { $ZodErrorMap } from "zod/v4/core";

/**
 * Form errors travel as text (Conform keeps a list of strings per field): a message code of
 * `apiErrors.*` with its parameters as a query string — "required", "maxLength?length=5000". The same
 * codes come from the LMS API's field messages, so a rule checked in the browser, in the action or by
 * the API reads the same to the learner (spec 5: 'Field is required', 'Maximum length is {length}').
 */
export function formError(code: string, params?: Record<string, string | number>): string {
  if (!params || Object.keys(params).length === 0) return code;
  return `${code}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
}

export function parseFormError(text: string): { code: string; params: Record<string, string> } {
  const [code, query] = text.split("?", 2);
  return { code, params: Object.fromEntries(new URLSearchParams(query ?? "")) };
}

/** zod issues → form error codes (used by every schema parsed with `parseSubmission`). */
export const formErrorMap: $ZodErrorMap = (issue) => {
  if (issue.code === "invalid_type" && issue.input === undefined) return formError("required");
  if (issue.code === "too_big" && issue.origin === "string")
    return formError("maxLength", { length: Number(issue.maximum) });
  if (issue.code === "too_small" && issue.origin === "string" && Number(issue.minimum) <= 1)
    return formError("required");
  return formError("invalid");
};
