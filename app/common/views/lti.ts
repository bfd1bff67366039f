/** What the content page hands the LTI launch (`<LtiLaunch>`). */
import type { DisplayMode } from "#domain/vocabulary";

export interface LtiLaunchProps {
  workflowId: string;
  activityPathId: string;
  displayMode: DisplayMode;
  /** LTI 1.3 (OIDC launch) or 1.1 (OAuth 1.0a signed form). */
  version: "1.3" | "1.1";
  /** The tool's frame policy from the registry (issue 14 item 5). */
  frame: { allow: string; sandbox: string | null };
  /** EmbeddedCustom: the activity's preferred size; null = grow with the tool's `lti.frameResize`. */
  size: { width: number; height: number } | null;
  /**
   * The learner opened this activity (the content page shows it alone): with JavaScript it launches at
   * once. Otherwise (a page listing several) it launches on her "Open the tool" only.
   */
  autoLaunch: boolean;
}
