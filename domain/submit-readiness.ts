import type { TreeNode } from "./contract/lifecycle";
import { activityDisableReason } from "./activity-access";
import { ActivityKind, ActivityWorkflowState, ObjectiveState } from "./vocabulary";

export interface Unfinished {
  /** Activities the attempt counts (modules and "coming soon" ones are not activities to do). */
  total: number;
  /** Those not handed in yet (not started, or in progress), in the course's order. */
  activities: { pathId: string; name: string; optional: boolean }[];
}

/**
 * Issue 26 (spec 2.6, 4.5): what the submit confirmation names — "3 of 7 activities not done" and
 * which. An activity is done once handed in (finished, or in grading); a module is not an activity of
 * its own, and a draft ('Coming soon') cannot be done yet. `nodes` in the course's order.
 *
 * Given `now`, an activity whose dates closed it (spec 4.12: past its grace period, its accessible-until
 * or its start-until date — perhaps before the learner joined) is not named: she can no longer do it.
 */
export function unfinishedActivities(nodes: readonly TreeNode[], now?: Date): Unfinished {
  const todo = nodes.filter(
    (n) => n.childActivity.kind !== ActivityKind.composite && n.childActivity.state !== ObjectiveState.draft,
  );
  const done = (n: TreeNode) => {
    const aw = n.childActivity.activityWorkflowAggregate.lastActivityWorkflow;
    return aw !== null && aw.state !== ActivityWorkflowState.inProgress;
  };
  return {
    total: todo.length,
    activities: todo
      .filter((n) => !done(n) && !(now && closed(n, now)))
      .map((n) => ({ pathId: n.activityPathId, name: n.childActivity.name, optional: n.optional })),
  };
}

const CLOSED = new Set([
  "activityLock.afterGracePeriodUntil",
  "activityLock.afterAccessibleUntil",
  "activityLock.afterStartUntil",
]);
const closed = (n: TreeNode, now: Date) => CLOSED.has(activityDisableReason(n, { now, reviewing: false })?.key ?? "");
