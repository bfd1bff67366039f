import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { analyticsEnabled } from "#domain/analytics";

type Client = typeof import("~/analytics.client");
let client: Promise<Client> | null = null;

/** The browser asks not to be tracked (Do-Not-Track or Global Privacy Control). */
const optedOut = () =>
  navigator.doNotTrack === "1" || (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl;

/**
 * Issue 16 item 8: loads the analytics client after hydration (its own chunk, not first-load JavaScript)
 * where APP_ENV is test or prod; records client-side navigations (the server records documents).
 */
export function Analytics({ appEnv, datalakeMinutes }: { appEnv: string; datalakeMinutes: number | null }) {
  const location = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (!analyticsEnabled(appEnv) || optedOut()) return;
    client ??= import("~/analytics.client").then((m) => (m.start(datalakeMinutes ?? undefined), m));
    if (first.current) {
      first.current = false;
      return;
    }
    void client.then((m) => m.track("page_view"));
  }, [appEnv, datalakeMinutes, location.pathname]);
  return null;
}

/**
 * Spec 8: a failure the page shows and also reports — to the error reporting (the analytics
 * collector's `error` events, decision 029) where it is on, and to the browser's console always.
 */
export function reportProblem(message: string, cause?: unknown) {
  console.warn(`[report] ${message}`, cause ?? "");
  void client?.then((m) => m.track("error", { message, cause: cause === undefined ? "" : String(cause) }));
}
