/**
 * Decision 055: delivering a QTI test in an activity workflow and scoring it on the server.
 * The attempt (one per activity workflow) keeps its seed and plan (selection, order, pages) from its start;
 * answers are kept per item as the learner goes; the deadline is the server's; submit (or the deadline)
 * scores every item, makes the activity record and moves the course's progress. Nothing secret (correct
 * responses, mappings, processing, feedback) leaves here before review allows it.
 */
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import {
  AttemptState,
  type AssessmentAttempt,
  type AssessmentReview,
  type AttemptPageItem,
} from "../../domain/contract/assessment";
import type { AssessmentItem } from "../../domain/qti/item";
import type { TestItemResult } from "../../domain/qti/processing";
import { scoreItem } from "../../domain/qti/processing";
import { ResponseError, toResponses, type RawResponses } from "../../domain/qti/responses";
import { planAttempt, scoreTest, type AttemptPlan } from "../../domain/qti/test";
import { isNull, type QtiValue } from "../../domain/qti/values";
import { itemView } from "../../domain/qti/view";
import { ActivityWorkflowState, ObjectiveWorkflowState } from "../../domain/vocabulary";
import type { Db, Tx } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  assessmentAnswers,
  assessmentAttempts,
  objectiveWorkflows,
  qtiItems,
  qtiPackages,
  surveyAnswers,
} from "../db/schema";
import { ApiError, message, notFound } from "../errors";
import { leafProgress, progressOf } from "../queries/activity-tree";
import { lastProctoringSessionOf } from "../queries/proctoring";
import { proctorLocked } from "../../domain/proctoring";
import { activityScoresRevealed, ownWorkflow } from "../queries/workflows";
import { filesOfAttempt, mergeUploads, type IncomingAnswerFile } from "./uploads";

type Attempt = typeof assessmentAttempts.$inferSelect;

const conflict = (code: string, text: string, params?: Record<string, string | number>) =>
  new ApiError(409, { "": [message(code, text, params)] });

