// Mappers turn table rows into the API's contract shapes; they run no SQL. This one: courses (objectives), aggregates,
// workflows and records — the columns each shape reads, and the row → contract functions.
import { gradeVisibility } from "../../domain/lifecycle";
import { ObjectiveWorkflowState } from "../../domain/vocabulary";
import type {
  Aggregate,
  AggregateSelection,
  Objective,
  ObjectiveAccess,
  ObjectiveRecord,
  ObjectiveWorkflow,
  PublicObjective,
} from "../../domain/contract/courses";
import {
  grades,
  objectiveAccesses,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
} from "../db/schema";
import { iso } from "./common";

/**
 * A course's collections ([{ id, name }] in name order): a column the database keeps up to date
 * (migration 0006) — a correlated sub-select per row was most of the page query's execution.
 */
const showcasesJson = objectives.showcasesJson;

/** The grade of a record, left-joined in the same statement. */
export const gradeColumns = {
  id: grades.id,
  name: grades.name,
  color: grades.color,
  normalizedMinScore: grades.normalizedMinScore,
};
export type GradeRow = { id: string; name: string; color: string; normalizedMinScore: number };
export const gradeMapOf = (list: (GradeRow | null)[]) =>
  new Map(list.filter((g): g is GradeRow => g !== null).map((g) => [g.id, g]));

/**
 * The columns a list reads of an aggregate, its last workflow and its last record: what the API
 * returns, nothing more (PGlite decodes every cell in JavaScript; see decision 011).
 */
export const aggregateColumns = {
  id: owa.id,
  userId: owa.userId,
  objectiveId: owa.objectiveId,
  termId: owa.termId,
  isMandatory: owa.isMandatory,
  isSelfEnrolled: owa.isSelfEnrolled,
  retake: owa.retake,
  dueDate: owa.dueDate,
  availabilityDate: owa.availabilityDate,
  availabilityEndDate: owa.availabilityEndDate,
  gradeRevealPolicy: owa.gradeRevealPolicy,
  gradeRevealDate: owa.gradeRevealDate,
  objectiveAccessId: owa.objectiveAccessId,
  lastWorkflowId: owa.lastWorkflowId,
  lastRecordId: owa.lastRecordId,
};
export const workflowColumns = {
  id: objectiveWorkflows.id,
  state: objectiveWorkflows.state,
  progress: objectiveWorkflows.progress,
  started: objectiveWorkflows.started,
  submitted: objectiveWorkflows.submitted,
  finished: objectiveWorkflows.finished,
  objectiveRecordId: objectiveWorkflows.objectiveRecordId,
  protectResults: objectiveWorkflows.protectResults,
  attempt: objectiveWorkflows.attempt,
};
export const recordColumns = {
  id: objectiveRecords.id,
  score: objectiveRecords.score,
  maxScore: objectiveRecords.maxScore,
  normalizedScore: objectiveRecords.normalizedScore,
  gradeId: objectiveRecords.gradeId,
  passed: objectiveRecords.passed,
  finished: objectiveRecords.finished,
  progress: objectiveRecords.progress,
  protectResults: objectiveRecords.protectResults,
  imported: objectiveRecords.imported,
};
export type AggregateRow = Pick<typeof owa.$inferSelect, keyof typeof aggregateColumns>;

/** The record's fields its reveal rule (spec 4.7) hides: selecting one reads what the rule needs. */
const REVEALED = new Set<keyof ObjectiveRecord>([
  "score",
  "maxScore",
  "normalizedScore",
  "grade",
  "passed",
  "resultsHidden",
]);

/**
 * What a selection (spec 7.2 `select`) reads: the aggregate's columns, whether the last workflow and
 * record are joined and which of their columns, and whether the grades are. Whole objects without a
 * selection. The reveal rule reads the access's policy, the record's `protectResults` and the
 * workflow's state whenever a field it hides is selected, even when those are not.
 */
export function aggregateReadFor(selection: AggregateSelection | null) {
  if (!selection)
    return {
      a: aggregateColumns,
      w: workflowColumns as Partial<typeof workflowColumns> | null,
      r: recordColumns as Partial<typeof recordColumns> | null,
      grades: true,
    };
  const { fields } = selection;
  const recordFields = fields.has("lastObjectiveRecord") ? (selection.recordFields ?? null) : new Set<never>();
  const withRecord = fields.has("lastObjectiveRecord");
  const reveal = withRecord && (recordFields === null || [...recordFields].some((f) => REVEALED.has(f)));
  const a: Partial<typeof aggregateColumns> = { id: aggregateColumns.id };
  for (const field of fields) {
    const key = field === "objectiveAccess" ? "objectiveAccessId" : field;
    if (key in aggregateColumns)
      (a as Record<string, unknown>)[key] = aggregateColumns[key as keyof typeof aggregateColumns];
  }
  if (reveal) Object.assign(a, { gradeRevealPolicy: owa.gradeRevealPolicy, gradeRevealDate: owa.gradeRevealDate });
  const narrow = <C extends Record<string, unknown>>(all: C, wanted: Iterable<string> | null, extra: string[]) => {
    if (wanted === null) return all;
    const out: Record<string, unknown> = { id: all.id };
    for (const key of [...wanted, ...extra]) if (key in all) out[key] = all[key];
    return out as Partial<C>;
  };
  const withWorkflow = fields.has("lastObjectiveWorkflow") || reveal;
  const workflowFields = fields.has("lastObjectiveWorkflow") ? (selection.workflowFields ?? null) : new Set<string>();
  const w = withWorkflow ? narrow(workflowColumns, workflowFields, reveal ? ["state"] : []) : null;
  const r = withRecord
    ? narrow(
        recordColumns,
        recordFields === null ? null : [...recordFields].map((f) => (f === "grade" ? "gradeId" : f)),
        reveal ? ["protectResults"] : [],
      )
    : null;
  return {
    a: a as typeof aggregateColumns,
    w,
    r,
    grades: withRecord && (recordFields === null || recordFields.has("grade")),
  };
}

