import Bowser from "bowser";
import { isSupportedBrowser } from "#domain/browser-support";

/** The cookie that remembers a dismissed alert (a year; works without JavaScript). */
export const BROWSER_ALERT_COOKIE = "learn-browser-alert";

/**
 * Spec 2.11: whether this request's browser gets the browser-support alert — decided on the server from
 * the user agent (bowser), so it shows without JavaScript; not after the learner dismissed it, and not
 * for clients that send no user agent (scripts, health checks).
 */
export function showBrowserAlert(request: Request): boolean {
  const cookie = request.headers.get("Cookie") ?? "";
  if (cookie.split(/;\s*/).includes(`${BROWSER_ALERT_COOKIE}=dismissed`)) return false;
  const ua = request.headers.get("User-Agent");
  if (!ua) return false;
  const parser = Bowser.getParser(ua);
  return !isSupportedBrowser(parser.getPlatformType(true), parser.getBrowserName(true));
}
