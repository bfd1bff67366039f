/**
 * Decision 065: the answers of a test that wait for a person (an essay, an upload, `external-scored="human"`)
 * in the grading queue. A grader (an Instructor or Administrator of the tenant, never of her own attempt)
 * lists the attempts in grading, opens one — each waiting item with the learner's answer — and scores them
 * in one command; once no answer waits, the attempt is scored and done, as its learner's submit would have.
 */
import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import {
  AttemptState,
  type QuizGradingAttempt,
  type QuizGradingItem,
  type ScoredAttempt,
} from "../../domain/contract/assessment";
import { itemView } from "../../domain/qti/view";
import type { Principal } from "../context";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  assessmentAnswers,
  assessmentAttempts,
  objectives,
  objectiveWorkflows,
  qtiItems,
  qtiPackages,
  userRoles,
  users,
} from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { notifyGraded } from "../notifications/learner-notifications";
import { activityScoresRevealed } from "../queries/workflows";
import { filesOfAttempt } from "./uploads";
import { answersOf, closeAttempt, deliveryOfAttempt, hasAnswer, itemsOf, type Delivery } from "./delivery";

const GRADERS = ["Instructor", "Administrator"];

async function grades(db: Db, user: Principal): Promise<boolean> {
  const [held] = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, user.id), inArray(userRoles.role, GRADERS)))
    .limit(1);
  return Boolean(held);
}

const conflict = (code: string, text: string) => new ApiError(409, { "": [message(code, text)] });

const columns = {
  id: assessmentAttempts.id,
  state: assessmentAttempts.state,
  seed: assessmentAttempts.seed,
  plan: assessmentAttempts.plan,
  submitted: assessmentAttempts.submitted,
  packageId: assessmentAttempts.packageId,
  title: qtiPackages.title,
  learnerId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  objectiveId: objectives.id,
  objectiveName: objectives.name,
  partId: activityParts.id,
  activityName: activities.name,
};

