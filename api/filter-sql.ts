import { sql, type SQL } from "drizzle-orm";
import type { FilterField, FilterNode, FilterValue } from "../domain/filter-expression/fields";
import { objectiveShowcases, objectives, objectiveWorkflowAggregates as owa } from "./db/schema";

/**
 * Turns a parsed filter tree (domain/filter-expression.ts) into SQL over the aggregates query.
 * Only whitelisted fields reach here, each mapped to one column; every value is a bound parameter.
 */
const COLUMNS: Record<Exclude<FilterField, "showcaseId" | "lastObjectiveRecord">, SQL> = {
  "objective.name": sql`${objectives.name}`,
  "objective.code": sql`${objectives.code}`,
  "objective.state": sql`${objectives.state}`,
  // Kept on the aggregate by a trigger, so My courses can count without joining courses.
  "objective.activity.state": sql`${owa.objectiveActivityState}`,
  "objective.presentationMode": sql`${objectives.presentationMode}`,
  isMandatory: sql`${owa.isMandatory}`,
  isSelfEnrolled: sql`${owa.isSelfEnrolled}`,
  retake: sql`${owa.retake}`,
  termId: sql`${owa.termId}`,
  dueDate: sql`${owa.dueDate}`,
  availabilityDate: sql`${owa.availabilityDate}`,
  availabilityEndDate: sql`${owa.availabilityEndDate}`,
  "lastObjectiveWorkflow.state": sql`${owa.lastWorkflowState}`,
  gradeRevealPolicy: sql`${owa.gradeRevealPolicy}`,
};

const DATE_FIELDS = new Set<FilterField>(["dueDate", "availabilityDate", "availabilityEndDate"]);
const UUID_FIELDS = new Set<FilterField>(["termId", "showcaseId"]);

function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function param(field: FilterField, value: FilterValue): SQL {
  if (DATE_FIELDS.has(field)) return sql`${value}::timestamptz`;
  if (UUID_FIELDS.has(field)) return sql`${value}::uuid`;
  return sql`${value}`;
}

function showcaseExists(values: FilterValue[] | null): SQL {
  const match = values
    ? sql` and ${objectiveShowcases.showcaseId} in (${sql.join(
        values.map((v) => sql`${v}::uuid`),
        sql`, `,
      )})`
    : sql``;
  return sql`exists (select 1 from ${objectiveShowcases} where ${objectiveShowcases.objectiveId} = ${objectives.id}${match})`;
}

/** Case-insensitive text: the course name is already stored lowercased on the aggregate. */
const lowered = (field: FilterField, col: SQL) =>
  field === "objective.name" ? sql`${owa.sortName}` : sql`lower(${col})`;

/** Whether a tree reads course columns other than those copied onto the aggregate. */
export function needsObjectiveJoin(node: FilterNode | null): boolean {
  if (!node) return false;
  switch (node.kind) {
    case "and":
    case "or":
      return node.children.some(needsObjectiveJoin);
    case "not":
      return needsObjectiveJoin(node.child);
    case "cmp":
      if (node.field === "objective.name") return !(node.op === "contains" || node.op === "startswith");
      return (
        (node.field.startsWith("objective.") && node.field !== "objective.activity.state") ||
        node.field === "showcaseId"
      );
    default:
      return (
        (node.field.startsWith("objective.") && node.field !== "objective.activity.state") ||
        node.field === "showcaseId"
      );
  }
}

/** Two-valued logic: a comparison with NULL is false, so `not (…)` includes rows without a value. */
const known = (expr: SQL) => sql`coalesce(${expr}, false)`;

export function filterToSql(node: FilterNode): SQL {
  switch (node.kind) {
    case "and":
      return sql`(${sql.join(node.children.map(filterToSql), sql` and `)})`;
    case "or":
      return sql`(${sql.join(node.children.map(filterToSql), sql` or `)})`;
    case "not":
      return sql`(not ${filterToSql(node.child)})`;
    case "null": {
      if (node.field === "showcaseId") return node.negated ? showcaseExists(null) : sql`(not ${showcaseExists(null)})`;
      const col = node.field === "lastObjectiveRecord" ? sql`${owa.lastRecordId}` : COLUMNS[node.field];
      return node.negated ? sql`(${col} is not null)` : sql`(${col} is null)`;
    }
    case "in": {
      if (node.field === "showcaseId") return showcaseExists(node.values);
      const col = COLUMNS[node.field as keyof typeof COLUMNS];
      return known(
        sql`${col} in (${sql.join(
          node.values.map((v) => param(node.field, v)),
          sql`, `,
        )})`,
      );
    }
    case "cmp": {
      if (node.field === "showcaseId") {
        return node.op === "eq" ? showcaseExists([node.value]) : sql`(not ${showcaseExists([node.value])})`;
      }
      const col = COLUMNS[node.field as keyof typeof COLUMNS];
      const v = param(node.field, node.value);
      switch (node.op) {
        case "eq":
          return known(sql`${col} = ${v}`);
        case "ne":
          return sql`(${col} is distinct from ${v})`;
        case "lt":
          return known(sql`${col} < ${v}`);
        case "le":
          return known(sql`${col} <= ${v}`);
        case "gt":
          return known(sql`${col} > ${v}`);
        case "ge":
          return known(sql`${col} >= ${v}`);
        case "contains":
          return known(sql`${lowered(node.field, col)} like ${`%${likeEscape(String(node.value).toLowerCase())}%`}`);
        case "startswith":
          return known(sql`${lowered(node.field, col)} like ${`${likeEscape(String(node.value).toLowerCase())}%`}`);
      }
    }
  }
}
