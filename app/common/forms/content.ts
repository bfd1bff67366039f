/** The forms of the course content page (spec 2.5, 2.6, 4.4, 4.5; decision 026). */
import { z } from "zod";
import { GROUP_WORK_MAX } from "#domain/groups";
import { INTENT } from "./intents";

/** Submit the course (spec 4.5), after the confirmation (spec 2.6). */
export const submitSchema = z.object({
  intent: z.literal(INTENT.submit),
  workflowId: z.uuid(),
  /** The learner's second yes when submitting now would record the course as not passed. */
  acceptFail: z.literal("on").optional(),
});
/** Where the page goes back to after an activity command: one of this course's own pages. */
const back = z.string().max(2048).optional();
export const startActivitySchema = z.object({
  intent: z.literal(INTENT.startActivity),
  workflowId: z.uuid(),
  activityPathId: z.uuid(),
  /** A collaborative activity: alone or with the group (decision 026). */
  mode: z.enum(["personal", "group"]).optional(),
  back,
});
/** A member saves the group's shared answer, naming the version it was written from (decision 026). */
export const teamSaveSchema = z.object({
  intent: z.literal(INTENT.teamSave),
  aggregateId: z.uuid(),
  gawId: z.uuid(),
  version: z.number().int().min(0),
  text: z.string().max(GROUP_WORK_MAX).optional(),
  back,
});
/**
 * Mark as done. A page kept for offline reading offers it for a text activity not started
 * yet too — naming the activity (`activityPathId`), which is then started and finished in one go — and
 * carries a command id, so the write sent again when back online counts once.
 */
export const finishActivitySchema = z
  .object({
    intent: z.literal(INTENT.finishActivity),
    workflowId: z.uuid(),
    activityWorkflowId: z.uuid().optional(),
    activityPathId: z.uuid().optional(),
    commandId: z.uuid().optional(),
    back,
  })
  .refine((v) => Boolean(v.activityWorkflowId) !== Boolean(v.activityPathId), {
    message: "Name the activity workflow or the activity, one of them.",
    path: ["activityWorkflowId"],
  });
/** The PDF viewer's page, saved in the background so the learner resumes there. */
export const resumeSchema = z.object({
  intent: z.literal(INTENT.resume),
  activityWorkflowId: z.uuid(),
  workflowId: z.uuid().optional(),
  page: z.number().int().min(1).max(100_000),
});