/** The attempts of the grader's tenant (not her own), with what the queue shows of each. */
function gradable(db: Db, user: Principal, where: SQL) {
  return db
    .select(columns)
    .from(assessmentAttempts)
    .innerJoin(qtiPackages, eq(qtiPackages.id, assessmentAttempts.packageId))
    .innerJoin(users, eq(users.id, assessmentAttempts.userId))
    .innerJoin(activityWorkflows, eq(activityWorkflows.id, assessmentAttempts.activityWorkflowId))
    .innerJoin(objectiveWorkflows, eq(objectiveWorkflows.id, activityWorkflows.objectiveWorkflowId))
    .innerJoin(objectives, eq(objectives.id, objectiveWorkflows.objectiveId))
    .innerJoin(activityParts, eq(activityParts.id, activityWorkflows.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(and(eq(qtiPackages.tenantId, user.tenantId), ne(assessmentAttempts.userId, user.id), where));
}
type Row = Awaited<ReturnType<typeof gradable>>[number];

function queueItem(r: Row, waiting: number): QuizGradingItem {
  return {
    attemptId: r.id,
    learner: { id: r.learnerId, name: `${r.firstName} ${r.lastName}`.trim() },
    objective: { id: r.objectiveId, name: r.objectiveName },
    activity: { partId: r.partId, name: r.activityName },
    title: r.title,
    submittedAt: r.submitted?.toISOString() ?? null,
    waiting,
  };
}

/** The item refs of an attempt's plan that a person scores, from the package's items that need one. */
const personRefs = (r: Row, hrefs: Set<string>) =>
  r.plan.pages.flatMap((p) => p.items.filter((i) => hrefs.has(`${r.packageId} ${i.href}`)).map((i) => i.ref));

/**
 * GET /grading/attempts: the tenant's test attempts in grading, oldest hand-in first, each with how many
 * answers wait. Three statements however long the queue. 403 to a caller who does not grade.
 */
export async function quizGradingQueue(db: Db, user: Principal): Promise<{ data: QuizGradingItem[] }> {
  if (!(await grades(db, user)))
    throw new ApiError(403, { "": [message("gradingForbidden", "Only graders see the grading queue.")] });
  const rows = await gradable(db, user, eq(assessmentAttempts.state, AttemptState.inGrading))
    .orderBy(asc(assessmentAttempts.submitted), asc(assessmentAttempts.id))
    .limit(200);
  if (rows.length === 0) return { data: [] };
  const [needing, open] = await Promise.all([
    db
      .select({ packageId: qtiItems.packageId, href: qtiItems.href })
      .from(qtiItems)
      .where(
        and(
          inArray(qtiItems.packageId, [...new Set(rows.map((r) => r.packageId))]),
          sql`(${qtiItems.item}->>'needsPerson')::boolean`,
        ),
      ),
    db
      .select({
        attemptId: assessmentAnswers.attemptId,
        ref: assessmentAnswers.itemRef,
        response: assessmentAnswers.response,
      })
      .from(assessmentAnswers)
      .where(
        and(
          inArray(
            assessmentAnswers.attemptId,
            rows.map((r) => r.id),
          ),
          isNull(assessmentAnswers.gradedScore),
        ),
      ),
  ]);
  const hrefs = new Set(needing.map((n) => `${n.packageId} ${n.href}`));
  const waitingOf = new Map<string, Set<string>>();
  for (const a of open)
    if (hasAnswer(a.response))
      (waitingOf.get(a.attemptId) ?? waitingOf.set(a.attemptId, new Set()).get(a.attemptId)!).add(a.ref);
  return {
    data: rows.map((r) => queueItem(r, personRefs(r, hrefs).filter((ref) => waitingOf.get(r.id)?.has(ref)).length)),
  };
}

/** One attempt as its grader sees it (in grading, or done once scored); 404 for anyone else. */
export async function quizGradingAttempt(db: Db, user: Principal, attemptId: string): Promise<QuizGradingAttempt> {
  if (!(await grades(db, user))) throw notFound("attempt");
  const [row] = await gradable(
    db,
    user,
    and(eq(assessmentAttempts.id, attemptId), ne(assessmentAttempts.state, AttemptState.inProgress))!,
  ).limit(1);
  if (!row) throw notFound("attempt");
  const planned = row.plan.pages.flatMap((p) => p.items);
  const [items, answers, files] = await Promise.all([
    itemsOf(
      db,
      row.packageId,
      planned.map((p) => p.href),
    ),
    answersOf(db, row.id),
    filesOfAttempt(db, row.id),
  ]);
  const saved = new Map(answers.map((a) => [a.itemRef, a]));
  const graderIds = [...new Set(answers.flatMap((a) => (a.gradedBy ? [a.gradedBy] : [])))];
  const graders = new Map(
    graderIds.length === 0
      ? []
      : (
          await db
            .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(inArray(users.id, graderIds))
        ).map((u) => [u.id, `${u.firstName} ${u.lastName}`.trim()]),
  );
  const shown = planned.filter(
    (p) => items.get(p.href)?.item.needsPerson && hasAnswer(saved.get(p.ref)?.response ?? {}),
  );
  return {
    ...queueItem(row, shown.filter((p) => saved.get(p.ref)!.gradedScore == null).length),
    state: row.state as AttemptState,
    items: shown.map((p) => {
      const { item, maxScore } = items.get(p.href)!;
      const a = saved.get(p.ref)!;
      return {
        ref: p.ref,
        view: itemView(item, `${row.seed}/${p.ref}`),
        response: a.response,
        ...(files.has(p.ref) ? { files: files.get(p.ref)! } : {}),
        maxScore,
        gradedScore: a.gradedScore,
        gradedBy: a.gradedBy ? (graders.get(a.gradedBy) ?? null) : null,
        gradedAt: a.gradedAt?.toISOString() ?? null,
      };
    }),
  };
}

/**
 * PUT /grading/attempts/{id}/scores: a grader's scores of answers that wait for a person, in one
 * transaction; the attempt is scored again and done once none waits (its activity record, the course's
 * progress). The same scores sent again (a double click, a retry) answer the attempt as it stands.
 */
export async function scoreAnswers(
  db: Db,
  user: Principal,
  attemptId: string,
  scores: Record<string, number>,
  now: Date,
): Promise<ScoredAttempt> {
  if (!(await grades(db, user))) throw notFound("attempt");
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(assessmentAttempts)
      .where(eq(assessmentAttempts.id, attemptId))
      .for("update");
    const d = locked ? await deliveryOfAttempt(tx, attemptId) : null;
    if (!locked || !d || d.pkg.tenantId !== user.tenantId || locked.userId === user.id) throw notFound("attempt");
    const planned = new Map(locked.plan.pages.flatMap((p) => p.items).map((i) => [i.ref, i]));
    const refs = Object.keys(scores);
    const unknown = refs.filter((ref) => !planned.has(ref));
    if (unknown.length > 0)
      throw new ApiError(
        400,
        Object.fromEntries(
          unknown.map((ref) => [`scores.${ref}`, [message("notFound", "No such item in this attempt.")]]),
        ),
      );
    const [items, answers] = await Promise.all([
      itemsOf(
        tx,
        d.pkg.id,
        refs.map((ref) => planned.get(ref)!.href),
      ),
      answersOf(tx, attemptId),
    ]);
    const saved = new Map(answers.map((a) => [a.itemRef, a]));
    const errors: Record<string, ReturnType<typeof message>[]> = {};
    for (const ref of refs) {
      const stored = items.get(planned.get(ref)!.href)!;
      if (!stored.item.needsPerson) throw conflict("assessmentNotGradedByPerson", "This item is scored by the server.");
      if (!hasAnswer(saved.get(ref)?.response ?? {}))
        throw conflict("assessmentNotAnswered", "This item was not answered: there is nothing to score.");
      if (scores[ref]! > stored.maxScore)
        errors[`scores.${ref}`] = [
          message("gradingScoreRange", `The score is at most ${stored.maxScore}.`, { max: stored.maxScore }),
        ];
    }
    if (Object.keys(errors).length > 0) throw new ApiError(400, errors);
    const standing = (a: typeof locked): ScoredAttempt => ({
      state: a.state as AttemptState,
      score: a.score,
      maxScore: a.maxScore,
      passed: a.passed,
    });
    if (locked.state !== AttemptState.inGrading) {
      if (locked.state === AttemptState.done && refs.every((ref) => saved.get(ref)!.gradedScore === scores[ref]))
        return standing(locked);
      throw conflict("assessmentNotInGrading", "This attempt is not waiting for a grade.");
    }
    await tx.execute(sql`
      update assessment_answers a
      set graded_score = (x.value)::float8, graded_by = ${user.id}, graded_at = ${now.toISOString()}::timestamptz
      from jsonb_each_text(${JSON.stringify(scores)}::jsonb) x
      where a.attempt_id = ${attemptId} and a.item_ref = x.key`);
    // Scored again from the start: done once no answered item waits for a person any more.
    await tx
      .update(assessmentAttempts)
      .set({ state: AttemptState.inProgress })
      .where(eq(assessmentAttempts.id, attemptId));
    const closed = await closeAttempt(
      tx,
      d,
      attemptId,
      (locked.ended as "submitted" | "timeUp" | null) ?? "submitted",
      locked.submitted ?? now,
    );
    if (closed.state === AttemptState.done) await tellTheLearner(tx, d, closed, now);
    return standing(closed);
  });
}

/**
 * The learner is told her test is graded (the hub, the e-mail), as a released hand-in grade is (decision
 * 058) — with its score only when the course's reveal rules show it to her now.
 */
async function tellTheLearner(tx: Tx, d: Delivery, closed: { id: string; userId: string }, now: Date) {
  // The activity's record (its score on the activity's scale, as her course shows it) and the course's state now.
  const [[record], [wf]] = await Promise.all([
    tx
      .select({ score: activityRecords.score, maxScore: activityRecords.maxScore })
      .from(activityRecords)
      .where(eq(activityRecords.activityWorkflowId, d.aw.id)),
    tx.select().from(objectiveWorkflows).where(eq(objectiveWorkflows.id, d.wf.id)),
  ]);
  const shown = wf ? await activityScoresRevealed(tx, wf, now) : false;
  await notifyGraded(
    tx,
    {
      userId: closed.userId,
      itemId: closed.id,
      objectiveId: d.wf.objectiveId,
      activityPartId: d.aw.activityPartId,
      score: shown ? (record?.score ?? null) : null,
      maxScore: shown ? (record?.maxScore ?? null) : null,
    },
    now,
  );
}
