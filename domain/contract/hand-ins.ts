import { z } from "zod";
import { GRADING_COMMENT_MAX, HAND_IN_STATES, HAND_IN_TEXT_MAX, type HandInState } from "../hand-ins";
import type { AttachmentKind } from "../chat-attachments";

/** The multipart field of a hand-in's files, and of a grader's feedback file. */
export const HAND_IN_FILES_FIELD = "files";

/**
 * POST /save-hand-ins (JSON, or `multipart/form-data` with files in `files`): the learner's draft of an
 * activity of her current attempt — the text as it now is, the files she keeps (`removeFileIds` drops
 * some), and new files. `id` is the command's id.
 */
export const saveHandInSchema = z.object({
  id: z.uuid(),
  objectiveId: z.uuid(),
  activityPartId: z.uuid(),
  /** Line ends as a form sends them (CRLF) are kept as LF. */
  body: z
    .string()
    .default("")
    .transform((s) => s.replace(/\r\n?/g, "\n"))
    .pipe(z.string().max(HAND_IN_TEXT_MAX)),
  /** Comma-separated ids of files to remove (a form's checkboxes, joined). */
  removeFileIds: z
    .string()
    .max(2000)
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.uuid()).max(50)),
});
export type SaveHandIn = z.input<typeof saveHandInSchema>;

/** POST /submit-hand-ins and /withdraw-hand-ins: the hand-in of an activity of the current attempt. */
export const handInTargetSchema = z.object({ id: z.uuid(), objectiveId: z.uuid(), activityPartId: z.uuid() });
export type HandInTarget = z.infer<typeof handInTargetSchema>;

export const handInPathSchema = z.object({ objectiveId: z.uuid(), activityPartId: z.uuid() });

/**
 * POST /grade-hand-ins (JSON, or multipart with a feedback file in `files`): a grader's score and
 * comment, saved as a draft or released (`release`). `version` is the grading version it was written
 * from: an older one is a 409 `gradingConflict` and nothing is saved.
 */
export const gradeHandInSchema = z.object({
  id: z.uuid(),
  handInId: z.uuid(),
  version: z.coerce.number().int().min(0).max(1_000_000),
  score: z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return null;
      const n = typeof v === "number" ? v : Number(v.trim().replace(",", "."));
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: "custom", message: "invalid" });
        return z.NEVER;
      }
      return n;
    }),
  comment: z.string().max(GRADING_COMMENT_MAX).default(""),
  release: z
    .union([z.boolean(), z.enum(["true", "false"])])
    .default(false)
    .transform((v) => v === true || v === "true"),
});
export type GradeHandIn = z.input<typeof gradeHandInSchema>;

/** POST /approve-hand-ins: a second grader approves a released grade. */
export const approveHandInSchema = z.object({ id: z.uuid(), handInId: z.uuid() });

export const gradingQueueQuerySchema = z.object({
  objectiveId: z.uuid().optional(),
  activityPartId: z.uuid().optional(),
  /** Awaiting grading (submitted and in grading) unless one state is asked for. */
  state: z.enum(HAND_IN_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export type GradingQueueQuery = z.input<typeof gradingQueueQuerySchema>;

export interface HandInFile {
  id: string;
  name: string;
  size: number;
  /** The checked media type. */
  type: string;
  /** Shown in the browser's viewer (PDF and images) rather than downloaded. */
  viewable: boolean;
  url: string;
}

interface HandInRules {
  text: boolean;
  files: boolean;
  maxBytes: number;
  maxCount: number;
  types: AttachmentKind[];
  allowLate: boolean;
  allowWithdraw: boolean;
  textMax: number;
}

/** The released grade as the learner reads it (null until released). */
interface HandInFeedback {
  score: number | null;
  maxScore: number | null;
  comment: string;
  releasedAt: string;
  files: HandInFile[];
}

export interface HandInSummary {
  id: string;
  state: HandInState;
  body: string;
  submittedAt: string | null;
  late: boolean;
  files: HandInFile[];
  feedback: HandInFeedback | null;
}

/** GET /users/me/objectives/{objectiveId}/hand-ins/{activityPartId}: what the hand-in page shows. */
export interface LearnerHandIn {
  objectiveId: string;
  objectiveName: string;
  activityPartId: string;
  activityName: string;
  maxScore: number | null;
  due: string | null;
  rules: HandInRules;
  /** The current attempt is in progress (editing, handing in and withdrawing need it). */
  attemptInProgress: boolean;
  mayEdit: boolean;
  maySubmit: boolean;
  mayWithdraw: boolean;
  handIn: HandInSummary | null;
  /** Hand-ins of the learner's earlier attempts at the course, newest first. */
  earlier: HandInSummary[];
}

export interface GradingQueueItem {
  id: string;
  state: HandInState;
  learner: { id: string; name: string };
  objective: { id: string; name: string };
  activity: { partId: string; name: string; maxScore: number | null };
  submittedAt: string | null;
  due: string | null;
  late: boolean;
  fileCount: number;
}

export interface GradingQueue {
  data: GradingQueueItem[];
  /** The courses and activities of the tenant with hand-ins, for the filters. */
  courses: { id: string; name: string; activities: { partId: string; name: string }[] }[];
}

interface GradingEvent {
  action: "saveDraft" | "release" | "approve";
  actor: string | null;
  at: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** GET /grading/hand-ins/{id}: one hand-in as a grader sees it. */
export interface GradingHandIn extends GradingQueueItem {
  body: string;
  files: HandInFile[];
  score: number | null;
  comment: string;
  feedbackFiles: HandInFile[];
  version: number;
  grader: string | null;
  releasedAt: string | null;
  approvedAt: string | null;
  approvalRequired: boolean;
  mayGrade: boolean;
  mayApprove: boolean;
  earlier: HandInSummary[];
  events: GradingEvent[];
}

/** Decision 058: the learner's notifications of one course (the hub lists them; reading marks them read). */
export interface LearnerNotifications {
  data: {
    id: string;
    kind: "graded";
    objectiveId: string;
    courseName: string;
    activityPartId: string;
    activityName: string;
    score: number | null;
    maxScore: number | null;
    createdAt: string;
    read: boolean;
  }[];
  /** This read marked some read (the shell's unread badge changed). */
  markedRead: boolean;
}
