import { ActivityKind } from "./vocabulary";

/**
 * An activity whose grade comes from its LTI tool — an LTI activity launched into a registered
 * tool (`content.tool`) with LTI grading on (`supportLtiGrading`, spec 3). The tool finishes it when it
 * sends the score (AGS, or Basic Outcomes for 1.1), so "Mark as done" is neither offered nor accepted.
 * A SCORM package (an LTI-kind activity whose content is a package, not a tool) finishes itself and is
 * not one of these.
 */
export function gradedByTool(activity: { kind: ActivityKind; supportLtiGrading: boolean; content: unknown }): boolean {
  if (activity.kind !== ActivityKind.lti || !activity.supportLtiGrading) return false;
  const content = activity.content as { tool?: unknown } | null;
  return typeof content?.tool === "string" && content.tool !== "";
}
