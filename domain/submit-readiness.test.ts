import { describe, expect, it } from "vitest";
import type { TreeNode } from "./contract/lifecycle";
import { unfinishedActivities } from "./submit-readiness";
import {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  ActivityWorkflowState as AW,
  ObjectiveState,
} from "./vocabulary";

function node(id: string, o: { kind?: ActivityKind; state?: ObjectiveState; wf?: AW; optional?: boolean } = {}) {
  return {
    activityPathId: id,
    parentPathId: "root",
    axis: id,
    order: 1,
    optional: o.optional ?? false,
    scoreWeight: 1,
    constraint: {},
    available: true,
    contentAvailable: true,
    childActivity: {
      id: `a-${id}`,
      name: `Activity ${id}`,
      code: id,
      kind: o.kind ?? ActivityKind.text,
      contentType: ActivityContentType.Text,
      type: ActivityType.None,
      state: o.state ?? ObjectiveState.ready,
      proctored: false,
      duration: null,
      maxScore: null,
      supportReview: true,
      supportCollaborativeMode: false,
      supportPersonalMode: true,
      activityWorkflowAggregate: {
        lastActivityWorkflow: o.wf
          ? {
              id: `w-${id}`,
              state: o.wf,
              submitted: false,
              finished: null,
              started: "2026-01-01T00:00:00Z",
              resume: null,
              groupActivityWorkflowId: null,
            }
          : null,
        bestActivityRecord: null,
      },
    },
  } satisfies TreeNode;
}

describe("what the submit confirmation names (issue 26; spec 2.6, 4.5)", () => {
  it("counts activities, not modules or 'coming soon' ones, and lists those not handed in, in order", () => {
    const result = unfinishedActivities([
      node("1", { kind: ActivityKind.composite }),
      node("1.1", { wf: AW.finished }),
      node("1.2", { wf: AW.inProgress }),
      node("1.3"),
      node("2", { wf: AW.inGrading }),
      node("3", { optional: true }),
      node("4", { state: ObjectiveState.draft }),
    ]);
    expect(result.total).toBe(5);
    expect(result.activities).toEqual([
      { pathId: "1.2", name: "Activity 1.2", optional: false },
      { pathId: "1.3", name: "Activity 1.3", optional: false },
      { pathId: "3", name: "Activity 3", optional: true },
    ]);
  });

  it("a course that is one activity (an LTI course) counts that one", () => {
    expect(unfinishedActivities([node("0", { kind: ActivityKind.lti })])).toEqual({
      total: 1,
      activities: [{ pathId: "0", name: "Activity 0", optional: false }],
    });
  });

  it("everything handed in: nothing to name", () => {
    expect(unfinishedActivities([node("1", { wf: AW.finished })]).activities).toEqual([]);
  });

  it("given the time, leaves out what its dates closed (before she joined, too): she can no longer do it", () => {
    const closed = { ...node("2"), constraint: { accessibleUntil: "2026-01-10T00:00:00Z" } };
    const notYet = { ...node("3"), constraint: { startUntil: "2026-01-10T00:00:00Z" } };
    const open = { ...node("4"), constraint: { accessibleUntil: "2026-03-01T00:00:00Z" } };
    const now = new Date("2026-02-01T00:00:00Z");
    expect(unfinishedActivities([node("1"), closed, notYet, open], now).activities.map((a) => a.pathId)).toEqual([
      "1",
      "4",
    ]);
    // Without the time, as before: every activity not handed in.
    expect(unfinishedActivities([node("1"), closed]).activities).toHaveLength(2);
  });
});
