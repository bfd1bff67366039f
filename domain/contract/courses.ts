import { z } from "zod";
import type { AttemptProctoringSession } from "./proctoring";
import {
  ActivityKind,
  ActivityType,
  DisplayMode,
  enumValues,
  ObjectiveState,
  ObjectiveWorkflowState,
  PresentationMode,
} from "../vocabulary";

const id = z.string();
const date = z.string().nullable();

export const showcaseSchema = z.object({ id, name: z.string() });
export const termSchema = z.object({ id, name: z.string() });
export const filterCategorySchema = z.object({
  id,
  name: z.string(),
  attributes: z.array(z.object({ id, name: z.string() })),
});

const gradeSchema = z.object({ id, name: z.string(), color: z.string(), normalizedMinScore: z.number() });
export const gradingScaleSchema = z.object({
  id,
  name: z.string(),
  description: z.string().nullable(),
  maxScore: z.number(),
  normalizedPassingScore: z.number(),
  numberOfGrades: z.number().int(),
  passingGradeId: z.string().nullable(),
  objectiveGrades: z.array(gradeSchema),
});
export type GradingScale = z.infer<typeof gradingScaleSchema>;

/** Spec 3 Objective, as lists and details need it. */
const objectiveSchema = z.object({
  id,
  name: z.string(),
  code: z.string(),
  description: z.string(),
  /**
   * The language of the course's own texts (BCP 47; a field of this API, not shown by the spec): the app
   * lays them out in their own direction (issue 25 item 2). Null or absent: unknown (`dir="auto"`).
   */
  language: z.string().nullable().optional(),
  imageUrl: z.string().nullable(),
  state: z.literal(enumValues(ObjectiveState)),
  type: z.literal(enumValues(ActivityType)),
  presentationMode: z.literal(enumValues(PresentationMode)),
  displayMode: z.literal(enumValues(DisplayMode)),
  proctored: z.boolean(),
  /** Spec 3: whether the course works on mobile widths (the viewer says so when it does not). */
  supportMobileView: z.boolean(),
  /** Spec 3: whether the viewer offers full screen. */
  supportFullscreenView: z.boolean(),
  /** Spec 3: LTI content the learner may author (carried, no screen of the learner app uses it). */
  supportLtiAuthoring: z.boolean(),
  supportReview: z.boolean(),
  enableAiTutor: z.boolean(),
  accessNewContentAfterCompletion: z.boolean(),
  announcementChannelId: z.string().nullable(),
  gradingScaleId: z.string().nullable(),
  allowSelfEnrollment: z.boolean(),
  activity: z.object({
    state: z.literal(enumValues(ObjectiveState)),
    kind: z.literal(enumValues(ActivityKind)),
    childrenCount: z.number().int(),
    presentationMode: z.literal(enumValues(PresentationMode)),
    supportReview: z.boolean(),
  }),
  showcases: z.array(showcaseSchema),
});
export type Objective = z.infer<typeof objectiveSchema>;

const objectiveDetailSchema = objectiveSchema.extend({ about: z.string() });

const objectiveWorkflowSchema = z.object({
  id,
  state: z.literal(enumValues(ObjectiveWorkflowState)),
  progress: z.number(),
  started: date,
  submitted: date,
  finished: date,
  objectiveRecordId: z.string().nullable(),
  protectResults: z.boolean(),
  attempt: z.number().int(),
});
export type ObjectiveWorkflow = z.infer<typeof objectiveWorkflowSchema>;

/**
 * GET objective-workflows/{id}: one workflow with the course it is an attempt of, so a page whose URL
 * names a course and a workflow can tell whether they belong together (decision 018).
 */
export const objectiveWorkflowDetailSchema = objectiveWorkflowSchema.extend({ objectiveId: id });
export type ObjectiveWorkflowDetail = z.infer<typeof objectiveWorkflowDetailSchema>;

/**
 * GET objective-workflows/{id}/submit-preview (not shown by the spec; spec 4.5): what submitting the attempt
 * now would record, so the confirmation can say that it would fail the course. An activity not done counts
 * as no points. Score and pass are null while the reveal policy (spec 4.7) would hide them after submitting.
 */
export const submitPreviewSchema = z.object({
  normalizedScore: z.number().nullable(),
  gradeName: z.string().nullable(),
  /** null: unresolved (a person grades something first, nothing is graded) or hidden by the reveal policy. */
  passed: z.boolean().nullable(),
  /** Graded activities that would wait for a person. */
  pending: z.number().int(),
});
export type SubmitPreview = z.infer<typeof submitPreviewSchema>;

/** Spec 3 Objective record. Score fields are null while the reveal policy hides them (spec 4.7). */
export const objectiveRecordSchema = z.object({
  id,
  score: z.number().nullable(),
  maxScore: z.number().nullable(),
  normalizedScore: z.number().nullable(),
  grade: gradeSchema.nullable(),
  passed: z.boolean().nullable(),
  finished: date,
  progress: z.number(),
  protectResults: z.boolean(),
  imported: z.boolean(),
  resultsHidden: z.boolean(),
});
export type ObjectiveRecord = z.infer<typeof objectiveRecordSchema>;

