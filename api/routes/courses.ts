import { Hono, type Context } from "hono";
import { and, asc, desc, eq, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { andAll, parseFilter, type FilterNode } from "../../domain/filter-expression";
import { gradeVisibility } from "../../domain/lifecycle";
import {
  createSelfEnrollmentSchema,
  listQuerySchema,
  parseAggregateSelect,
  parseFilterAttributes,
  type Aggregate,
  type AggregateSelection,
  type GradingScale,
  type Objective,
  type ObjectiveAccess,
  type ObjectiveRecord,
  type ObjectiveWorkflow,
} from "../../domain/contract/courses";
import type { ApiEnv } from "../context";
import type { Db } from "../db/client";
import {
  filterAttributes,
  filterCategories,
  grades,
  gradingScales,
  objectiveAccesses,
  objectiveAttributes,
  objectiveRecords,
  objectiveShowcases,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
  selfEnrollments,
  showcases,
  tenants,
  terms,
} from "../db/schema";
import { requireUser } from "../auth";
import { runCommand } from "../commands/run";
import { ApiError, message, notFound } from "../errors";
import { filterToSql, needsObjectiveJoin } from "../filter-sql";
import { lastProctoringSessionOf } from "./proctoring";
import { defaultTenantId } from "../settings";
import { jsonBody, params, query, idParams, isUuid } from "../validate";
import { ObjectiveState, ObjectiveWorkflowState } from "../../domain/vocabulary";

/** Spec 7.2: the API's standing conditions on every aggregates query, on top of the client's filter. */
const STANDING = (() => {
  const parsed = parseFilter(
    "objective.activity.state ne 4 and (isSelfEnrolled eq true or isMandatory eq true or lastObjectiveWorkflow.state is not null or lastObjectiveRecord is not null)",
  );
  if (!parsed.ok || !parsed.tree) throw new Error("standing filter does not parse");
  return parsed.tree;
})();

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * A course's collections ([{ id, name }] in name order): a column the database keeps up to date
 * (migration 0006) — a correlated sub-select per row was most of the page query's execution.
 */
const showcasesJson = objectives.showcasesJson;

/** The grade of a record, left-joined in the same statement. */
const gradeColumns = {
  id: grades.id,
  name: grades.name,
  color: grades.color,
  normalizedMinScore: grades.normalizedMinScore,
};
type GradeRow = { id: string; name: string; color: string; normalizedMinScore: number };
const gradeMapOf = (list: (GradeRow | null)[]) =>
  new Map(list.filter((g): g is GradeRow => g !== null).map((g) => [g.id, g]));

/**
 * The columns a list reads of an aggregate, its last workflow and its last record: what the API
 * returns, nothing more (PGlite decodes every cell in JavaScript; see decision 011).
 */
const aggregateColumns = {
  id: owa.id,
  userId: owa.userId,
  objectiveId: owa.objectiveId,
  termId: owa.termId,
  isMandatory: owa.isMandatory,
  isSelfEnrolled: owa.isSelfEnrolled,
  retake: owa.retake,
  dueDate: owa.dueDate,
  availabilityDate: owa.availabilityDate,
  availabilityEndDate: owa.availabilityEndDate,
  gradeRevealPolicy: owa.gradeRevealPolicy,
  gradeRevealDate: owa.gradeRevealDate,
  objectiveAccessId: owa.objectiveAccessId,
  lastWorkflowId: owa.lastWorkflowId,
  lastRecordId: owa.lastRecordId,
};
const workflowColumns = {
  id: objectiveWorkflows.id,
  state: objectiveWorkflows.state,
  progress: objectiveWorkflows.progress,
  started: objectiveWorkflows.started,
  submitted: objectiveWorkflows.submitted,
  finished: objectiveWorkflows.finished,
  objectiveRecordId: objectiveWorkflows.objectiveRecordId,
  protectResults: objectiveWorkflows.protectResults,
  attempt: objectiveWorkflows.attempt,
};
const recordColumns = {
  id: objectiveRecords.id,
  score: objectiveRecords.score,
  maxScore: objectiveRecords.maxScore,
  normalizedScore: objectiveRecords.normalizedScore,
  gradeId: objectiveRecords.gradeId,
  passed: objectiveRecords.passed,
  finished: objectiveRecords.finished,
  progress: objectiveRecords.progress,
  protectResults: objectiveRecords.protectResults,
  imported: objectiveRecords.imported,
};
type AggregateRow = Pick<typeof owa.$inferSelect, keyof typeof aggregateColumns>;
type WorkflowRow = Pick<typeof objectiveWorkflows.$inferSelect, keyof typeof workflowColumns>;
type RecordRow = Pick<typeof objectiveRecords.$inferSelect, keyof typeof recordColumns>;

const objectiveColumns = {
  showcases: showcasesJson,
  id: objectives.id,
  name: objectives.name,
  code: objectives.code,
  description: objectives.description,
  imageUrl: objectives.imageUrl,
  state: objectives.state,
  type: objectives.type,
  activityKind: objectives.activityKind,
  activityState: objectives.activityState,
  childrenCount: objectives.childrenCount,
  presentationMode: objectives.presentationMode,
  displayMode: objectives.displayMode,
  proctored: objectives.proctored,
  supportReview: objectives.supportReview,
  enableAiTutor: objectives.enableAiTutor,
  accessNewContentAfterCompletion: objectives.accessNewContentAfterCompletion,
  announcementChannelId: objectives.announcementChannelId,
  gradingScaleId: objectives.gradingScaleId,
  allowSelfEnrollment: objectives.allowSelfEnrollment,
};
type ObjectiveRow = Pick<
  typeof objectives.$inferSelect,
  Exclude<keyof typeof objectiveColumns, never> & keyof typeof objectives.$inferSelect
> & { showcases: { id: string; name: string }[] };

export function toObjective(o: ObjectiveRow): Objective {
  return {
    id: o.id,
    name: o.name,
    code: o.code,
    description: o.description,
    imageUrl: o.imageUrl,
    state: o.state,
    type: o.type,
    presentationMode: o.presentationMode,
    displayMode: o.displayMode,
    proctored: o.proctored,
    supportReview: o.supportReview,
    enableAiTutor: o.enableAiTutor,
    accessNewContentAfterCompletion: o.accessNewContentAfterCompletion,
    announcementChannelId: o.announcementChannelId,
    gradingScaleId: o.gradingScaleId,
    allowSelfEnrollment: o.allowSelfEnrollment,
    activity: {
      state: o.activityState,
      kind: o.activityKind,
      childrenCount: o.childrenCount,
      presentationMode: o.presentationMode,
      supportReview: o.supportReview,
    },
    showcases: o.showcases,
  };
}

export function toWorkflow(w: WorkflowRow | null): ObjectiveWorkflow | null {
  if (!w) return null;
  return {
    id: w.id,
    state: w.state,
    progress: w.progress,
    started: iso(w.started),
    submitted: iso(w.submitted),
    finished: iso(w.finished),
    objectiveRecordId: w.objectiveRecordId,
    protectResults: w.protectResults,
    attempt: w.attempt,
  };
}

/** Spec 4.7 enforced on the server: hidden scores never leave the API. */
export function toRecord(
  r: RecordRow | null,
  access: { gradeRevealPolicy: string; gradeRevealDate: Date | null },
  workflowState: ObjectiveWorkflowState | null,
  gradeMap: Map<string, { id: string; name: string; color: string; normalizedMinScore: number }>,
  now: Date,
): ObjectiveRecord | null {
  if (!r) return null;
  const visible =
    !r.protectResults &&
    gradeVisibility(
      { gradeRevealPolicy: access.gradeRevealPolicy as "none", gradeRevealDate: iso(access.gradeRevealDate) },
      // A record without a workflow (imported) counts as finished for the reveal rule.
      { state: workflowState ?? ObjectiveWorkflowState.finished },
      now,
    ).visible;
  return {
    id: r.id,
    score: visible ? r.score : null,
    maxScore: visible ? r.maxScore : null,
    normalizedScore: visible ? r.normalizedScore : null,
    grade: visible && r.gradeId ? (gradeMap.get(r.gradeId) ?? null) : null,
    passed: visible ? r.passed : null,
    finished: iso(r.finished),
    progress: r.progress,
    protectResults: r.protectResults,
    imported: r.imported,
    resultsHidden: !visible,
  };
}

function sortOrder(sort: string): SQL[] {
  const dir = sort.startsWith("-") ? desc : asc;
  const key = sort.replace(/^-/, "");
  if (key === "dueDate")
    return [
      sort.startsWith("-") ? sql`${owa.dueDate} desc nulls last` : sql`${owa.dueDate} asc nulls last`,
      asc(sql`lower(${objectives.name})`),
      asc(objectives.id),
    ];
  if (key === "created") return [dir(objectives.createdAt), asc(objectives.id)];
  return [dir(sql`lower(${objectives.name})`), dir(objectives.id)];
}

const listParamsSchema = listQuerySchema.extend({
  filter: z.string().optional(),
  select: z.string().optional(),
  domain: z.string().max(253).optional(),
});

function listParams(c: Context<ApiEnv>) {
  const q = query(c, listParamsSchema);
  const showcaseIds = c.req.queries("showcase") ?? [];
  if (showcaseIds.length > 50 || !showcaseIds.every((s) => isUuid(s))) {
    throw new ApiError(400, { showcase: [message("invalid", "showcase must be one or more collection ids (uuid).")] });
  }
  const attrs = parseFilterAttributes(c.req.queries("filterAttribute") ?? []);
  if (!attrs.ok) throw new ApiError(400, { filterAttribute: [message("invalid", attrs.error)] });
  return { ...q, showcaseIds, attributeGroups: attrs.groups };
}

/** Collections (OR) and category attributes (OR within a category, AND across categories). */
function collectionAndAttributeConditions(
  showcaseIds: string[],
  groups: { categoryId: string; attributeIds: string[] }[],
  objectiveId: SQL = sql`${objectives.id}`,
): SQL[] {
  const out: SQL[] = [];
  if (showcaseIds.length) {
    out.push(
      sql`exists (select 1 from ${objectiveShowcases} where ${objectiveShowcases.objectiveId} = ${objectiveId} and ${objectiveShowcases.showcaseId} in (${sql.join(
        showcaseIds.map((s) => sql`${s}::uuid`),
        sql`, `,
      )}))`,
    );
  }
  for (const g of groups) {
    out.push(
      sql`exists (select 1 from ${objectiveAttributes} where ${objectiveAttributes.objectiveId} = ${objectiveId} and ${objectiveAttributes.attributeId} in (${sql.join(
        g.attributeIds.map((a) => sql`${a}::uuid`),
        sql`, `,
      )}))`,
    );
  }
  return out;
}

function searchCondition(search: string | undefined): SQL | undefined {
  const s = search?.trim().toLowerCase();
  if (!s) return undefined;
  return sql`lower(${objectives.name}) like ${`%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`}`;
}

async function tenantForDomain(db: Db, domain: string | undefined): Promise<string> {
  if (domain) {
    const rows = await db
      .select({ id: tenants.id })
      .from(tenants)
      .where(eq(tenants.domain, domain.toLowerCase()))
      .limit(1);
    if (rows[0]) return rows[0].id;
  }
  const id = await defaultTenantId(db);
  if (!id) throw notFound("tenant");
  return id;
}

/**
 * Catalog visibility: ready, listed, root activity not archived. The constant conditions are
 * literals, so that plans made once for every tenant (decision 012: generic plans) still match the
 * partial index on visible courses (migration 0007).
 */
const catalogVisible = (tenantId: string) =>
  and(
    eq(objectives.tenantId, tenantId),
    sql`${objectives.inCatalog} and ${objectives.state} = ${sql.raw(String(ObjectiveState.ready))} and ${objectives.activityState} <> ${sql.raw(String(ObjectiveState.archived))}`,
  );
const publicVisible = (tenantId: string) =>
  and(
    eq(objectives.tenantId, tenantId),
    eq(objectives.isPublic, true),
    eq(objectives.state, ObjectiveState.ready),
    ne(objectives.activityState, ObjectiveState.archived),
  );

/** The columns each selectable field of a course needs (decision 012: `select`). */
const OBJECTIVE_FIELD_COLUMNS: Partial<Record<keyof Objective, (keyof typeof objectiveColumns)[]>> = {
  activity: ["activityState", "activityKind", "childrenCount", "presentationMode", "supportReview"],
};

function objectiveColumnsFor(fields: Set<keyof Objective> | null) {
  if (!fields) return objectiveColumns;
  const out: Partial<typeof objectiveColumns> = {};
  for (const field of fields) {
    for (const key of OBJECTIVE_FIELD_COLUMNS[field] ?? [field as keyof typeof objectiveColumns])
      (out as Record<string, unknown>)[key] = objectiveColumns[key];
  }
  return out as typeof objectiveColumns;
}

function pick<T extends object, K extends keyof T>(value: T, keys: Iterable<K>): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = value[key];
  return out;
}

