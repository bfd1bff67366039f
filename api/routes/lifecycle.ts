import { Hono, type Context } from "hono";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  availabilityBlock,
  gradeObjective,
  previousAttemptScoresVisible,
  retakeOffered,
  canReview,
} from "../../domain/lifecycle";
import {
  finishActivityWorkflowsSchema,
  finishObjectiveWorkflowSchema,
  startActivityWorkflowsSchema,
  startObjectiveWorkflowSchema,
  submitObjectiveWorkflowSchema,
  type ActivityTree,
  type TreeNode,
} from "../../domain/contract/lifecycle";
import type { ApiEnv } from "../context";
import type { Db } from "../db/client";
import {
  activities,
  activityParts,
  activityRecords,
  activityWorkflows,
  features,
  grades,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
} from "../db/schema";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { ApiError, message, notFound } from "../errors";
import { stableUuid } from "../ids";
import { toRecord, toWorkflow } from "../mappers/courses";
import { issueCertificate } from "../queries/certificates";
import { loadScales } from "../queries/grading-scales";
import { lastProctoringSessionOf } from "../queries/proctoring";
import { proctorLocked } from "../../domain/proctoring";
import { jsonBody, params, idParams, isUuid } from "../validate";
import {
  ObjectiveState,
  ObjectiveWorkflowState,
  ActivityWorkflowState,
  CONTENT_AVAILABLE_STATES,
  HIDDEN_START_STATES,
} from "../../domain/vocabulary";

const contentParams = z.object({ id: z.uuid(), path: z.uuid().optional() });
const activityParams = z.object({ id: z.uuid(), activityId: z.uuid() });
const activityWorkflowParams = z.object({ id: z.uuid(), awId: z.uuid() });
const resumeBody = z.object({
  resume: z
    .object({
      page: z.number().int().min(1).max(100_000).optional(),
      position: z.number().min(0).max(1_000_000).optional(),
    })
    .strict(),
});

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Spec 4.1: the states from which a learner may finish an attempt. */
const FINISHABLE_STATES: readonly ObjectiveWorkflowState[] = [
  ObjectiveWorkflowState.submitted,
  ObjectiveWorkflowState.graded,
  ObjectiveWorkflowState.gradingApproved,
];

function conflict(code: string, text: string, params?: Record<string, string | number>) {
  return new ApiError(409, { "": [message(code, text, params)] });
}
function refused(code: string, text: string, params?: Record<string, string | number>) {
  return new ApiError(422, { "": [message(code, text, params)] });
}

async function ownWorkflow(db: Db | Tx, userId: string, workflowId: string, lock = false) {
  const q = db
    .select()
    .from(objectiveWorkflows)
    .where(and(eq(objectiveWorkflows.id, workflowId), eq(objectiveWorkflows.userId, userId)))
    .limit(1);
  const rows = lock ? await q.for("update") : await q;
  if (!rows[0]) throw notFound("workflow");
  return rows[0];
}

/** Spec 4.8: a completed proctoring session ends the sitting; the attempt's activities stay as they are. */
async function refuseWhenProctorLocked(tx: Tx, wf: { id: string; state: ObjectiveWorkflowState }) {
  const session = await lastProctoringSessionOf(tx, wf.id);
  if (proctorLocked({ workflow: { state: wf.state }, session })) {
    throw conflict("proctoringLocked", "The proctored session of this course is over.");
  }
}

async function featureOn(db: Db | Tx, tenantId: string, name: string, fallback: boolean) {
  const rows = await db
    .select({ enabled: features.enabled })
    .from(features)
    .where(and(eq(features.tenantId, tenantId), eq(features.name, name)))
    .limit(1);
  return rows[0]?.enabled ?? fallback;
}

