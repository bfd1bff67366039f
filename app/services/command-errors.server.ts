import { data, type RouterContextProvider } from "react-router";
import { isLockCode } from "#domain/activity-access";
import { DEFAULT_LOCALE } from "#domain/locales";
import type { DateFormatter } from "./format.server";
import { getInstance, getLocale, translationsFor } from "./i18n.server";
import type { LmsError } from "./lms.server";
import type { Toast } from "./toast.server";

/** When the API says nothing of when to come back (an external API without Retry-After). */
const DEFAULT_RETRY_SECONDS = 60;

/** The error a page throws for the API's 429: the root's error page reads it. */
interface TooManyRequestsData {
  tooManyRequests: true;
  retryAfterSeconds: number;
}

/**
 * Spec 8 / issue 29 item 4: a page whose read the API refused for too many requests is the app's 429
 * page — the status, `Retry-After`, and the error page's words with the seconds, in the learner's
 * language — never a 500. Thrown from a loader (`onTooManyRequests` of the LMS client does it for reads).
 */
export function tooManyRequestsPage(retryAfterSeconds: number | null): never {
  const seconds = retryAfterSeconds ?? DEFAULT_RETRY_SECONDS;
  throw data({ tooManyRequests: true, retryAfterSeconds: seconds } satisfies TooManyRequestsData, {
    status: 429,
    statusText: "Too Many Requests",
    headers: { "Retry-After": String(seconds), "Cache-Control": "no-store" },
  });
}

/** A 429 for a request that is no page (a file, a beacon): the same words as plain text, with Retry-After. */
export function tooManyRequestsText(context: Readonly<RouterContextProvider>, retryAfterSeconds: number | null) {
  const seconds = retryAfterSeconds ?? DEFAULT_RETRY_SECONDS;
  const t = getInstance(context).t;
  return new Response(`${t("errors.429.title")}\n${t("errors.429.text", { seconds })}\n`, {
    status: 429,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Language": getLocale(context),
      "Retry-After": String(seconds),
      "Cache-Control": "no-store",
    },
  });
}

/** The seconds a refusal for too many requests names: its Retry-After, else the message's own. */
function retrySeconds(err: LmsError): number | null {
  if (err.retryAfterSeconds !== null) return err.retryAfterSeconds;
  const seconds = Number(err.firstMessage()?.params?.seconds);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** Whether the API refused for too many requests. */
export const isTooManyRequests = (err: LmsError) =>
  err.status === 429 || err.firstMessage()?.code === "tooManyRequests";

/** Spec 8: the critical toast for too many requests, with when to try again when the API said it. */
export function tooManyRequestsToast(err: LmsError): Toast {
  const seconds = retrySeconds(err);
  return seconds === null
    ? { type: "critical", key: "apiErrors.tooManyRequests" }
    : { type: "critical", key: "apiErrors.tooManyRequestsIn", values: { seconds } };
}

function hasText(key: string): boolean {
  let node: unknown = translationsFor(DEFAULT_LOCALE);
  for (const part of key.split(".")) {
    if (!node || typeof node !== "object") return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string";
}

/**
 * Spec 8: a refused command as the critical toast the page shows after its redirect. A lock reason of
 * spec 4.12 (decision 018) reads as the table of contents words it (`activityLock.*`, its date in the
 * learner's zone); too many requests as `apiErrors.tooManyRequests`; any other code as
 * `apiErrors.<code>`; a code the app has no words for as 'Unknown error' (spec 5); a server failure
 * without a message as '500: Internal error…'.
 */
export function commandErrorToast(err: LmsError, fmt?: DateFormatter): Toast {
  const m = err.firstMessage();
  if (isTooManyRequests(err)) return tooManyRequestsToast(err);
  if (!m) {
    if (err.kind === "timeout") return { type: "critical", key: "messages.timeOver" };
    // Spec 8: the server failed ('500: Internal error. Please refresh the page and try again.').
    if (err.status >= 500) return { type: "critical", key: "messages.internalError" };
    return { type: "critical", key: "messages.unknownError" };
  }
  const date = m.params?.date ? String(m.params.date) : null;
  // A message's other placeholders (a file's size limit, the types allowed) go with it; a date is formatted.
  const params = Object.fromEntries(Object.entries(m.params ?? {}).map(([k, v]) => [k, String(v)]));
  const values =
    date || Object.keys(params).length > 0
      ? { ...params, ...(date ? { date: (fmt ? fmt.dateTime(date) : null) ?? date } : {}) }
      : undefined;
  if (isLockCode(m.code)) return { type: "critical", key: `activityLock.${m.code}`, ...(values ? { values } : {}) };
  const key = `apiErrors.${m.code}`;
  if (!hasText(key)) return { type: "critical", key: "apiErrors.unknown" };
  return { type: "critical", key, ...(values ? { values } : {}) };
}