/**
 * A page of the learner's aggregates with their courses, collections, workflows, records and
 * grades in one statement. With a selection (spec 7.2 `select`) it reads only the columns, and
 * joins only the tables, that the selected fields need, and returns only those fields.
 */
async function loadAggregates(
  db: Db,
  where: SQL | undefined,
  opts: { order: SQL[]; limit: number; offset: number; selection?: AggregateSelection | null },
  now: Date,
): Promise<Aggregate[]> {
  const selection = opts.selection ?? null;
  const wants = (field: keyof Aggregate) => !selection || selection.fields.has(field);
  // The record's reveal rule reads the workflow's state (spec 4.7).
  const withRecord = wants("lastObjectiveRecord");
  const withWorkflow = withRecord || wants("lastObjectiveWorkflow");
  const oColumns = objectiveColumnsFor(selection?.objectiveFields ?? null);
  // Only the tables and columns the selected fields need (drizzle's types cannot follow the branches).
  const fields = {
    a: aggregateColumns,
    o: oColumns,
    ...(withWorkflow ? { w: workflowColumns } : {}),
    ...(withRecord ? { r: recordColumns, g: gradeColumns } : {}),
  };
  type Row = { a: AggregateRow; o: ObjectiveRow; w?: WorkflowRow | null; r?: RecordRow | null; g?: GradeRow | null };
  type Query = {
    leftJoin(table: unknown, on: SQL): Query;
    where(w: SQL | undefined): Query;
    orderBy(...o: SQL[]): Query;
    limit(n: number): Query;
    offset(n: number): Promise<Row[]>;
  };
  let query = db
    .select(fields)
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .$dynamic() as unknown as Query;
  if (withWorkflow) query = query.leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId));
  if (withRecord)
    query = query
      .leftJoin(objectiveRecords, eq(objectiveRecords.id, owa.lastRecordId))
      .leftJoin(grades, eq(grades.id, objectiveRecords.gradeId));
  const rows = await query
    .where(where)
    .orderBy(...opts.order)
    .limit(opts.limit)
    .offset(opts.offset);
  const gradeMap = gradeMapOf(rows.map((row) => row.g ?? null));
  return rows.map(({ a, o, w = null, r = null }) => {
    const objectiveFields = selection?.objectiveFields;
    const full: Aggregate = {
      id: a.id,
      userId: a.userId,
      termId: a.termId,
      isMandatory: a.isMandatory,
      isSelfEnrolled: a.isSelfEnrolled,
      retake: a.retake,
      dueDate: iso(a.dueDate),
      availabilityDate: iso(a.availabilityDate),
      availabilityEndDate: iso(a.availabilityEndDate),
      gradeRevealPolicy: a.gradeRevealPolicy as Aggregate["gradeRevealPolicy"],
      gradeRevealDate: iso(a.gradeRevealDate),
      objectiveAccess: a.objectiveAccessId ? { id: a.objectiveAccessId } : null,
      objective: objectiveFields ? (pickObjective(o, objectiveFields) as Objective) : toObjective(o),
      lastObjectiveWorkflow: withWorkflow ? toWorkflow(w) : null,
      lastObjectiveRecord: withRecord ? toRecord(r, a, w?.state ?? null, gradeMap, now) : null,
    };
    return selection ? (pick(full, selection.fields) as Aggregate) : full;
  });
}

