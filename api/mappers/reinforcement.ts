// Mappers: reinforcement workflows (spec 3, 7.6).
import type { ReinforcementWorkflow } from "../../domain/contract/reinforcement";
import type { reinforcementWorkflows } from "../db/schema";

type Row = { wf: typeof reinforcementWorkflows.$inferSelect; objectiveName: string; moduleName: string };

export function toReinforcementWorkflow(row: Row): ReinforcementWorkflow {
  const { wf } = row;
  const answered = wf.answer !== null;
  return {
    id: wf.id,
    objectiveId: wf.objectiveId,
    objectiveName: row.objectiveName,
    activityId: wf.activityId,
    moduleName: row.moduleName,
    question: wf.question,
    options: wf.options,
    answer: wf.answer,
    answerText: wf.answerText,
    normalizedScore: wf.normalizedScore,
    // The feedback explains the right answer: only once the learner has answered.
    feedback: answered ? wf.feedback : null,
    dueAt: wf.dueAt.toISOString(),
    answered: wf.answeredAt?.toISOString() ?? null,
  };
}
