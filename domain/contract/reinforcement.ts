import { z } from "zod";

/**
 * Spec 3 'Reinforcement workflow' (7.6 GET users/me/reinforcement-learning-workflows/{id}): the
 * question with its options; after the answer, the answer, its score and the feedback. The
 * correct option is never sent before the learner answers.
 * @public (the contract's shape, for an external API's implementers)
 */
export const reinforcementWorkflowSchema = z.object({
  id: z.string(),
  objectiveId: z.string(),
  objectiveName: z.string(),
  /** The module the question is about (its activity id: 'Review module' opens it). */
  activityId: z.string(),
  moduleName: z.string(),
  question: z.string(),
  options: z.array(z.object({ id: z.string(), text: z.string() })),
  answer: z.string().nullable(),
  answerText: z.string().nullable(),
  normalizedScore: z.number().nullable(),
  feedback: z.string().nullable(),
  dueAt: z.string(),
  answered: z.string().nullable(),
});
export type ReinforcementWorkflow = z.infer<typeof reinforcementWorkflowSchema>;

/** Spec 7.6 POST …/answer: body `answer` (an option's id). */
const reinforcementAnswerBodySchema = z.object({ answer: z.string().trim().min(1).max(64) });
export type ReinforcementAnswerBody = z.infer<typeof reinforcementAnswerBodySchema>;

/** The answer command's body: the answer, and the command's id (one is made when it is left out). */
export const reinforcementAnswerCommandSchema = reinforcementAnswerBodySchema.extend({
  commandId: z.uuid().optional(),
});