/** The asked-for fields of a course, from the columns read for them. */
function pickObjective(o: Partial<ObjectiveRow>, fields: Set<keyof Objective>): Partial<Objective> {
  const out: Partial<Objective> = {};
  for (const field of fields) {
    if (field === "activity") {
      out.activity = {
        state: o.activityState!,
        kind: o.activityKind!,
        childrenCount: o.childrenCount!,
        presentationMode: o.presentationMode!,
        supportReview: o.supportReview!,
      };
    } else {
      (out as Record<string, unknown>)[field] = (o as Record<string, unknown>)[field];
    }
  }
  return out;
}

export async function loadAggregateFor(
  db: Db,
  userId: string,
  objectiveId: string,
  now: Date,
): Promise<Aggregate | null> {
  const list = await loadAggregates(
    db,
    and(eq(owa.userId, userId), eq(owa.objectiveId, objectiveId)),
    { order: [asc(owa.id)], limit: 1, offset: 0 },
    now,
  );
  return list[0] ?? null;
}

/**
 * Filter values that occur on the courses in scope. Driven from the small attribute and collection
 * tables with EXISTS probes (index objective_attributes(attribute_id, objective_id)), so the cost
 * does not grow with the number of courses.
 */
async function categoriesFor(db: Db, inScope: (objectiveId: SQL) => SQL) {
  const rows = await db
    .select({
      categoryId: filterCategories.id,
      categoryName: filterCategories.name,
      id: filterAttributes.id,
      name: filterAttributes.name,
    })
    .from(filterAttributes)
    .innerJoin(filterCategories, eq(filterCategories.id, filterAttributes.categoryId))
    .where(
      sql`exists (select 1 from ${objectiveAttributes} where ${objectiveAttributes.attributeId} = ${filterAttributes.id} and ${inScope(sql`${objectiveAttributes.objectiveId}`)})`,
    )
    .orderBy(filterCategories.name, filterAttributes.name);
  const map = new Map<string, { id: string; name: string; attributes: { id: string; name: string }[] }>();
  for (const r of rows) {
    const cat = map.get(r.categoryId) ?? { id: r.categoryId, name: r.categoryName, attributes: [] };
    cat.attributes.push({ id: r.id, name: r.name });
    map.set(r.categoryId, cat);
  }
  return [...map.values()];
}

