import { z } from "zod";
import type { ActivityWorkflowState } from "../vocabulary";
import { GROUP_WORK_MAX } from "../groups";

/**
 * Spec 7.3 GET users/me/objective-workflow-aggregates/{owa_id}/group-activity-workflows/{gaw_id}: the
 * group's one workflow of an activity, as every member sees it (decision 026).
 */
export interface GroupActivityWorkflow {
  id: string;
  activityPathId: string;
  state: ActivityWorkflowState;
  group: { id: string; name: string; kind: string };
  started: string;
  finished: string | null;
  finishedBy: { id: string; name: string } | null;
  /** The group's shared answer and the number of its saves (name it when saving). */
  work: { text: string; version: number; updatedAt: string | null; updatedBy: { id: string; name: string } | null };
  /** The group's result where the attempt's results may be shown (spec 4.7); null otherwise. */
  result: { score: number | null; maxScore: number | null; passed: boolean | null } | null;
}

/** PUT …/group-activity-workflows/{gaw_id}: a member saves the group's answer, naming the version it started from. */
export const groupWorkSchema = z.object({
  text: z.string().max(GROUP_WORK_MAX),
  version: z.number().int().min(0),
});
export type GroupWork = z.infer<typeof groupWorkSchema>;

/** Spec 7.3 GET users/me/objective-workflows/{id}/activity-paths/{activityPathId}/participants/query. */
export const participantsQuerySchema = z.object({
  search: z.string().max(200).optional(),
  skip: z.coerce.number().int().min(0).max(100_000).default(0),
  take: z.coerce.number().int().min(1).max(100).default(20),
});

interface Participant {
  id: string;
  firstName: string;
  lastName: string;
  /** The caller. */
  me: boolean;
  contributions: number;
  lastContributedAt: string | null;
  lastContribution: "saved" | "submitted" | null;
}

export interface ParticipantsPage {
  group: { id: string; name: string; kind: string };
  /** The group's workflow of this activity once any member has started it. */
  groupActivityWorkflowId: string | null;
  data: Participant[];
  totalCount: number;
}

/** `users/me/objective-workflow-aggregates/{owaId}/group-activity-workflows/{gawId}` */
export const groupActivityWorkflowPathSchema = z.object({ owaId: z.uuid(), gawId: z.uuid() });
/** `users/me/objective-workflows/{id}/activity-paths/{activityPathId}/participants/query` */
export const participantsPathSchema = z.object({ id: z.uuid(), activityPathId: z.uuid() });