/** The learner's activity workflow of a QTI activity, its package and attempt; 404 for anything not hers. */
export async function loadDelivery(db: Db | Tx, userId: string, workflowId: string, awId: string) {
  const wf = await ownWorkflow(db, userId, workflowId);
  const [row] = await db
    .select({ aw: activityWorkflows, activity: activities, pkg: qtiPackages, attempt: assessmentAttempts })
    .from(activityWorkflows)
    .innerJoin(activityParts, eq(activityParts.id, activityWorkflows.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .innerJoin(qtiPackages, sql`${qtiPackages.id} = (${activities.content}->'qti'->>'packageId')::uuid`)
    .leftJoin(assessmentAttempts, eq(assessmentAttempts.activityWorkflowId, activityWorkflows.id))
    .where(and(eq(activityWorkflows.id, awId), eq(activityWorkflows.objectiveWorkflowId, wf.id)))
    .limit(1);
  if (!row) throw notFound("assessment");
  return { wf, ...row };
}
export type Delivery = Awaited<ReturnType<typeof loadDelivery>>;

export async function itemsOf(db: Db | Tx, packageId: string, hrefs: string[]) {
  if (hrefs.length === 0) return new Map<string, { item: AssessmentItem; maxScore: number }>();
  const rows = await db
    .select()
    .from(qtiItems)
    .where(and(eq(qtiItems.packageId, packageId), inArray(qtiItems.href, [...new Set(hrefs)])));
  return new Map(rows.map((r) => [r.href, { item: r.item, maxScore: r.maxScore }]));
}

/** A proctored sitting that is over (decision 024) takes no more answers. */
async function refuseWhenProctorLocked(tx: Tx, d: Delivery) {
  if (!d.activity.proctored) return;
  const session = await lastProctoringSessionOf(tx, d.wf.id);
  if (proctorLocked({ workflow: { state: d.wf.state }, session }))
    throw conflict("proctoringLocked", "The proctored session of this course is over.");
}

/** Starts the attempt of this activity workflow (once: the same attempt on every later call). */
export async function startAttempt(tx: Tx, d: Delivery, now: Date): Promise<Attempt> {
  if (d.attempt) return d.attempt;
  if (d.wf.state !== ObjectiveWorkflowState.inProgress)
    throw conflict("workflowNotInProgress", "The course is not in progress.");
  if (d.aw.state !== ActivityWorkflowState.inProgress)
    throw conflict("assessmentSubmitted", "This activity is already done.");
  await refuseWhenProctorLocked(tx, d);
  const seed = randomUUID();
  const plan = planAttempt(d.pkg.test, seed);
  const deadline = plan.maxTime ? new Date(now.getTime() + plan.maxTime * 1000) : null;
  await tx
    .insert(assessmentAttempts)
    .values({
      packageId: d.pkg.id,
      activityWorkflowId: d.aw.id,
      userId: d.wf.userId,
      seed,
      plan,
      started: now,
      deadline,
    })
    .onConflictDoNothing();
  const [row] = await tx.select().from(assessmentAttempts).where(eq(assessmentAttempts.activityWorkflowId, d.aw.id));
  return row!;
}

export const isLate = (a: Attempt, now: Date) =>
  a.state === AttemptState.inProgress && !!a.deadline && now.getTime() > a.deadline.getTime();

function navigationOf(plan: AttemptPlan, page: number) {
  return plan.parts.find((p) => page >= p.firstPage && page < p.firstPage + p.pageCount)?.navigationMode ?? "linear";
}

export async function answersOf(db: Db | Tx, attemptId: string) {
  return db.select().from(assessmentAnswers).where(eq(assessmentAnswers.attemptId, attemptId));
}

/** What review may show of an attempt's items and score (spec 4.7/4.12 with the test's session control). */
async function revealOf(db: Db | Tx, d: Delivery, attempt: Attempt, now: Date) {
  const over = attempt.state !== AttemptState.inProgress;
  const scores = over && !d.pkg.survey && (await activityScoresRevealed(db, d.wf, now));
  return { over, scores, review: over && d.activity.supportReview };
}

function summary(
  d: Delivery,
  attempt: Attempt,
  answered: Set<string>,
  flagged: Set<string>,
  page: AssessmentAttempt["page"],
  reveal: { scores: boolean; review: boolean },
): AssessmentAttempt {
  const plan = attempt.plan;
  return {
    id: attempt.id,
    state: attempt.state as AttemptState,
    survey: d.pkg.survey,
    title: d.pkg.title,
    started: attempt.started.toISOString(),
    deadline: attempt.deadline?.toISOString() ?? null,
    submitted: attempt.submitted?.toISOString() ?? null,
    ended: attempt.ended,
    current: attempt.page,
    navigation: navigationOf(plan, attempt.page),
    pages: plan.pages.map((p, index) => ({
      index,
      title: p.title,
      items: p.items.map((i) => ({ ref: i.ref, answered: answered.has(i.ref), flagged: flagged.has(i.ref) })),
    })),
    page,
    score: reveal.scores ? attempt.score : null,
    maxScore: reveal.scores ? attempt.maxScore : null,
    passed: reveal.scores ? attempt.passed : null,
    reviewAllowed: reveal.review && plan.pages.some((p) => p.items.some((i) => i.control.allowReview)),
  };
}

export const hasAnswer = (r: RawResponses) => Object.values(r).some((v) => v.some((s) => s.trim() !== ""));

/** The attempt with one page's items (the current page by default; in a linear part only that one). */
export async function attemptPage(db: Db | Tx, d: Delivery, attempt: Attempt, asked: number | undefined, now: Date) {
  const plan = attempt.plan;
  const answers = await answersOf(db, attempt.id);
  const answered = new Set(answers.filter((a) => hasAnswer(a.response)).map((a) => a.itemRef));
  const flagged = new Set(answers.filter((a) => a.flagged).map((a) => a.itemRef));
  const reveal = await revealOf(db, d, attempt, now);
  if (attempt.state !== AttemptState.inProgress) return summary(d, attempt, answered, flagged, null, reveal);
  const index = asked ?? attempt.page;
  if (!plan.pages[index]) throw notFound("page");
  if (navigationOf(plan, attempt.page) === "linear" && index !== attempt.page)
    throw conflict("assessmentLinear", "This test goes one page after another: this page is not open now.");
  const planned = plan.pages[index]!;
  const items = await itemsOf(
    db,
    d.pkg.id,
    planned.items.map((i) => i.href),
  );
  const saved = new Map(answers.map((a) => [a.itemRef, a.response]));
  const files = await filesOfAttempt(db, attempt.id);
  const pageItems: AttemptPageItem[] = planned.items.map((p) => ({
    ref: p.ref,
    view: itemView(items.get(p.href)!.item, `${attempt.seed}/${p.ref}`),
    response: saved.get(p.ref) ?? null,
    flagged: flagged.has(p.ref),
    ...(files.has(p.ref) ? { files: files.get(p.ref)! } : {}),
  }));
  return summary(d, attempt, answered, flagged, { index, title: planned.title, items: pageItems }, reveal);
}

/** A refused answer as the API's 400, the item and response named. */
function responseRefusal(ref: string, e: ResponseError) {
  return new ApiError(400, { [`answers.${ref}.${e.response}`]: [message(e.code, e.message)] });
}

/**
 * Saves the answers of one page (only items of that page; in a linear part, only the current page), then
 * moves to `go` when asked (a linear part: only forward, and past an item that may not be skipped only with
 * an answer). A late save is refused: the caller ends the attempt first (`closeIfLate`).
 */
export async function saveAnswers(
  tx: Tx,
  d: Delivery,
  attemptId: string,
  input: { page: number; answers: Record<string, RawResponses>; go?: number; flagged?: string[] },
  now: Date,
  files: IncomingAnswerFile[] = [],
) {
  const [attempt] = await tx
    .select()
    .from(assessmentAttempts)
    .where(eq(assessmentAttempts.id, attemptId))
    .for("update");
  if (!attempt) throw notFound("assessment");
  if (attempt.state !== AttemptState.inProgress)
    throw conflict("assessmentSubmitted", "This attempt is over; its answers can no longer change.");
  if (isLate(attempt, now)) throw conflict("assessmentTimeUp", "The time for this test is up.");
  await refuseWhenProctorLocked(tx, d);
  const plan = attempt.plan;
  const page = plan.pages[input.page];
  if (!page) throw new ApiError(400, { page: [message("invalid", "There is no such page.")] });
  const linear = navigationOf(plan, attempt.page) === "linear";
  if (linear && input.page !== attempt.page)
    throw conflict("assessmentLinear", "This test goes one page after another: this page is not open now.");
  const items = await itemsOf(
    tx,
    d.pkg.id,
    page.items.map((i) => i.href),
  );
  const flags = input.flagged ? new Set(input.flagged) : null;
  for (const ref of flags ?? [])
    if (!page.items.some((i) => i.ref === ref))
      throw new ApiError(400, {
        [`flagged.${ref}`]: [message("assessmentNotOnPage", "This question is not on this page.")],
      });
  const flagOf = (ref: string) => (flags ? { flagged: flags.has(ref) } : {});
  const answers = structuredClone(input.answers);
  const pageItems = new Map(page.items.map((i) => [i.ref, items.get(i.href)!.item]));
  for (const ref of Object.keys(answers))
    if (!pageItems.has(ref))
      throw new ApiError(400, {
        [`answers.${ref}`]: [message("assessmentNotOnPage", "This question is not on this page.")],
      });
  const stored = new Map((await answersOf(tx, attemptId)).map((a) => [a.itemRef, a.response]));
  const removedKeys = await mergeUploads(tx, attemptId, answers, pageItems, files, stored);
  const rows: (typeof assessmentAnswers.$inferInsert)[] = [];
  for (const [ref, raw] of Object.entries(answers)) {
    const planned = page.items.find((i) => i.ref === ref);
    if (!planned)
      throw new ApiError(400, {
        [`answers.${ref}`]: [message("assessmentNotOnPage", "This question is not on this page.")],
      });
    try {
      toResponses(items.get(planned.href)!.item, raw);
    } catch (e) {
      if (e instanceof ResponseError) throw responseRefusal(ref, e);
      throw e;
    }
    rows.push({ attemptId, itemRef: ref, response: raw, saved: now, ...flagOf(ref) });
  }
  if (rows.length > 0)
    await tx
      .insert(assessmentAnswers)
      .values(rows)
      .onConflictDoUpdate({
        target: [assessmentAnswers.attemptId, assessmentAnswers.itemRef],
        set: {
          response: sql`excluded.response`,
          saved: sql`excluded.saved`,
          ...(flags ? { flagged: sql`excluded.flagged` } : {}),
        },
      });
  // Decision 057: the page's other items keep their answer and take the flag asked (a new row has none).
  const flagRows = flags
    ? page.items
        .filter((i) => !(i.ref in answers))
        .map((i) => ({ attemptId, itemRef: i.ref, response: {}, saved: now, flagged: flags.has(i.ref) }))
    : [];
  if (flagRows.length > 0)
    await tx
      .insert(assessmentAnswers)
      .values(flagRows)
      .onConflictDoUpdate({
        target: [assessmentAnswers.attemptId, assessmentAnswers.itemRef],
        set: { flagged: sql`excluded.flagged` },
      });
  let current = attempt.page;
  if (input.go !== undefined && input.go !== attempt.page) {
    if (!plan.pages[input.go]) throw new ApiError(400, { go: [message("invalid", "There is no such page.")] });
    if (linear) {
      if (input.go !== attempt.page + 1)
        throw conflict("assessmentLinear", "This test goes one page after another: this page is not open now.");
      const stored = await answersOf(tx, attemptId);
      const given = new Map(stored.map((a) => [a.itemRef, a.response]));
      const missing = page.items.filter((i) => !i.control.allowSkipping && !hasAnswer(given.get(i.ref) ?? {}));
      if (missing.length > 0)
        throw new ApiError(400, {
          [`answers.${missing[0]!.ref}`]: [
            message("assessmentAnswerRequired", "Answer this question before going on."),
          ],
        });
    }
    current = input.go;
    await tx.update(assessmentAttempts).set({ page: current }).where(eq(assessmentAttempts.id, attemptId));
  }
  return { page: current, saved: rows.length, removedKeys };
}

const varsJson = (vars: Map<string, QtiValue>) =>
  Object.fromEntries([...vars].filter(([, v]) => !isNull(v)).map(([k, v]) => [k, v.values]));

/**
 * Ends the attempt (submitted, or its time up): every item scored on the server (an item that needs a
 * person counts its person's score, or waits "in grading"), the answers' scores written in one
 * statement, the test's outcome, the activity workflow and record, the course's progress. A survey is
 * done without a score; an anonymous one's answers leave the learner's attempt.
 */
export async function closeAttempt(tx: Tx, d: Delivery, attemptId: string, reason: "submitted" | "timeUp", now: Date) {
  const [attempt] = await tx
    .select()
    .from(assessmentAttempts)
    .where(eq(assessmentAttempts.id, attemptId))
    .for("update");
  if (!attempt) throw notFound("assessment");
  if (attempt.state !== AttemptState.inProgress) return attempt;
  const planned = attempt.plan.pages.flatMap((p) => p.items);
  const [items, answers] = await Promise.all([
    itemsOf(
      tx,
      d.pkg.id,
      planned.map((i) => i.href),
    ),
    answersOf(tx, attempt.id),
  ]);
  const saved = new Map(answers.map((a) => [a.itemRef, a]));
  const results: TestItemResult[] = [];
  const scored: { ref: string; score: number; maxScore: number; outcomes: Record<string, unknown> }[] = [];
  let waiting = false;
  for (const p of planned) {
    const { item, maxScore } = items.get(p.href)!;
    const answer = saved.get(p.ref);
    let responses = new Map<string, QtiValue>();
    try {
      responses = toResponses(item, answer?.response ?? {});
    } catch {
      // Stored answers were checked when saved; an item changed since is scored as unanswered.
    }
    const outcome = scoreItem(item, responses);
    let score = outcome.score;
    if (item.needsPerson) {
      if (answer?.gradedScore != null) score = answer.gradedScore;
      else if (outcome.responded && !d.pkg.survey) waiting = true;
      outcome.vars.set("SCORE", { cardinality: "single", baseType: "float", values: [score] });
    }
    results.push({
      identifier: p.ref,
      weights: p.weights,
      categories: p.categories,
      sections: p.sections,
      vars: outcome.vars,
      maxScore,
      presented: true,
      responded: outcome.responded,
      correct: outcome.correct,
    });
    if (answer) scored.push({ ref: p.ref, score, maxScore, outcomes: varsJson(outcome.vars) });
  }
  const test = scoreTest(d.pkg.test, results, d.pkg.cutValue);
  if (scored.length > 0 && !d.pkg.anonymous)
    await tx.execute(sql`
      update assessment_answers a set score = (x->>'score')::float8, max_score = (x->>'maxScore')::float8, outcomes = x->'outcomes'
      from jsonb_array_elements(${JSON.stringify(scored)}::jsonb) x
      where a.attempt_id = ${attempt.id} and a.item_ref = x->>'ref'`);
  if (d.pkg.anonymous && answers.length > 0) {
    const day = now.toISOString().slice(0, 10);
    await tx
      .insert(surveyAnswers)
      .values(answers.map((a) => ({ packageId: d.pkg.id, itemRef: a.itemRef, response: a.response, day })));
    await tx.delete(assessmentAnswers).where(eq(assessmentAnswers.attemptId, attempt.id));
  }
  const survey = d.pkg.survey;
  const state = waiting ? AttemptState.inGrading : AttemptState.done;
  const [closed] = await tx
    .update(assessmentAttempts)
    .set({
      state,
      submitted: now,
      ended: reason,
      score: survey ? null : test.score,
      maxScore: survey ? null : test.maxScore,
      passed: survey ? null : test.passed,
    })
    .where(eq(assessmentAttempts.id, attempt.id))
    .returning();
  await recordOutcome(tx, d, survey ? null : test, waiting, now);
  return closed!;
}

/** The activity workflow finished (or in grading) and its record: the score on the activity's scale. */
async function recordOutcome(
  tx: Tx,
  d: Delivery,
  test: { score: number; maxScore: number; normalized: number | null; passed: boolean | null } | null,
  waiting: boolean,
  now: Date,
) {
  const max = d.activity.maxScore;
  const score = !test || waiting ? null : max !== null && test.normalized !== null ? test.normalized * max : test.score;
  const maxScore = test ? (max ?? test.maxScore) : max;
  const passed = !test || waiting ? null : test.passed;
  await tx
    .update(activityWorkflows)
    .set({ state: waiting ? ActivityWorkflowState.inGrading : ActivityWorkflowState.finished, finished: now })
    .where(eq(activityWorkflows.id, d.aw.id));
  await tx
    .insert(activityRecords)
    .values({
      activityWorkflowId: d.aw.id,
      objectiveWorkflowId: d.wf.id,
      activityPartId: d.aw.activityPartId,
      userId: d.wf.userId,
      score,
      maxScore,
      passed,
      finished: now,
    })
    .onConflictDoUpdate({
      target: activityRecords.activityWorkflowId,
      set: { score, maxScore, passed, finished: now },
    });
  const progress = progressOf(await leafProgress(tx, d.wf.objectiveId, d.wf.id));
  await tx.update(objectiveWorkflows).set({ progress }).where(eq(objectiveWorkflows.id, d.wf.id));
}

/** The server's time limit: an attempt past its deadline ends itself (its answers so far are scored). */
export async function closeIfLate(db: Db, d: Delivery, now: Date): Promise<Attempt | null> {
  if (!d.attempt || !isLate(d.attempt, now)) return d.attempt;
  return db.transaction((tx) => closeAttempt(tx, d, d.attempt!.id, "timeUp", now));
}

/** Review: every item with the learner's answer and, as the reveal rules allow, its score, feedback and solution. */
export async function attemptReview(db: Db, d: Delivery, attempt: Attempt, now: Date): Promise<AssessmentReview> {
  const reveal = await revealOf(db, d, attempt, now);
  const answers = await answersOf(db, attempt.id);
  const answered = new Set(answers.filter((a) => hasAnswer(a.response)).map((a) => a.itemRef));
  const flagged = new Set(answers.filter((a) => a.flagged).map((a) => a.itemRef));
  const base = summary(d, attempt, answered, flagged, null, reveal);
  if (!base.reviewAllowed) throw conflict("assessmentNoReview", "This test's answers cannot be reviewed.");
  const planned = attempt.plan.pages.flatMap((p) => p.items).filter((p) => p.control.allowReview);
  const items = await itemsOf(
    db,
    d.pkg.id,
    planned.map((p) => p.href),
  );
  const saved = new Map(answers.map((a) => [a.itemRef, a]));
  const files = await filesOfAttempt(db, attempt.id);
  return {
    attempt: base,
    items: planned.map((p) => {
      const a = saved.get(p.ref);
      const { item } = items.get(p.href)!;
      const vars = new Map<string, QtiValue>(
        Object.entries(a?.outcomes ?? {}).map(([k, values]) => [
          k,
          { cardinality: "multiple", baseType: null, values },
        ]),
      );
      return {
        ref: p.ref,
        view: itemView(item, `${attempt.seed}/${p.ref}`, {
          vars,
          feedback: reveal.scores && p.control.showFeedback,
          solution: reveal.scores && p.control.showSolution,
        }),
        response: a?.response ?? null,
        ...(files.has(p.ref) ? { files: files.get(p.ref)! } : {}),
        score: reveal.scores ? (item.needsPerson ? (a?.gradedScore ?? null) : (a?.score ?? 0)) : null,
        maxScore: reveal.scores ? (a?.maxScore ?? items.get(p.href)!.maxScore) : null,
        awaitingPerson: item.needsPerson && a?.gradedScore == null && !!a && hasAnswer(a.response),
      };
    }),
  };
}

/** The delivery an attempt belongs to (its learner's workflows, activity and package), for a grader's command. */
export async function deliveryOfAttempt(db: Db | Tx, attemptId: string): Promise<Delivery | null> {
  const [row] = await db
    .select({
      wf: objectiveWorkflows,
      aw: activityWorkflows,
      activity: activities,
      pkg: qtiPackages,
      attempt: assessmentAttempts,
    })
    .from(assessmentAttempts)
    .innerJoin(qtiPackages, eq(qtiPackages.id, assessmentAttempts.packageId))
    .innerJoin(activityWorkflows, eq(activityWorkflows.id, assessmentAttempts.activityWorkflowId))
    .innerJoin(objectiveWorkflows, eq(objectiveWorkflows.id, activityWorkflows.objectiveWorkflowId))
    .innerJoin(activityParts, eq(activityParts.id, activityWorkflows.activityPartId))
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .where(eq(assessmentAttempts.id, attemptId))
    .limit(1);
  return row ?? null;
}
