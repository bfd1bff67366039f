import { describe, expect, it } from "vitest";
import { gradedByTool } from "./tool-grading";
import { ActivityKind } from "./vocabulary";

describe("an activity graded by its tool (issue 26: no 'Mark as done' beside 'Open the tool')", () => {
  it.each([
    ["a registered tool with LTI grading", ActivityKind.lti, true, { tool: "demo-lti13" }, true],
    ["a registered tool without grading: the learner marks it done", ActivityKind.lti, false, { tool: "t" }, false],
    ["a SCORM package (finishes itself)", ActivityKind.lti, true, { scorm: { version: "1.2" } }, false],
    ["a plain link to a tool (no launch, no score comes back)", ActivityKind.lti, true, {}, false],
    ["not an LTI activity", ActivityKind.text, true, { tool: "t" }, false],
    ["no content", ActivityKind.lti, true, null, false],
  ])("%s", (_, kind, supportLtiGrading, content, expected) => {
    expect(gradedByTool({ kind, supportLtiGrading, content })).toBe(expected);
  });
});
