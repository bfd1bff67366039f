import { Hono, type Context } from "hono";
import { SCORM_COMMIT_MAX_BYTES } from "../../domain/contract/scorm";
import { applyScormCommit, runsScormPackage } from "../scorm/runtime";
import {
  activityRecordsQuerySchema,
  activityWorkflowPathSchema,
  activityWorkflowSaveSchema,
  objectiveRecordsQuerySchema,
  treePathSchema,
  workflowActivityPathSchema,
  finishActivityWorkflowsSchema,
  finishObjectiveWorkflowSchema,
  startActivityWorkflowsSchema,
  startObjectiveWorkflowSchema,
  submitObjectiveWorkflowSchema,
  type ActivityTree,
} from "../../domain/contract/lifecycle";
import {
  objectiveRecordSchema,
  objectiveWorkflowDetailSchema,
  submitPreviewSchema,
  type ObjectiveWorkflowDetail,
  type SubmitPreview,
} from "../../domain/contract/courses";
import { listOf } from "../../domain/contract/common";
import type { ApiEnv } from "../context";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import {
  finishActivityWorkflows,
  finishObjectiveWorkflow,
  startActivityWorkflows,
  startObjectiveWorkflow,
  gradeAtSubmission,
  submitObjectiveWorkflow,
} from "../commands/workflows";
import { ApiError, message, notFound } from "../errors";
import { stableUuid } from "../ids";
import { eq } from "drizzle-orm";
import { objectiveWorkflowAggregates as owa } from "../db/schema";
import { gradeVisibility } from "../../domain/lifecycle";
import { ObjectiveWorkflowState, type GradeRevealPolicy } from "../../domain/vocabulary";
import { toWorkflow } from "../mappers/courses";
import {
  toActivityContent,
  toolFrame,
  toActivityRecord,
  toActivityWorkflowAggregate,
  toAttemptRecords,
} from "../mappers/workflows";
import { loadTree } from "../queries/activity-tree";
import { attemptAccess, lockedError, openActivityRefusal, refuseLocked } from "../queries/activity-access";
import {
  activityScoresRevealed,
  activityWorkflowPart,
  loadActivityContents,
  loadActivityForLearner,
  loadActivityRecords,
  loadActivityStanding,
  loadAttemptRecords,
  ownRecordAggregateId,
  ownWorkflow,
  saveResume,
} from "../queries/workflows";
import { idParams, isUuid, validJson, validParams, validQuery } from "../validate";
import { limitWrites } from "../limit-writes";
import { registryOf } from "../lti/registry";
import { operations } from "../openapi";

