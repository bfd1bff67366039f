// Reinforcement questions (spec 2.8, 4.10; decision 021): scheduling them when a module is finished,
// and recording an answer once.
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { reinforcementSchedule, scoreAnswer } from "../../domain/reinforcement";
import type { Tx } from "../db/client";
import { reinforcementQuestions, reinforcementWorkflows } from "../db/schema";
import { ApiError, message, notFound } from "../errors";

/**
 * Schedules the questions about the modules just finished: one per step of the ladder, from the
 * moment of finishing. One query for the questions, one insert; a module finished again (a retake)
 * asks nothing twice (unique learner × question).
 */
export async function scheduleReinforcement(
  tx: Tx,
  input: { userId: string; objectiveId: string; objectiveWorkflowId: string; activityIds: string[]; now: Date },
) {
  if (input.activityIds.length === 0) return 0;
  const questions = await tx
    .select()
    .from(reinforcementQuestions)
    .where(inArray(reinforcementQuestions.activityId, input.activityIds))
    .orderBy(asc(reinforcementQuestions.activityId), asc(reinforcementQuestions.position));
  const byActivity = new Map<string, typeof questions>();
  for (const q of questions) byActivity.set(q.activityId, [...(byActivity.get(q.activityId) ?? []), q]);
  const rows = [...byActivity.values()].flatMap((list) => {
    const due = reinforcementSchedule(input.now, list.length);
    return due.map((dueAt, i) => ({
      userId: input.userId,
      objectiveId: input.objectiveId,
      activityId: list[i].activityId,
      objectiveWorkflowId: input.objectiveWorkflowId,
      questionId: list[i].id,
      question: list[i].question,
      options: list[i].options,
      correctAnswer: list[i].correctAnswer,
      feedback: list[i].feedback,
      dueAt,
    }));
  });
  if (rows.length === 0) return 0;
  const inserted = await tx
    .insert(reinforcementWorkflows)
    .values(rows)
    .onConflictDoNothing({ target: [reinforcementWorkflows.userId, reinforcementWorkflows.questionId] })
    .returning({ id: reinforcementWorkflows.id });
  return inserted.length;
}

/**
 * Spec 4.10: records the learner's answer once. An answered workflow is returned as it is (the
 * review) — a second POST, a double click or a replayed link never makes a second record.
 */
export async function answerReinforcement(tx: Tx, userId: string, workflowId: string, answer: string, now: Date) {
  const [wf] = await tx
    .select()
    .from(reinforcementWorkflows)
    .where(and(eq(reinforcementWorkflows.id, workflowId), eq(reinforcementWorkflows.userId, userId)))
    .for("update")
    .limit(1);
  if (!wf) throw notFound("workflow");
  if (wf.answer !== null) return wf;
  const option = wf.options.find((o) => o.id === answer);
  if (!option)
    throw new ApiError(400, {
      answer: [message("unknownAnswer", "This answer is not one of the question's options.")],
    });
  const [updated] = await tx
    .update(reinforcementWorkflows)
    .set({
      answer: option.id,
      answerText: option.text,
      normalizedScore: scoreAnswer(option.id, wf.correctAnswer),
      answeredAt: now,
    })
    .where(and(eq(reinforcementWorkflows.id, wf.id), isNull(reinforcementWorkflows.answer)))
    .returning();
  return updated ?? wf;
}
