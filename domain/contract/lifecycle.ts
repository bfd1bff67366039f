import { z } from "zod";
import { scormCommitSchema } from "./scorm";
import type { CompletionRule } from "../completion";
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
  /**
   * The client's command id (issue 31: a write made offline and sent again carries one). Without it the
   * id is derived from the workflows, as before; with it, the same id answers once (decision 018).
   */
  id: z.uuid().optional(),
});

/** `users/me/objective-workflows/{id}/activity/{path}`: the workflow, and a node of its tree (none: the root). */
export const treePathSchema = z.object({ id: z.uuid(), path: z.uuid().optional() });
/** `…/objective-workflows/{id}/activities/{activityId}/…` */
export const workflowActivityPathSchema = z.object({ id: z.uuid(), activityId: z.uuid() });
/** `…/objective-workflows/{id}/activity-workflows/{awId}…` */
export const activityWorkflowPathSchema = z.object({ id: z.uuid(), awId: z.uuid() });
/** `activity-records/query?filter=activity.id eq '<uuid>'` (the only filter it takes; checked by the handler). */
export const activityRecordsQuerySchema = z.object({ filter: z.string().optional() });
/** `objective-records/query?objectiveId=` (checked by the handler: 400 with its own message). */
export const objectiveRecordsQuerySchema = z.object({ objectiveId: z.string().optional() });

/**
 * PUT activity workflow: where the learner left off inside an activity (a page, a media position), or
 * one commit of a SCORM package's SCO (decision 025) — one of the two.
 */
export const activityWorkflowSaveSchema = z
  .object({
    resume: z
      .object({
        page: z.number().int().min(1).max(100_000).optional(),
        position: z.number().min(0).max(1_000_000).optional(),
      })
      .strict()
      .optional(),
    scorm: scormCommitSchema.optional(),
  })
  .refine((b) => (b.resume === undefined) !== (b.scorm === undefined), {
    message: "Send either resume or scorm.",
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
    /** Its LTI tool sends the grade and so finishes it; the learner does not mark it done. */
    gradedByTool?: boolean;
    /** How it becomes done (domain/completion.ts); absent from an API that does not say: "Mark as done". */
    completionRule?: CompletionRule;
    /** Decision 048: an assignment handed in on its hand-in page (text, files), not marked done. */
    takesHandIn?: boolean;
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
