/**
 * The demo's tests taken by its learners (decision 065): a learner named in data/qti/packages.json's
 * `takenBy` takes that test through the API's own delivery — start, save her answers, submit — so what
 * the seed leaves is what a learner would (an essay waiting in grace's grading queue, the other items
 * scored by the server). Her answers: the essays as written there, every other item its correct response.
 * A proctored test's sitting (kept open by her recipe's `sittingOpen`) ends when she submits.
 */
import { and, eq, sql } from "drizzle-orm";
import * as s from "../api/db/schema";
import {
  attemptPage,
  closeAttempt,
  itemsOf,
  loadDelivery,
  saveAnswers,
  startAttempt,
} from "../api/assessment/delivery";
import { correctResponses } from "../domain/qti/processing";
import { fromResponses, type RawResponses } from "../domain/qti/responses";
import { ObjectiveWorkflowState, ProctoringSessionState } from "../domain/vocabulary";
import type { Tx } from "./seed-activities";

export interface TakenBy {
  learner: string;
  /** By item identifier: what she wrote in its text box. */
  essays?: Record<string, string>;
}

export async function takeTest(
  tx: Tx,
  pkg: { id: string; activityId: string },
  taken: TakenBy,
  userId: string,
  now: Date,
): Promise<void> {
  const [aw] = await tx
    .select({ id: s.activityWorkflows.id, workflowId: s.activityWorkflows.objectiveWorkflowId })
    .from(s.activityWorkflows)
    .innerJoin(s.activityParts, eq(s.activityParts.id, s.activityWorkflows.activityPartId))
    .innerJoin(s.objectiveWorkflows, eq(s.objectiveWorkflows.id, s.activityWorkflows.objectiveWorkflowId))
    .where(
      and(
        eq(s.activityWorkflows.userId, userId),
        eq(s.activityParts.activityId, pkg.activityId),
        eq(s.objectiveWorkflows.state, ObjectiveWorkflowState.inProgress),
      ),
    )
    .limit(1);
  if (!aw) throw new Error(`data/qti/packages.json: ${taken.learner} has no attempt in progress at this test`);
  const delivery = await loadDelivery(tx, userId, aw.workflowId, aw.id);
  const attempt = await startAttempt(tx, delivery, now);
  const d = { ...delivery, attempt };
  const planned = attempt.plan.pages.flatMap((p) => p.items);
  const items = await itemsOf(
    tx,
    pkg.id,
    planned.map((p) => p.href),
  );
  for (const [index, page] of attempt.plan.pages.entries()) {
    // Read as the learner's page would be (its items open), then answered and saved.
    await attemptPage(tx, d, attempt, index, now);
    const answers: Record<string, RawResponses> = {};
    for (const p of page.items) {
      const item = items.get(p.href)!.item;
      const essay = taken.essays?.[item.identifier];
      answers[p.ref] = essay ? { [item.responses[0]!.identifier]: [essay] } : fromResponses(correctResponses(item));
    }
    await saveAnswers(tx, d, attempt.id, { page: index, answers }, now);
  }
  await closeAttempt(tx, d, attempt.id, "submitted", now);
  await tx
    .update(s.proctoringSessions)
    .set({ state: ProctoringSessionState.completed, completed: now })
    .where(
      and(
        eq(s.proctoringSessions.activityWorkflowId, aw.id),
        sql`${s.proctoringSessions.state} < ${ProctoringSessionState.completed}`,
      ),
    );
}
