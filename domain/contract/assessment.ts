import { z } from "zod";
import type { ItemView } from "../qti/view";
import type { RawResponses } from "../qti/responses";

/** An attempt's state: 1 in progress, 2 in grading (an item waits for a person), 3 done. */
export const AttemptState = { inProgress: 1, inGrading: 2, done: 3 } as const;
export type AttemptState = (typeof AttemptState)[keyof typeof AttemptState];

const identifier = z.string().min(1).max(200);
/** Responses of one item: each response's values as strings (a choice's identifiers, a text, a pair "A B"). */
const itemResponsesSchema = z.record(identifier, z.array(z.string().max(20_000)).max(100));
const answersSchema = z.record(identifier, itemResponsesSchema);

/** PUT …/assessment/answers: a command (its id), the page the answers are on, and where to go next. */
export const saveAnswersSchema = z.object({
  id: z.uuid(),
  page: z.number().int().min(0).max(10_000),
  answers: answersSchema.refine((a) => Object.keys(a).length <= 500, "Too many items."),
  /** The page to go to after saving (the next one in a linear part), or absent to stay. */
  go: z.number().int().min(0).max(10_000).optional(),
  /** The page's items flagged "for review" (decision 057); the page's other items are unflagged. Absent: unchanged. */
  flagged: z.array(identifier).max(500).optional(),
});
export type SaveAnswers = z.infer<typeof saveAnswersSchema>;

/** Decision 068: a file part of a multipart save is named `file::<item ref>::<response>`. */
export const ANSWER_FILE_PREFIX = "file::";
export const answerFileField = (ref: string, response: string) => `${ANSWER_FILE_PREFIX}${ref}::${response}`;
export function answerFileTarget(field: string): { ref: string; response: string } | null {
  if (!field.startsWith(ANSWER_FILE_PREFIX)) return null;
  const [ref, response, ...rest] = field.slice(ANSWER_FILE_PREFIX.length).split("::");
  return ref && response && rest.length === 0 ? { ref, response } : null;
}
const jsonField = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "Not JSON." });
        return z.NEVER;
      }
    })
    .pipe(schema);
/** The text fields of a multipart save (decision 068): the JSON command's, `answers` and `flagged` as JSON. */
export const saveAnswersFormSchema = z.object({
  id: saveAnswersSchema.shape.id,
  page: z.coerce.number().int().min(0).max(10_000),
  answers: jsonField(saveAnswersSchema.shape.answers),
  go: z.coerce.number().int().min(0).max(10_000).optional(),
  flagged: jsonField(z.array(identifier).max(500)).optional(),
});

/** A file a learner sent as an upload's answer (decision 068), as the learner and her graders read it. */
export interface AnswerFile {
  id: string;
  name: string;
  size: number;
  type: string;
  /** The API's path of its bytes (the learner's and her graders' only; 404 to anyone else). */
  url: string;
}

export const submitAttemptSchema = z.object({ id: z.uuid() });
export const attemptPageQuerySchema = z.object({ page: z.coerce.number().int().min(0).max(10_000).optional() });
export const importQtiQuerySchema = z.object({
  course: z.string().min(1).max(200),
  activity: z.uuid().optional(),
  title: z.string().min(1).max(300).optional(),
  cut: z.coerce.number().min(0).max(1).optional(),
  survey: z.enum(["true", "false"]).optional(),
  anonymous: z.enum(["true", "false"]).optional(),
});
export const gradeItemSchema = z.object({ score: z.number().min(0).max(1e6) });

export interface AttemptPageItem {
  ref: string;
  view: ItemView;
  /** What the learner saved for it (her answer on resume), or null. */
  response: RawResponses | null;
  /** Flagged "for review" by the learner (decision 057). */
  flagged?: boolean;
  /** The files sent as its uploads' answers, by response identifier (decision 068). */
  files?: Record<string, AnswerFile>;
  /** Review only: the item's score and maximum (when scores may be shown). */
  score?: number | null;
  maxScore?: number | null;
  /** Review only: a person still has to score it. */
  awaitingPerson?: boolean;
}

export interface AssessmentAttempt {
  id: string;
  state: AttemptState;
  survey: boolean;
  title: string;
  started: string;
  /** The server's deadline (time limit), or null. */
  deadline: string | null;
  submitted: string | null;
  /** "submitted" or "timeUp" once over. */
  ended: string | null;
  /** The page the learner is on. */
  current: number;
  navigation: "linear" | "nonlinear";
  pages: { index: number; title: string; items: { ref: string; answered: boolean; flagged: boolean }[] }[];
  /** The page asked for (the current one by default) with its items, without anything secret. */
  page: { index: number; title: string; items: AttemptPageItem[] } | null;
  /** Once over and when the reveal rules allow it. */
  score: number | null;
  maxScore: number | null;
  passed: boolean | null;
  /** Whether the review page may be opened. */
  reviewAllowed: boolean;
}

export interface AssessmentReview {
  attempt: AssessmentAttempt;
  items: AttemptPageItem[];
}

/** Decision 065: a grader's scores of the answers that wait for a person, by item ref (at most each item's maximum). */
export const scoreAnswersSchema = z.object({
  scores: z.record(identifier, z.number().min(0).max(1e6)).refine((s) => {
    const n = Object.keys(s).length;
    return n > 0 && n <= 500;
  }, "One score or more."),
});
export type ScoreAnswers = z.infer<typeof scoreAnswersSchema>;

/** GET …/grading/attempts: one test attempt with answers that wait for a person, as the grading queue lists it. */
export interface QuizGradingItem {
  attemptId: string;
  learner: { id: string; name: string };
  objective: { id: string; name: string };
  activity: { partId: string; name: string };
  title: string;
  submittedAt: string | null;
  /** Answers still waiting for a person's score. */
  waiting: number;
}

/** GET …/grading/attempts/{id}: the attempt's items a person scores, each with the learner's answer. */
export interface QuizGradingAttempt extends QuizGradingItem {
  state: AttemptState;
  items: (AttemptPageItem & {
    maxScore: number;
    gradedScore: number | null;
    /** Who gave that score (her name), and when; null until a person scores. */
    gradedBy: string | null;
    gradedAt: string | null;
  })[];
}

/** PUT …/grading/attempts/{id}/scores: where the attempt stands after the scores. */
export interface ScoredAttempt {
  state: AttemptState;
  score: number | null;
  maxScore: number | null;
  passed: boolean | null;
}
