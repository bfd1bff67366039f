import { describe, expect, it } from "vitest";
import { completionRule, CompletionRule, marksDoneByHand, type CompletionInput } from "./completion";
import { ActivityContentType as C, ActivityKind as K, ActivityType as T } from "./vocabulary";

const activity = (over: Partial<CompletionInput>): CompletionInput => ({
  kind: K.text,
  type: T.RichText,
  contentType: C.Text,
  supportLtiGrading: false,
  content: {},
  completion: null,
  ...over,
});

describe("completionRule: how an activity becomes done (Moodle/Canvas completion requirements)", () => {
  it.each([
    ["a text", activity({}), CompletionRule.view],
    ["a PDF", activity({ type: T.PublicFiles, contentType: C.PublicFile }), CompletionRule.view],
    ["a text the course marks by hand", activity({ completion: "manual" }), CompletionRule.manual],
    ["a video", activity({ kind: K.video, contentType: C.Vimeo }), CompletionRule.watch],
    ["a discussion", activity({ kind: K.discussion, type: T.ClassDiscussion }), CompletionRule.post],
    ["a discussion set to manual", activity({ kind: K.discussion, completion: "manual" }), CompletionRule.post],
    ["an assignment", activity({ type: T.Assignment }), CompletionRule.submit],
    ["an assessment", activity({ type: T.Assessment }), CompletionRule.submit],
    ["an assessment on a passing grade", activity({ type: T.Assessment, completion: "passingGrade" }), "passingGrade"],
    [
      "a tool that grades",
      activity({ kind: K.lti, contentType: C.Lti13, supportLtiGrading: true, content: { tool: "lab" } }),
      CompletionRule.tool,
    ],
    ["a SCORM package", activity({ kind: K.lti, type: T.Scorm }), CompletionRule.package],
    ["a link to a tool", activity({ kind: K.lti, contentType: C.Lti13, content: {} }), CompletionRule.manual],
    ["an event", activity({ kind: K.event, type: T.Classroom }), CompletionRule.manual],
    ["a group's text", activity({ collaborative: true }), CompletionRule.submit],
    ["an unknown choice", activity({ completion: "whenever" }), CompletionRule.view],
    ["a text worth points: handed in, not done by opening it", activity({ graded: true }), CompletionRule.submit],
    ["a graded text set to view: still handed in", activity({ graded: true, completion: "view" }), "submit"],
  ])("%s → %s", (_, a, expected) => {
    expect(completionRule(a)).toBe(expected);
  });
});

describe("marksDoneByHand: where 'Mark as done' is offered", () => {
  it.each([
    [CompletionRule.manual, true, true],
    [CompletionRule.submit, true, true],
    [CompletionRule.view, true, false],
    [CompletionRule.view, false, false],
    [CompletionRule.post, false, false],
    [CompletionRule.watch, true, false],
    [CompletionRule.watch, false, true],
    [CompletionRule.tool, false, false],
    [CompletionRule.passingGrade, false, false],
  ])("%s, player can tell %s → %s", (rule, playerCanTell, expected) => {
    expect(marksDoneByHand(rule, { playerCanTell })).toBe(expected);
  });
});
