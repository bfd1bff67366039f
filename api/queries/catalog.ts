// Queries: reads and writes the handlers share, grouped by resource. This one: the catalog (objective accesses)
// and the open catalog (public courses, no sign-in).
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { ObjectiveState } from "../../domain/vocabulary";
import type { Principal } from "../context";
import type { CountCache } from "./count-cache";
import type { Db } from "../db/client";
import {
  grades,
  objectiveAccesses,
  objectiveRecords,
  objectives,
  objectiveWorkflowAggregates as owa,
  tenants,
} from "../db/schema";
import { notFound } from "../errors";
import {
  objectiveColumns,
  gradeColumns,
  recordColumns,
  type GradeRow,
  type ObjectiveRow,
  type RecordRow,
} from "../mappers/courses";
import { withCompiledRows } from "../db/compiled-rows";
import { countStatement, statementShapes, type ListStatements, type PreparedRead } from "./statement-shapes";
import { defaultTenantId } from "../settings";
import {
  catalogVisible,
  collectionAndAttributeConditions,
  publicVisible,
  searchCondition,
  searchConditionFor,
  searchPattern,
  sortOrder,
  type CourseListOptions,
} from "./course-scopes";

/** The tenant an anonymous visitor sees: the one of the domain asked for, else the default one. */
export async function tenantForDomain(db: Db, domain: string | undefined): Promise<string> {
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

/** A page of the tenant's public courses, and their total when asked for. */
export async function queryPublicObjectives(db: Db, tenantId: string, list: CourseListOptions) {
  const where = and(
    publicVisible(tenantId),
    searchCondition(list.search),
    ...collectionAndAttributeConditions(list.showcaseIds, list.attributeGroups),
  );
  const [rows, total] = await Promise.all([
    db
      .select(objectiveColumns)
      .from(objectives)
      .where(where)
      .orderBy(...sortOrder(list.sort.includes("dueDate") ? "objective.name" : list.sort))
      .limit(list.take)
      .offset(list.skip),
    list.requireTotalCount
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(objectives)
          .where(where)
      : null,
  ]);
  return { rows, totalCount: total ? total[0].n : null };
}

/** One public course of the tenant, with its description page; undefined when it is not public. */
export async function loadPublicObjective(db: Db, tenantId: string, objectiveId: string) {
  const rows = await db
    .select({ ...objectiveColumns, about: objectives.about })
    .from(objectives)
    .where(and(eq(objectives.id, objectiveId), publicVisible(tenantId)))
    .limit(1);
  return rows[0];
}

/**
 * The page and count statements of one shape of the catalog's query — search or not, collections,
 * categories and order — with the tenant, the learner, the search text and the page as placeholders.
 * Building drizzle's SQL for both, and mapping ~45 columns a row its generic way, was the largest part
 * of the catalog's API time (decision 038, addendum 7).
 */
function catalogStatements(db: Db, list: CourseListOptions): ListStatements<CatalogRow> {
  const search = searchPattern(list.search) !== null;
  const sort = list.sort.includes("dueDate") ? "objective.name" : list.sort;
  const key = JSON.stringify([search, list.showcaseIds, list.attributeGroups, sort]);
  return shapes(db, key, () => {
    const tenantId = sql.placeholder("tenantId");
    const where = and(
      eq(objectiveAccesses.tenantId, tenantId),
      isNull(objectiveAccesses.userId),
      catalogVisible(tenantId),
      search ? searchConditionFor(sql.placeholder("search")) : undefined,
      ...collectionAndAttributeConditions(list.showcaseIds, list.attributeGroups),
    );
    const page = db
      .select({ access: objectiveAccesses, o: objectiveColumns, aggId: owa.id, r: recordColumns, g: gradeColumns })
      .from(objectiveAccesses)
      .innerJoin(objectives, eq(objectives.id, objectiveAccesses.objectiveId))
      .leftJoin(owa, and(eq(owa.objectiveId, objectives.id), eq(owa.userId, sql.placeholder("userId"))))
      .leftJoin(objectiveRecords, eq(objectiveRecords.id, owa.lastRecordId))
      .leftJoin(grades, eq(grades.id, objectiveRecords.gradeId))
      .where(where)
      .orderBy(...sortOrder(sort))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"));
    const countQuery = db
      .select({ n: sql<number>`count(*)::int` })
      .from(objectiveAccesses)
      .innerJoin(objectives, eq(objectives.id, objectiveAccesses.objectiveId))
      .where(where);
    return {
      // Its rows are mapped by a function built once for its columns (api/db/compiled-rows.ts).
      list: withCompiledRows(page.prepare("")) as unknown as PreparedRead<CatalogRow[]>,
      ...countStatement(countQuery, key),
    };
  });
}

type CatalogRow = {
  access: typeof objectiveAccesses.$inferSelect;
  o: ObjectiveRow;
  aggId: string | null;
  r: RecordRow | null;
  g: GradeRow | null;
};
const shapes = statementShapes<ListStatements<CatalogRow>>();

/**
 * Catalog (spec 7.2): a page of the courses available to the whole tenant, each with the learner's
 * aggregate id (enrolled or not) and last record, and their total when asked for.
 */
export async function queryCatalogAccesses(db: Db, user: Principal, list: CourseListOptions, counts?: CountCache) {
  const statements = catalogStatements(db, list);
  const search = searchPattern(list.search);
  const values = { tenantId: user.tenantId, ...(search ? { search } : {}) };
  const readCount = () => statements.count.execute(values).then((t) => t[0]?.n ?? 0);
  // The total is the same for every learner of the tenant (tenant-wide accesses): kept for the tenant.
  const [rows, totalCount] = await Promise.all([
    statements.list.execute({ ...values, userId: user.id, limit: list.take, offset: list.skip }),
    !list.requireTotalCount
      ? null
      : counts
        ? counts.countBy(null, `${statements.countKey}\u0000${JSON.stringify(values)}`, statements.countSql, readCount)
        : readCount(),
  ]);
  return { rows, totalCount };
}

/**
 * One course as the catalog shows it: the learner's own access first, else the tenant-wide one.
 * Undefined when the course is neither listed nor assigned to the learner (another tenant's, or a
 * hidden course): as if it did not exist.
 */
export async function loadObjectiveAccess(db: Db, user: Principal, objectiveId: string) {
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
        eq(objectives.id, objectiveId),
        eq(objectives.tenantId, user.tenantId),
        or(isNull(objectiveAccesses.userId), eq(objectiveAccesses.userId, user.id)),
      ),
    )
    .orderBy(sql`${objectiveAccesses.userId} is null`)
    .limit(1);
  const row = rows[0];
  const visible =
    row &&
    (row.aggId !== null ||
      row.access.userId === user.id ||
      (row.o.inCatalog && row.o.state === ObjectiveState.ready && row.o.activityState !== ObjectiveState.archived));
  return visible ? row : undefined;
}
