// Mappers turn table rows into the API's contract shapes; they run no SQL. This one: attempts' records, activity
// records and activity contents (spec 7.3, 7.4).
import { previousAttemptScoresVisible } from "../../domain/lifecycle";
import type { AttemptRecord } from "../../domain/contract/courses";
import { ActivityKind, type ObjectiveWorkflowState } from "../../domain/vocabulary";
import { framePolicy } from "../../domain/lti";
import type { LtiRegistry } from "../lti/registry";
import type {
  activities,
  activityRecords,
  activityWorkflows,
  objectiveRecords,
  objectiveWorkflowAggregates,
} from "../db/schema";
import type { ActivityWorkflowAggregate } from "../../domain/contract/lifecycle";
import { iso } from "./common";
import { toRecord, type GradeRow } from "./courses";

/**
 * The records of one course's attempts, newest first, each through the reveal rule (`toRecord`); the
 * older attempts' scores also hide while the policy hides previous attempts (spec 4.7).
 */
export function toAttemptRecords(
  agg: typeof objectiveWorkflowAggregates.$inferSelect,
  rows: {
    r: typeof objectiveRecords.$inferSelect;
    wfState: ObjectiveWorkflowState | null;
    attempt: number | null;
    started: Date | null;
  }[],
  gradeMap: Map<string, GradeRow>,
  now: Date,
): AttemptRecord[] {
  const olderVisible = previousAttemptScoresVisible(
    {
      recordCount: rows.length,
      gradeRevealPolicy: agg.gradeRevealPolicy as "none",
      gradeRevealDate: iso(agg.gradeRevealDate),
    },
    now,
  );
  return rows.map((x, i) => {
    const rec = toRecord(x.r, agg, x.wfState, gradeMap, now)!;
    const hidden = i > 0 && !olderVisible;
    return {
      ...rec,
      ...(hidden
        ? { score: null, maxScore: null, normalizedScore: null, grade: null, passed: null, resultsHidden: true }
        : {}),
      objectiveWorkflowId: x.r.workflowId,
      attempt: x.attempt,
      started: iso(x.started),
      workflowState: x.wfState,
    };
  });
}

/** An activity record of an attempt; scores stay null unless `reveal`. */
export function toActivityRecord(rec: typeof activityRecords.$inferSelect, activityId: string, reveal: boolean) {
  return {
    id: rec.id,
    activityId,
    activityWorkflowId: rec.activityWorkflowId,
    score: reveal ? rec.score : null,
    maxScore: reveal ? rec.maxScore : null,
    passed: reveal ? rec.passed : null,
    finished: iso(rec.finished),
  };
}

/** The content of one activity, as the content viewer opens it. */
export function toActivityContent(a: typeof activities.$inferSelect, registry: LtiRegistry) {
  return {
    id: a.id,
    name: a.name,
    kind: a.kind,
    contentType: a.contentType,
    content: a.content,
    duration: a.duration,
    toolUrl: a.toolUrl,
    preferredWidth: a.preferredWidth,
    preferredHeight: a.preferredHeight,
    frame: toolFrame(a, registry),
  };
}

/** Issue 14 item 5: an LTI activity's frame policy, from the tool it names in the registry. */
export function toolFrame(
  a: { kind: number; content: unknown },
  registry: LtiRegistry,
): { allow: string; sandbox: string | null } | null {
  if (a.kind !== ActivityKind.lti) return null;
  const key = (a.content as { tool?: unknown } | null)?.tool;
  return framePolicy(typeof key === "string" ? registry.byKey(key) : null);
}

/** Spec 7.3 activity-workflow aggregate: the activity's latest workflow and record in one attempt. */
export function toActivityWorkflowAggregate(
  objectiveWorkflowId: string,
  activityId: string,
  standing: {
    activityWorkflow: typeof activityWorkflows.$inferSelect | null;
    activityRecord: typeof activityRecords.$inferSelect | null;
  },
  reveal: boolean,
): ActivityWorkflowAggregate {
  const aw = standing.activityWorkflow;
  const rec = standing.activityRecord;
  return {
    objectiveWorkflowId,
    activityId,
    activityWorkflow: aw
      ? { id: aw.id, state: aw.state, started: iso(aw.started), finished: iso(aw.finished), resume: aw.resume ?? null }
      : null,
    activityRecord: rec
      ? {
          id: rec.id,
          score: reveal ? rec.score : null,
          maxScore: reveal ? rec.maxScore : null,
          passed: reveal ? rec.passed : null,
          finished: iso(rec.finished),
        }
      : null,
  };
}
