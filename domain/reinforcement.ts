/**
 * Reinforcement questions (spec 2.8, 3 'Reinforcement workflow', 4.10, 5). Pure: time is a parameter.
 */

/**
 * Days after a module is finished at which its questions are asked again: a fixed expanding ladder
 * (decision 021) — each answer that held after a gap makes the next gap longer.
 */
export const REINFORCEMENT_LADDER_DAYS = [1, 3, 7, 21] as const;

const DAY_MS = 86_400_000;

/** When each question of a finished module is due: one per step of the ladder, in order. */
export function reinforcementSchedule(finished: Date, questionCount: number): Date[] {
  const steps = Math.min(questionCount, REINFORCEMENT_LADDER_DAYS.length);
  return REINFORCEMENT_LADDER_DAYS.slice(0, steps).map((d) => new Date(finished.getTime() + d * DAY_MS));
}

/** Spec 5: the e-mail answer page needs both `answer` and `workflowId`, else the invalid-URL message. */
export type ReinforcementLink = { ok: true; answer: string; workflowId: string } | { ok: false };
export function readReinforcementLink(query: URLSearchParams): ReinforcementLink {
  const answer = query.get("answer")?.trim() ?? "";
  const workflowId = query.get("workflowId")?.trim() ?? "";
  if (!answer || !workflowId || answer.length > 64) return { ok: false };
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(workflowId)) return { ok: false };
  return { ok: true, answer, workflowId: workflowId.toLowerCase() };
}

/**
 * The answer page's address for one option of a question (spec 2.1 /email-response-callback): the
 * e-mail's links and the calendar's (issue 13 item 6) are the same. Opening it records nothing.
 */
export function reinforcementAnswerPath(workflowId: string, answer: string): string {
  return `/learn/email-response-callback?${new URLSearchParams({ answer, workflowId })}`;
}

/** The score of an answer: 1 for the correct option, 0 for any other (spec 3 normalizedScore). */
export function scoreAnswer(answer: string, correctAnswer: string): number {
  return answer === correctAnswer ? 1 : 0;
}

/** Spec 4.10: shown as correct when normalizedScore > 0. */
export function isAnswerCorrect(normalizedScore: number | null | undefined): boolean {
  return typeof normalizedScore === "number" && normalizedScore > 0;
}

/** Spec 4.10: a workflow with an answer goes to the review; the page never records a second one. */
export function isAnswered(workflow: { answer: string | null }): boolean {
  return workflow.answer !== null;
}
