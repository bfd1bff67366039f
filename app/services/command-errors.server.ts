import { isLockCode } from "#domain/activity-access";
import { DEFAULT_LOCALE } from "#domain/locales";
import type { DateFormatter } from "./format.server";
import { translationsFor } from "./i18n.server";
import type { LmsError } from "./lms.server";
import type { Toast } from "./toast.server";

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
  if (err.status === 429 || m?.code === "tooManyRequests")
    return { type: "critical", key: "apiErrors.tooManyRequests" };
  if (!m) {
    if (err.kind === "timeout") return { type: "critical", key: "messages.timeOver" };
    // Spec 8: the server failed ('500: Internal error. Please refresh the page and try again.').
    if (err.status >= 500) return { type: "critical", key: "messages.internalError" };
    return { type: "critical", key: "messages.unknownError" };
  }
  const date = m.params?.date ? String(m.params.date) : null;
  const values = date ? { date: (fmt ? fmt.dateTime(date) : null) ?? date } : undefined;
  if (isLockCode(m.code)) return { type: "critical", key: `activityLock.${m.code}`, ...(values ? { values } : {}) };
  const key = `apiErrors.${m.code}`;
  if (!hasText(key)) return { type: "critical", key: "apiErrors.unknown" };
  return { type: "critical", key, ...(values ? { values } : {}) };
}