export type WorkflowRow = Pick<typeof objectiveWorkflows.$inferSelect, keyof typeof workflowColumns>;
export type RecordRow = Pick<typeof objectiveRecords.$inferSelect, keyof typeof recordColumns>;

export const objectiveColumns = {
  showcases: showcasesJson,
  id: objectives.id,
  name: objectives.name,
  code: objectives.code,
  description: objectives.description,
  language: objectives.language,
  imageUrl: objectives.imageUrl,
  state: objectives.state,
  type: objectives.type,
  activityKind: objectives.activityKind,
  activityState: objectives.activityState,
  childrenCount: objectives.childrenCount,
  presentationMode: objectives.presentationMode,
  displayMode: objectives.displayMode,
  proctored: objectives.proctored,
  supportMobileView: objectives.supportMobileView,
  supportFullscreenView: objectives.supportFullscreenView,
  supportLtiAuthoring: objectives.supportLtiAuthoring,
  supportReview: objectives.supportReview,
  enableAiTutor: objectives.enableAiTutor,
  accessNewContentAfterCompletion: objectives.accessNewContentAfterCompletion,
  announcementChannelId: objectives.announcementChannelId,
  gradingScaleId: objectives.gradingScaleId,
  allowSelfEnrollment: objectives.allowSelfEnrollment,
};
export type ObjectiveRow = Pick<
  typeof objectives.$inferSelect,
  Exclude<keyof typeof objectiveColumns, never> & keyof typeof objectives.$inferSelect
> & { showcases: { id: string; name: string }[] };

/** The columns each selectable field of a course needs (decision 012: `select`). */
const OBJECTIVE_FIELD_COLUMNS: Partial<Record<keyof Objective, (keyof typeof objectiveColumns)[]>> = {
  activity: ["activityState", "activityKind", "childrenCount", "presentationMode", "supportReview"],
};

/** The columns to read for the asked-for fields of a course (all of them when `fields` is null). */
export function objectiveColumnsFor(fields: Set<keyof Objective> | null) {
  if (!fields) return objectiveColumns;
  const out: Partial<typeof objectiveColumns> = {};
  for (const field of fields) {
    for (const key of OBJECTIVE_FIELD_COLUMNS[field] ?? [field as keyof typeof objectiveColumns])
      (out as Record<string, unknown>)[key] = objectiveColumns[key];
  }
  return out as typeof objectiveColumns;
}

export function toObjective(o: ObjectiveRow): Objective {
  return {
    id: o.id,
    name: o.name,
    code: o.code,
    description: o.description,
    language: o.language,
    imageUrl: o.imageUrl,
    state: o.state,
    type: o.type,
    presentationMode: o.presentationMode,
    displayMode: o.displayMode,
    proctored: o.proctored,
    supportMobileView: o.supportMobileView,
    supportFullscreenView: o.supportFullscreenView,
    supportLtiAuthoring: o.supportLtiAuthoring,
    supportReview: o.supportReview,
    enableAiTutor: o.enableAiTutor,
    accessNewContentAfterCompletion: o.accessNewContentAfterCompletion,
    announcementChannelId: o.announcementChannelId,
    gradingScaleId: o.gradingScaleId,
    allowSelfEnrollment: o.allowSelfEnrollment,
    activity: {
      state: o.activityState,
      kind: o.activityKind,
      childrenCount: o.childrenCount,
      presentationMode: o.presentationMode,
      supportReview: o.supportReview,
    },
    showcases: o.showcases,
  };
}

/** A course as the open catalog shows it: no grading scale, no announcement channel. */
export function toPublicObjective(o: ObjectiveRow): PublicObjective {
  const { gradingScaleId: _g, announcementChannelId: _a, ...pub } = toObjective(o);
  return pub;
}

/** The asked-for fields of a course, from the columns read for them. */
function pickObjective(o: Partial<ObjectiveRow>, fields: Set<keyof Objective>): Partial<Objective> {
  const out: Partial<Objective> = {};
  for (const field of fields) {
    if (field === "activity") {
      out.activity = {
        state: o.activityState!,
        kind: o.activityKind!,
        childrenCount: o.childrenCount!,
        presentationMode: o.presentationMode!,
        supportReview: o.supportReview!,
      };
    } else {
      (out as Record<string, unknown>)[field] = (o as Record<string, unknown>)[field];
    }
  }
  return out;
}

