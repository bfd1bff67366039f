// Mappers turn table rows into the API's contract shapes; they run no SQL. This one: calendar items
// from a learner's course dates and course trees, with the domain's rules (decision 022).
import {
  activityCalendarItems,
  courseCalendarItems,
  eventDetails,
  reinforcementCalendarItem,
  type CourseRef,
} from "../../domain/calendar";
import type { CalendarItem, DashboardCourse } from "../../domain/contract/calendar";
import type { GradeRevealPolicy, ObjectiveWorkflowState, ProctoringSessionState } from "../../domain/vocabulary";
import { proctorLocked } from "../../domain/proctoring";
import type { CourseDateRow, DatedTreeRow } from "../queries/calendar";
import type { ReinforcementDateRow } from "../queries/reinforcement";
import { toActivityTree, type TreeRow } from "./activity-tree";
import { iso } from "./common";

export function courseItemsOf(rows: CourseDateRow[]): CalendarItem[] {
  return rows.flatMap((r) =>
    courseCalendarItems({
      aggregateId: r.aggregateId,
      course: { id: r.objectiveId, name: r.name, code: r.code, mandatory: r.isMandatory },
      dueDate: iso(r.dueDate),
      availabilityDate: iso(r.availabilityDate),
      availabilityEndDate: iso(r.availabilityEndDate),
      gradeRevealPolicy: r.gradeRevealPolicy as GradeRevealPolicy,
      gradeRevealDate: iso(r.gradeRevealDate),
      workflowState: (r.lastWorkflowState as ObjectiveWorkflowState | null) ?? null,
      hasRecord: r.lastRecordId !== null,
    }),
  );
}

/**
 * The activity items of each course: its tree as the content viewer sees it (inherited module
 * windows, the attempt's activity workflows; scores never — they are not needed), then each node's own
 * dates and events, locked by the same 4.12 rule as the table of contents.
 */
export function activityItemsOf(rows: DatedTreeRow[], now: Date): CalendarItem[] {
  const byCourse = new Map<string, DatedTreeRow[]>();
  for (const row of rows) {
    const list = byCourse.get(row.objectiveId);
    if (list) list.push(row);
    else byCourse.set(row.objectiveId, [row]);
  }
  const out: CalendarItem[] = [];
  for (const list of byCourse.values()) {
    const first = list[0];
    const course: CourseRef = {
      id: first.objectiveId,
      name: first.name,
      code: first.code,
      mandatory: first.isMandatory,
    };
    const treeRows: TreeRow[] = list.map((r) => ({
      part: r.part,
      activity: { ...r.activity, content: {}, preferredWidth: null, preferredHeight: null } as TreeRow["activity"],
      aw: r.aw,
      rec: null,
    }));
    const byPart = new Map(list.map((r) => [r.part.id, r]));
    for (const node of toActivityTree(treeRows, false).nodes) {
      const row = byPart.get(node.activityPathId)!;
      // The root is the course itself: its dates are the course's (spec 3), not an activity's.
      if (row.part.parentPartId === null && !row.event) continue;
      out.push(
        ...activityCalendarItems({
          course,
          node,
          ownConstraint: (row.part.constraint ?? {}) as Record<string, unknown>,
          event: eventDetails(row.event),
          now,
        }),
      );
    }
  }
  return out;
}

/** Issue 13 item 6: the learner's reinforcement questions, each on the instant it is due. */
export function reinforcementItemsOf(rows: ReinforcementDateRow[]): CalendarItem[] {
  return rows.map((r) =>
    reinforcementCalendarItem({
      workflowId: r.id,
      course: { id: r.objectiveId, name: r.courseName, code: r.courseCode, mandatory: r.isMandatory },
      module: { id: r.activityId, pathId: r.pathId, name: r.moduleName, kind: r.moduleKind },
      dueAt: r.dueAt.toISOString(),
      question: r.question,
      options: r.options,
      answer: r.answer,
    }),
  );
}

type CourseRow = {
  aggregateId: string;
  objectiveId: string;
  name: string;
  code: string;
  imageUrl: string | null;
  isMandatory: boolean;
  dueDate: Date | null;
  state: number | null;
  progress?: number | null;
  started?: Date | null;
  submitted?: Date | null;
  lastUsed?: Date | string | null;
  lastPartId?: string | null;
  lastPartState?: number | null;
  /** The attempt's newest proctored sitting's state (continue learning), null without one. */
  sittingState?: ProctoringSessionState | null;
};

export function toDashboardCourse(r: CourseRow, resumable = false): DashboardCourse {
  const used = r.lastUsed ? new Date(r.lastUsed).toISOString() : null;
  return {
    id: r.objectiveId,
    aggregateId: r.aggregateId,
    name: r.name,
    code: r.code,
    imageUrl: r.imageUrl,
    mandatory: r.isMandatory,
    dueDate: iso(r.dueDate),
    progress: r.progress ?? 0,
    state: (r.state as ObjectiveWorkflowState | null) ?? null,
    started: iso(r.started ?? null),
    submitted: iso(r.submitted ?? null),
    lastUsed: used,
    resumePathId: resumable ? (r.lastPartId ?? null) : null,
    // A course locked by a proctored sitting that is over (spec 4.8, decision 010).
    locked: proctorLocked({
      workflow: r.state === null ? null : { state: r.state as ObjectiveWorkflowState },
      session: r.sittingState ? { state: r.sittingState } : null,
    }),
  };
}
