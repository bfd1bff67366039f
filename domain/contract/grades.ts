/**
 * The learner's grades overview (issue 31 item 1): every course with its attempt and result, and the
 * graded activities of the attempt, in one answer per page. Every score is already through the reveal
 * rules of spec 4.7 (null and `resultsHidden` where they hide it).
 */
import { z } from "zod";
import { GRADE_API_SORTS } from "../grades";
import { enumValues, ObjectiveWorkflowState } from "../vocabulary";
import { objectiveRecordSchema } from "./courses";

const date = z.string().nullable();

/** A graded activity of the course (it has a max score, or a person grades it), with the attempt's record. */
const gradeActivitySchema = z.object({
  activityPathId: z.string(),
  activityId: z.string(),
  name: z.string(),
  /** Position in the course's tree ("2.1"). */
  axis: z.string(),
  /** What the activity is worth (not a result: always shown); null when a person grades it without points. */
  maxScore: z.number().nullable(),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  /** When the learner finished it (handed it in); null while not done. */
  finished: date,
  /** The attempt's scores are hidden (spec 4.7): score and passed are null. */
  resultsHidden: z.boolean(),
});
export type GradeActivity = z.infer<typeof gradeActivitySchema>;

export const gradeCourseSchema = z.object({
  /** The learner's aggregate of the course. */
  id: z.string(),
  objective: z.object({ id: z.string(), name: z.string(), code: z.string() }),
  isMandatory: z.boolean(),
  gradeRevealPolicy: z.enum(["none", "never", "afterFinish", "afterDate"]),
  gradeRevealDate: date,
  lastObjectiveWorkflow: z
    .object({
      id: z.string(),
      state: z.literal(enumValues(ObjectiveWorkflowState)),
      progress: z.number(),
      started: date,
      submitted: date,
      finished: date,
    })
    .nullable(),
  lastObjectiveRecord: objectiveRecordSchema.nullable(),
  activities: z.array(gradeActivitySchema),
});
export type GradeCourse = z.infer<typeof gradeCourseSchema>;

/** The most courses one answer carries (the CSV export asks for pages of this size). */
export const GRADES_TAKE_MAX = 1000;

/** GET users/me/grades/query: the My courses query's filters (filter, showcase, filterAttribute), its own sorts. */
export const gradesQuerySchema = z.object({
  sort: z
    .string()
    .refine((s) => GRADE_API_SORTS.includes(s), { message: `sort is one of ${GRADE_API_SORTS.join(", ")}.` })
    .default("objective.name"),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(GRADES_TAKE_MAX).default(24),
  requireTotalCount: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  filter: z.string().max(4000).optional(),
});
export type GradesQuery = z.output<typeof gradesQuerySchema>;