/** A workflow or record narrowed to the selected fields (spec 7.2 `select`), with its id; whole without them. */
function narrowTo<T extends { id: string }>(value: T | null, fields: Set<keyof T> | null | undefined): T | null {
  if (!value || !fields) return value;
  return { ...pick(value, fields), id: value.id } as T;
}

function pick<T extends object, K extends keyof T>(value: T, keys: Iterable<K>): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = value[key];
  return out;
}

export function toWorkflow(w: WorkflowRow | null): ObjectiveWorkflow | null {
  if (!w) return null;
  return {
    id: w.id,
    state: w.state,
    progress: w.progress,
    started: iso(w.started),
    submitted: iso(w.submitted),
    finished: iso(w.finished),
    objectiveRecordId: w.objectiveRecordId,
    protectResults: w.protectResults,
    attempt: w.attempt,
  };
}

/** Spec 4.7 enforced on the server: hidden scores never leave the API. */
export function toRecord(
  r: RecordRow | null,
  access: { gradeRevealPolicy: string; gradeRevealDate: Date | null },
  workflowState: ObjectiveWorkflowState | null,
  gradeMap: Map<string, { id: string; name: string; color: string; normalizedMinScore: number }>,
  now: Date,
): ObjectiveRecord | null {
  if (!r) return null;
  const visible =
    !r.protectResults &&
    gradeVisibility(
      { gradeRevealPolicy: access.gradeRevealPolicy as "none", gradeRevealDate: iso(access.gradeRevealDate) },
      // A record without a workflow (imported) counts as finished for the reveal rule.
      { state: workflowState ?? ObjectiveWorkflowState.finished },
      now,
    ).visible;
  return {
    id: r.id,
    score: visible ? r.score : null,
    maxScore: visible ? r.maxScore : null,
    normalizedScore: visible ? r.normalizedScore : null,
    grade: visible && r.gradeId ? (gradeMap.get(r.gradeId) ?? null) : null,
    passed: visible ? r.passed : null,
    finished: iso(r.finished),
    progress: r.progress,
    protectResults: r.protectResults,
    imported: r.imported,
    resultsHidden: !visible,
  };
}

/**
 * An aggregate with its course, last workflow and last record. With a selection (spec 7.2 `select`)
 * only the selected fields, from the columns read for them; a record's reveal rule reads its workflow.
 */
export function toAggregate(
  row: { a: AggregateRow; o: ObjectiveRow; w?: WorkflowRow | null; r?: RecordRow | null },
  read: {
    selection: AggregateSelection | null;
    withWorkflow: boolean;
    withRecord: boolean;
    gradeMap: Map<string, GradeRow>;
    now: Date;
  },
): Aggregate {
  const { a, o, w = null, r = null } = row;
  const { selection, withWorkflow, withRecord } = read;
  const objectiveFields = selection?.objectiveFields;
  const full: Aggregate = {
    id: a.id,
    userId: a.userId,
    termId: a.termId,
    isMandatory: a.isMandatory,
    isSelfEnrolled: a.isSelfEnrolled,
    retake: a.retake,
    dueDate: iso(a.dueDate),
    availabilityDate: iso(a.availabilityDate),
    availabilityEndDate: iso(a.availabilityEndDate),
    gradeRevealPolicy: a.gradeRevealPolicy as Aggregate["gradeRevealPolicy"],
    gradeRevealDate: iso(a.gradeRevealDate),
    objectiveAccess: a.objectiveAccessId ? { id: a.objectiveAccessId } : null,
    objective: objectiveFields ? (pickObjective(o, objectiveFields) as Objective) : toObjective(o),
    lastObjectiveWorkflow: withWorkflow ? narrowTo(toWorkflow(w), selection?.workflowFields) : null,
    lastObjectiveRecord: withRecord
      ? narrowTo(toRecord(r, a, w?.state ?? null, read.gradeMap, read.now), selection?.recordFields)
      : null,
  };
  return selection ? (pick(full, selection.fields) as Aggregate) : full;
}

/**
 * A course as the catalog lists it for the learner: the access's terms, whether the learner is
 * enrolled, and the learner's last result (already through the reveal rule, `toRecord`).
 */
export function toObjectiveAccess<O extends Objective>(
  access: typeof objectiveAccesses.$inferSelect,
  objective: O,
  aggregateId: string | null,
  record: ObjectiveRecord | null,
): Omit<ObjectiveAccess, "objective"> & { objective: O } {
  return {
    id: access.id,
    objective,
    enrolled: aggregateId !== null,
    aggregateId,
    grade: record?.grade ?? null,
    score: record?.score ?? null,
    maxScore: record?.maxScore ?? null,
    normalizedScore: record?.normalizedScore ?? null,
    isMandatory: access.isMandatory,
    retake: access.retake,
    dueDate: iso(access.dueDate),
    availabilityDate: iso(access.availabilityDate),
  };
}
