// Mappers turn table rows into the API's contract shapes; they run no SQL. This one: the grades overview
// (issue 31 item 1), every score through the reveal rules of spec 4.7.
import { activityScoresVisible } from "../../domain/grades";
import type { GradeActivity, GradeCourse } from "../../domain/contract/grades";
import type { ObjectiveWorkflowState } from "../../domain/vocabulary";
import { iso } from "./common";
import { toRecord, type AggregateRow, type GradeRow, type RecordRow, type WorkflowRow } from "./courses";

export interface GradeActivityRow {
  objectiveId: string;
  activityPathId: string;
  axis: string;
  activityId: string;
  name: string;
  maxScore: number | null;
  score: number | null;
  recordMaxScore: number | null;
  passed: boolean | null;
  finished: Date | null;
}

export function toGradeActivity(row: GradeActivityRow, reveal: boolean): GradeActivity {
  return {
    activityPathId: row.activityPathId,
    activityId: row.activityId,
    name: row.name,
    axis: row.axis,
    // The points the attempt was graded out of, else what the activity is worth now.
    maxScore: row.recordMaxScore ?? row.maxScore,
    score: reveal ? row.score : null,
    passed: reveal ? row.passed : null,
    finished: iso(row.finished),
    resultsHidden: !reveal,
  };
}

export function toGradeCourse(
  row: {
    a: AggregateRow;
    o: { id: string; name: string; code: string; supportReview: boolean };
    w: WorkflowRow | null;
    r: RecordRow | null;
  },
  gradeMap: Map<string, GradeRow>,
  now: Date,
  activitiesFor: (reveal: boolean) => GradeActivity[],
): GradeCourse {
  const { a, o, w, r } = row;
  const policy = {
    gradeRevealPolicy: a.gradeRevealPolicy as GradeCourse["gradeRevealPolicy"],
    gradeRevealDate: iso(a.gradeRevealDate),
  };
  const reveal = activityScoresVisible(
    {
      ...policy,
      workflow: w ? { state: w.state as ObjectiveWorkflowState } : null,
      protectResults: Boolean(w?.protectResults || r?.protectResults),
      supportReview: o.supportReview,
    },
    now,
  );
  return {
    id: a.id,
    objective: { id: o.id, name: o.name, code: o.code },
    isMandatory: a.isMandatory,
    ...policy,
    lastObjectiveWorkflow: w
      ? {
          id: w.id,
          state: w.state as ObjectiveWorkflowState,
          progress: w.progress,
          started: iso(w.started),
          submitted: iso(w.submitted),
          finished: iso(w.finished),
        }
      : null,
    lastObjectiveRecord: toRecord(r, a, (w?.state as ObjectiveWorkflowState | undefined) ?? null, gradeMap, now),
    activities: activitiesFor(reveal),
  };
}