async function showcasesFor(db: Db, inScope: (objectiveId: SQL) => SQL) {
  return db
    .select({ id: showcases.id, name: showcases.name })
    .from(showcases)
    .where(
      sql`exists (select 1 from ${objectiveShowcases} where ${objectiveShowcases.showcaseId} = ${showcases.id} and ${inScope(sql`${objectiveShowcases.objectiveId}`)})`,
    )
    .orderBy(showcases.name);
}

const enrolledScope = (userId: string) => (objectiveId: SQL) =>
  sql`exists (select 1 from ${owa} inner join ${objectives} on ${objectives.id} = ${owa.objectiveId} where ${owa.userId} = ${userId} and ${owa.objectiveId} = ${objectiveId} and ${filterToSql(STANDING)})`;

const catalogScope = (tenantId: string) => (objectiveId: SQL) =>
  sql`exists (select 1 from ${objectives} where ${objectives.id} = ${objectiveId} and ${catalogVisible(tenantId)})`;

const publicScope = (tenantId: string) => (objectiveId: SQL) =>
  sql`exists (select 1 from ${objectives} where ${objectives.id} = ${objectiveId} and ${publicVisible(tenantId)})`;

export async function loadScales(db: Db, ids: string[]): Promise<GradingScale[]> {
  if (ids.length === 0) return [];
  const [scales, gradeRows] = await Promise.all([
    db.select().from(gradingScales).where(inArray(gradingScales.id, ids)),
    db.select().from(grades).where(inArray(grades.gradingScaleId, ids)).orderBy(grades.normalizedMinScore),
  ]);
  return scales.map((s) => {
    const list = gradeRows
      .filter((g) => g.gradingScaleId === s.id)
      .map((g) => ({ id: g.id, name: g.name, color: g.color, normalizedMinScore: g.normalizedMinScore }));
    return {
      id: s.id,
      name: s.name,
      description: s.description,
      maxScore: s.maxScore,
      normalizedPassingScore: s.normalizedPassingScore,
      numberOfGrades: list.length,
      passingGradeId: s.passingGradeId,
      objectiveGrades: list,
    };
  });
}

