import { z } from "zod";
import type {
  ActivityContentType,
  ActivityKind,
  ActivityType,
  ActivityWorkflowState,
  ObjectiveState,
} from "../vocabulary";

export const startObjectiveWorkflowSchema = z.object({ objectiveWorkflowAggregateId: z.uuid(), id: z.uuid() });
export const submitObjectiveWorkflowSchema = z.object({ id: z.uuid() });
export const finishObjectiveWorkflowSchema = z.object({ id: z.uuid(), objectiveWorkflowId: z.uuid() });
export const startActivityWorkflowsSchema = z.object({
  objectiveWorkflowId: z.uuid(),
  activityPartIds: z.array(z.uuid()).min(1).max(500),
  /** Spec 3 / decision 026: personal or group mode for a collaborative activity (default: its only mode, else personal). */
  mode: z.enum(["personal", "group"]).optional(),
});
export const finishActivityWorkflowsSchema = z.object({
  objectiveWorkflowId: z.uuid(),
  activityWorkflowIds: z.array(z.uuid()).min(1).max(500),
});

/** One node of a course's tree as a learner sees it (spec 3 'Activity part'). */
export interface TreeNode {
  activityPathId: string;
  parentPathId: string | null;
  axis: string;
  order: number;
  optional: boolean;
  scoreWeight: number;
  constraint: Record<string, string | null>;
  available: boolean;
  contentAvailable: boolean;
  childActivity: {
    id: string;
    name: string;
    code: string;
    kind: ActivityKind;
    contentType: ActivityContentType;
    type: ActivityType;
    state: ObjectiveState;
    proctored: boolean;
    duration: number | null;
    maxScore: number | null;
    supportReview: boolean;
    /** Spec 3: taken by a group (team or mini-group), by each learner alone, or either (decision 026). */
    supportCollaborativeMode: boolean;
    supportPersonalMode: boolean;
    /** Issue 26: its LTI tool sends the grade and so finishes it; the learner does not mark it done. */
    gradedByTool?: boolean;
    activityWorkflowAggregate: {
      lastActivityWorkflow: {
        id: string;
        state: ActivityWorkflowState;
        submitted: boolean;
        finished: string | null;
        started: string;
        resume: { page?: number; position?: number; openedAt?: string } | null;
        /** Group mode: the group's workflow this one follows (decision 026); null in personal mode. */
        groupActivityWorkflowId: string | null;
      } | null;
      bestActivityRecord: { score: number | null; maxScore: number | null; passed: boolean | null } | null;
    };
  };
}

export interface ActivityTree {
  objectiveWorkflowId: string;
  rootPathId: string | null;
  nodes: TreeNode[];
}

/** The content of an activity the learner may open (spec 3 Activity, 7.4). */
export interface ActivityContent {
  id: string;
  kind: ActivityKind;
  contentType: ActivityContentType;
  content: Record<string, unknown>;
  duration: number | null;
  toolUrl: string | null;
  imageUrl: string | null;
  /** Spec 3 preferredWidth/Height (EmbeddedCustom's frame), in CSS pixels. */
  preferredWidth: number | null;
  preferredHeight: number | null;
  /** An LTI activity's frame: its registered tool's `allow` and `sandbox` (issue 14 item 5); null otherwise. */
  frame: { allow: string; sandbox: string | null } | null;
}

/**
 * Spec 7.3 GET users/me/objective-workflows/{id}/activities/{activityId}/activity-workflow-aggregate:
 * where the learner stands in one activity of one attempt — its latest activity workflow and its
 * latest record (scores only where the attempt's results may be shown, spec 4.7).
 */
export interface ActivityWorkflowAggregate {
  objectiveWorkflowId: string;
  activityId: string;
  activityWorkflow: {
    id: string;
    state: ActivityWorkflowState;
    started: string | null;
    finished: string | null;
    resume: unknown;
  } | null;
  activityRecord: {
    id: string;
    score: number | null;
    maxScore: number | null;
    passed: boolean | null;
    finished: string | null;
  } | null;
}
