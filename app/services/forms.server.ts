import { data } from "react-router";
import { INTENT_FIELD } from "~/common/forms/intents";

/**
 * The body of a form post, or a 400 page: a malformed multipart or urlencoded body is bad input,
 * never a 500 (spec 'bad input').
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data("bad-request", { status: 400 });
  }
}

/** The intent a form posted (docs/style.md, 'One schema per intent'), or null. */
export function intentOf(form: FormData): string | null {
  const value = form.get(INTENT_FIELD);
  return typeof value === "string" ? value : null;
}

/** A form this action cannot use — an unknown intent, a tampered hidden field: 400, nothing changes. */
export function badRequest(): never {
  throw data("bad-request", { status: 400 });
}