export function courseRoutes() {
  const r = new Hono<ApiEnv>();

  // ---- Public open catalog (spec 7.2): no sign-in, public courses only, no learner data. ----
  r.get("/public/open-catalog/objectives/query", async (c) => {
    const db = c.var.db;
    const p = listParams(c);
    const tenantId = await tenantForDomain(db, p.domain);
    const where = and(
      publicVisible(tenantId),
      searchCondition(p.search),
      ...collectionAndAttributeConditions(p.showcaseIds, p.attributeGroups),
    );
    const [rows, total] = await Promise.all([
      db
        .select(objectiveColumns)
        .from(objectives)
        .where(where)
        .orderBy(...sortOrder(p.sort.includes("dueDate") ? "objective.name" : p.sort))
        .limit(p.take)
        .offset(p.skip),
      p.requireTotalCount
        ? db
            .select({ n: sql<number>`count(*)::int` })
            .from(objectives)
            .where(where)
        : null,
    ]);
    const data = rows.map((o) => {
      const { gradingScaleId: _g, announcementChannelId: _a, ...pub } = toObjective(o);
      return pub;
    });
    return c.json({ data, ...(total ? { totalCount: total[0].n } : {}) });
  });

  r.get("/public/open-catalog/objectives/:id", async (c) => {
    const { id } = params(c, idParams);
    const db = c.var.db;
    const tenantId = await tenantForDomain(db, c.req.query("domain"));
    const rows = await db
      .select({ ...objectiveColumns, about: objectives.about })
      .from(objectives)
      .where(and(eq(objectives.id, id), publicVisible(tenantId)))
      .limit(1);
    if (!rows[0]) throw notFound("course");
    const { gradingScaleId: _g, announcementChannelId: _a, ...pub } = toObjective(rows[0]);
    return c.json({ ...pub, about: rows[0].about });
  });

  r.get("/public/open-catalog/showcases", async (c) => {
    const tenantId = await tenantForDomain(c.var.db, c.req.query("domain"));
    return c.json({ data: await showcasesFor(c.var.db, publicScope(tenantId)) });
  });

  r.get("/public/open-catalog/filter-categories", async (c) => {
    const tenantId = await tenantForDomain(c.var.db, c.req.query("domain"));
    return c.json(await categoriesFor(c.var.db, publicScope(tenantId)));
  });

  // ---- Signed-in calls ----
  r.use("/users/*", requireUser);
  r.use("/objective-workflow-aggregates/*", requireUser);
  r.use("/objectives/*", requireUser);
  r.use("/grading-scales/*", requireUser);
  r.use("/create-self-enrollments", requireUser);

  // My courses (spec 7.2): the learner's aggregates, with the client's text filter and the standing conditions.
  r.get("/objective-workflow-aggregates/query", async (c) => {
    const db = c.var.db;
    const p = listParams(c);
    let clientTree: FilterNode | null = null;
    if (p.filter) {
      const parsed = parseFilter(p.filter);
      if (!parsed.ok) throw new ApiError(400, { filter: [message("invalidFilter", parsed.error)] });
      clientTree = parsed.tree;
    }
    let selection: AggregateSelection | null = null;
    if (p.select) {
      const parsed = parseAggregateSelect(p.select);
      if (!parsed.ok) throw new ApiError(400, { select: [message("invalidSelect", parsed.error)] });
      selection = parsed.selection;
    }
    const tree = andAll(STANDING, clientTree)!;
    const where = and(
      eq(owa.userId, c.var.user.id),
      filterToSql(tree),
      searchCondition(p.search),
      ...collectionAndAttributeConditions(p.showcaseIds, p.attributeGroups, sql`${owa.objectiveId}`),
    );
    // Name order comes from the aggregate's own copy (index owa_user_sort_idx); the count joins
    // courses only when the filter reads their columns.
    const order =
      p.sort === "objective.name"
        ? [asc(owa.sortName), asc(owa.id)]
        : p.sort === "-objective.name"
          ? [desc(owa.sortName), desc(owa.id)]
          : sortOrder(p.sort);
    const countQuery =
      needsObjectiveJoin(tree) || p.search
        ? db
            .select({ n: sql<number>`count(*)::int` })
            .from(owa)
            .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
            .where(where)
        : db
            .select({ n: sql<number>`count(*)::int` })
            .from(owa)
            .where(where);
    const [data, total] = await Promise.all([
      loadAggregates(db, where, { order, limit: p.take, offset: p.skip, selection }, c.var.now),
      p.requireTotalCount ? countQuery : null,
    ]);
    return c.json({ data, ...(total ? { totalCount: total[0].n } : {}) });
  });

  // The "separate query that selects termId for the user" (spec 7.2).
  r.get("/users/me/objective-workflow-aggregates/term-ids", async (c) => {
    const rows = await c.var.db
      .selectDistinct({ termId: owa.termId })
      .from(owa)
      .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
      .where(and(eq(owa.userId, c.var.user.id), filterToSql(STANDING), sql`${owa.termId} is not null`));
    return c.json({ data: rows.map((r) => r.termId) });
  });

  r.get("/objectives/:id/objective-workflow-aggregate", async (c) => {
    const { id } = params(c, idParams);
    const agg = await loadAggregateFor(c.var.db, c.var.user.id, id, c.var.now);
    if (!agg) throw notFound("course");
    // The attempt's newest proctoring session rides along, so the course page needs no second round
    // trip to decide the proctor lock (docs/decisions/010-proctor-lock.md).
    const [[scale], session] = await Promise.all([
      agg.objective.gradingScaleId ? loadScales(c.var.db, [agg.objective.gradingScaleId]) : Promise.resolve([]),
      agg.lastObjectiveWorkflow
        ? lastProctoringSessionOf(c.var.db, agg.lastObjectiveWorkflow.id)
        : Promise.resolve(null),
    ]);
    return c.json({ ...agg, objectiveGradingScale: scale ?? null, lastProctoringSession: session });
  });

  r.get("/users/me/terms", async (c) => {
    const rows = await c.var.db
      .select({ id: terms.id, name: terms.name })
      .from(terms)
      .where(eq(terms.tenantId, c.var.user.tenantId))
      .orderBy(terms.name);
    return c.json({ data: rows });
  });
  r.get("/users/me/enrolled-showcases", async (c) =>
    c.json({ data: await showcasesFor(c.var.db, enrolledScope(c.var.user.id)) }),
  );
  r.get("/users/me/catalog-showcases", async (c) =>
    c.json({ data: await showcasesFor(c.var.db, catalogScope(c.var.user.tenantId)) }),
  );
  r.get("/users/me/enrolled-filter-categories", async (c) =>
    c.json(await categoriesFor(c.var.db, enrolledScope(c.var.user.id))),
  );
  r.get("/users/me/catalog-filter-categories", async (c) =>
    c.json(await categoriesFor(c.var.db, catalogScope(c.var.user.tenantId))),
  );

  r.get("/grading-scales/query", async (c) => {
    const ids = c.req.queries("id") ?? [];
    if (ids.length > 100 || !ids.every((i) => isUuid(i)))
      throw new ApiError(400, { id: [message("invalid", "id must be grading scale ids (uuid), at most 100.")] });
    const scales = await loadScales(c.var.db, ids);
    return c.json({ data: scales.filter(() => true) });
  });

  // Catalog (spec 7.2): courses available to the whole tenant, with whether the learner is enrolled.
  r.get("/users/me/objective-accesses/query", async (c) => {
    const db = c.var.db;
    const p = listParams(c);
    const user = c.var.user;
    const where = and(
      eq(objectiveAccesses.tenantId, user.tenantId),
      isNull(objectiveAccesses.userId),
      catalogVisible(user.tenantId),
      searchCondition(p.search),
      ...collectionAndAttributeConditions(p.showcaseIds, p.attributeGroups),
    );
    const base = db
      .select({ access: objectiveAccesses, o: objectiveColumns, aggId: owa.id, r: recordColumns, g: gradeColumns })
      .from(objectiveAccesses)
      .innerJoin(objectives, eq(objectives.id, objectiveAccesses.objectiveId))
      .leftJoin(owa, and(eq(owa.objectiveId, objectives.id), eq(owa.userId, user.id)))
      .leftJoin(objectiveRecords, eq(objectiveRecords.id, owa.lastRecordId))
      .leftJoin(grades, eq(grades.id, objectiveRecords.gradeId))
      .where(where)
      .orderBy(...sortOrder(p.sort.includes("dueDate") ? "objective.name" : p.sort))
      .limit(p.take)
      .offset(p.skip);
    const [rows, total] = await Promise.all([
      base,
      p.requireTotalCount
        ? db
            .select({ n: sql<number>`count(*)::int` })
            .from(objectiveAccesses)
            .innerJoin(objectives, eq(objectives.id, objectiveAccesses.objectiveId))
            .where(where)
        : null,
    ]);
    const gradeMap = gradeMapOf(rows.map((row) => row.g));
    const data: ObjectiveAccess[] = rows.map(({ access, o, aggId, r }) => {
      const rec = toRecord(r, access, null, gradeMap, c.var.now);
      return {
        id: access.id,
        objective: toObjective(o),
        enrolled: aggId !== null,
        aggregateId: aggId,
        grade: rec?.grade ?? null,
        score: rec?.score ?? null,
        maxScore: rec?.maxScore ?? null,
        normalizedScore: rec?.normalizedScore ?? null,
        isMandatory: access.isMandatory,
        retake: access.retake,
        dueDate: iso(access.dueDate),
        availabilityDate: iso(access.availabilityDate),
      };
    });
    return c.json({ data, ...(total ? { totalCount: total[0].n } : {}) });
  });

  // One course as the catalog shows it: the learner's own access first, else the tenant-wide one.
  r.get("/users/me/objectives/:id/objective-access", async (c) => {
    const { id } = params(c, idParams);
    const db = c.var.db;
    const user = c.var.user;
    const rows = await db
      .select({
        access: objectiveAccesses,
        o: { ...objectiveColumns, about: objectives.about, inCatalog: objectives.inCatalog },
        aggId: owa.id,
        r: objectiveRecords,
        g: gradeColumns,
      })
      .from(objectiveAccesses)
      .innerJoin(objectives, eq(objectives.id, objectiveAccesses.objectiveId))
      .leftJoin(owa, and(eq(owa.objectiveId, objectives.id), eq(owa.userId, user.id)))
      .leftJoin(objectiveRecords, eq(objectiveRecords.id, owa.lastRecordId))
      .leftJoin(grades, eq(grades.id, objectiveRecords.gradeId))
      .where(
        and(
          eq(objectives.id, id),
          eq(objectives.tenantId, user.tenantId),
          or(isNull(objectiveAccesses.userId), eq(objectiveAccesses.userId, user.id)),
        ),
      )
      .orderBy(sql`${objectiveAccesses.userId} is null`)
      .limit(1);
    const row = rows[0];
    // Not listed and not assigned: as if it did not exist (another tenant's or a hidden course).
    const visible =
      row &&
      (row.aggId !== null ||
        row.access.userId === user.id ||
        (row.o.inCatalog && row.o.state === ObjectiveState.ready && row.o.activityState !== ObjectiveState.archived));
    if (!row || !visible) throw notFound("course");
    const rec = toRecord(row.r, row.access, null, gradeMapOf([row.g]), c.var.now);
    return c.json({
      id: row.access.id,
      objective: { ...toObjective(row.o), about: row.o.about },
      enrolled: row.aggId !== null,
      aggregateId: row.aggId,
      grade: rec?.grade ?? null,
      score: rec?.score ?? null,
      maxScore: rec?.maxScore ?? null,
      normalizedScore: rec?.normalizedScore ?? null,
      isMandatory: row.access.isMandatory,
      retake: row.access.retake,
      dueDate: iso(row.access.dueDate),
      availabilityDate: iso(row.access.availabilityDate),
    });
  });

  // Spec 7.3 create-self-enrollments: body { id, objectiveAccessId }; idempotent by id.
  r.post("/create-self-enrollments", async (c) => {
    const body = await jsonBody(c, createSelfEnrollmentSchema);
    const user = c.var.user;
    return runCommand(c, { id: body.id, type: "create-self-enrollment" }, async (tx) => {
      const rows = await tx
        .select({ access: objectiveAccesses, o: objectives })
        .from(objectiveAccesses)
        .innerJoin(objectives, eq(objectives.id, objectiveAccesses.objectiveId))
        .where(
          and(
            eq(objectiveAccesses.id, body.objectiveAccessId),
            eq(objectiveAccesses.tenantId, user.tenantId),
            or(isNull(objectiveAccesses.userId), eq(objectiveAccesses.userId, user.id)),
          ),
        )
        .limit(1);
      const row = rows[0];
      if (!row) throw new ApiError(404, { objectiveAccessId: [message("notFound", "The course was not found.")] });
      const { access, o } = row;
      const listed =
        access.userId === user.id ||
        ((o.inCatalog || o.isPublic) &&
          o.state === ObjectiveState.ready &&
          o.activityState !== ObjectiveState.archived);
      if (!listed || !o.allowSelfEnrollment) {
        throw new ApiError(422, {
          "": [message("selfEnrollmentNotAllowed", "This course cannot be added to your courses.")],
        });
      }
      const existing = await tx
        .select()
        .from(owa)
        .where(and(eq(owa.userId, user.id), eq(owa.objectiveId, o.id)))
        .limit(1);
      let aggregateId: string;
      if (existing[0]) {
        aggregateId = existing[0].id;
        if (!existing[0].isSelfEnrolled)
          await tx.update(owa).set({ isSelfEnrolled: true }).where(eq(owa.id, aggregateId));
      } else {
        const [created] = await tx
          .insert(owa)
          .values({
            tenantId: user.tenantId,
            userId: user.id,
            objectiveId: o.id,
            objectiveAccessId: access.id,
            termId: access.termId,
            isMandatory: access.isMandatory,
            isSelfEnrolled: true,
            retake: access.retake,
            dueDate: access.dueDate,
            availabilityDate: access.availabilityDate,
            availabilityEndDate: access.availabilityEndDate,
            gradeRevealPolicy: access.gradeRevealPolicy,
            gradeRevealDate: access.gradeRevealDate,
          })
          .returning({ id: owa.id });
        aggregateId = created.id;
      }
      await tx
        .insert(selfEnrollments)
        .values({ id: body.id, userId: user.id, objectiveAccessId: access.id, aggregateId })
        .onConflictDoNothing();
      return { id: body.id, objectiveAccessId: access.id, aggregateId, objectiveId: o.id };
    });
  });

  return r;
}
