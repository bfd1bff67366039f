// Queries: reads and writes the handlers share, grouped by resource. This one: the learner's aggregates
// (My courses, spec 7.2) with their courses, last workflows and last records.
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { FilterNode } from "../../domain/filter-expression/fields";
import { andAll } from "../../domain/filter-expression/format";
import type { Aggregate, AggregateSelection } from "../../domain/contract/courses";
import type { CountCache } from "./count-cache";
import type { Db } from "../db/client";
import {
  grades,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
} from "../db/schema";
import { filterToSql, needsObjectiveJoin } from "../filter-sql";
import {
  aggregateColumns,
  gradeColumns,
  gradeMapOf,
  objectiveColumnsFor,
  recordColumns,
  toAggregate,
  workflowColumns,
  type AggregateRow,
  type GradeRow,
  type ObjectiveRow,
  type RecordRow,
  type WorkflowRow,
} from "../mappers/courses";
import {
  collectionAndAttributeConditions,
  searchCondition,
  sortOrder,
  STANDING,
  type CourseListOptions,
} from "./course-scopes";

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
  return rows.map((row) => toAggregate(row, { selection, withWorkflow, withRecord, gradeMap, now }));
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
 * My courses (spec 7.2): a page of the learner's aggregates under the client's filter and the standing
 * conditions, and their total when asked for.
 */
export async function queryAggregates(
  db: Db,
  userId: string,
  list: CourseListOptions & { filter: FilterNode | null; selection: AggregateSelection | null },
  now: Date,
  counts?: CountCache,
): Promise<{ data: Aggregate[]; totalCount: number | null }> {
  const tree = andAll(STANDING, list.filter)!;
  const where = and(
    eq(owa.userId, userId),
    filterToSql(tree),
    searchCondition(list.search),
    ...collectionAndAttributeConditions(list.showcaseIds, list.attributeGroups, sql`${owa.objectiveId}`),
  );
  // Name order comes from the aggregate's own copy (index owa_user_sort_idx); the count joins
  // courses only when the filter reads their columns.
  const order =
    list.sort === "objective.name"
      ? [asc(owa.sortName), asc(owa.id)]
      : list.sort === "-objective.name"
        ? [desc(owa.sortName), desc(owa.id)]
        : sortOrder(list.sort);
  const countQuery =
    needsObjectiveJoin(tree) || list.search
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(owa)
          .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
          .where(where)
      : db
          .select({ n: sql<number>`count(*)::int` })
          .from(owa)
          .where(where);
  const [data, totalCount] = await Promise.all([
    loadAggregates(db, where, { order, limit: list.take, offset: list.skip, selection: list.selection }, now),
    !list.requireTotalCount ? null : counts ? counts.count(userId, countQuery) : countQuery.then((t) => t[0].n),
  ]);
  return { data, totalCount };
}

/** The "separate query that selects termId for the user" (spec 7.2): the terms of the learner's courses. */
export async function termIdsOf(db: Db, userId: string): Promise<(string | null)[]> {
  const rows = await db
    .selectDistinct({ termId: owa.termId })
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .where(and(eq(owa.userId, userId), filterToSql(STANDING), sql`${owa.termId} is not null`));
  return rows.map((r) => r.termId);
}