const op = operations("lifecycle");

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
  // Per-user write limits (decision 018).
  for (const path of [
    "/start-objective-workflows",
    "/submit-objective-workflows",
    "/finish-objective-workflows",
    "/start-activity-workflows",
    "/finish-activity-workflows",
  ])
    r.use(path, limitWrites("command"));
  r.use("/users/me/objective-workflows/:id/activity-workflows/:awId", limitWrites("progress"));

  // Spec 7.3 / 4.4: start (or retake) an objective workflow. The body id is the new workflow's id.
  r.post(
    "/start-objective-workflows",
    op({ summary: "Start or retake a course; id is the new workflow's id (idempotent)", command: true }),
    validJson(startObjectiveWorkflowSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      const now = c.var.now;
      return runCommand(c, { id: body.id, type: "start-objective-workflow", body }, (tx) =>
        startObjectiveWorkflow(tx, user, body, now),
      );
    },
  );

  // Spec 7.3: start activity workflows (idempotent per workflow and part).
  r.post(
    "/start-activity-workflows",
    op({
      summary:
        "Start activities of a workflow (idempotent per workflow and part); mode personal or group for a collaborative activity (decision 026)",
      command: true,
    }),
    validJson(startActivityWorkflowsSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      const now = c.var.now;
      const parts = [...new Set(body.activityPartIds)].sort();
      return runCommand(
        c,
        {
          id: stableUuid(`start-aw:${body.objectiveWorkflowId}:${parts.join(",")}${body.mode ? `:${body.mode}` : ""}`),
          type: "start-activity-workflows",
          body: { objectiveWorkflowId: body.objectiveWorkflowId, activityPartIds: parts, mode: body.mode },
          derived: true,
        },
        (tx) => startActivityWorkflows(tx, user, body.objectiveWorkflowId, parts, now, body.mode),
      );
    },
  );

  // Spec 7.3: finish activity workflows; completion is recorded, a graded activity waits for its grader (decision 018).
  r.post(
    "/finish-activity-workflows",
    op({
      summary: "Finish activities; completion earns the activity's points unless graded by a person",
      description:
        "A SCORM package's activity finishes itself (its Terminate with its result, issue 30): 409 packageFinishesItself.",
      command: true,
      errors: { 409: "An activity is a SCORM package, which is finished from the package (packageFinishesItself)" },
    }),
    validJson(finishActivityWorkflowsSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      const now = c.var.now;
      const ids = [...new Set(body.activityWorkflowIds)].sort();
      // Issue 30 item 7: a SCORM package finishes itself (its Terminate with its result); "Mark as done"
      // would complete it without any of its data.
      if (await runsScormPackage(c.var.db, ids))
        throw new ApiError(409, {
          "": [message("packageFinishesItself", "This activity is a SCORM package: it is finished from the package.")],
        });
      return runCommand(
        c,
        {
          id: body.id ?? stableUuid(`finish-aw:${body.objectiveWorkflowId}:${ids.join(",")}`),
          type: "finish-activity-workflows",
          body: { objectiveWorkflowId: body.objectiveWorkflowId, activityWorkflowIds: ids },
          // A client's id (a write made offline, issue 31) remembers its answer; a derived one only a success.
          derived: body.id === undefined,
        },
        (tx) => finishActivityWorkflows(tx, user, body.objectiveWorkflowId, ids, now),
      );
    },
  );

  // Spec 7.3 / 4.5: submit; grading makes the record at once (or waits for a person to grade).
  r.post(
    "/submit-objective-workflows",
    op({ summary: "Submit a workflow; grading creates its record (idempotent per workflow)", command: true }),
    validJson(submitObjectiveWorkflowSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      const now = c.var.now;
      return runCommand(
        c,
        { id: stableUuid(`submit:${body.id}`), type: "submit-objective-workflow", body, derived: true },
        (tx) => submitObjectiveWorkflow(tx, user, body.id, now),
      );
    },
  );

  // Spec 7.3: finish a submitted/graded workflow; the answer replaces the client's copy.
  r.post(
    "/finish-objective-workflows",
    op({ summary: "Finish a submitted, graded or approved workflow", command: true }),
    validJson(finishObjectiveWorkflowSchema),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user;
      const now = c.var.now;
      return runCommand(c, { id: body.id, type: "finish-objective-workflow", body }, (tx) =>
        finishObjectiveWorkflow(tx, user, body.objectiveWorkflowId, now),
      );
    },
  );

  r.get(
    "/objective-workflows/:id",
    op({
      summary: "One of the learner's workflows, with the course (objectiveId) it is an attempt of",
      response: objectiveWorkflowDetailSchema,
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const wf = await ownWorkflow(c.var.db, c.var.user.id, id);
      return c.json({ ...toWorkflow(wf)!, objectiveId: wf.objectiveId } satisfies ObjectiveWorkflowDetail);
    },
  );

  r.get(
    "/objective-workflows/:id/submit-preview",
    op({
      summary:
        "Spec 4.5: what submitting this attempt now would record (score, grade, pass; an activity not done counts as no points), hidden as the reveal policy hides results",
      response: submitPreviewSchema,
      notShown: true,
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const db = c.var.db;
      const wf = await ownWorkflow(db, c.var.user.id, id);
      const [[agg], { result }] = await Promise.all([
        db
          .select({ gradeRevealPolicy: owa.gradeRevealPolicy, gradeRevealDate: owa.gradeRevealDate })
          .from(owa)
          .where(eq(owa.id, wf.aggregateId)),
        gradeAtSubmission(db, wf),
      ]);
      const visible =
        !!agg &&
        gradeVisibility(
          {
            gradeRevealPolicy: agg.gradeRevealPolicy as GradeRevealPolicy,
            gradeRevealDate: agg.gradeRevealDate?.toISOString() ?? null,
          },
          { state: ObjectiveWorkflowState.submitted },
          c.var.now,
        ).visible;
      return c.json({
        normalizedScore: visible ? result.normalizedScore : null,
        gradeName: visible ? result.gradeName : null,
        passed: visible && result.pending === 0 ? result.passed : null,
        pending: result.pending,
      } satisfies SubmitPreview);
    },
  );

  // Spec 7.3: the records (attempts) of one of the learner's courses, newest first, reveal policy applied.
  const records = async (c: Context<ApiEnv>, where: { aggregateId?: string; objectiveId?: string }) => {
    const { aggregate, rows, gradeMap } = await loadAttemptRecords(c.var.db, c.var.user.id, where);
    return c.json({ data: toAttemptRecords(aggregate, rows, gradeMap, c.var.now) });
  };
  r.get(
    "/objective-workflow-aggregates/:id/objective-records",
    op({
      summary: "Attempts (records) of one of the learner's courses, newest first; reveal policies applied",
      response: listOf(objectiveRecordSchema),
    }),
    validParams(idParams),
    async (c) => records(c, { aggregateId: c.req.valid("param").id }),
  );
  r.get(
    "/objective-records/query",
    op({ summary: "Attempts of a course by objectiveId (query)", response: listOf(objectiveRecordSchema) }),
    validQuery(objectiveRecordsQuerySchema),
    async (c) => {
      const q = c.req.valid("query").objectiveId ?? "";
      if (!isUuid(q))
        throw new ApiError(400, { objectiveId: [message("invalid", "objectiveId must be a course id (uuid).")] });
      return records(c, { objectiveId: q });
    },
  );
  // Spec 7.3: one record, as the list shows it (reveal policy applied); another learner's is 404.
  r.get(
    "/objective-records/:id",
    op({
      summary: "One of the learner's attempts (record), reveal policies applied; another learner's is 404",
      response: objectiveRecordSchema,
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const aggregateId = await ownRecordAggregateId(c.var.db, c.var.user.id, id);
      const { aggregate, rows, gradeMap } = await loadAttemptRecords(c.var.db, c.var.user.id, { aggregateId });
      const record = toAttemptRecords(aggregate, rows, gradeMap, c.var.now).find((x) => x.id === id);
      if (!record) throw notFound("record");
      return c.json(record);
    },
  );

  // Spec 7.4: the course tree for one of the learner's workflows, with per-activity progress.
  const tree = async (c: Context<ApiEnv>, id: string) => {
    const db = c.var.db;
    const wf = await ownWorkflow(db, c.var.user.id, id);
    // Scores of a finished attempt are shown only where review is allowed (spec 4.7).
    const reveal = await activityScoresRevealed(db, wf, c.var.now);
    const t = await loadTree(db, wf.objectiveId, wf, reveal, c.var.now);
    return c.json({ objectiveWorkflowId: wf.id, ...t } satisfies ActivityTree);
  };
  // The content of one activity, for learners who have a standing in a course that contains it.
  r.use("/users/me/activities/*", requireUser);
  // Spec 4.12: only an activity that is open in the learner's current attempt (decision 018).
  r.get(
    "/users/me/activities/:id/content",
    op({ summary: "Content of one activity open in the learner's current attempt", notShown: true }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const { found, refusal } = await openActivityRefusal(c.var.db, c.var.user.id, { activityId: id }, c.var.now);
      if (!found) throw notFound("activity");
      if (refusal) throw refusal;
      const activity = await loadActivityForLearner(c.var.db, c.var.user.id, id);
      if (!activity) throw notFound("activity");
      return c.json(toActivityContent(activity, await registryOf(c.var.deps)));
    },
  );
  // Spec 7.4: one subtree, and the children of the root or of one node.
  const subtree = (mode: "node" | "children") => async (c: Context<ApiEnv>, id: string, path?: string) => {
    const db = c.var.db;
    const wf = await ownWorkflow(db, c.var.user.id, id);
    const reveal = await activityScoresRevealed(db, wf, c.var.now);
    const t = await loadTree(db, wf.objectiveId, wf, reveal, c.var.now);
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
  const children = subtree("children");
  const node = subtree("node");
  r.get(
    "/users/me/objective-workflows/:id/activity/:path/children",
    op({ summary: "Children of a node of the activity tree" }),
    validParams(treePathSchema),
    async (c) => children(c, c.req.valid("param").id, c.req.valid("param").path),
  );
  r.get(
    "/users/me/objective-workflows/:id/activity/children",
    op({ summary: "Children of the activity tree's root" }),
    validParams(treePathSchema),
    async (c) => children(c, c.req.valid("param").id),
  );
  r.get(
    "/users/me/objective-workflows/:id/activity/:path",
    op({ summary: "A subtree of the activity tree" }),
    validParams(treePathSchema),
    async (c) => node(c, c.req.valid("param").id, c.req.valid("param").path),
  );

  // Spec 7.4: activity records of one activity in one of the learner's workflows, and the query form.
  const recordsOf = async (c: Context<ApiEnv>, workflowId: string, activityId: string | null) => {
    const db = c.var.db;
    const wf = await ownWorkflow(db, c.var.user.id, workflowId);
    const rows = await loadActivityRecords(db, wf.id, activityId);
    const reveal = await activityScoresRevealed(db, wf, c.var.now);
    return c.json({ data: rows.map(({ rec, activityId: aid }) => toActivityRecord(rec, aid, reveal)) });
  };
  r.get(
    "/users/me/objective-workflows/:id/activities/:activityId/activity-records",
    op({ summary: "Records of one activity" }),
    validParams(workflowActivityPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      return recordsOf(c, p.id, p.activityId);
    },
  );
  // Spec 7.3: the learner's standing in one activity of one attempt.
  r.get(
    "/users/me/objective-workflows/:id/activities/:activityId/activity-workflow-aggregate",
    op({ summary: "The learner's standing in one activity of one attempt: latest activity workflow and record" }),
    validParams(workflowActivityPathSchema),
    async (c) => {
      const p = c.req.valid("param");
      const db = c.var.db;
      const wf = await ownWorkflow(db, c.var.user.id, p.id);
      const [standing, reveal] = await Promise.all([
        loadActivityStanding(db, wf, p.activityId),
        activityScoresRevealed(db, wf, c.var.now),
      ]);
      if (!standing) throw notFound("activity");
      return c.json(toActivityWorkflowAggregate(wf.id, p.activityId, standing, reveal));
    },
  );
  r.get(
    "/users/me/objective-workflows/:id/activity-records/query",
    op({ summary: "Records of a workflow; filter=activity.id eq '<uuid>'" }),
    validParams(idParams),
    validQuery(activityRecordsQuerySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      // filter=activity.id eq '<uuid>' (the only filter this query takes)
      const filter = c.req.valid("query").filter ?? "";
      const m = /^\s*activity\.id\s+eq\s+'([0-9a-fA-F-]{36})'\s*$/.exec(filter);
      if (filter && !m)
        throw new ApiError(400, {
          filter: [message("invalidFilter", "Only \"activity.id eq '<uuid>'\" is supported.")],
        });
      return recordsOf(c, id, m?.[1] ?? null);
    },
  );

  // Spec 7.3 PUT activity workflow: where the learner left off inside an activity (e.g. a PDF page).
  r.put(
    "/users/me/objective-workflows/:id/activity-workflows/:awId",
    op({
      summary: "Save where the learner left off, or one SCORM commit (issues 15 and 30, decisions 025 and 040)",
      description:
        "{ resume: { page, position } }, or one SCORM commit { scorm: { scoId, attempt, sequence, cmi: { element: value }, finish?, navRequest?, shared? } }. A commit's sequence must be above the SCO's last applied one and it must belong to the SCO's current attempt (otherwise { applied: false }: a duplicate, late or stale commit changes nothing); each CMI element is checked against the package version's data model by the server's own rules (400 with the runtime's error code scorm.401/405 for 1.2, scorm.401/404/406/407 for 2004); CMI strings are opaque (any character but NUL) and a commit may be up to 2 MiB; finish on LMSFinish/Terminate adds the session time to the attempt's total, suspends or ends the attempt (cmi.exit, adl.nav.request), rolls the SCOs up and finishes the activity workflow with the package's score. Answers { applied, sequence, finished }, or the saved resume.",
      errors: { 403: "The activity is locked in this attempt (the lock reason's code)" },
    }),
    validParams(activityWorkflowPathSchema),
    validJson(activityWorkflowSaveSchema, { opaque: ["scorm"], maxBytes: SCORM_COMMIT_MAX_BYTES }),
    async (c) => {
      const p = c.req.valid("param");
      const body = c.req.valid("json");
      const db = c.var.db;
      const wf = await ownWorkflow(db, c.var.user.id, p.id);
      const partId = await activityWorkflowPart(db, wf.id, p.awId);
      if (!partId) throw notFound("activity workflow");
      // Spec 4.12: nothing is written into an activity the page shows locked (decision 018).
      refuseLocked(await attemptAccess(db, wf, c.var.now), [partId]);
      if (body.scorm) {
        return c.json(await applyScormCommit(db, c.var.user, wf.id, p.awId, body.scorm, c.var.now));
      }
      const row = await saveResume(db, wf.id, p.awId, body.resume!, c.var.now);
      if (!row) throw notFound("activity workflow");
      return c.json(row);
    },
  );

  // Contents of every activity of the course that is open in this attempt, in one call (long-read modes show
  // them all). Spec 4.7 / 4.12: a locked activity's content is left out; an attempt that may not be
  // reviewed shows none (403), as the page does (decision 018).
  r.get(
    "/users/me/objective-workflows/:id/activity-contents",
    op({
      summary: "Contents of every available activity of the course (long-read modes); 403 when review is not allowed",
      notShown: true,
    }),
    validParams(idParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const db = c.var.db;
      const wf = await ownWorkflow(db, c.var.user.id, id);
      const access = await attemptAccess(db, wf, c.var.now);
      if (!access.reviewAllowed) throw lockedError({ key: "activityLock.reviewPolicyNotAllowed" });
      const open = access.nodes.filter((n) => !access.locks.get(n.activityPathId)).map((n) => n.childActivity.id);
      const registry = await registryOf(c.var.deps);
      const contents = await loadActivityContents(db, wf.objectiveId, open);
      return c.json({ data: contents.map((a) => ({ ...a, frame: toolFrame(a, registry) })) });
    },
  );
  r.get(
    "/users/me/objective-workflows/:id/activity-with-aggregates",
    op({ summary: "The full activity tree of a workflow with per-activity progress (spec 7.4 'full tree')" }),
    validParams(idParams),
    async (c) => tree(c, c.req.valid("param").id),
  );
  r.get(
    "/users/me/objective-workflows/:id/activity",
    op({ summary: "The activity tree (same as activity-with-aggregates)" }),
    validParams(idParams),
    async (c) => tree(c, c.req.valid("param").id),
  );

  return r;
}
