// Queries: reads and writes the handlers share, grouped by resource. This one: which courses a list may show
// (standing conditions, catalog and public visibility, filter scopes), and its search, filter and order conditions.
import { and, asc, desc, eq, ne, sql, type Placeholder, type SQL } from "drizzle-orm";
import { parseFilter } from "../../domain/filter-expression";
import { ObjectiveState } from "../../domain/vocabulary";
import { objectiveAttributes, objectiveShowcases, objectives, objectiveWorkflowAggregates as owa } from "../db/schema";
import { filterToSql } from "../filter-sql";

/** What a course list was asked for (spec 7.2): search, collections, filter attributes, order and page. */
export interface CourseListOptions {
  search?: string;
  showcaseIds: string[];
  attributeGroups: { categoryId: string; attributeIds: string[] }[];
  sort: string;
  skip: number;
  take: number;
  requireTotalCount: boolean;
}

/** Spec 7.2: the API's standing conditions on every aggregates query, on top of the client's filter. */
export const STANDING = (() => {
  const parsed = parseFilter(
    "objective.activity.state ne 4 and (isSelfEnrolled eq true or isMandatory eq true or lastObjectiveWorkflow.state is not null or lastObjectiveRecord is not null)",
  );
  if (!parsed.ok || !parsed.tree) throw new Error("standing filter does not parse");
  return parsed.tree;
})();

/**
 * Catalog visibility: ready, listed, root activity not archived. The constant conditions are
 * literals, so that plans made once for every tenant (decision 012: generic plans) still match the
 * partial index on visible courses (migration 0007).
 */
export const catalogVisible = (tenantId: string | Placeholder) =>
  and(
    eq(objectives.tenantId, tenantId),
    sql`${objectives.inCatalog} and ${objectives.state} = ${sql.raw(String(ObjectiveState.ready))} and ${objectives.activityState} <> ${sql.raw(String(ObjectiveState.archived))}`,
  );
export const publicVisible = (tenantId: string) =>
  and(
    eq(objectives.tenantId, tenantId),
    eq(objectives.isPublic, true),
    eq(objectives.state, ObjectiveState.ready),
    ne(objectives.activityState, ObjectiveState.archived),
  );

/** A scope: a condition on a course id (an SQL expression) that holds for the courses a list may show. */
export type Scope = (objectiveId: SQL) => SQL;

/** The learner's courses (My courses, under the standing conditions). */
export const enrolledScope =
  (userId: string): Scope =>
  (objectiveId) =>
    sql`exists (select 1 from ${owa} inner join ${objectives} on ${objectives.id} = ${owa.objectiveId} where ${owa.userId} = ${userId} and ${owa.objectiveId} = ${objectiveId} and ${filterToSql(STANDING)})`;

/** The tenant's catalog. */
export const catalogScope =
  (tenantId: string): Scope =>
  (objectiveId) =>
    sql`exists (select 1 from ${objectives} where ${objectives.id} = ${objectiveId} and ${catalogVisible(tenantId)})`;

/** The tenant's open (public) catalog. */
export const publicScope =
  (tenantId: string): Scope =>
  (objectiveId) =>
    sql`exists (select 1 from ${objectives} where ${objectives.id} = ${objectiveId} and ${publicVisible(tenantId)})`;

/** Collections (OR) and category attributes (OR within a category, AND across categories). */
export function collectionAndAttributeConditions(
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

export function searchCondition(search: string | undefined): SQL | undefined {
  const pattern = searchPattern(search);
  return pattern === null ? undefined : searchConditionFor(pattern);
}

/** The `like` pattern of a search (its wildcards escaped), or null when there is nothing to search for. */
export function searchPattern(search: string | undefined): string | null {
  const s = search?.trim().toLowerCase();
  return s ? `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
}

/** The search condition on a pattern: a value, or a placeholder of a statement built once (aggregates). */
export function searchConditionFor(pattern: string | Placeholder): SQL {
  return sql`lower(${objectives.name}) like ${pattern}`;
}

export function sortOrder(sort: string): SQL[] {
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
