import { z } from "zod";
import { enumValues, ProctoringSessionState } from "../vocabulary";

/** Spec 7.5 last-proctoring-session of one activity workflow (states: domain/proctoring.ts). */
export const proctoringSessionSchema = z.object({
  id: z.string(),
  state: z.literal(enumValues(ProctoringSessionState)),
  created: z.string(),
  completed: z.string().nullable(),
});
export type ProctoringSession = z.infer<typeof proctoringSessionSchema>;

/** The newest session of an attempt, as the single-course aggregate carries it (docs/decisions/010). */
export const attemptProctoringSessionSchema = z.object({
  id: z.string(),
  state: z.literal(enumValues(ProctoringSessionState)),
  activityWorkflowId: z.string(),
});
export type AttemptProctoringSession = z.infer<typeof attemptProctoringSessionSchema>;

/** Spec 7.5 start-token: what an external proctoring service is handed (decision 024). */
export interface ProctoringStartToken {
  token: string;
  expiresAt: string;
  jwksUri: string;
}

/** `start-token?activityPathId=`: the activity the caller means (must be the activity workflow's own). */
export const startTokenQuerySchema = z.object({ activityPathId: z.uuid().optional() });
