/**
 * Spec 2.11: the browsers the product supports — desktop Chrome, Safari and Edge; mobile Chrome and
 * Safari. Any other browser gets a dismissible alert naming these. Pure: the server parses the user
 * agent (bowser) into a platform and a browser name and asks this rule.
 */
const SUPPORTED_BROWSERS = {
  desktop: ["chrome", "safari", "microsoft edge"],
  mobile: ["chrome", "safari"],
} as const;

/** `platform` as a parser names it (desktop, mobile, tablet, tv…), `browser` in lower case. */
export function isSupportedBrowser(platform: string | undefined, browser: string | undefined): boolean {
  const list: readonly string[] =
    platform === "desktop"
      ? SUPPORTED_BROWSERS.desktop
      : platform === "mobile" || platform === "tablet"
        ? SUPPORTED_BROWSERS.mobile
        : [];
  return Boolean(browser) && list.includes(browser!.toLowerCase());
}