/** Leaf parts (not composite) of a course with this workflow's activity workflows and records. */
async function leafProgress(db: Db | Tx, objectiveId: string, objectiveWorkflowId: string) {
  return db
    .select({ part: activityParts, activity: activities, aw: activityWorkflows, rec: activityRecords })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.activityPartId, activityParts.id),
        eq(activityWorkflows.objectiveWorkflowId, objectiveWorkflowId),
      ),
    )
    .leftJoin(activityRecords, eq(activityRecords.activityWorkflowId, activityWorkflows.id))
    .where(
      and(eq(activityParts.objectiveId, objectiveId), sql`${activities.kind} <> 3`, sql`${activities.state} <> 4`),
    );
}

function progressOf(rows: Awaited<ReturnType<typeof leafProgress>>): number {
  const counted = rows.filter((r) => !r.part.optional);
  if (counted.length === 0) return 0;
  const done = counted.filter((r) => r.aw && r.aw.state !== ActivityWorkflowState.inProgress).length;
  return Math.round((done / counted.length) * 10_000) / 10_000;
}

export async function loadTree(
  db: Db,
  objectiveId: string,
  workflow: { id: string; state: number } | null,
  revealScores: boolean,
  _now: Date,
): Promise<Omit<ActivityTree, "objectiveWorkflowId">> {
  const rows = await db
    .select({ part: activityParts, activity: activities, aw: activityWorkflows, rec: activityRecords })
    .from(activityParts)
    .innerJoin(activities, eq(activities.id, activityParts.activityId))
    .leftJoin(
      activityWorkflows,
      and(
        eq(activityWorkflows.activityPartId, activityParts.id),
        eq(activityWorkflows.objectiveWorkflowId, workflow?.id ?? "00000000-0000-0000-0000-000000000000"),
      ),
    )
    .leftJoin(activityRecords, eq(activityRecords.activityWorkflowId, activityWorkflows.id))
    .where(eq(activityParts.objectiveId, objectiveId))
    .orderBy(asc(activityParts.axis));
  const byId = new Map(rows.map((r) => [r.part.id, r]));
  // A module's window applies to everything inside it: the later start, the earlier end wins.
  const effective = new Map<string, Record<string, string | null>>();
  const later = (a?: string | null, b?: string | null) =>
    !a ? (b ?? null) : !b ? a : Date.parse(a) >= Date.parse(b) ? a : b;
  const earlier = (a?: string | null, b?: string | null) =>
    !a ? (b ?? null) : !b ? a : Date.parse(a) <= Date.parse(b) ? a : b;
  const constraintOf = (partId: string): Record<string, string | null> => {
    const known = effective.get(partId);
    if (known) return known;
    const row = byId.get(partId)!;
    const own = (row.part.constraint ?? {}) as Record<string, string | null>;
    const parent = row.part.parentPartId && byId.has(row.part.parentPartId) ? constraintOf(row.part.parentPartId) : {};
    const c: Record<string, string | null> = {
      ...own,
      startFrom: later(own.startFrom, parent.startFrom),
      accessibleUntil: earlier(own.accessibleUntil, parent.accessibleUntil),
      startUntil: earlier(own.startUntil, parent.startUntil),
    };
    for (const k of ["startFrom", "accessibleUntil", "startUntil"])
      if (c[k] === null && own[k] === undefined) delete c[k];
    effective.set(partId, c);
    return c;
  };
  const nodes: TreeNode[] = rows
    .filter((r) => r.activity.state !== ObjectiveState.archived)
    .map(({ part, activity, aw, rec }) => {
      const constraint = constraintOf(part.id);
      // Dates (startFrom…) are constraints the client weighs in order (spec 4.12), not availability.
      const contentAvailable = CONTENT_AVAILABLE_STATES.includes(activity.state);
      const parent = part.parentPartId ? byId.get(part.parentPartId) : null;
      return {
        activityPathId: part.id,
        parentPathId: part.parentPartId,
        axis: part.axis,
        order: part.order,
        optional: part.optional,
        scoreWeight: part.scoreWeight,
        constraint,
        available:
          activity.state !== ObjectiveState.draft && (!parent || parent.activity.state !== ObjectiveState.draft),
        contentAvailable,
        childActivity: {
          id: activity.id,
          name: activity.name,
          code: activity.code,
          kind: activity.kind,
          contentType: activity.contentType,
          type: activity.type,
          state: activity.state,
          proctored: activity.proctored,
          duration: activity.duration,
          maxScore: activity.maxScore,
          supportReview: activity.supportReview,
          activityWorkflowAggregate: {
            lastActivityWorkflow: aw
              ? {
                  id: aw.id,
                  state: aw.state,
                  submitted: aw.state !== ActivityWorkflowState.inProgress,
                  finished: iso(aw.finished),
                  started: aw.started.toISOString(),
                  resume: (aw.resume as { page?: number; openedAt?: string } | null) ?? null,
                }
              : null,
            bestActivityRecord: rec
              ? {
                  score: revealScores ? rec.score : null,
                  maxScore: revealScores ? rec.maxScore : null,
                  passed: revealScores ? rec.passed : null,
                }
              : null,
          },
        },
      };
    });
  return { rootPathId: rows.find((r) => r.part.parentPartId === null)?.part.id ?? null, nodes };
}