/** Spec 3 Course access / objective-workflow aggregate. */
export const aggregateSchema = z.object({
  id,
  userId: id,
  termId: z.string().nullable(),
  isMandatory: z.boolean(),
  isSelfEnrolled: z.boolean(),
  retake: z.boolean(),
  dueDate: date,
  availabilityDate: date,
  availabilityEndDate: date,
  gradeRevealPolicy: z.enum(["none", "never", "afterFinish", "afterDate"]),
  gradeRevealDate: date,
  objectiveAccess: z.object({ id }).nullable(),
  objective: objectiveSchema,
  lastObjectiveWorkflow: objectiveWorkflowSchema.nullable(),
  lastObjectiveRecord: objectiveRecordSchema.nullable(),
});
export type Aggregate = z.infer<typeof aggregateSchema>;

/**
 * Spec 7.2 `select` on the aggregates query: the fields of each aggregate to return, comma-separated;
 * `objective.<field>`, `lastObjectiveWorkflow.<field>` and `lastObjectiveRecord.<field>` narrow those
 * objects to the fields named (the name alone is the whole object). `id` is always returned, and a
 * narrowed object keeps its `id`. A list that reads a few fields (My courses' cards) costs the
 * database, both threads and the JSON less than one that reads them all (decisions 012, 038).
 */
const AGGREGATE_FIELDS = Object.keys(aggregateSchema.shape) as (keyof Aggregate)[];
const NARROWABLE = {
  objective: Object.keys(objectiveSchema.shape),
  lastObjectiveWorkflow: Object.keys(objectiveWorkflowSchema.shape),
  lastObjectiveRecord: Object.keys(objectiveRecordSchema.shape),
} as const;
export interface AggregateSelection {
  fields: Set<keyof Aggregate>;
  /** The course's fields when only some are asked for; null when the whole course is. */
  objectiveFields: Set<keyof Objective> | null;
  /** The last workflow's fields when only some are asked for; null when the whole workflow is. */
  workflowFields?: Set<keyof ObjectiveWorkflow> | null;
  /** The last record's fields when only some are asked for; null when the whole record is. */
  recordFields?: Set<keyof ObjectiveRecord> | null;
}

export function parseAggregateSelect(
  text: string,
): { ok: true; selection: AggregateSelection } | { ok: false; error: string } {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.length > 60)
    return { ok: false, error: "select lists 1 to 60 comma-separated fields." };
  const fields = new Set<keyof Aggregate>(["id"]);
  // Per narrowable object: the fields named (with its id), or "whole" once named alone.
  const narrowed: Record<keyof typeof NARROWABLE, Set<string> | "whole" | undefined> = {
    objective: undefined,
    lastObjectiveWorkflow: undefined,
    lastObjectiveRecord: undefined,
  };
  for (const part of parts) {
    const [head, sub, ...rest] = part.split(".");
    const object = Object.hasOwn(NARROWABLE, head) ? (head as keyof typeof NARROWABLE) : null;
    if (
      rest.length ||
      !(AGGREGATE_FIELDS as string[]).includes(head) ||
      (sub !== undefined && (!object || !(NARROWABLE[object] as readonly string[]).includes(sub)))
    ) {
      return { ok: false, error: `select: unknown field "${part.slice(0, 80)}".` };
    }
    fields.add(head as keyof Aggregate);
    if (!object) continue;
    const known = narrowed[object];
    if (sub === undefined) narrowed[object] = "whole";
    else if (known !== "whole") narrowed[object] = (known ?? new Set(["id"])).add(sub);
  }
  const subset = <T>(n: Set<string> | "whole" | undefined) => (n === undefined || n === "whole" ? null : (n as Set<T>));
  return {
    ok: true,
    selection: {
      fields,
      // A selection that does not name the course still carries its id (as before).
      objectiveFields: narrowed.objective === undefined ? new Set(["id"]) : subset(narrowed.objective),
      workflowFields: subset(narrowed.lastObjectiveWorkflow),
      recordFields: subset(narrowed.lastObjectiveRecord),
    },
  };
}

/** Spec 3 Objective access (as listed for a user): a course the learner may see in the catalog. */
export const objectiveAccessSchema = z.object({
  id,
  objective: objectiveSchema,
  enrolled: z.boolean(),
  aggregateId: z.string().nullable(),
  grade: gradeSchema.nullable(),
  score: z.number().nullable(),
  maxScore: z.number().nullable(),
  normalizedScore: z.number().nullable(),
  isMandatory: z.boolean(),
  retake: z.boolean(),
  dueDate: date,
  availabilityDate: date,
});
export type ObjectiveAccess = z.infer<typeof objectiveAccessSchema>;

export const objectiveAccessDetailSchema = objectiveAccessSchema.extend({ objective: objectiveDetailSchema });
export type ObjectiveAccessDetail = z.infer<typeof objectiveAccessDetailSchema>;

