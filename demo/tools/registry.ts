/** The demo's LTI tools (`../data/lti-tools.json`), their `{appUrl}` replaced by this server's origin. */
import { readFileSync } from "node:fs";
import type { LtiTool } from "../../api/lti/registry";
import { parseToolsFile } from "../../api/lti/tool-store";

export function demoTools(appUrl: string): LtiTool[] {
  const text = readFileSync(new URL("../data/lti-tools.json", import.meta.url), "utf8");
  return parseToolsFile(text.replaceAll("{appUrl}", appUrl));
}