export function lifecycleRoutes() {
  const r = new Hono<ApiEnv>();
  for (const path of [
    "/start-objective-workflows",
    "/submit-objective-workflows",
    "/finish-objective-workflows",
    "/start-activity-workflows",
    "/finish-activity-workflows",
    "/objective-workflows/*",
    "/objective-workflow-aggregates/*",
    "/objective-records/*",
    "/users/me/objective-workflows/*",
  ]) {
    r.use(path, requireUser);
  }

  // Spec 7.3 / 4.4: start (or retake) an objective workflow. The body id is the new workflow's id.
  r.post("/start-objective-workflows", async (c) => {
    const body = await jsonBody(c, startObjectiveWorkflowSchema);
    const user = c.var.user;
    const now = c.var.now;
    return runCommand(c, { id: body.id, type: "start-objective-workflow" }, async (tx) => {
      const rows = await tx
        .select({ a: owa, o: objectives })
        .from(owa)
        .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
        .where(and(eq(owa.id, body.objectiveWorkflowAggregateId), eq(owa.userId, user.id)))
        .for("update", { of: owa })
        .limit(1);
      const row = rows[0];
      if (!row) throw notFound("course");
      const { a, o } = row;
      if (HIDDEN_START_STATES.includes(o.state) || o.activityState === ObjectiveState.archived)
        throw refused("courseNotAvailable", "This course cannot be started.");
      const last = a.lastWorkflowId
        ? (await tx.select().from(objectiveWorkflows).where(eq(objectiveWorkflows.id, a.lastWorkflowId)).limit(1))[0]
        : null;
      if (last && last.state !== ObjectiveWorkflowState.finished)
        throw conflict("workflowInProgress", "The course is already started.");
      if (last) {
        const allowed = retakeOffered({
          workflow: { state: last.state },
          retake: a.retake,
          kind: o.activityKind,
          activityState: o.activityState,
          compositeRetake: await featureOn(tx, user.tenantId, "compositeRetake", true),
        });
        if (!allowed) throw conflict("retakeNotAllowed", "Starting this course again is not allowed.");
      }
      const block = availabilityBlock(
        { availabilityDate: iso(a.availabilityDate), availabilityEndDate: iso(a.availabilityEndDate) },
        now,
      );
      if (block) {
        throw refused(
          block.kind === "notYetAvailable" ? "notYetAvailable" : "availabilityEnded",
          block.kind === "notYetAvailable" ? `Available from ${block.date}.` : `Available until ${block.date}.`,
          { date: block.date },
        );
      }
      const [wf] = await tx
        .insert(objectiveWorkflows)
        .values({
          id: body.id,
          aggregateId: a.id,
          userId: user.id,
          objectiveId: o.id,
          attempt: (last?.attempt ?? 0) + 1,
          state: ObjectiveWorkflowState.inProgress,
          progress: 0,
          started: now,
        })
        .returning();
      await tx
        .update(owa)
        .set({ lastWorkflowId: wf.id, lastWorkflowState: ObjectiveWorkflowState.inProgress })
        .where(eq(owa.id, a.id));
      return { ...toWorkflow(wf), objectiveWorkflowAggregateId: a.id };
    });
  });

  // Spec 7.3: start activity workflows (idempotent per workflow and part).
  r.post("/start-activity-workflows", async (c) => {
    const body = await jsonBody(c, startActivityWorkflowsSchema);
    const user = c.var.user;
    const parts = [...new Set(body.activityPartIds)].sort();
    return runCommand(
      c,
      { id: stableUuid(`start-aw:${body.objectiveWorkflowId}:${parts.join(",")}`), type: "start-activity-workflows" },
      async (tx) => {
        const wf = await ownWorkflow(tx, user.id, body.objectiveWorkflowId, true);
        if (wf.state !== ObjectiveWorkflowState.inProgress)
          throw conflict("workflowNotInProgress", "The course is not in progress.");
        await refuseWhenProctorLocked(tx, wf);
        const found = await tx
          .select({ id: activityParts.id, state: activities.state })
          .from(activityParts)
          .innerJoin(activities, eq(activities.id, activityParts.activityId))
          .where(and(eq(activityParts.objectiveId, wf.objectiveId), inArray(activityParts.id, parts)));
        if (found.length !== parts.length)
          throw new ApiError(404, {
            activityPartIds: [message("notFound", "An activity was not found in this course.")],
          });
        if (found.some((p) => HIDDEN_START_STATES.includes(p.state)))
          throw refused("activityNotAvailable", "This activity is not available.");
        await tx
          .insert(activityWorkflows)
          .values(
            parts.map((activityPartId) => ({
              objectiveWorkflowId: wf.id,
              activityPartId,
              userId: user.id,
              state: ActivityWorkflowState.inProgress,
            })),
          )
          .onConflictDoNothing();
        const rows = await tx
          .select({
            id: activityWorkflows.id,
            activityPartId: activityWorkflows.activityPartId,
            state: activityWorkflows.state,
          })
          .from(activityWorkflows)
          .where(
            and(eq(activityWorkflows.objectiveWorkflowId, wf.id), inArray(activityWorkflows.activityPartId, parts)),
          );
        return { objectiveWorkflowId: wf.id, activityWorkflows: rows };
      },
    );
  });

  // Spec 7.3: finish activity workflows; completion earns the activity's points unless a person grades it.
  r.post("/finish-activity-workflows", async (c) => {
    const body = await jsonBody(c, finishActivityWorkflowsSchema);
    const user = c.var.user;
    const now = c.var.now;
    const ids = [...new Set(body.activityWorkflowIds)].sort();
    return runCommand(
      c,
      { id: stableUuid(`finish-aw:${body.objectiveWorkflowId}:${ids.join(",")}`), type: "finish-activity-workflows" },
      async (tx) => {
        const wf = await ownWorkflow(tx, user.id, body.objectiveWorkflowId, true);
        if (wf.state !== ObjectiveWorkflowState.inProgress)
          throw conflict("workflowNotInProgress", "The course is not in progress.");
        await refuseWhenProctorLocked(tx, wf);
        const rows = await tx
          .select({ aw: activityWorkflows, activity: activities })
          .from(activityWorkflows)
          .innerJoin(activityParts, eq(activityParts.id, activityWorkflows.activityPartId))
          .innerJoin(activities, eq(activities.id, activityParts.activityId))
          .where(and(eq(activityWorkflows.objectiveWorkflowId, wf.id), inArray(activityWorkflows.id, ids)));
        if (rows.length !== ids.length)
          throw new ApiError(404, {
            activityWorkflowIds: [message("notFound", "An activity workflow was not found.")],
          });
        for (const { aw, activity } of rows) {
          if (aw.state !== ActivityWorkflowState.inProgress) continue;
          const state = activity.manualGrading ? ActivityWorkflowState.inGrading : ActivityWorkflowState.finished;
          await tx.update(activityWorkflows).set({ state, finished: now }).where(eq(activityWorkflows.id, aw.id));
          const score = activity.maxScore !== null && !activity.manualGrading ? activity.maxScore : null;
          await tx
            .insert(activityRecords)
            .values({
              activityWorkflowId: aw.id,
              objectiveWorkflowId: wf.id,
              activityPartId: aw.activityPartId,
              userId: user.id,
              score,
              maxScore: activity.maxScore,
              passed: score === null ? null : true,
              finished: now,
            })
            .onConflictDoNothing();
        }
        const progress = progressOf(await leafProgress(tx, wf.objectiveId, wf.id));
        await tx.update(objectiveWorkflows).set({ progress }).where(eq(objectiveWorkflows.id, wf.id));
        return { objectiveWorkflowId: wf.id, progress };
      },
    );
  });

  // Spec 7.3 / 4.5: submit; grading makes the record at once (or waits for a person to grade).
  r.post("/submit-objective-workflows", async (c) => {
    const body = await jsonBody(c, submitObjectiveWorkflowSchema);
    const user = c.var.user;
    const now = c.var.now;
    return runCommand(c, { id: stableUuid(`submit:${body.id}`), type: "submit-objective-workflow" }, async (tx) => {
      const wf = await ownWorkflow(tx, user.id, body.id, true);
      if (wf.state !== ObjectiveWorkflowState.inProgress)
        throw conflict("workflowNotInProgress", "The course is not in progress.");
      const [agg] = await tx.select().from(owa).where(eq(owa.id, wf.aggregateId));
      const [objective] = await tx.select().from(objectives).where(eq(objectives.id, wf.objectiveId));
      const leaves = await leafProgress(tx, wf.objectiveId, wf.id);
      const [scale] = objective.gradingScaleId ? await loadScales(tx as unknown as Db, [objective.gradingScaleId]) : [];
      const result = gradeObjective({
        activities: leaves.map(({ part, activity, aw, rec }) => ({
          scoreWeight: part.scoreWeight,
          optional: part.optional,
          maxScore: activity.maxScore,
          finished: !!aw && aw.state !== ActivityWorkflowState.inProgress,
          // Not done by the time of submission counts as no points; done but awaiting a person: pending.
          score: rec?.score ?? (aw && aw.state === ActivityWorkflowState.inGrading ? null : 0),
        })),
        scale: scale
          ? {
              maxScore: scale.maxScore,
              normalizedPassingScore: scale.normalizedPassingScore,
              grades: scale.objectiveGrades,
            }
          : null,
      });
      const progress = progressOf(leaves);
      const pending = result.pending > 0;
      const state = pending ? ObjectiveWorkflowState.inGrading : ObjectiveWorkflowState.finished;
      const [record] = await tx
        .insert(objectiveRecords)
        .values({
          aggregateId: agg.id,
          workflowId: wf.id,
          userId: user.id,
          objectiveId: wf.objectiveId,
          score: result.score,
          maxScore: result.maxScore,
          normalizedScore: result.normalizedScore,
          gradeId: result.gradeId,
          passed: result.passed,
          finished: pending ? null : now,
          progress,
          protectResults: wf.protectResults,
        })
        .returning();
      const [updated] = await tx
        .update(objectiveWorkflows)
        .set({ state, progress, submitted: now, finished: pending ? null : now, objectiveRecordId: record.id })
        .where(eq(objectiveWorkflows.id, wf.id))
        .returning();
      await tx.update(owa).set({ lastWorkflowState: state, lastRecordId: record.id }).where(eq(owa.id, agg.id));
      // A passed attempt of a course with a certificate template earns its certificate in this transaction.
      await issueCertificate(tx, {
        objectiveId: wf.objectiveId,
        userId: user.id,
        objectiveRecordId: record.id,
        passed: record.passed,
        now,
      });
      return toWorkflow(updated);
    });
  });

  // Spec 7.3: finish a submitted/graded workflow; the answer replaces the client's copy.
  r.post("/finish-objective-workflows", async (c) => {
    const body = await jsonBody(c, finishObjectiveWorkflowSchema);
    const user = c.var.user;
    const now = c.var.now;
    return runCommand(c, { id: body.id, type: "finish-objective-workflow" }, async (tx) => {
      const wf = await ownWorkflow(tx, user.id, body.objectiveWorkflowId, true);
      if (wf.state === ObjectiveWorkflowState.finished)
        throw conflict("alreadyFinished", "The course is already finished.");
      if (!FINISHABLE_STATES.includes(wf.state))
        throw conflict("cannotFinish", "The course cannot be finished in its current state.");
      const [updated] = await tx
        .update(objectiveWorkflows)
        .set({ state: ObjectiveWorkflowState.finished, finished: now })
        .where(eq(objectiveWorkflows.id, wf.id))
        .returning();
      if (wf.objectiveRecordId) {
        const [record] = await tx
          .update(objectiveRecords)
          .set({ finished: now })
          .where(eq(objectiveRecords.id, wf.objectiveRecordId))
          .returning({ id: objectiveRecords.id, passed: objectiveRecords.passed });
        // Graded by a person after submission: the certificate comes when the attempt is finished.
        if (record)
          await issueCertificate(tx, {
            objectiveId: wf.objectiveId,
            userId: user.id,
            objectiveRecordId: record.id,
            passed: record.passed,
            now,
          });
      }
      await tx
        .update(owa)
        .set({ lastWorkflowState: ObjectiveWorkflowState.finished })
        .where(eq(owa.id, wf.aggregateId));
      return toWorkflow(updated);
    });
  });

  r.get("/objective-workflows/:id", async (c) => {
    const { id } = params(c, idParams);
    return c.json(toWorkflow(await ownWorkflow(c.var.db, c.var.user.id, id)));
  });

  // Spec 7.3: the records (attempts) of one of the learner's courses, newest first, reveal policy applied.
  const records = async (c: Context<ApiEnv>, where: { aggregateId?: string; objectiveId?: string }) => {
    const db = c.var.db;
    const [agg] = await db
      .select()
      .from(owa)
      .where(
        and(
          where.aggregateId ? eq(owa.id, where.aggregateId) : eq(owa.objectiveId, where.objectiveId!),
          eq(owa.userId, c.var.user.id),
        ),
      )
      .limit(1);
    if (!agg) throw notFound("course");
    const rows = await db
      .select({
        r: objectiveRecords,
        wfState: objectiveWorkflows.state,
        attempt: objectiveWorkflows.attempt,
        started: objectiveWorkflows.started,
      })
      .from(objectiveRecords)
      .leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, objectiveRecords.workflowId))
      .where(eq(objectiveRecords.aggregateId, agg.id))
      .orderBy(
        desc(
          sql`coalesce(${objectiveRecords.finished}, ${objectiveWorkflows.submitted}, ${objectiveWorkflows.started})`,
        ),
      );
    const gradeIds = [...new Set(rows.map((x) => x.r.gradeId).filter((g): g is string => !!g))];
    const gradeRows = gradeIds.length ? await db.select().from(grades).where(inArray(grades.id, gradeIds)) : [];
    const gradeMap = new Map(
      gradeRows.map((g) => [
        g.id,
        { id: g.id, name: g.name, color: g.color, normalizedMinScore: g.normalizedMinScore },
      ]),
    );
    const olderVisible = previousAttemptScoresVisible(
      {
        recordCount: rows.length,
        gradeRevealPolicy: agg.gradeRevealPolicy as "none",
        gradeRevealDate: iso(agg.gradeRevealDate),
      },
      c.var.now,
    );
    const data = rows.map((x, i) => {
      const rec = toRecord(x.r, agg, x.wfState, gradeMap, c.var.now)!;
      const hidden = i > 0 && !olderVisible;
      return {
        ...rec,
        ...(hidden
          ? { score: null, maxScore: null, normalizedScore: null, grade: null, passed: null, resultsHidden: true }
          : {}),
        objectiveWorkflowId: x.r.workflowId,
        attempt: x.attempt,
        started: iso(x.started),
        workflowState: x.wfState,
      };
    });
    return c.json({ data });
  };
  r.get("/objective-workflow-aggregates/:id/objective-records", async (c) =>
    records(c, { aggregateId: params(c, idParams).id }),
  );
  r.get("/objective-records/query", async (c) => {
    const q = c.req.query("objectiveId") ?? "";
    if (!isUuid(q))
      throw new ApiError(400, { objectiveId: [message("invalid", "objectiveId must be a course id (uuid).")] });
    return records(c, { objectiveId: q });
  });

  // Spec 7.4: the course tree for one of the learner's workflows, with per-activity progress.
  const tree = async (c: Context<ApiEnv>) => {
    const { id } = params(c, idParams);
    const db = c.var.db;
    const wf = await ownWorkflow(db, c.var.user.id, id);
    const [agg] = await db.select().from(owa).where(eq(owa.id, wf.aggregateId));
    const [objective] = await db
      .select({ supportReview: objectives.supportReview })
      .from(objectives)
      .where(eq(objectives.id, wf.objectiveId));
    // Scores of a finished attempt are shown only where review is allowed (spec 4.7).
    const reveal =
      wf.state !== ObjectiveWorkflowState.finished ||
      canReview(
        {
          workflow: { state: ObjectiveWorkflowState.finished },
          supportReview: objective.supportReview,
          gradeRevealPolicy: agg.gradeRevealPolicy as "none",
          gradeRevealDate: iso(agg.gradeRevealDate),
        },
        c.var.now,
      );
    const t = await loadTree(db, wf.objectiveId, wf, reveal, c.var.now);
    return c.json({ objectiveWorkflowId: wf.id, ...t } satisfies ActivityTree);
  };
  // The content of one activity, for learners who have a standing in a course that contains it.
  r.use("/users/me/activities/*", requireUser);
  r.get("/users/me/activities/:id/content", async (c) => {
    const { id } = params(c, idParams);
    const db = c.var.db;
    const rows = await db
      .select({ activity: activities })
      .from(activities)
      .innerJoin(activityParts, eq(activityParts.activityId, activities.id))
      .innerJoin(owa, and(eq(owa.objectiveId, activityParts.objectiveId), eq(owa.userId, c.var.user.id)))
      .where(and(eq(activities.id, id), sql`${activities.state} in (2, 3)`))
      .limit(1);
    if (!rows[0]) throw notFound("activity");
    const a = rows[0].activity;
    return c.json({
      id: a.id,
      name: a.name,
      kind: a.kind,
      contentType: a.contentType,
      content: a.content,
      duration: a.duration,
      toolUrl: a.toolUrl,
    });
  });
  // Spec 7.4: one subtree, and the children of the root or of one node.
  const subtree = (mode: "node" | "children") => async (c: Context<ApiEnv>) => {
    const { id, path } = params(c, contentParams);
    const db = c.var.db;
    const wf = await ownWorkflow(db, c.var.user.id, id);
    const t = await loadTree(db, wf.objectiveId, wf, true, c.var.now);
    const rootId = path ?? t.rootPathId;
    const node = t.nodes.find((n) => n.activityPathId === rootId);
    if (!node) throw notFound("activity");
    if (mode === "children") return c.json({ data: t.nodes.filter((n) => n.parentPathId === rootId) });
    const inside = new Set([rootId]);
    for (const n of t.nodes) if (n.parentPathId && inside.has(n.parentPathId)) inside.add(n.activityPathId);
    return c.json({
      objectiveWorkflowId: wf.id,
      rootPathId: rootId,
      nodes: t.nodes.filter((n) => inside.has(n.activityPathId)),
    });
  };
  r.get("/users/me/objective-workflows/:id/activity/:path/children", subtree("children"));
  r.get("/users/me/objective-workflows/:id/activity/children", subtree("children"));
  r.get("/users/me/objective-workflows/:id/activity/:path", subtree("node"));

  // Spec 7.4: activity records of one activity in one of the learner's workflows, and the query form.
  const recordsOf = async (c: Context<ApiEnv>, workflowId: string, activityId: string | null) => {
    const db = c.var.db;
    const wf = await ownWorkflow(db, c.var.user.id, workflowId);
    const rows = await db
      .select({ rec: activityRecords, activityId: activityParts.activityId })
      .from(activityRecords)
      .innerJoin(activityParts, eq(activityParts.id, activityRecords.activityPartId))
      .where(
        and(
          eq(activityRecords.objectiveWorkflowId, wf.id),
          activityId ? eq(activityParts.activityId, activityId) : undefined,
        ),
      );
    const [agg] = await db.select().from(owa).where(eq(owa.id, wf.aggregateId));
    const [objective] = await db
      .select({ supportReview: objectives.supportReview })
      .from(objectives)
      .where(eq(objectives.id, wf.objectiveId));
    const reveal =
      wf.state !== ObjectiveWorkflowState.finished ||
      canReview(
        {
          workflow: { state: ObjectiveWorkflowState.finished },
          supportReview: objective.supportReview,
          gradeRevealPolicy: agg.gradeRevealPolicy as "none",
          gradeRevealDate: iso(agg.gradeRevealDate),
        },
        c.var.now,
      );
    return c.json({
      data: rows.map(({ rec, activityId: aid }) => ({
        id: rec.id,
        activityId: aid,
        activityWorkflowId: rec.activityWorkflowId,
        score: reveal ? rec.score : null,
        maxScore: reveal ? rec.maxScore : null,
        passed: reveal ? rec.passed : null,
        finished: iso(rec.finished),
      })),
    });
  };
  r.get("/users/me/objective-workflows/:id/activities/:activityId/activity-records", async (c) => {
    const p = params(c, activityParams);
    return recordsOf(c, p.id, p.activityId);
  });
  r.get("/users/me/objective-workflows/:id/activity-records/query", async (c) => {
    const { id } = params(c, idParams);
    // filter=activity.id eq '<uuid>' (the only filter this query takes)
    const filter = c.req.query("filter") ?? "";
    const m = /^\s*activity\.id\s+eq\s+'([0-9a-fA-F-]{36})'\s*$/.exec(filter);
    if (filter && !m)
      throw new ApiError(400, { filter: [message("invalidFilter", "Only \"activity.id eq '<uuid>'\" is supported.")] });
    return recordsOf(c, id, m?.[1] ?? null);
  });

  // Spec 7.3 PUT activity workflow: where the learner left off inside an activity (e.g. a PDF page).
  r.put("/users/me/objective-workflows/:id/activity-workflows/:awId", async (c) => {
    const p = params(c, activityWorkflowParams);
    const body = await jsonBody(c, resumeBody);
    const db = c.var.db;
    const wf = await ownWorkflow(db, c.var.user.id, p.id);
    const [row] = await db
      .update(activityWorkflows)
      // Merge: opening an activity keeps the PDF page saved earlier.
      .set({
        resume: sql`coalesce(${activityWorkflows.resume}, '{}'::jsonb) || ${JSON.stringify({ ...body.resume, openedAt: c.var.now.toISOString() })}::jsonb`,
      })
      .where(and(eq(activityWorkflows.id, p.awId), eq(activityWorkflows.objectiveWorkflowId, wf.id)))
      .returning({ id: activityWorkflows.id, resume: activityWorkflows.resume });
    if (!row) throw notFound("activity workflow");
    return c.json(row);
  });

  // Contents of every available activity of the course in one call (long-read modes show them all).
  r.get("/users/me/objective-workflows/:id/activity-contents", async (c) => {
    const { id } = params(c, idParams);
    const db = c.var.db;
    const wf = await ownWorkflow(db, c.var.user.id, id);
    const rows = await db
      .select({
        id: activities.id,
        kind: activities.kind,
        contentType: activities.contentType,
        content: activities.content,
        duration: activities.duration,
        toolUrl: activities.toolUrl,
        imageUrl: activities.imageUrl,
      })
      .from(activities)
      .innerJoin(activityParts, eq(activityParts.activityId, activities.id))
      .where(and(eq(activityParts.objectiveId, wf.objectiveId), sql`${activities.state} in (2, 3)`));
    return c.json({ data: rows });
  });
  r.get("/users/me/objective-workflows/:id/activity-with-aggregates", tree);
  r.get("/users/me/objective-workflows/:id/activity", tree);

  return r;
}