/** Public open-catalog course: no learner data at all. */
export const publicObjectiveSchema = objectiveSchema.omit({ gradingScaleId: true, announcementChannelId: true });
export const publicObjectiveDetailSchema = publicObjectiveSchema.extend({ about: z.string() });
export type PublicObjective = z.infer<typeof publicObjectiveSchema>;
export type PublicObjectiveDetail = z.infer<typeof publicObjectiveDetailSchema>;

const PAGE_SIZE_MAX = 100;

/** Common list query: sort, paging, showcase (collections) and filterAttribute (categoryId:attr1,attr2). */
const listQuerySchema = z.object({
  sort: z
    .enum(["objective.name", "-objective.name", "dueDate", "-dueDate", "created", "-created"])
    .default("objective.name"),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(24),
  requireTotalCount: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  search: z.string().max(200).optional(),
});

/** The course lists' query (spec 7.2): the common one, the text filter, `select`, and the open catalog's domain. */
export const courseListQuerySchema = listQuerySchema.extend({
  filter: z.string().optional(),
  select: z.string().optional(),
  domain: z.string().max(253).optional(),
});
/** The open catalog's tenant, by the domain it is served on. */
export const catalogDomainQuerySchema = z.object({ domain: z.string().optional() });
/** Repeatable parameters of the course lists, read one by one (`showcase`, `filterAttribute`). */
export const COURSE_LIST_REPEATED = {
  showcase: "A collection id (uuid); repeatable, at most 50",
  filterAttribute: "categoryId:attributeId[,attributeId…]; repeatable (OR within a category, AND across), at most 20",
};

export const createSelfEnrollmentSchema = z.object({ id: z.uuid(), objectiveAccessId: z.uuid() });

/** filterAttribute=categoryId:attr1,attr2 — OR within a category, AND across categories. */
export function parseFilterAttributes(
  values: string[],
): { ok: true; groups: { categoryId: string; attributeIds: string[] }[] } | { ok: false; error: string } {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const groups: { categoryId: string; attributeIds: string[] }[] = [];
  if (values.length > 20) return { ok: false, error: "Too many filterAttribute parameters (at most 20)." };
  for (const v of values) {
    const [categoryId, list = "", ...rest] = v.split(":");
    const attributeIds = list.split(",").filter(Boolean);
    if (
      rest.length ||
      !uuid.test(categoryId ?? "") ||
      attributeIds.length === 0 ||
      attributeIds.length > 100 ||
      !attributeIds.every((a) => uuid.test(a))
    ) {
      return {
        ok: false,
        error: `filterAttribute '${v.slice(0, 80)}' must be categoryId:attributeId[,attributeId…] with uuids.`,
      };
    }
    groups.push({ categoryId: categoryId.toLowerCase(), attributeIds: attributeIds.map((a) => a.toLowerCase()) });
  }
  return { ok: true, groups };
}

/** A named thing of a list (collections, terms). */
export interface Named {
  id: string;
  name: string;
}

/** Spec 3 'Filter category' with its attributes, as the filter drawer lists them. */
export interface Category {
  id: string;
  name: string;
  attributes: { id: string; name: string }[];
}

/** The single-course aggregate; an external LMS may not send the proctoring session (then nothing locks). */
export type CourseAggregate = Aggregate & {
  objectiveGradingScale: GradingScale | null;
  lastProctoringSession?: AttemptProctoringSession | null;
};

/** One attempt's record, as the previous-attempts table reads it (spec 2.5). */
export type AttemptRecord = ObjectiveRecord & {
  objectiveWorkflowId: string | null;
  attempt: number | null;
  started: string | null;
  workflowState: ObjectiveWorkflowState | null;
};

/**
 * What My courses' cards read of each aggregate (spec 4.11): the `select` it sends, and the shape that
 * comes back. Asking for a few fields costs the database, both threads and the JSON less (decision 012).
 */
export const CARD_SELECT = [
  "isMandatory",
  "isSelfEnrolled",
  "availabilityDate",
  "availabilityEndDate",
  "dueDate",
  "lastObjectiveWorkflow.state",
  "lastObjectiveWorkflow.progress",
  "lastObjectiveWorkflow.started",
  "lastObjectiveWorkflow.submitted",
  "lastObjectiveWorkflow.finished",
  "lastObjectiveRecord.finished",
  "lastObjectiveRecord.progress",
  "objective.id",
  "objective.name",
  "objective.code",
  "objective.imageUrl",
  "objective.showcases",
  "objective.language",
].join(",");
export type CardAggregate = Pick<
  Aggregate,
  "id" | "isMandatory" | "isSelfEnrolled" | "availabilityDate" | "availabilityEndDate" | "dueDate"
> & {
  objective: Pick<Aggregate["objective"], "id" | "name" | "code" | "imageUrl" | "showcases" | "language">;
  lastObjectiveWorkflow: Pick<
    ObjectiveWorkflow,
    "id" | "state" | "progress" | "started" | "submitted" | "finished"
  > | null;
  lastObjectiveRecord: Pick<ObjectiveRecord, "id" | "finished" | "progress"> | null;
};
