import { useEffect, useEffectEvent } from "react";
import { useRevalidator } from "react-router";
/** Spec 9: a failed full-tree reload is tried again after 30 s. */
export const TREE_RETRY_MS = 30_000;

/**
 * Spec 4.13 / 9: reload once `delay` has passed; when the reload fails, try again every `retryMs`.
 * React Router renders a loader's error instead of rejecting `revalidate()`, so a failure cannot be
 * seen from the revalidation: `check` asks the server first (the route's `.data` answer) and the
 * revalidation runs only once the server answers. Returns the way to stop.
 */
export function scheduleRefresh(options: {
  delay: number;
  check: () => Promise<boolean>;
  reload: () => void;
  retryMs?: number;
}): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const attempt = async () => {
    const ok = await options.check().catch(() => false);
    if (stopped) return;
    if (ok) options.reload();
    else timer = setTimeout(attempt, options.retryMs ?? TREE_RETRY_MS);
  };
  timer = setTimeout(attempt, options.delay);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** React Router's single-fetch address of a page's data (what a revalidation would read). */
export function dataUrl(location: { pathname: string; search: string }): string {
  const path = location.pathname === "/" ? "/_root" : location.pathname.replace(/\/$/, "");
  return `${path}.data${location.search}`;
}

/** Whether the server answers the page's data now (a network failure or an error status is no). */
async function pageDataAnswers(location: { pathname: string; search: string }): Promise<boolean> {
  const response = await fetch(dataUrl(location), { credentials: "same-origin", cache: "no-store" });
  return response.ok;
}

/**
 * Spec 4.13 / 9: refresh at the nearest future constraint time; a failed reload retries after 30 s
 * (the server is asked first: React Router would render a failed revalidation's error instead).
 */
export function useScheduledRefresh(refreshAt: string | null) {
  const revalidator = useRevalidator();
  const revalidate = useEffectEvent(() => void revalidator.revalidate());
  const check = useEffectEvent(() => pageDataAnswers(window.location));
  useEffect(() => {
    if (!refreshAt) return;
    const delay = Math.min(Math.max(Date.parse(refreshAt) - Date.now(), 0) + 500, 24 * 3600_000);
    return scheduleRefresh({ delay, check: () => check(), reload: () => revalidate(), retryMs: TREE_RETRY_MS });
  }, [refreshAt]);
}
