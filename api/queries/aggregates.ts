// Queries: reads and writes the handlers share, grouped by resource. This one: the learner's aggregates
// (My courses, spec 7.2) with their courses, last workflows and last records.
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { FilterNode } from "../../domain/filter-expression/fields";
import { andAll } from "../../domain/filter-expression/format";
import type { Aggregate, AggregateSelection } from "../../domain/contract/courses";
import type { CountCache } from "./count-cache";
import type { Db } from "../db/client";
import { withCompiledRows } from "../db/compiled-rows";
import { countStatement, statementShapes, type ListStatements, type PreparedRead } from "./statement-shapes";
import {
  grades,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  objectiveWorkflows,
} from "../db/schema";
import { filterToSql, needsObjectiveJoin } from "../filter-sql";
import {
  aggregateReadFor,
  gradeColumns,
  gradeMapOf,
  objectiveColumnsFor,
  toAggregate,
  type GradeRow,
} from "../mappers/courses";
import {
  collectionAndAttributeConditions,
  searchConditionFor,
  searchPattern,
  sortOrder,
  STANDING,
  type CourseListOptions,
} from "./course-scopes";

/**
 * The statement of a page of the learner's aggregates with their courses, collections, workflows,
 * records and grades. With a selection (spec 7.2 `select`) it reads only the columns, and joins only
 * the tables, that the selected fields need. `limit` and `offset` are the placeholders of that name.
 */
function aggregatesQuery(
  db: Db,
  where: SQL | undefined,
  opts: { order: SQL[]; selection?: AggregateSelection | null },
) {
  const selection = opts.selection ?? null;
  // Only the tables and columns the selected fields need (drizzle's types cannot follow the branches).
  const read = aggregateReadFor(selection);
  const fields = {
    a: read.a,
    o: objectiveColumnsFor(selection?.objectiveFields ?? null),
    ...(read.w ? { w: read.w } : {}),
    ...(read.r ? { r: read.r } : {}),
    ...(read.grades ? { g: gradeColumns } : {}),
  };
  type Query = {
    leftJoin(table: unknown, on: SQL): Query;
    where(w: SQL | undefined): Query;
    orderBy(...o: SQL[]): Query;
    limit(n: unknown): Query;
    offset(n: unknown): Query;
    prepare(name: string): unknown;
    then: PromiseLike<AggregateQueryRow[]>["then"];
  };
  let query = db
    .select(fields)
    .from(owa)
    .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
    .$dynamic() as unknown as Query;
  if (read.w) query = query.leftJoin(objectiveWorkflows, eq(objectiveWorkflows.id, owa.lastWorkflowId));
  if (read.r) query = query.leftJoin(objectiveRecords, eq(objectiveRecords.id, owa.lastRecordId));
  if (read.grades) query = query.leftJoin(grades, eq(grades.id, objectiveRecords.gradeId));
  return query
    .where(where)
    .orderBy(...opts.order)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
}

export async function loadAggregateFor(
  db: Db,
  userId: string,
  objectiveId: string,
  now: Date,
): Promise<Aggregate | null> {
  const query = aggregatesQuery(db, and(eq(owa.userId, userId), eq(owa.objectiveId, objectiveId)), {
    order: [asc(owa.id)],
  });
  const rows = await (query.prepare("") as PreparedRead<AggregateQueryRow[]>).execute({ limit: 1, offset: 0 });
  const gradeMap = gradeMapOf(rows.map((row) => row.g ?? null));
  const row = rows[0];
  return row ? toAggregate(row, { selection: null, withWorkflow: true, withRecord: true, gradeMap, now }) : null;
}

type AggregateStatements = ListStatements<AggregateQueryRow>;
type AggregateQueryRow = Parameters<typeof toAggregate>[0] & { g?: GradeRow | null };

const shapes = statementShapes<AggregateStatements>();

/**
 * The list and count statements of one shape of My courses' query — filter, search or not,
 * collections, categories, sort and selected fields — with the learner, the search text and the page
 * as placeholders. Building drizzle's SQL for both took ~0.3 ms of every My courses request
 * (decision 038, addendum 4); most learners ask for the same few shapes.
 */
function aggregateStatements(
  db: Db,
  list: CourseListOptions & { filter: FilterNode | null; selection: AggregateSelection | null },
): AggregateStatements {
  const selection = list.selection;
  const key = JSON.stringify([
    list.filter,
    Boolean(searchPattern(list.search)),
    list.showcaseIds,
    list.attributeGroups,
    list.sort,
    selection ? [...selection.fields] : null,
    selection?.objectiveFields ? [...selection.objectiveFields] : null,
  ]);
  return shapes(db, key, () => buildAggregateStatements(db, list, key));
}

function buildAggregateStatements(
  db: Db,
  list: CourseListOptions & { filter: FilterNode | null; selection: AggregateSelection | null },
  key: string,
): AggregateStatements {
  const selection = list.selection;
  const tree = andAll(STANDING, list.filter)!;
  const search = searchPattern(list.search) ? sql.placeholder("search") : undefined;
  const where = and(
    eq(owa.userId, sql.placeholder("userId")),
    filterToSql(tree),
    search ? searchConditionFor(search) : undefined,
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
    needsObjectiveJoin(tree) || search
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(owa)
          .innerJoin(objectives, eq(objectives.id, owa.objectiveId))
          .where(where)
      : db
          .select({ n: sql<number>`count(*)::int` })
          .from(owa)
          .where(where);
  // prepare(""): drizzle's own unnamed statement (as `execute()` makes one); on PostgreSQL the client
  // names it once it repeats (api/db/pg-prepared.ts). Its rows are mapped by a function built once for
  // its columns (api/db/compiled-rows.ts).
  return {
    list: withCompiledRows(aggregatesQuery(db, where, { order, selection }).prepare("")) as unknown as PreparedRead<
      AggregateQueryRow[]
    >,
    ...countStatement(countQuery, key),
  };
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
  const statements = aggregateStatements(db, list);
  const search = searchPattern(list.search);
  const values = { userId, ...(search ? { search } : {}) };
  const selection = list.selection;
  const read = aggregateReadFor(selection);
  const withWorkflow = read.w !== null;
  const withRecord = read.r !== null;
  const readCount = () => statements.count.execute(values).then((t) => t[0]?.n ?? 0);
  const [rows, totalCount] = await Promise.all([
    statements.list.execute({ ...values, limit: list.take, offset: list.skip }),
    !list.requireTotalCount
      ? null
      : counts
        ? counts.countBy(
            userId,
            `${statements.countKey}\u0000${JSON.stringify(values)}`,
            statements.countSql,
            readCount,
          )
        : readCount(),
  ]);
  const gradeMap = gradeMapOf(rows.map((row) => row.g ?? null));
  return {
    data: rows.map((row) => toAggregate(row, { selection, withWorkflow, withRecord, gradeMap, now })),
    totalCount,
  };
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
