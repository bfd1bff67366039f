// Mappers turn table rows into the API's contract shapes; they run no SQL. This one: a course's activity tree
// (spec 7.4) — each part as a node, with the constraints it inherits from its modules.
import type { ActivityTree, TreeNode } from "../../domain/contract/lifecycle";
import { ActivityWorkflowState, CONTENT_AVAILABLE_STATES, ObjectiveState } from "../../domain/vocabulary";
import type { activities, activityParts, activityRecords, activityWorkflows } from "../db/schema";
import { gradedByTool } from "../../domain/tool-grading";
import { completionRule } from "../../domain/completion";
import { handInSettings } from "../../domain/hand-ins";
import { DEFAULT_ATTACHMENT_RULES } from "../../domain/chat-attachments";
import { iso } from "./common";

/** A part of the course, its activity, and the attempt's activity workflow and record (if any). */
export interface TreeRow {
  part: typeof activityParts.$inferSelect;
  activity: typeof activities.$inferSelect;
  aw: typeof activityWorkflows.$inferSelect | null;
  rec: typeof activityRecords.$inferSelect | null;
}

/** The tree of a course from its parts in axis order; scores stay null unless `revealScores`. */
export function toActivityTree(rows: TreeRow[], revealScores: boolean): Omit<ActivityTree, "objectiveWorkflowId"> {
  const byId = new Map(rows.map((r) => [r.part.id, r]));
  // A module's window applies to everything inside it: the later start, the earlier end wins.
  const effective = new Map<string, Record<string, string | null>>();
  const later = (a?: string | null, b?: string | null) =>
    !a ? (b ?? null) : !b ? a : Date.parse(a) >= Date.parse(b) ? a : b;
  const earlier = (a?: string | null, b?: string | null) =>
    !a ? (b ?? null) : !b ? a : Date.parse(a) <= Date.parse(b) ? a : b;
  const constraintOf = (partId: string): Record<string, string | null> => {
    const known = effective.get(partId);
    if (known) return known;
    const row = byId.get(partId)!;
    const own = (row.part.constraint ?? {}) as Record<string, string | null>;
    const parent = row.part.parentPartId && byId.has(row.part.parentPartId) ? constraintOf(row.part.parentPartId) : {};
    const c: Record<string, string | null> = {
      ...own,
      startFrom: later(own.startFrom, parent.startFrom),
      accessibleUntil: earlier(own.accessibleUntil, parent.accessibleUntil),
      startUntil: earlier(own.startUntil, parent.startUntil),
    };
    for (const k of ["startFrom", "accessibleUntil", "startUntil"])
      if (c[k] === null && own[k] === undefined) delete c[k];
    effective.set(partId, c);
    return c;
  };
  const nodes: TreeNode[] = rows
    .filter((r) => r.activity.state !== ObjectiveState.archived)
    .map(({ part, activity, aw, rec }) => {
      const constraint = constraintOf(part.id);
      // Dates (startFrom…) are constraints the client weighs in order (spec 4.12), not availability.
      const contentAvailable = CONTENT_AVAILABLE_STATES.includes(activity.state);
      const parent = part.parentPartId ? byId.get(part.parentPartId) : null;
      return {
        activityPathId: part.id,
        parentPathId: part.parentPartId,
        axis: part.axis,
        order: part.order,
        optional: part.optional,
        scoreWeight: part.scoreWeight,
        constraint,
        available:
          activity.state !== ObjectiveState.draft && (!parent || parent.activity.state !== ObjectiveState.draft),
        contentAvailable,
        childActivity: {
          id: activity.id,
          name: activity.name,
          code: activity.code,
          kind: activity.kind,
          contentType: activity.contentType,
          type: activity.type,
          state: activity.state,
          proctored: activity.proctored,
          duration: activity.duration,
          maxScore: activity.maxScore,
          supportReview: activity.supportReview,
          supportCollaborativeMode: activity.supportCollaborativeMode,
          supportPersonalMode: activity.supportPersonalMode,
          gradedByTool: gradedByTool(activity),
          completionRule: completionRule({
            ...activity,
            graded: activity.maxScore !== null || activity.manualGrading,
            collaborative: activity.supportCollaborativeMode,
          }),
          takesHandIn: handInSettings(activity, DEFAULT_ATTACHMENT_RULES) !== null,
          activityWorkflowAggregate: {
            lastActivityWorkflow: aw
              ? {
                  id: aw.id,
                  state: aw.state,
                  submitted: aw.state !== ActivityWorkflowState.inProgress,
                  finished: iso(aw.finished),
                  started: aw.started.toISOString(),
                  resume: (aw.resume as { page?: number; openedAt?: string } | null) ?? null,
                  groupActivityWorkflowId: aw.groupActivityWorkflowId ?? null,
                }
              : null,
            bestActivityRecord: rec
              ? {
                  score: revealScores ? rec.score : null,
                  maxScore: revealScores ? rec.maxScore : null,
                  passed: revealScores ? rec.passed : null,
                }
              : null,
          },
        },
      };
    });
  return { rootPathId: rows.find((r) => r.part.parentPartId === null)?.part.id ?? null, nodes };
}
