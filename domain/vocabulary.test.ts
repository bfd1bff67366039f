import { describe, expect, it } from "vitest";
import {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  ActivityWorkflowState,
  BadgeKind,
  CommandResult,
  DisplayMode,
  enumValues,
  FEEDBACK_OPTIONS,
  isMember,
  ObjectiveState,
  ObjectiveWorkflowState,
  PresentationMode,
  RecordStatus,
  ROLES,
} from "./vocabulary";

describe("spec 3 enumerations keep the spec's numbers", () => {
  it.each([
    [
      "Activity content type",
      ActivityContentType,
      { Lti13: 1, PublicFile: 2, PrivateFile: 3, Lti11: 4, Text: 5, Composite: 6, Vimeo: 7 },
    ],
    ["Objective state", ObjectiveState, { draft: 1, ready: 2, expired: 3, archived: 4 }],
    ["Activity kind", ActivityKind, { text: 1, lti: 2, composite: 3, event: 4, video: 5, discussion: 6 }],
    ["Display mode", DisplayMode, { Fullscreen: 1, EmbeddedAuto: 2, EmbeddedCustom: 3 }],
    ["Presentation mode", PresentationMode, { Tree: 0, Tiles: 1, LongRead: 2, LongReadWithoutActivityNames: 3 }],
    ["Badge kind", BadgeKind, { Custom: 1, Credly: 2 }],
    ["Another status set", RecordStatus, { Draft: 1, Active: 2, Archived: 3 }],
    ["Background command result", CommandResult, { completed: 1, failed: 2, canceled: 3 }],
    [
      "4.1 objective workflow",
      ObjectiveWorkflowState,
      { inProgress: 1, submitted: 2, inGrading: 3, graded: 4, gradingApproved: 5, finished: 6 },
    ],
    ["4.1 activity workflow", ActivityWorkflowState, { inProgress: 1, inGrading: 2, finished: 3 }],
  ])("%s", (_name, enumeration, expected) => {
    expect(enumeration).toEqual(expected);
  });

  it("Activity type runs from 0 None to 14 Assignment, one number each", () => {
    expect(ActivityType.None).toBe(0);
    expect(ActivityType.Assignment).toBe(14);
    expect(new Set(enumValues(ActivityType)).size).toBe(15);
  });

  it("roles and feedback options are the spec's lists", () => {
    expect(ROLES).toEqual(["Administrator", "Author", "Instructor", "Learner"]);
    expect(FEEDBACK_OPTIONS).toHaveLength(13);
    expect(FEEDBACK_OPTIONS[0]).toBe("no");
  });

  it.each([
    [ActivityKind, 2, true],
    [ActivityKind, 7, false],
    [ActivityKind, "2", false],
    [PresentationMode, 0, true],
    [ObjectiveWorkflowState, null, false],
  ])("isMember(%o, %o) is %s", (enumeration, value, expected) => {
    expect(isMember(enumeration, value)).toBe(expected);
  });
});
